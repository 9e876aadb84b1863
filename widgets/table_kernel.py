"""A table's kernel: ipykernel's, started without what a table never uses.

The server (:class:`widgets.server.kernels.TableKernelSpecManager`) starts every table's kernel as
``python -m widgets.table_kernel -f <connection file>``. ipykernel loads its debugger (debugpy,
about 8 MB resident) in every kernel it can find it for; a table's page can send no code and no
debug request, so here the debugger is made unfindable before ipykernel starts (and psutil,
which only ipykernel's resource-usage reply uses, about 1 MB). Everything else
is ipykernel's own launch.
"""

from __future__ import annotations

import sys


def main() -> None:
    # ipykernel then runs without its debugger, and without psutil (only its usage report needs it).
    sys.modules["debugpy"] = sys.modules["psutil"] = None  # type: ignore[assignment]
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()


if __name__ == "__main__":
    main()
