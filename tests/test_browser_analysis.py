"""The Connect Four analysis panel in a real browser (tests/browser.py): press Analyse
some moves from the end and every column's verdict appears, coloured."""

from __future__ import annotations

from typing import Any

import pytest
from browser import screenshot

pytest.importorskip("starlette")

# Red's moves against alpha-beta at depth 2 (deterministic), which answers 4 1 4 4 4 4 2 2:
# after them, 16 stones with red to move and lost in every column.
REDS = ["1", "1", "1", "1", "4", "1", "2", "2"]
MOVES = "1 4 1 1 1 4 1 4 4 4 1 4 2 2 2 2"


@pytest.fixture()
def page(page: Any, url: str) -> Any:
    """The page (conftest.py's) on a Connect Four game against alpha-beta."""
    page.goto(f"{url}/?game=connect4&player=alphabeta")
    return page


def test_analyse_shows_every_columns_verdict_for_connect_four_only(page: Any) -> None:
    page.fill("#depth", "2")
    page.click("#setup button[type=submit]")
    page.wait_for_selector("#board svg")
    assert page.is_visible("#analyse")
    for i, move in enumerate(REDS):
        page.fill("#move", move)
        page.press("#move", "Enter")
        page.wait_for_function(
            "(n) => document.querySelector('#moves').textContent.split(' ').length - 1 >= n"
            " && document.querySelector('#status').textContent.includes('(you)')",
            arg=2 * (i + 1))
    assert page.inner_text("#moves") == f"Moves: {MOVES}"
    page.click("#analyse")
    page.wait_for_function(
        "() => document.querySelector('#analysis-status').textContent.startsWith('done')")
    screenshot(page, "connect4-analysis")
    verdicts = page.locator(".analysis-column .analysis-verdict").all_inner_texts()
    # `zerosum solve connect4 --all-moves 1411141444142222` scores columns 2, 3, 5, 6, 7
    # -10, -5, -9, -6, -6: yellow wins with its 12th, 17th, 13th, 16th, 16th stone.
    assert verdicts == ["full", "loses in 8 plies", "loses in 18 plies", "full",
                        "loses in 10 plies", "loses in 16 plies", "loses in 16 plies"]
    assert page.locator(".analysis-column.proven.loss").count() == 5
    assert page.inner_text("#analysis-status") == "done: every column proven"
    page.click("#undo")  # a new position clears the verdicts
    page.wait_for_function("() => document.querySelector('#analysis-row').children.length === 0")
    page.select_option("#game", "tictactoe")  # the panel is for Connect Four only
    page.click("#setup button[type=submit]")
    page.wait_for_function("() => document.querySelector('#analysis').hidden")


def test_columns_not_proven_in_time_show_the_engines_estimate(page: Any) -> None:
    """A position of two stones within half a second: the solver proves no column of it
    in that time on any machine (each takes it far longer), so every column keeps the
    engine's estimate and says it is not proven. (Not the empty board: the opening book
    proves its columns at once.)"""
    from zerosum.games.registry import get_game
    from zerosum.stop import Stop
    from zerosum.web.analysis import estimates

    page.wait_for_selector("#board svg")
    page.fill("#move", "1")
    page.press("#move", "Enter")
    page.wait_for_function(
        "() => document.querySelector('#moves').textContent.split(' ').length - 1 >= 2"
        " && document.querySelector('#status').textContent.includes('(you)')")
    spec = get_game("connect4")
    game = spec.create()
    state = game.initial_state()
    for move in page.inner_text("#moves").removeprefix("Moves: ").split():
        state = game.result(state, int(move) - 1)
    found: list[dict[str, Any]] = []
    estimates(spec, game, state, Stop(), found.append)
    expected = [f"≈ {m['value']:+.3f}" for m in found]

    page.fill("#analysis-seconds", "0.5")
    page.click("#analyse")
    page.wait_for_function(
        "() => document.querySelector('#analysis-status').textContent.startsWith(\"time's up\")")
    assert page.inner_text("#analysis-status") == (
        "time's up: 7 column(s) not proven (engine estimate shown)")
    verdicts = page.locator(".analysis-column .analysis-verdict").all_inner_texts()
    assert verdicts == expected
    notes = page.locator(".analysis-column .analysis-note").all_inner_texts()
    assert notes == ["not proven"] * 7
    assert page.locator(".analysis-column.unproven.estimate").count() == 7
    assert page.locator(".analysis-column.proven").count() == 0
    assert page.get_attribute(".analysis-column[data-column='4']", "title") == (
        "time's up before it was proven: the engine's estimate")
    screenshot(page, "connect4-analysis-unproven")
