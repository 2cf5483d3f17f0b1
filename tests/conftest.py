"""Fixtures shared by the browser tests (tests/test_browser*.py): the web app served on
127.0.0.1 for a test module, and a page of headless Debian Chromium (tests/browser.py), one
browser for the session and a fresh page a test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser import chromium, fresh_page, live_server


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
