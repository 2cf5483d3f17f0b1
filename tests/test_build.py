"""setup.py's build of the optional native kernels (zerosum.native.KERNELS)."""

from __future__ import annotations

import runpy
import sysconfig
from pathlib import Path
from typing import Any

import pytest
import setuptools  # type: ignore[import-untyped]
from setuptools import Distribution, Extension

ROOT = Path(__file__).resolve().parent.parent


def build_native(monkeypatch: pytest.MonkeyPatch) -> Any:
    """setup.py's build_ext command, read without running setup()."""
    monkeypatch.setattr(setuptools, "setup", lambda **_: None)
    return runpy.run_path(str(ROOT / "setup.py"), run_name="setup_read_by_tests")["BuildNative"]


def build_inplace(tmp_path: Path, command: Any, source: str) -> Path:
    """Build the one optional kernel `pkg._kernel` from `source` as an editable install
    does (beside its sources); the path of its build there."""
    (tmp_path / "src" / "pkg").mkdir(parents=True, exist_ok=True)
    (tmp_path / "src" / "pkg" / "__init__.py").write_text("")
    (tmp_path / "kernel.c").write_text(source)
    dist = Distribution({"name": "pkg", "packages": ["pkg"], "package_dir": {"": "src"},
                         "ext_modules": [Extension("pkg._kernel", ["kernel.c"], optional=True)],
                         "cmdclass": {"build_ext": command}, "script_name": "setup.py"})
    build = dist.get_command_obj("build_ext")
    build.inplace = True
    build.force = True  # sources written within the second of the last build
    build.build_temp = str(tmp_path / "temp")
    build.build_lib = str(tmp_path / "lib")
    build.ensure_finalized()
    dist.run_command("build_ext")
    suffix: str = sysconfig.get_config_var("EXT_SUFFIX")
    return tmp_path / "src" / "pkg" / ("_kernel" + suffix)


MODULE = """#include <Python.h>
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "_kernel", NULL, -1, NULL};
PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&def); }
"""


def test_a_kernel_that_fails_to_build_leaves_no_earlier_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    command = build_native(monkeypatch)
    built = build_inplace(tmp_path, command, MODULE)
    assert built.is_file()
    # The next build fails: the install goes on (the kernel is optional) without it, where
    # the old build used to stay and be loaded with sources it no longer matched.
    assert build_inplace(tmp_path, command, MODULE + "#error broken\n") == built
    assert not built.exists()
    assert not list((tmp_path / "lib").rglob("_kernel*"))
