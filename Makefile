# Lanterloo: `make serve` serves the book and the live tables; `make test` runs every test.
# Both do their own set-up on a fresh Debian machine and reuse it when run again.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# The environment is rebuilt only when pyproject.toml changes.
DEPS_HASH := $(shell sha1sum pyproject.toml | cut -c1-12)
RUNTIME_STAMP := $(VENV)/.runtime-$(DEPS_HASH)
TEST_STAMP := $(VENV)/.test-$(DEPS_HASH)
BOOK := _build/html/index.html
WIDGET_JS := _assets/widgets/embed-amd.js
export PIP_DISABLE_PIP_VERSION_CHECK := 1
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: help serve test lint unit book chromium clean

help:
	@echo "make serve   build the book and serve it with the live tables at http://127.0.0.1:$(PORT)/"
	@echo "make test    lint, type-check, build the book and run every test (unit and browser)"

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(RUNTIME_STAMP): pyproject.toml | $(VENV)/bin/python
	@echo "==> installing Lanterloo and its dependencies into $(VENV)"
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): $(RUNTIME_STAMP)
	@echo "==> installing the test tools into $(VENV)"
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

$(WIDGET_JS): web/package.json web/package-lock.json web/vendor.sh
	@echo "==> vendoring the widget bundle from the npm registry (pinned in web/package-lock.json)"
	bash web/vendor.sh

# The book: -W turns every warning into an error; execution is cached in _build/.jupyter_cache.
book: $(RUNTIME_STAMP) $(WIDGET_JS)
	@echo "==> building the book"
	$(VENV)/bin/jupyter-book build . -W -n --keep-going

chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  echo "==> installing Debian's chromium"; \
	  $$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get update -qq; \
	  DEBIAN_FRONTEND=noninteractive $$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get install -y -qq chromium >/dev/null; \
	fi

serve: book
	@$(PY) -m widgets.server --port $(PORT)

lint: $(TEST_STAMP)
	@echo "==> ruff"
	$(VENV)/bin/ruff check .
	@echo "==> mypy --strict loo"
	$(VENV)/bin/mypy --strict loo

unit: $(TEST_STAMP)
	$(PY) -m pytest -m "not browser" -q

test: $(TEST_STAMP) chromium lint book
	@echo "==> pytest: unit, doctests and browser tests"
	$(PY) -m pytest -q

clean:
	rm -rf _build _assets web/node_modules
