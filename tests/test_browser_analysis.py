"""The analysis board in a real browser (tests/browser.py): every move's value on the
board against the solvers, the move list stepped through and played on from, the value
graph, principal-variation marks on checkers, the phone and dark layouts. Screenshots go
to build/screenshots/ (or $ZEROSUM_SCREENSHOTS)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser import SCREENSHOTS, fresh_page, screenshot

pytest.importorskip("starlette")


def wait_for_you(page: Any, plies: int) -> None:
    page.wait_for_function(
        "(n) => document.querySelectorAll('#moves .ply').length === n"
        " && document.querySelector('#status').textContent.includes('to move')", arg=plies)


def badges(page: Any) -> dict[str, str]:
    """Each move's value on the board: {move: label}, from the badges' aria-labels."""
    found = {}
    for g in page.locator("#board g.badge").all():
        move = str(g.get_attribute("aria-label")).split(":")[0].removeprefix("move ")
        found[move] = str(g.locator("text").text_content())
    return found


def test_tictactoe_move_values_navigation_and_the_value_graph(url: str, page: Any) -> None:
    """X takes 1, alpha-beta answers 5; back at move 1 the person plays O's 2 instead
    (a new line): X now wins with 4, 5 or 7 in 5 plies and draws elsewhere, as the
    generic solver (search/solve.py) says; the graph shows O's 2 threw the draw away."""
    from zerosum.games.registry import get_game
    from zerosum.search.solve import solve

    page.goto(f"{url}/?game=tictactoe&player=alphabeta")
    page.wait_for_selector("#board svg")
    page.locator("#board rect.target").first.click()
    wait_for_you(page, 2)
    assert page.inner_text("#moves") == "Moves: 1 5"
    page.click('#moves .ply[data-ply="1"]')  # back to the position after X's 1
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".startsWith('O to move (move 1 of 2')")
    assert page.locator("#board .last-move").count() == 1
    page.fill("#move", "2")
    page.press("#move", "Enter")  # O's move by hand: a new line, X (the person) to move
    page.wait_for_function("() => document.querySelector('#moves').textContent === 'Moves: 1 2'")
    assert page.inner_text("#status") == "X to move (you)"
    page.check("#show-values")
    page.wait_for_function("() => document.querySelector('#analysis-status')"
                           ".textContent.startsWith('done')")
    page.wait_for_function("() => document.querySelectorAll('#board g.badge').length === 7")
    game = get_game("tictactoe").create()
    state = game.result(game.result(game.initial_state(), 0), 1)
    solution = solve(game, state)
    expected = {game.format_move(a): f"W{s.plies}" if s.value > 0 else "D"
                for a, s in solution.move_values(state)}
    assert badges(page) == expected == {"3": "D", "4": "W5", "5": "W5", "6": "D", "7": "W5",
                                        "8": "D", "9": "D"}
    assert page.locator("#board g.badge.win").count() == 3
    page.wait_for_selector("#graph-svg")
    assert page.locator("#graph-svg .point.decided").count() == 3  # the start, 1, 2
    assert page.locator("#graph-svg .point.turn").count() == 1  # O's 2
    assert page.get_attribute('#moves .ply[data-ply="2"]', "class") == "ply current turned"
    screenshot(page, "tictactoe-values")
    page.locator("#graph-panel").screenshot(path=str(SCREENSHOTS / "value-graph.png"))
    page.uncheck("#show-values")
    assert page.locator("#board g.badge").count() == 0
    page.keyboard.press("ArrowLeft")  # the arrows step through the moves too
    page.wait_for_function(
        "() => document.querySelector('#moves .ply.current')?.dataset.ply === '1'")
    assert page.get_attribute("#graph-cursor", "x1") == "300"  # the middle of 0, 1, 2
    page.click("#graph-svg .point >> nth=0")  # a point of the graph: its position
    page.wait_for_function(
        "() => document.querySelector('#to-start').classList.contains('current')")
    assert page.inner_text("#status").startswith("X to move (move 0 of 2")


def test_connect_four_move_values_from_its_solver(url: str, page: Any) -> None:
    """16 stones, red to move and lost in every column: `zerosum solve connect4
    --all-moves 1411141444142222` scores columns 2, 3, 5, 6, 7 -10, -5, -9, -6, -6."""
    page.goto(f"{url}/?game=connect4&player=alphabeta")
    page.wait_for_selector("#board svg")
    page.fill("#position", "1411141444142222")
    page.click("#setup button[type=submit]")
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length === 16")
    page.check("#show-values")
    page.wait_for_function("() => document.querySelector('#analysis-status')"
                           ".textContent.startsWith('done')")
    assert page.inner_text("#analysis-status") == "done: every move proven"
    verdicts = page.locator(".move-value .mv-verdict").all_inner_texts()
    moves = page.locator(".move-value .mv-move").all_inner_texts()
    assert dict(zip(moves, verdicts, strict=True)) == {
        "2": "loses in 8 plies", "3": "loses in 18 plies", "5": "loses in 10 plies",
        "6": "loses in 16 plies", "7": "loses in 16 plies"}
    assert badges(page) == {"2": "L8", "3": "L18", "5": "L10", "6": "L16", "7": "L16"}
    assert page.locator("#board text.coord").all_text_contents() == [str(c) for c in range(1, 8)]
    screenshot(page, "connect4-values")


