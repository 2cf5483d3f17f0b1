"""The browser UI end to end, as a person uses it: headless Debian Chromium (Playwright)
against `zerosum serve`'s app on 127.0.0.1. Screenshots of each view go to
build/screenshots/ (tests/browser.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser import page_ready, screenshot

pytest.importorskip("starlette")


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
    # The page's first game has the person move first, so that the rows waited for can
    # only be the new game's search: with ?first=computer the first game's search (a
    # second's) filled the table at once, and the check below could fall between the
    # new game disabling "Stop, move now" and its search enabling it again.
    page.goto(f"{url}/?game=connect4&player=iterative")
    page_ready(page)
    page.check("#computer-first")
    page.fill("#seconds", "30")
    page.click("#setup button[type=submit]")
    page.wait_for_function("() => document.querySelectorAll('#infos tr').length >= 4")
    screenshot(page, "connect4-thinking")
    # Said on failure: what ended the search, or what the server answered instead.
    assert not page.is_disabled("#stop"), (status(page), page.inner_text("#result"),
                                           page.inner_text("#error"))
    page.click("#stop")
    page.wait_for_function("() => document.querySelector('#result').textContent.length > 0")
    screenshot(page, "connect4-stopped")
    depths = [int(d) for d in page.locator("#infos tr td:first-child").all_inner_texts()]
    assert depths[:4] == [1, 2, 3, 4] and depths == sorted(depths)
    assert page.inner_text("#result").endswith("(stopped)")
    assert page.is_disabled("#stop") and status(page) == "Yellow to move (you)"


def labels(page: Any, prefix: str) -> list[str]:
    """The aria-labels of the board's clickable squares that start with `prefix`."""
    found = page.locator(f'#board [aria-label^="{prefix}"]').evaluate_all(
        "(nodes) => nodes.map((n) => n.getAttribute('aria-label'))")
    return sorted(found)


def checkers_from(page: Any, url: str, position: str, computer_first: bool) -> None:
    page.goto(f"{url}/?game=checkers")
    page.wait_for_selector("#board svg")
    page.fill("#seconds", "0.1")
    page.fill("#position", position)
    if computer_first:
        page.check("#computer-first")
    page.click("#setup button[type=submit]")
    page.wait_for_function(
        "(p) => document.querySelector('#status').textContent.startsWith(p)",
        arg="White" if position.startswith("W") else "Black")


def test_a_checkers_double_jump_by_two_clicks(url: str, page: Any) -> None:
    # White (you) to move: E4 can take one man (to C2), G4 two (over F3 and D3, to C4).
    checkers_from(page, url, "W:W18,26:B1,14,22", computer_first=True)
    assert status(page) == "White to move (you)"
    assert labels(page, "piece") == ["piece E4", "piece G4"]
    page.click('#board [aria-label="piece G4"]')
    assert labels(page, "to") == ["to C4"]  # the last square of the jump, not E2
    screenshot(page, "checkers-choose")
    page.click('#board [aria-label="to C4"]')
    page.wait_for_function(
        "() => document.querySelector('#moves').textContent.split(' ').length >= 3")
    screenshot(page, "checkers-multijump")
    assert moves(page)[0] == "G4xE2xC4" and moves(page)[1] in ("A2-B1", "A2-B3")
    assert page.locator("#board circle.man.black").count() == 1  # both jumped men gone
    assert page.locator("#board circle.man.white").count() == 2


def test_two_checkers_capture_paths_to_one_square_are_told_apart_by_clicks(
        url: str, page: Any) -> None:
    # The black king on E4 can take all four white men around it, either way round,
    # ending where it started: the page asks for the next square of the path.
    checkers_from(page, url, "B:W14,15,6,7:BK18,1", computer_first=False)
    page.click('#board [aria-label="piece E4"]')
    assert labels(page, "to") == ["to E4"]
    page.click('#board [aria-label="to E4"]')
    assert labels(page, "to") == ["to C2", "to C6"]
    assert page.inner_text(".board-note").startswith("Two ways end there")
    screenshot(page, "checkers-two-paths")
    page.click('#board [aria-label="to C2"]')
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('wins')")
    screenshot(page, "checkers-king-loop")
    assert moves(page) == ["E4xC2xA4xC6xE4"]
    assert status(page) == "White has no pieces left: Black wins"
    assert page.locator("#board text.king").count() == 1
    assert page.locator("#board circle.man.white").count() == 0


