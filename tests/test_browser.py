"""The browser UI end to end, as a person uses it: headless Debian Chromium (Playwright)
against `zerosum serve`'s app on 127.0.0.1. Screenshots of each view go to
build/screenshots/ (tests/browser.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from browser import chromium_page, live_server, screenshot

pytest.importorskip("starlette")


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    from zerosum.web.app import create_app

    with live_server(create_app(max_searches=2, max_seconds=30.0)) as base:
        yield base


@pytest.fixture()
def page() -> Iterator[Any]:
    with chromium_page() as p:
        yield p


def status(page: Any) -> str:
    return str(page.inner_text("#status"))


def moves(page: Any) -> list[str]:
    return str(page.inner_text("#moves")).removeprefix("Moves: ").split()


def play(page: Any, target: Any) -> None:
    """Click `target` (a cell or a column) and wait until the computer has answered
    (two more moves) or the game is over."""
    before = len(moves(page))
    target.click()
    page.wait_for_function(
        "(n) => { const s = document.querySelector('#status').textContent;"
        " const m = document.querySelector('#moves').textContent.split(' ').length - 1;"
        " return (m >= n + 2 && s.includes('(you)')) || s.includes('wins')"
        " || s.startsWith('Draw'); }", arg=before)


def test_a_whole_tictactoe_game_by_clicks(url: str, page: Any) -> None:
    page.goto(f"{url}/?game=tictactoe&player=alphabeta")
    page.wait_for_selector("#board svg")
    screenshot(page, "tictactoe-start")
    assert status(page) == "X to move (you)"
    clicks = 0
    while "(you)" in status(page):
        play(page, page.locator("#board rect.target").first)  # the first free cell
        clicks += 1
    screenshot(page, "tictactoe-end")
    # Alpha-beta to the end never loses; taking the first free cell each time loses to it.
    assert status(page) == "O wins: three in a row"
    assert clicks == 3 and moves(page) == ["1", "5", "2", "3", "4", "7"]
    assert page.locator("#board rect.target").count() == 0  # nothing left to click


def test_connect4_against_the_engine_to_the_end(url: str, page: Any) -> None:
    page.goto(f"{url}/?game=connect4&player=engine")
    page.fill("#seconds", "0.1")
    page.click("#setup button[type=submit]")
    page.wait_for_selector("#board svg")
    columns = page.locator("#board rect.target")
    assert columns.count() == 7
    while "(you)" in status(page):
        play(page, columns.first)  # the leftmost column that is not full
    screenshot(page, "connect4-end")
    assert status(page) == "Yellow wins: four in a row"  # the engine (yellow) beats this
    assert re.fullmatch(r"Played \d: value .*", page.inner_text("#result"))


def test_the_live_stream_shows_deeper_and_deeper_searches_and_stop_moves_now(
        url: str, page: Any) -> None:
    page.goto(f"{url}/?game=connect4&player=iterative&first=computer")
    page.fill("#seconds", "30")
    page.click("#setup button[type=submit]")
    page.wait_for_function("() => document.querySelectorAll('#infos tr').length >= 4")
    screenshot(page, "connect4-thinking")
    assert not page.is_disabled("#stop")
    page.click("#stop")
    page.wait_for_function("() => document.querySelector('#result').textContent.length > 0")
    screenshot(page, "connect4-stopped")
    depths = [int(d) for d in page.locator("#infos tr td:first-child").all_inner_texts()]
    assert depths[:4] == [1, 2, 3, 4] and depths == sorted(depths)
    assert page.inner_text("#result").endswith("(stopped)")
    assert page.is_disabled("#stop") and status(page) == "Yellow to move (you)"