def test_checkers_principal_variation_marks(url: str, page: Any) -> None:
    page.goto(f"{url}/?game=checkers&player=engine")  # the person first: no search yet
    page.wait_for_selector("#board svg")
    page.check("#computer-first")
    page.fill("#seconds", "30")
    page.click("#setup button[type=submit]")
    page.wait_for_function("() => document.querySelectorAll('#board g.ghost').length >= 3"
                           " && document.querySelector('#infos').children.length >= 3")
    assert page.inner_text("#thinking") == "Black: engine"
    assert page.inner_text("#status") == "Black (engine) is thinking…"
    # Each PV move drawn from its square to its last one: a path, numbered.
    assert page.locator("#board g.ghost polyline.pv-path").count() >= 3
    assert page.locator("#board g.ghost text").all_text_contents()[:3] == ["1", "2", "3"]
    screenshot(page, "checkers-pv")
    page.uncheck("#show-pv")
    assert page.locator("#board g.ghost").count() == 0
    page.click("#stop")
    page.wait_for_function("() => document.querySelector('#result').textContent.length > 0")
    labels = page.locator("#board text.coord").all_text_contents()
    assert labels == [*"ABCDEFGH", *map(str, range(1, 9))]
    assert page.locator("#board .last-move").count() == 2  # the move's two squares


@pytest.mark.parametrize(("width", "height", "scheme", "name"), [
    (1280, 900, "light", "desktop"), (390, 844, "light", "phone"), (1280, 900, "dark", "dark"),
])
def test_layouts(url: str, browser: Any, width: int, height: int, scheme: str,
                 name: str) -> None:
    """Desktop: the board and the live search side by side; a phone: stacked, nothing
    wider than the screen; dark mode from prefers-color-scheme."""
    with fresh_page(browser, width, height) as page:
        page.emulate_media(color_scheme=scheme)
        page.goto(f"{url}/?game=connect4&player=iterative")
        page.fill("#seconds", "0.3")
        page.click("#setup button[type=submit]")
        page.wait_for_selector("#board rect.target")
        page.locator("#board rect.target").nth(3).click()
        page.wait_for_function(
            "() => document.querySelector('#result').textContent.length > 0"
            " && document.querySelector('#status').textContent.includes('(you)')")
        page.wait_for_selector("#graph-svg")
        screenshot(page, name)
        board = page.locator("#board svg").bounding_box()
        search = page.locator("section.search").bounding_box()
        side_by_side = search["x"] > board["x"] + board["width"]
        assert side_by_side == (width >= 900)
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= width
        background = page.evaluate("() => getComputedStyle(document.documentElement)"
                                   ".backgroundColor")
        assert background == ("rgb(20, 24, 30)" if scheme == "dark" else "rgb(246, 247, 249)")


@pytest.mark.parametrize(("width", "height", "scheme", "name"), [
    (1280, 900, "light", "desktop"), (390, 844, "light", "phone"), (1280, 900, "dark", "dark"),
])
def test_connect_four_moves_being_proven_show_their_interval(
        url: str, browser: Any, width: int, height: int, scheme: str, name: str) -> None:
    """Pons's first L1_R1 position (8 stones): within 2 s the cheap columns are proven
    and while the solver works on another, its row says what is proven so far ("draw
    or better", the interval, the nodes); when the time is up the rows left unproven
    keep it."""
    with fresh_page(browser, width, height) as page:
        page.emulate_media(color_scheme=scheme)
        page.goto(f"{url}/?game=connect4&player=alphabeta")
        page.wait_for_selector("#board svg")
        page.fill("#position", "32164625")
        page.click("#setup button[type=submit]")
        page.wait_for_function(
            "() => document.querySelectorAll('#board circle.stone').length === 8")
        page.fill("#analysis-seconds", "2")
        page.check("#show-values")
        page.wait_for_selector(".move-value.bound")
        note = page.locator(".move-value.bound .mv-note").first.inner_text()
        assert re.fullmatch(r"\[[+-]?\d+, [+-]?\d+\] · [\d.]+[kMG]? nodes", note), note
        page.wait_for_function("() => /^(time's up|done)/.test("
                               "document.querySelector('#analysis-status').textContent)")
        status = page.inner_text("#analysis-status")
        assert re.fullmatch(r"time's up \(2 s\): [1-6] move\(s\) not proven .*|"
                            r"done: every move proven", status), status
        notes = page.locator(".move-value.unproven .mv-note").all_inner_texts()
        assert all(re.fullmatch(r"not proven|score in \[[+-]?\d+, [+-]?\d+\](, not exact)?",
                                n) for n in notes), notes
        # Column 3 wins (+11) and is cheap: proven whatever the machine's speed.
        assert badges(page)["3"] == "W13"
        screenshot(page, f"connect4-bounds-{name}")