def test_an_nqueens_game_by_clicks(url: str, page: Any) -> None:
    page.goto(f"{url}/?game=nqueens&player=alphabeta")
    page.wait_for_selector("#board svg")
    page.fill('[data-option="size"]', "5")
    page.click("#setup button[type=submit]")
    page.wait_for_function("() => document.querySelectorAll('#board rect.target').length === 5")
    screenshot(page, "nqueens-start")
    queens = page.locator("#board text.queen")
    while "(you)" in status(page):
        before = queens.count()
        page.locator("#board rect.target").first.click()  # the top open square
        page.wait_for_function(
            "(n) => document.querySelectorAll('#board text.queen').length >= n + 2"
            " || document.querySelector('#status').textContent.includes('wins')", arg=before)
    screenshot(page, "nqueens-end")
    # X takes the top open square of each column; alpha-beta (O) cannot stop 5 queens.
    assert page.inner_text("#moves") == "Moves: X1 O3 X5 O2 X4"  # each queen's row
    assert queens.count() == 5 and status(page) == "All 5 queens are placed: X wins"


def test_maxconnect4_by_column_clicks_shows_both_scores(url: str, page: Any) -> None:
    page.goto(f"{url}/?game=maxconnect4&player=alphabeta")
    page.fill("#depth", "2")
    page.click("#setup button[type=submit]")
    page.wait_for_selector("#board svg")
    assert page.inner_text(".board-note") == "Player 1: 0 · Player 2: 0"
    columns = page.locator("#board rect.target")
    assert columns.count() == 7
    for _ in range(3):
        play(page, columns.nth(0))  # red stacks three in column 1
    screenshot(page, "maxconnect4")
    assert moves(page) == ["1", "4", "1", "5", "1", "3"]  # alpha-beta to depth 2 answers
    assert page.locator('#board circle.stone.red').count() == 3
    assert page.locator('#board circle.stone.yellow').count() == 3
    assert page.inner_text(".board-note") == "Player 1: 0 · Player 2: 0"


def test_positions_set_up_from_their_strings(url: str, page: Any) -> None:
    """Connect Four from its move sequence, Max-Connect4 from its input file's contents
    (pasted into the one-line field: its rows run together)."""
    page.goto(f"{url}/?game=connect4&player=alphabeta")
    page.wait_for_selector("#board svg")
    assert page.inner_text("#position-name") == "Start position (move sequence, e.g. 4455)"
    page.fill("#position", "4455")
    page.click("#setup button[type=submit]")
    page.wait_for_function(  # the set-up board has replaced the empty one
        "() => document.querySelectorAll('#board circle.stone.red').length === 2")
    assert page.locator('#board circle.stone.red').count() == 2
    assert page.locator('#board circle.stone.yellow').count() == 2
    assert status(page) == "Red to move (you)"
    page.fill("#position", "4448")
    page.click("#setup button[type=submit]")
    page.wait_for_function("() => document.querySelector('#error').textContent !== ''")
    assert page.inner_text("#error") == "move sequence: '8' at position 4 is not a column 1-7"
    page.select_option("#game", "maxconnect4")
    page.fill("#position", "0000000" * 5 + "1200000" + "1")
    page.click("#setup button[type=submit]")
    page.wait_for_function("() => document.querySelector('#error').textContent === ''"
                           " && document.querySelectorAll('#board circle.stone.red')"
                           ".length === 1")
    assert page.locator('#board circle.stone.yellow').count() == 1
    assert status(page) == "Player 1 to move (you)"
    screenshot(page, "maxconnect4-from-a-file")


def test_a_bad_typed_move_is_one_line_in_the_page(url: str, page: Any) -> None:
    page.goto(f"{url}/?game=checkers&player=random")
    page.wait_for_selector("#board svg")
    page.fill("#move", "Z9-Q1")
    page.press("#move", "Enter")
    page.wait_for_function("() => document.querySelector('#error').textContent !== ''")
    assert page.inner_text("#error") == (
        "not a square: 'Z9' (write it like C3, or a number like 11)")
    assert moves(page) == [] and status(page) == "Black to move (you)"


