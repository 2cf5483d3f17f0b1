"""Which compiled kernels this installation uses.

A kernel may have a native twin in C beside its readable Python (the Connect Four
solver's search, games/connect4/_solver.c, and engine's node function,
games/connect4/_engine.c; checkers' move generator, perft and engine search,
games/checkers/native/; the Max-Connect4 engine's node function,
games/maxconnect4/_engine.c; the n-tuple network's value and update, and a whole game of
self-play and its learning for a game of k in a row, learn/_ntuple.c).
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

# kernel name (as `zerosum --version` says it) -> the compiled module and its C sources
# (below src/zerosum/). The one list of native modules: setup.py reads it (as text,
# never importing the package: a fresh build has no package to import yet) and builds
# each; a kernel finds its twin here by name (`twin`), `status` reports from it, the
# tests build each under the sanitizers from it. Every header below src/zerosum/games
# (games/kernel.h, what every engine kernel shares) is a dependency of each.
KERNELS = {
    "connect4 solver": ("zerosum.games.connect4._solver", ("games/connect4/_solver.c",)),
    "connect4 engine": ("zerosum.games.connect4._engine", ("games/connect4/_engine.c",)),
    "checkers": ("zerosum.games.checkers._checkers", (
        "games/checkers/native/module.c", "games/checkers/native/board.c",
        "games/checkers/native/moves.c", "games/checkers/native/perft.c",
        "games/checkers/native/evaluation.c", "games/checkers/native/table.c",
        "games/checkers/native/search.c")),
    "maxconnect4 engine": ("zerosum.games.maxconnect4._engine",
                           ("games/maxconnect4/_engine.c",)),
    "ntuple": ("zerosum.learn._ntuple", ("learn/_ntuple.c",)),
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
    return load(KERNELS[name][0])


def status() -> str:
    """One line for `zerosum --version`: the path in use."""
    if not enabled():
        return "pure Python: ZEROSUM_NATIVE=0"
    built = [name for name, (module, _) in KERNELS.items() if load(module) is not None]
    if not built:
        return "pure Python: no native kernel built"
    return "native kernels: " + ", ".join(built)
