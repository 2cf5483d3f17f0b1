"""Which compiled kernels this installation uses.

A kernel may have a native twin in C beside its readable Python (the Connect Four
solver's search, games/connect4/_solver.c, and engine's node function,
games/connect4/_engine.c; checkers' move generator, perft and engine search,
games/checkers/_checkers.c; the Max-Connect4 engine's node function,
games/maxconnect4/_engine.c; the n-tuple network's value and update, learn/_ntuple.c).
setup.py compiles them when the package is installed on a
machine with a C compiler; without one the package installs and runs in pure Python. The
Python stays the reference: a native twin returns the same values,
moves and node counts, only faster. `ZEROSUM_NATIVE=0` in the environment forces the pure
path (read when a kernel is loaded: set it before the search starts).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

# kernel name (as `zerosum --version` says it) -> the compiled module. The one list:
# a kernel finds its twin here by name (`twin`), `status` reports from it.
KERNELS = {
    "connect4 solver": "zerosum.games.connect4._solver",
    "connect4 engine": "zerosum.games.connect4._engine",
    "checkers": "zerosum.games.checkers._checkers",
    "maxconnect4 engine": "zerosum.games.maxconnect4._engine",
    "ntuple": "zerosum.learn._ntuple",
}


def enabled() -> bool:
    """False when ZEROSUM_NATIVE=0 asks for the pure-Python path."""
    return os.environ.get("ZEROSUM_NATIVE", "1").strip() != "0"


def load(module: str) -> ModuleType | None:
    """The compiled module, or None (not built here, or turned off)."""
    if not enabled():
        return None
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def twin(name: str, wanted: bool | None = None) -> ModuleType | None:
    """The compiled twin of the kernel `name` (a key of KERNELS), or None for the pure
    path: not built here, turned off by ZEROSUM_NATIVE=0, or `wanted` False (a caller
    asking for the reference, e.g. a test comparing the two)."""
    if wanted is False:
        return None
    return load(KERNELS[name])


def status() -> str:
    """One line for `zerosum --version`: the path in use."""
    if not enabled():
        return "pure Python: ZEROSUM_NATIVE=0"
    built = [name for name, module in KERNELS.items() if load(module) is not None]
    if not built:
        return "pure Python: no native kernel built"
    return "native kernels: " + ", ".join(built)