def test_choosing_another_game_starts_it_with_its_own_players(url: str, page: Any) -> None:
    # Was: the Connect Four board stayed and took moves, the menus offered tic-tac-toe's
    # players, the computer never answered ("unknown player 'engine'") and the person
    # played both sides.
    page.goto(f"{url}/?game=connect4&player=engine")
    page.wait_for_function("() => document.querySelectorAll('#board rect.target').length === 7")
    page.select_option("#game", "tictactoe")
    page.wait_for_function("() => document.querySelectorAll('#board rect.target').length === 9")
    assert status(page) == "X to move (you)" and moves(page) == []
    assert page.input_value("#player") == "iterative"  # tic-tac-toe's default player
    play(page, page.locator("#board rect.target").first)
    assert moves(page) == ["1", "5"] and page.inner_text("#error") == ""
    assert status(page) == "X to move (you)"
    screenshot(page, "game-menu-tictactoe")
    # While the computer thinks: the search of the game left behind ends with it.
    page.select_option("#game", "connect4")
    page.select_option("#player", "iterative")
    page.fill("#seconds", "30")
    page.check("#computer-first")
    page.click("#setup button[type=submit]")
    page.wait_for_selector("#infos tr")
    page.select_option("#game", "nqueens")  # 6 x 6; the computer (X) still moves first
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           " === 'O to move (you)'")
    assert page.locator("#board text.queen").count() == 1
    assert len(moves(page)) == 1 and re.fullmatch(r"X\d", moves(page)[0])
    assert page.inner_text("#error") == ""
    screenshot(page, "game-menu-nqueens")


def test_the_forms_wait_for_the_page_to_be_ready(url: str, page: Any) -> None:
    """Submitted before the page's script has attached its listeners, a form would reload
    the page, and while the first game is being set up it would set up a second one
    beside it: its buttons stay disabled until the first game is there, so a click waits
    for it, and the game it starts is answered."""
    held: list[Any] = []
    page.route("**/static/app.js", lambda route: held.append(route))  # held back
    page.goto(f"{url}/?game=connect4&player=engine", wait_until="commit")
    page.wait_for_selector("#setup [type=submit]", state="attached")
    for _ in range(500):
        if held:
            break
        page.wait_for_timeout(10)
    assert held
    assert page.is_disabled("#setup [type=submit]") and page.is_disabled("#typed [type=submit]")
    page.fill("#seconds", "0.1")
    held[0].continue_()
    page.click("#setup [type=submit]")
    page.wait_for_selector("#board svg")
    assert page.is_enabled("#typed [type=submit]")
    columns = page.locator("#board rect.target")
    assert columns.count() == 7
    play(page, columns.nth(3))
    assert moves(page)[0] == "4" and len(moves(page)) == 2 and "(you)" in status(page)


def test_a_move_made_while_a_new_game_is_set_up_is_the_new_games(url: str, page: Any) -> None:
    """A click on the board between "New game" and the new game's arrival is the new
    game's first move. It went to the old game, which the new one then replaced, and the
    computer never answered (two layout tests timed out on it in CI)."""
    page.goto(f"{url}/?game=connect4&player=engine")
    page.fill("#seconds", "0.1")
    page.wait_for_selector("#board rect.target")
    held: list[Any] = []
    page.route("**/api/sessions", lambda route: held.append(route))  # the new game, held back
    page.click("#setup [type=submit]")
    for _ in range(500):
        if held:
            break
        page.wait_for_timeout(10)
    assert held
    page.locator("#board rect.target").nth(2).click()
    page.wait_for_timeout(300)
    assert moves(page) == []  # the old game did not take it
    held[0].continue_()
    page.wait_for_function(
        "() => document.querySelector('#moves').textContent.split(' ').length - 1 >= 2"
        " && document.querySelector('#status').textContent.includes('(you)')")
    assert moves(page)[0] == "3" and page.inner_text("#error") == ""
