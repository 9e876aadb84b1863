# Lanterloo: `make serve` serves the book and the live tables; `make test` runs every test.
# Both do their own set-up on a fresh Debian 12 machine (with make, and sudo unless run as root)
# and reuse it when run again. `make lock` moves every pinned Python package to the newest
# version pyproject.toml allows.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
IP ?= 127.0.0.1
# Every Python package the commands install, at an exact version (written by `make lock`).
CONSTRAINTS := constraints.txt
# The environment is rebuilt only when pyproject.toml or the pins change.
DEPS_HASH := $(shell cat pyproject.toml $(CONSTRAINTS) | sha1sum | cut -c1-12)
RUNTIME_STAMP := $(VENV)/.runtime-$(DEPS_HASH)
TEST_STAMP := $(VENV)/.test-$(DEPS_HASH)
WIDGET_JS := _assets/widgets/embed-amd.js
# uv (from PyPI, into the environment) installs the pins: the same packages as pip would, in seconds
# rather than a minute. Build isolation (setuptools for the editable install) takes the pins too.
UV_VERSION := 0.13.8
UV := $(VENV)/bin/uv
INSTALL := $(UV) pip install --quiet --python $(PY) --constraints $(CONSTRAINTS) --build-constraints $(CONSTRAINTS)
export PIP_DISABLE_PIP_VERSION_CHECK := 1
# Python keeps the bytecode it compiles (in __pycache__, for -OO too: the table kernels'), so that
# each module is compiled by the first process that imports it and by no other, even where the
# environment asks otherwise: a test run starts hundreds of kernels, servers and pytest processes.
unexport PYTHONDONTWRITEBYTECODE
# Run apt-get as root, through sudo when not root.
APT := DEBIAN_FRONTEND=noninteractive $$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get

.PHONY: help serve class test lint unit browser book system chromium engines servers lock clean

help:
	@echo "make serve   build the book and serve it with the live tables at http://$(IP):$(PORT)/"
	@echo "make class   serve a class on this network: prints the address students type, with a QR code"
	@echo "make test    lint, type-check, build the book and run every test (unit and browser)"
	@echo "make unit    the tests that need no browser"
	@echo "make browser the browser tests and the journeys (chromium, Firefox, WebKit)"
	@echo "make lock    move the pinned Python packages ($(CONSTRAINTS)) to the newest pyproject.toml allows"

# Debian's packages the commands need and a fresh Debian 12 lacks: Python's venv module, and npm
# (with Node.js) for the pinned widget bundle. Installed only when missing.
system:
	@missing=""; \
	command -v $(PYTHON) >/dev/null || missing="$$missing python3"; \
	$(PYTHON) -c "import ensurepip, venv" 2>/dev/null || missing="$$missing python3-venv"; \
	command -v npm >/dev/null || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
	  echo "==> installing Debian's$$missing"; \
	  $(APT) update -qq; \
	  $(APT) install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

# The browser tests: Debian's chromium, and libatomic1, which Playwright's own Node.js needs and a
# minimal Debian 12 lacks.
chromium:
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	dpkg-query -W -f='$${Status}' libatomic1 2>/dev/null | grep -q "ok installed" || missing="$$missing libatomic1"; \
	if [ -n "$$missing" ]; then \
	  echo "==> installing Debian's$$missing"; \
	  $(APT) update -qq; \
	  $(APT) install -y -qq $$missing >/dev/null; \
	fi

# The journey tests' other two engines (tests/journeys): Debian's Firefox ESR, driven by WebDriver
# BiDi, and WebKitGTK's MiniBrowser with its WebDriver, run under an Xvfb display the tests start.
engines:
	@missing=""; \
	[ -x /usr/bin/firefox-esr ] || missing="$$missing firefox-esr"; \
	[ -x /usr/bin/WebKitWebDriver ] || missing="$$missing webkit2gtk-driver"; \
	[ -x /usr/bin/Xvfb ] || missing="$$missing xvfb"; \
	if [ -n "$$missing" ]; then \
	  echo "==> installing Debian's$$missing"; \
	  $(APT) update -qq; \
	  $(APT) install -y -qq $$missing >/dev/null; \
	fi

