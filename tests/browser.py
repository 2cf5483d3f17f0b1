"""A real browser for the UI tests: Playwright for Python driving Debian's Chromium
(`apt-get install chromium`; never `playwright install`, which downloads its own), and
the web app served by uvicorn on 127.0.0.1 in a thread, on a free port.

Screenshots go to build/screenshots/ (or $ZEROSUM_SCREENSHOTS), to be looked at.
Without Chromium or Playwright the browser tests skip, saying what to install.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
SCREENSHOTS = Path(os.environ.get("ZEROSUM_SCREENSHOTS", "build/screenshots"))
START_TIMEOUT = 20.0  # seconds for the server to listen


@contextmanager
def live_server(app: Any) -> Iterator[str]:
    """The app served on 127.0.0.1 (a free port) while the block runs; its base URL."""
    uvicorn = pytest.importorskip("uvicorn")
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(START_TIMEOUT)


@contextmanager
def chromium() -> Iterator[Any]:
    """Headless Debian Chromium, closed afterwards (one a test session: it takes seconds
    to start, a fresh page in a new context takes milliseconds)."""
    executable = shutil.which("chromium")
    if executable is None:
        pytest.skip("the browser tests need Chromium: apt-get install chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True,
                                             args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def fresh_page(browser: Any, width: int = 1100, height: int = 800) -> Iterator[Any]:
    """A page in a context of its own (no cookies, storage or cache from another test)."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        yield page
    finally:
        context.close()


def screenshot(page: Any, name: str) -> Path:
    """Save what the page shows as build/screenshots/NAME.png (a test artifact)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def page_ready(page: Any) -> None:
    """Wait until the page has set up its first game (the setup form's button comes
    enabled then): a field changed before that may go to the first game, not the one the
    test sets up, and the first game's search, if it has one, may answer the test's
    waits meant for the next."""
    page.wait_for_selector("#setup button[type=submit]:enabled")
