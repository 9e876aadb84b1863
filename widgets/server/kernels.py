"""How the server starts a table's kernel: lean, for a class's worth of them on one laptop.

Every table notebook names Python's own kernel (``python3``); :class:`TableKernelSpecManager`
gives that kernel the command ``python -OO -m widgets.kernel.table_kernel`` (ipykernel without its
debugger or OpenSSL, :mod:`widgets.kernel.table_kernel`) and ipykernel's settings a table does without: no
input history (IPython keeps it in an SQLite file, with a thread to write it, and a table's page can
send no code). ``-OO`` leaves out the docstrings of every module the kernel imports (about 2 MB; a
table's page shows none of them) and ``assert`` statements. Measured on this machine
(bench/tables.py, part memory): a table kernel held about 60 MB resident with the debugger and the
history, 52 MB without them, and 43 to 44 MB since (issue 21: ``-OO``, no OpenSSL, no ``websockets``,
no other game's modules), about 31 MB of it its own (USS).
"""

from __future__ import annotations

import sys
from typing import Any

from jupyter_client.kernelspec import NATIVE_KERNEL_NAME, KernelSpecManager

# ipykernel's settings for a table's kernel, on its command line.
LEAN_SETTINGS = ("--HistoryManager.enabled=False",)


def lean_argv() -> list[str]:
    """The command that starts a table's kernel ({connection_file} is filled in by jupyter_client)."""
    return [sys.executable, "-OO", "-m", "widgets.kernel.table_kernel", "-f", "{connection_file}", *LEAN_SETTINGS]


class TableKernelSpecManager(KernelSpecManager):
    """Jupyter's kernel specs, with Python's own kernel started lean (:func:`lean_argv`)."""

    def get_kernel_spec(self, kernel_name: str, *args: Any, **kwargs: Any) -> Any:
        spec = super().get_kernel_spec(kernel_name, *args, **kwargs)
        if kernel_name.lower() == NATIVE_KERNEL_NAME:
            spec.argv = lean_argv()
        return spec
