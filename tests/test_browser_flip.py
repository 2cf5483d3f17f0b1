"""Flip sides and take back in the browser (headless Debian Chromium, tests/browser.py):
the person takes over the computer's side mid-game and the computer starts thinking for
the other one at once; take back while the computer thinks is refused in one line."""

from __future__ import annotations

from typing import Any

import pytest
from browser import screenshot

pytest.importorskip("starlette")


def moves(page: Any) -> list[str]:
    return str(page.inner_text("#moves")).removeprefix("Moves: ").split()


def wait_for_you(page: Any, count: int) -> None:
    """Until COUNT moves are played and it is the person's turn."""
    page.wait_for_function(
        "(n) => document.querySelector('#status').textContent.includes('(you)')"
        " && document.querySelector('#moves').textContent.split(' ').length - 1 === n", arg=count)


def test_flip_sides_in_tictactoe_and_back(url: str, page: Any) -> None:
    page.goto(f"{url}/?game=tictactoe&player=alphabeta")
    page.wait_for_selector("#board svg")
    assert page.is_enabled("#flip")
    page.locator("#board rect.target").first.click()  # X in cell 1; alpha-beta answers O 5
    wait_for_you(page, 2)
    assert moves(page) == ["1", "5"]
    page.click("#flip")  # the person is O now: the computer plays X's next move at once
    wait_for_you(page, 3)
    assert page.inner_text("#status") == "O to move (you)"
    assert moves(page) == ["1", "5", "2"]
    assert page.is_checked("#computer-first")  # a new game would keep these sides
    assert page.inner_text("#result").startswith(f"Played {moves(page)[2]}: value ")
    screenshot(page, "tictactoe-flipped")
    page.click("#flip")  # back to X: the computer plays O's move
    wait_for_you(page, 4)
    assert page.inner_text("#status") == "X to move (you)"
    assert moves(page) == ["1", "5", "2", "3"]  # O blocks the row
    assert not page.is_checked("#computer-first")
    page.click("#undo")  # take back the computer's O and the computer's X before it
    page.wait_for_function("document.querySelector('#moves').textContent === 'Moves: 1 5'")
    assert page.inner_text("#status") == "X to move (you)"
    page.click("#flip")  # flipping after a take back: the computer plays X again
    wait_for_you(page, 3)
    assert page.inner_text("#status") == "O to move (you)"
    assert moves(page) == ["1", "5", "2"]
    assert page.inner_text("#error") == ""


def test_take_back_while_thinking_is_refused_and_flip_is_disabled(url: str, page: Any) -> None:
    page.goto(f"{url}/?game=connect4&player=mcts&first=computer")
    page.wait_for_selector("#board svg")
    wait_for_you(page, 1)  # the computer's first move, in a second
    page.fill("#seconds", "20")
    page.locator("#board rect.target").first.click()
    page.wait_for_function("document.querySelector('#status').textContent.includes('thinking')")
    assert not page.is_enabled("#flip")
    page.click("#undo")
    assert page.inner_text("#error") == (
        "The computer is thinking: press \u201cStop, move now\u201d first, then take back.")
    page.click("#stop")
    wait_for_you(page, 3)  # nothing was taken back
    assert page.is_enabled("#flip")


def test_flip_is_disabled_when_two_computers_play(url: str, page: Any) -> None:
    page.goto(f"{url}/?game=tictactoe&player=alphabeta&side=alphabeta")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Draw')")
    assert not page.is_enabled("#flip")
