"""What the page says about a value, in headless Chromium: a proven result says so (never
"estimate" beside "depth end"), and MCTS reports simulations and its tree's depth."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser import screenshot

pytest.importorskip("starlette")


def think_once(page: Any) -> str:
    page.click("#setup button[type=submit]")
    page.wait_for_function("document.querySelector('#result').textContent.startsWith('Played')")
    return str(page.inner_text("#result"))


def test_the_engines_proven_win_is_shown_as_proven(url: str, page: Any) -> None:
    # After 4 4 4 4 3 2 5 6 3 3 5 3 5 the engine's weak solve proves yellow's win (its
    # length unknown): once shown as "-0.999 (estimate, good for Yellow), depth end".
    page.goto(f"{url}/?game=connect4&player=engine")
    page.fill("#position", "4444325633535")
    page.fill("#seconds", "5")
    played = think_once(page)
    screenshot(page, "connect4-proven-win")
    assert re.fullmatch(r"Played 5: value \+1 \(Yellow wins, proven\), depth end, "
                        r"[\d,]+ nodes, \d+\.\d\d s", played), played
    row = page.locator("#infos tr").last.locator("td").all_inner_texts()
    assert row[:2] == ["end", "+1 (Yellow wins, proven)"]  # Yellow's search: its side
    assert page.inner_text("#unit-head") == "nodes"


def test_mcts_shows_simulations_and_its_tree_depth(url: str, page: Any) -> None:
    page.goto(f"{url}/?game=connect4&player=mcts&first=computer")
    page.fill("#seconds", "0.5")
    played = think_once(page)
    assert re.fullmatch(r"Played \d: value [+-]?[\d.]+ \(estimate, (good for (Red|Yellow)|"
                        r"about even)\), tree depth \d+, [\d,]+ simulations, \d+\.\d\d s",
                        played), played
    assert page.inner_text("#unit-head") == "simulations"
