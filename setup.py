"""The build steps pyproject.toml cannot declare:

- the wheel carries the assignment folders (launchers, READMEs, data) as
  zerosum/_assignments/, so that `zerosum assignment export` works from an installed
  package. assignments/ stays the one copy in the repository; a source checkout or
  editable install reads it there;
- the native kernels (the one list of them: KERNELS in zerosum/native.py) are compiled
  when a C compiler is there, with warnings on. They are optional: without a compiler
  (or Python's headers) the build prints a warning and the package runs in pure Python;
  it never fails for them."""

import ast
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"
ASSIGNMENTS = ROOT / "assignments"


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
    """Warnings on (and C99's declarations anywhere) where the compiler speaks gcc/clang;
    POSIX threads (the Connect Four solver's helper threads); a kernel that fails to
    build leaves no earlier build of it behind."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            for ext in self.extensions:
                ext.extra_compile_args = ["-std=c99", "-O2", "-Wall", "-Wextra", "-Wshadow",
                                          "-Wno-missing-field-initializers", "-pthread"]
                ext.extra_link_args = ["-pthread"]  # the Connect Four solver's helpers
        super().build_extensions()

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception:
            # A kernel that fails to build must not leave its last build behind: the old
            # .so, in the build folder or beside the sources of an editable install, would
            # be loaded with Python that no longer matches it. Without it the kernel's
            # Python runs, as on a machine without a compiler.
            for stale in self.builds_of(ext):
                stale.unlink(missing_ok=True)
            raise

    def builds_of(self, ext: Extension) -> tuple[Path, Path]:
        """Where a build of `ext` lies: in the build folder, and beside its package's
        sources (where an editable install copies it)."""
        fullname = self.get_ext_fullname(ext.name)
        package = fullname.rpartition(".")[0]
        sources = self.get_finalized_command("build_py").get_package_dir(package)
        return (Path(self.get_ext_fullpath(ext.name)),
                Path(sources, Path(self.get_ext_filename(fullname)).name))


def native_kernels() -> list[Extension]:
    """The native kernels, from the one list of them (zerosum.native.KERNELS), read as
    text: the package is not importable while it is being built."""
    tree = ast.parse((SRC / "zerosum" / "native.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "KERNELS"
                for target in node.targets):
            kernels = ast.literal_eval(node.value)
            break
    else:
        raise RuntimeError("src/zerosum/native.py has no KERNELS list")
    # Every header may be included by any kernel (games/kernel.h by all the engines):
    # editing one rebuilds them all.
    headers = sorted(str(h.relative_to(ROOT)) for h in (SRC / "zerosum").rglob("*.h"))
    return [Extension(module, [f"src/zerosum/{source}" for source in sources],
                      depends=headers, optional=True)
            for module, sources in kernels.values()]


setup(cmdclass={"build_py": BuildWithAssignments, "build_ext": BuildNative},
      ext_modules=native_kernels())
