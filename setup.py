"""The build steps pyproject.toml cannot declare:

- the wheel carries the assignment folders (launchers, READMEs, data) as
  zerosum/_assignments/, so that `zerosum assignment export` works from an installed
  package. assignments/ stays the one copy in the repository; a source checkout or
  editable install reads it there;
- the native kernels (zerosum/native.py) are compiled when a C compiler is there, with
  warnings on. They are optional: without a compiler (or Python's headers) the build
  prints a warning and the package runs in pure Python; it never fails for them."""

from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ASSIGNMENTS = Path(__file__).resolve().parent / "assignments"


class BuildWithAssignments(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        for source in sorted(ASSIGNMENTS.rglob("*")):
            if source.is_file() and "__pycache__" not in source.parts:
                target = Path(self.build_lib, "zerosum", "_assignments",
                              source.relative_to(ASSIGNMENTS))
                self.mkpath(str(target.parent))
                self.copy_file(str(source), str(target))  # keeps the executable bits


class BuildNative(build_ext):
    """Warnings on (and C99's declarations anywhere) where the compiler speaks gcc/clang."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            for ext in self.extensions:
                ext.extra_compile_args = ["-std=c99", "-O2", "-Wall", "-Wextra", "-Wshadow",
                                          "-Wno-missing-field-initializers"]
        super().build_extensions()


NATIVE = [
    # The Connect Four solver's search (its Python twin: games/connect4/solver.py).
    Extension("zerosum.games.connect4._solver", ["src/zerosum/games/connect4/_solver.c"],
              depends=["src/zerosum/games/connect4/_bitboard.h"], optional=True),
    # The Connect Four engine's node function (its Python twin: games/connect4/engine.py).
    Extension("zerosum.games.connect4._engine", ["src/zerosum/games/connect4/_engine.c"],
              depends=["src/zerosum/games/connect4/_bitboard.h"], optional=True),
    # Checkers' move generator, perft, evaluation and engine search (games/checkers/*.py).
    Extension("zerosum.games.checkers._checkers", ["src/zerosum/games/checkers/_checkers.c"],
              optional=True),
    # The Max-Connect4 engine's node function and evaluation (games/maxconnect4/engine.py).
    Extension("zerosum.games.maxconnect4._engine", ["src/zerosum/games/maxconnect4/_engine.c"],
              optional=True),
    # The n-tuple network's value and update (learn/ntuple.py, NTupleNet).
    Extension("zerosum.learn._ntuple", ["src/zerosum/learn/_ntuple.c"], optional=True),
]

setup(cmdclass={"build_py": BuildWithAssignments, "build_ext": BuildNative},
      ext_modules=NATIVE)
