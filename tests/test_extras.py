"""zerosum.extras: a missing extra is answered with a command that works here."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from zerosum import extras

ROOT = Path(__file__).resolve().parents[1]


def test_from_a_clone_the_hint_names_the_clone_and_its_python() -> None:
    assert extras.source_root() == ROOT
    assert extras.install_hint("web") == (
        f"in {ROOT} run: .venv/bin/python -m pip install -e '.[web]'")


def test_without_the_source_the_hint_lists_the_extras_packages(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A wheel installed elsewhere: the packages come from the installed metadata, that
    # is from pyproject.toml's lists, and the Python is named by its full path.
    monkeypatch.setattr(extras, "source_root", lambda: None)
    monkeypatch.setattr(sys, "executable", "/opt/my python/bin/python3")
    assert extras.install_hint("web") == (
        "'/opt/my python/bin/python3' -m pip install 'starlette>=0.37' 'uvicorn>=0.30' "
        "'wsproto>=1.2'")
    assert extras.install_hint("plot") == (
        "'/opt/my python/bin/python3' -m pip install 'matplotlib>=3.7'")


def test_no_hint_names_a_package_no_index_has() -> None:
    sources = [p for p in (ROOT / "src").rglob("*.py")] + list((ROOT / "docs").rglob("*.md"))
    sources.append(ROOT / "README.md")
    assert [str(p.relative_to(ROOT)) for p in sources
            if "zerosum[" in p.read_text(encoding="utf-8")] == []