# The servers the tests start of their own: Debian's postgresql (the store's tests run against a
# PostgreSQL cluster made in a temporary folder) and nginx-light (the deployment's nginx.conf, in
# front of two Lanterloo processes). Neither is left running: the package's own service is not needed.
servers:
	@missing=""; \
	ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || missing="$$missing postgresql"; \
	[ -x /usr/sbin/nginx ] || missing="$$missing nginx-light"; \
	if [ -n "$$missing" ]; then \
	  echo "==> installing Debian's$$missing"; \
	  $(APT) update -qq; \
	  $(APT) install -y -qq $$missing >/dev/null; \
	fi

$(VENV)/bin/python: | system
	$(PYTHON) -m venv $(VENV)

$(UV): | $(VENV)/bin/python
	$(PY) -m pip install --quiet uv==$(UV_VERSION)

$(RUNTIME_STAMP): pyproject.toml $(CONSTRAINTS) | $(UV)
	@echo "==> installing Lanterloo and its dependencies into $(VENV) (versions from $(CONSTRAINTS))"
	$(INSTALL) pip setuptools -e .
	touch $@

# The test tools come with the runtime in one run (one resolution) when neither is installed yet.
$(TEST_STAMP): pyproject.toml $(CONSTRAINTS) | $(UV)
	@echo "==> installing Lanterloo, its dependencies, the test tools and psycopg (for the PostgreSQL store) into $(VENV)"
	$(INSTALL) pip setuptools -e '.[test,postgres]'
	touch $@ $(RUNTIME_STAMP)

# ENV is the environment's stamp: the runtime's, or under `make test` the test tools' too.
ENV ?= $(RUNTIME_STAMP)

$(WIDGET_JS): web/package.json web/package-lock.json web/vendor.sh | system
	@echo "==> vendoring the widget bundle from the npm registry (pinned in web/package-lock.json)"
	bash web/vendor.sh

# The book: -W turns every warning into an error; execution is cached in _build/.jupyter_cache.
# web/build_inpage.py puts what the in-browser tables need into _assets (Pyodide, the wheels and the
# project's code compiled by web/compile_inpage.py in Pyodide under Node.js, the play pages, and gzip and brotli copies beside the big files); Sphinx copies _assets only when a page has changed, so the book
# gets a fresh copy after every build.
# The pages' cells run the engine and the widgets, and Jupyter's cache knows only the pages' own
# text: when the code changes, the cache goes, so that no page shows what older code drew (and
# Sphinx's saved pages with it, or Sphinx would read no page whose text is unchanged).
CODE_HASH := $(shell cat $$(find loo widgets -name '*.py' -o -name '*.toml' | LC_ALL=C sort) | sha1sum | cut -c1-12)
CODE_STAMP := _build/.code-$(CODE_HASH)

book: $(ENV) $(WIDGET_JS)
	@# While it builds, _build/.book-building holds this shell's process id: the tests that serve the
	@# book (tests/conftest.py::need_book) wait for it to go when they run beside the build.
	@mkdir -p _build && echo $$$$ > _build/.book-building && trap 'rm -f _build/.book-building' EXIT && set -e; \
	echo "==> the in-browser tables' files"; \
	$(PY) web/build_inpage.py; \
	if [ ! -f $(CODE_STAMP) ]; then \
	  echo "==> the engine or the widgets changed: the pages will run again"; \
	  rm -rf _build/.jupyter_cache _build/.doctrees _build/.code-*; mkdir -p _build; touch $(CODE_STAMP); \
	fi; \
	echo "==> building the book"; \
	$(VENV)/bin/jupyter-book build . -W -n --keep-going; \
	(cd _assets && for d in *; do rm -rf "../_build/html/$$d"; done); \
	cp -R _assets/. _build/html/

