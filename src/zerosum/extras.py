"""How to install an optional extra (`web`, `plot`, `ray`, `notebook`), said the way
that works here.

No package index knows zerosum (`pip install` of its name with an extra fails): it is
installed from its source. So the hint names the source folder when there is one (a
clone, installed in editable mode or run with PYTHONPATH=src) and the Python that runs
zerosum, whose pip must install it; otherwise (a wheel installed from elsewhere) the
extra's own packages, read from the installed metadata, so that pyproject.toml stays
their one list.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from importlib import metadata
from pathlib import Path


def source_root() -> Path | None:
    """The folder holding zerosum's pyproject.toml when zerosum runs from its source."""
    root = Path(__file__).resolve().parents[2]
    project = root / "pyproject.toml"
    try:
        text = project.read_text(encoding="utf-8")
    except OSError:
        return None
    return root if re.search(r'^name = "zerosum"$', text, re.MULTILINE) else None


def python_command(root: Path | None) -> str:
    """The Python running zerosum, relative to `root` when it is inside it (.venv/bin/python)."""
    exe = Path(sys.executable)
    if root is not None:
        try:
            return str(exe.relative_to(root))
        except ValueError:
            pass
    return shlex.quote(os.fspath(exe))


def extra_packages(extra: str) -> list[str]:
    """The requirements of `extra` as the installed metadata lists them ([] if unknown)."""
    try:
        requires = metadata.requires("zerosum") or []
    except metadata.PackageNotFoundError:
        return []
    marker = re.compile(r"""extra\s*==\s*["']""" + re.escape(extra) + r"""["']""")
    return [r.split(";")[0].strip() for r in requires if marker.search(r)]


def install_hint(extra: str) -> str:
    """The command that installs `extra`, e.g. "in /home/me/zerosum run:
    .venv/bin/python -m pip install -e '.[web]'"."""
    root = source_root()
    python = python_command(root)
    if root is not None:
        return (f"in {shlex.quote(os.fspath(root))} run: "
                f"{python} -m pip install -e '.[{extra}]'")
    packages = extra_packages(extra)
    if packages:
        return f"{python} -m pip install " + " ".join(shlex.quote(p) for p in packages)
    return f"install zerosum's `{extra}` extra from its source: pip install -e '.[{extra}]'"
