"""The browser UI's latency: from a click on the board to the engine's first Info in
the page, and to its move, at a 1 s limit.

    python bench/web_latency.py [--repeat 7] [--seconds 1]

Starts a real `zerosum serve` on 127.0.0.1 (a free port), drives its page in headless
Chromium: a new Connect Four game against the engine, a click on the centre column; the
page's WebSocket messages are timestamped in the page (performance.now()) from the click
on. Each repetition is a new game. Prints median, min and max of each interval, and the
server's own search time. The server is killed at the end, even on error.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from web_serve import chromium_page, served, summary

# Timestamps in the page: the click, each message the page sends and receives.
MARKS = """
window.__marks = [];
const mark = (what) => window.__marks.push([what, performance.now()]);
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => mark(JSON.parse(e.data).type));
  }
  send(data) { mark("sent " + JSON.parse(data).type); super.send(data); }
};
document.addEventListener("click", () => mark("click"), true);
"""


def one_move(page: Any, url: str, seconds: float) -> dict[str, float]:
    """A new game, a click on column 4; the page's timestamps (ms) from the click."""
    page.goto(f"{url}/?game=connect4&player=engine")
    page.fill("#seconds", str(seconds))
    page.click("#setup button[type=submit]")
    page.wait_for_function(
        "() => document.querySelector('#status').textContent === 'Red to move (you)'")
    page.evaluate("window.__marks = []")
    page.locator("#board rect.target").nth(3).click()
    page.wait_for_function(
        "() => window.__marks.some(([what]) => what === 'result')")
    marks = page.evaluate("window.__marks")
    first: dict[str, float] = {}
    for what, t in marks:
        first.setdefault(what, t)
    played = page.inner_text("#result")
    found = re.search(r"([0-9.]+) s", played)
    assert found is not None, played
    click = first["click"]
    return {"think sent": (first["sent think"] - click) / 1000,
            "first Info": (first["info"] - click) / 1000,
            "move": (first["result"] - click) / 1000,
            "server search": float(found.group(1))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args()
    runs = []
    with served() as (url, _), chromium_page() as page:
        page.add_init_script(MARKS)
        for _ in range(max(1, args.repeat)):
            runs.append(one_move(page, url, args.seconds))
    print(f"Connect Four, the engine at a {args.seconds:g} s limit, from a click on column 4:")
    for key in ("think sent", "first Info", "move", "server search"):
        label = {"think sent": "click -> think sent (move POSTed)",
                 "first Info": "click -> first Info in the page",
                 "move": "click -> engine's move in the page",
                 "server search": "the search itself (server's time)"}[key]
        print(summary(label, [r[key] for r in runs]))


if __name__ == "__main__":
    main()
