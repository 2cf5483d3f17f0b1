"""What the web benches share: a real `zerosum serve` in a subprocess on 127.0.0.1 (a
free port), killed when the block ends whatever happens; the server's resident memory;
and a page of headless Debian Chromium (Playwright, as the browser tests use it).

Needs the web extra, Playwright and Chromium (`apt-get install chromium`).
"""

from __future__ import annotations

import re
import select
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

START_SECONDS = 30.0  # for the server to say where it listens
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def served(*options: str) -> Iterator[tuple[str, int]]:
    """`zerosum serve` with `options` on a free port: its base URL and process id."""
    command = [sys.executable, "-m", "zerosum", "serve", "--port", str(free_port()), *options]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    try:
        assert server.stdout is not None
        deadline = time.monotonic() + START_SECONDS
        ready, _, _ = select.select([server.stdout], [], [], START_SECONDS)
        line = server.stdout.readline() if ready else ""  # "zerosum serve: open http://..."
        found = re.search(r"http://\S+?/", line)
        if found is None:
            raise RuntimeError(f"zerosum serve did not start: {line!r}")
        url = found.group(0).rstrip("/")
        wait_until_listening(url, deadline)
        yield url, server.pid
    finally:
        server.kill()
        server.wait(10)


def wait_until_listening(url: str, deadline: float) -> None:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    while True:
        try:
            socket.create_connection((host, int(port)), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"nothing listens at {url}") from None
            time.sleep(0.05)


def rss_mb(pid: int) -> float:
    """The resident memory of process `pid` in MB (VmRSS in /proc/PID/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


@contextmanager
def chromium_page() -> Iterator[Any]:
    """A page of headless Debian Chromium, closed afterwards."""
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium")
    if executable is None:
        raise SystemExit("this bench needs Chromium: apt-get install chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True,
                                             args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.set_default_timeout(30_000)
            yield page
        finally:
            browser.close()


def summary(label: str, values: list[float]) -> str:
    values = sorted(values)
    n = len(values)
    median = values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2
    return (f"{label:<34} median {median * 1000:7.1f} ms   min {values[0] * 1000:7.1f} ms"
            f"   max {values[-1] * 1000:7.1f} ms   (n={n})")
