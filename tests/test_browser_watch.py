"""The browser UI's watching features in headless Chromium: the principal variation drawn
on the board while the computer thinks, and two computers playing each other."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser import page_ready, screenshot

pytest.importorskip("starlette")


def test_connect4_search_draws_its_principal_variation_until_the_move(url: str,
                                                                       page: Any) -> None:
    page.goto(f"{url}/?game=connect4&player=engine&first=computer")
    page.fill("#seconds", "30")
    page.click("#setup button[type=submit]")
    # the ghosts' numbers read in one go: each new Info redraws them
    ghosts = page.wait_for_function(
        "(() => { const g = [...document.querySelectorAll('#board .ghost')]"
        ".map(e => e.textContent); return g.length >= 2 ? g : null; })()").json_value()
    assert ghosts[:2] == ["1", "2"]
    screenshot(page, "connect4-ghost-pv")
    page.click("#stop")
    page.wait_for_function("document.querySelector('#result').textContent.startsWith('Played')")
    assert page.locator("#board .ghost").count() == 0  # the move played clears the line
    assert page.inner_text("#status") == "Yellow to move (you)"
    assert page.is_hidden("#pause")  # only two computers playing pause


def test_two_computers_play_a_whole_tictactoe_game(url: str, page: Any) -> None:
    page.goto(f"{url}/?game=tictactoe&player=alphabeta&side=alphabeta")  # a link may say so
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Draw')",
                           timeout=30_000)
    screenshot(page, "tictactoe-two-computers")
    assert page.inner_text("#status") == "Draw: the board is full"
    assert len(page.inner_text("#moves").removeprefix("Moves: ").split()) == 9
    assert page.is_visible("#pause")
    with page.expect_download() as download:
        page.click("#record")
    assert download.value.suggested_filename.startswith("tictactoe-")
    lines = Path(download.value.path()).read_text().splitlines()
    assert lines[0].startswith(
        "1. 1  alphabeta: value 0 (estimate, about even), depth 9, 4,762 nodes, ")
    assert len(lines) == 10 and lines[-1] == "Draw: the board is full"


def test_pause_stops_two_computers_after_the_current_move(url: str, page: Any) -> None:
    page.goto(f"{url}/?game=connect4&player=engine")
    page_ready(page)  # the page's first game, the person's first: no search, no ghost
    page.select_option("#player2", "engine")
    page.fill("#seconds", "30")
    page.click("#setup button[type=submit]")
    page.wait_for_selector("#board .ghost")
    page.click("#pause")
    page.click("#stop")  # the current move now; the pause keeps the next one from starting
    page.wait_for_function("document.querySelector('#result').textContent.startsWith('Played')")
    assert page.inner_text("#status") == "Yellow to move"
    assert page.inner_text("#pause") == "Resume"
    assert len(page.inner_text("#moves").removeprefix("Moves: ").split()) == 1
