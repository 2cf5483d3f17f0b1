"""Fixtures shared by the browser tests (tests/test_browser*.py): the web app served on
127.0.0.1 for a test module, and a page of headless Debian Chromium (tests/browser.py), one
browser for the session and a fresh page a test.

Also, for every test: the markers of the tests that need more than Python (`browser`:
Chromium, tests/test_browser*.py; `ray`: a Ray cluster, tests/test_tournament_ray.py),
given here by file so that a run can choose (`-m "not browser and not ray"`); and
Hypothesis's examples derived from each test, the same on every run (its "seeded"
profile; HYPOTHESIS_PROFILE=random draws new ones), unless a test asks otherwise. And
Ctrl-C's default for the programs the tests start, whoever started the run."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import chromium, fresh_page, live_server

try:
    from hypothesis import settings
except ImportError:  # the checks that use it are skipped without it
    pass
else:
    settings.register_profile("seeded", derandomize=True, database=None)
    settings.register_profile("random")
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "seeded"))

# Several tests press Ctrl-C in a program they start, as a person would. A run started in
# the background by a script (`make test &`, nohup) ignores SIGINT, and every program it
# starts would inherit that and never see the Ctrl-C: those tests then failed, and their
# endless searches ran on. Python's own handler here gives each program the default.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Tests that need more than Python, by file (the marker's name: what they need).
NEEDS = {"browser": "test_browser", "ray": "test_tournament_ray"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        name = Path(str(item.fspath)).name
        for marker, prefix in NEEDS.items():
            if name.startswith(prefix):
                item.add_marker(getattr(pytest.mark, marker))


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """The base URL of `zerosum serve`'s app, two searches at once, 30 s each at most."""
    pytest.importorskip("starlette")
    from zerosum.web.app import create_app

    with live_server(create_app(max_searches=2, max_seconds=30.0)) as base:
        yield base


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Chromium for the session (each test gets its own context and page)."""
    with chromium() as b:
        yield b


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    with fresh_page(browser) as p:
        yield p


@pytest.fixture(autouse=True)
def no_solver_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the user's cache of solved Connect Four positions
    (games/connect4/cache.py): node counts stay the search's. Its own tests set it."""
    monkeypatch.setenv("ZEROSUM_CACHE", "off")