serve: book
	@$(VENV)/bin/lanterloo --port $(PORT) --ip $(IP)

# A class: listen on the network, print the address students type with its QR code, and make
# CLASS_SIZE tables of CLASS_TABLE ready before they come.
CLASS_SIZE ?= 30
CLASS_TABLE ?= three-card-loo
class: book
	@$(VENV)/bin/lanterloo --class --port $(PORT) --class-size $(CLASS_SIZE) --class-table $(CLASS_TABLE)

lint: $(TEST_STAMP)
	@echo "==> ruff"
	$(VENV)/bin/ruff check .
	@echo "==> mypy --strict loo widgets"
	$(VENV)/bin/mypy --strict loo widgets

# The browser tests run on two processes (pytest-xdist). Three were tried in fresh runs (2026-11-29):
# 800-870 s for them against 784-936 s with two, the processor busy throughout, and the tests that
# measure a server under load failed now and then: test_withstand's server grew by 69 MB where 60 is
# its bound, and test_play read a move not yet saved (since fixed). The unit tests run on three: their
# last two minutes are mostly servers waiting (a stalled database, a dropped seat's half minute). The tests go to them a whole file at a time (--dist loadfile), in the order
# tests/conftest.py::_file_order gives (--no-loadscope-reorder: xdist would otherwise send the files
# with the most tests first). Each browser process starts its own chromium and servers, on ports of
# their own (tests/conftest.py::serve_server). The journeys (tests/journeys) have one file per
# engine, so a process runs at most the one Firefox or WebKit it was given.
# The few unit tests that serve the book (tests/conftest.py::NEEDS_BOOK) need it built: `make unit`
# builds it first, and `make test` (UNIT_AFTER empty) builds it beside them, and they wait for it.
UNIT_AFTER ?= book
unit: $(TEST_STAMP) servers $(UNIT_AFTER)
	@echo "==> pytest: unit tests and doctests, on three processes"
	$(PY) -m pytest -m "not browser" -q -n 3 --dist loadfile --no-loadscope-reorder

# The browser tests and the journeys, in chromium, Firefox and WebKit, on two processes (see unit).
BROWSER_AFTER ?= book
browser: $(TEST_STAMP) chromium engines servers $(BROWSER_AFTER)
	@echo "==> pytest: browser tests and the journeys in chromium, Firefox and WebKit, on two processes"
	$(PY) -m pytest -m browser -q -n 2 --dist loadfile --no-loadscope-reorder tests/browser tests/journeys

# The book's build runs its pages one at a time, on one core: lint and the unit tests run beside it
# (the few that serve the book come late, and wait for it: tests/conftest.py::need_book), each one's
# output printed whole when it ends, and the widget bundle is fetched while pip installs. Then the
# browser tests. (Started as soon as the book was built, beside the unit tests, they made the whole
# run no quicker: the processor is busy throughout, the unit tests took 650 s instead of 350, and one
# that paces a reader's messages failed. Nor did the engine's tests run beside the browser tests at a
# lower priority: the browser tests' busy seconds rose by a fifth and more, and a timed one failed.)
test: chromium engines servers
	@echo "==> set-up, then lint, the book and the unit tests side by side (each one's output shown when it ends)"
	@$(MAKE) --no-print-directory -j4 --output-sync=target ENV=$(TEST_STAMP) UNIT_AFTER= lint book unit
	@$(MAKE) --no-print-directory ENV=$(TEST_STAMP) BROWSER_AFTER= browser

# pyproject.toml's ranges resolved afresh, for Debian 12's Python 3.11.2 (tools/lock.py).
lock: $(VENV)/bin/python
	@echo "==> resolving the newest versions pyproject.toml allows"
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) tools/lock.py $(CONSTRAINTS)
	@echo "==> run 'make test' to try the new versions, and commit $(CONSTRAINTS) if it passes"

clean:
	rm -rf _build _assets web/node_modules
