"""The analysis board tells the truth and reads at every width (issues 33 and 34), in
headless Chromium (tests/browser.py): values from the side to move with a legend that
names it, labels that fit their cells, a search panel that belongs to the position shown.
Screenshots go to build/screenshots/ (or $ZEROSUM_SCREENSHOTS)."""

from __future__ import annotations

from typing import Any

import pytest
from browser import fresh_page, screenshot

pytest.importorskip("starlette")

# Each badge's text and its box, in screen pixels: the text must lie inside the box,
# clear of its border by a twentieth of its width on each side (an italic digit leans
# past its advance, and a border drawn over it makes "≈-0.01" read "≈-0.0").
BADGE_FIT = """() => [...document.querySelectorAll('#board g.badge')].map((g) => {
  const t = g.querySelector('text').getBoundingClientRect();
  const r = g.querySelector('rect').getBoundingClientRect();
  const pad = r.width / 20;
  return {label: g.querySelector('text').textContent,
          inside: t.left >= r.left + pad && t.right <= r.right - pad};
})"""


def yellow_to_move_with_values(page: Any, url: str) -> None:
    """Connect Four 8x6 (no opening book: on 7x6 the book proves every move at once),
    the engine (Red) opens; the person, Yellow, asks for move values: the solver proves
    nothing in a moment, so every badge is the engine's estimate, the widest label there
    is (≈-0.01)."""
    page.goto(f"{url}/?game=connect4&width=8&player=engine&first=computer")
    page.fill("#seconds", "0.3")
    page.click("#setup button[type=submit]")
    page.wait_for_function("document.querySelector('#status').textContent === "
                           "'Yellow to move (you)'")
    page.check("#show-values")
    page.wait_for_function("document.querySelectorAll('#board g.badge.estimate').length === 8")


@pytest.mark.parametrize("width", [1280, 390])
def test_estimates_fit_their_cells_at_desktop_and_phone_widths(
        url: str, browser: Any, width: int) -> None:
    with fresh_page(browser, width=width, height=844) as page:
        yellow_to_move_with_values(page, url)
        fits = page.evaluate(BADGE_FIT)
        screenshot(page, f"connect4-estimates-{width}")
    assert len(fits) == 8 and all(f["label"].startswith("≈") for f in fits), fits
    assert [f for f in fits if not f["inside"]] == []


def test_every_label_form_fits_a_cell(url: str, page: Any) -> None:
    """The widest labels of every game (an estimate with a sign and two decimals, a loss
    in 42 plies) drawn by board.js itself on a tic-tac-toe board: the cells are the same
    size in every game."""
    page.goto(f"{url}/?game=tictactoe&player=alphabeta")
    page.wait_for_selector("#board svg")
    fits = page.evaluate("""async () => {
      const { drawBoard } = await import('/static/board.js');
      const view = { kind: 'grid', rows: 1, cols: 4, cells: ['', '', '', ''],
                     moves: { 0: 'a', 1: 'b', 2: 'c', 3: 'd' } };
      const labels = ['≈-0.99', '≈+0.01', 'L42', 'W127'];
      const values = new Map(labels.map((label, i) => ['abcd'[i],
        { outcome: i < 2 ? 'estimate' : 'loss', label, title: label }]));
      const svg = drawBoard(view, { values });
      document.getElementById('board').replaceChildren(svg);
      return [...svg.querySelectorAll('g.badge')].map((g) => {
        const t = g.querySelector('text').getBBox(), r = g.querySelector('rect').getBBox();
        const pad = r.width / 20;
        return { label: g.querySelector('text').textContent,
                 inside: t.x >= r.x + pad && t.x + t.width <= r.x + r.width - pad };
      });
    }""")
    assert [f["label"] for f in fits] == ["≈-0.99", "≈+0.01", "L42", "W127"]
    assert [f for f in fits if not f["inside"]] == []


def test_one_point_of_view_named_by_a_legend(url: str, page: Any) -> None:
    """Yellow to move: each estimate's badge, its row and its title speak for Yellow
    (a badge "≈-0.07" with a title "-0.07 (estimate, good for Red)", never "+0.07"), the
    legend names Yellow, and the search table says whose values it shows."""
    yellow_to_move_with_values(page, url)
    assert page.inner_text("#values-legend").startswith("Values for Yellow, to move: W5 "
                                                        "Yellow wins in 5 plies")
    assert page.inner_text("#value-head") == "value for Red"  # Red's search, the engine's
    page.wait_for_function("document.querySelector('#graph-sides').textContent !== ''")
    assert page.inner_text("#graph-sides") == "Up: Red wins, down: Yellow wins (its " \
        "numbers Red's)."
    for g in page.locator("#board g.badge").all():
        label = str(g.locator("text").text_content())  # ≈-0.01
        title = str(g.locator("title").text_content())  # 1: estimate: -0.01 (estimate, ...)
        number = title.split("estimate: ")[1].split(" ")[0]
        shown = label.removeprefix("≈")  # a value that rounds to nothing has no sign
        assert shown.startswith(number[0]) or shown == "0.00" or number == "0", (label, title)
        assert float(label.removeprefix("≈")) == pytest.approx(float(number), abs=0.006)
    screenshot(page, "connect4-legend")


def luminance(css: str) -> float:
    """The relative luminance (WCAG 2) of a computed colour, "rgb(r, g, b)"."""
    parts = [float(x) for x in css[css.index("(") + 1:css.index(")")].split(",")[:3]]
    linear = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4
              for c in parts]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_current_moves_number_is_legible(url: str, browser: Any, scheme: str) -> None:
    """The current move's number ("1.") against its button, as legible as the move."""
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(f"{url}/?game=tictactoe&player=alphabeta")
        page.wait_for_selector("#board svg")
        page.locator("#board rect.target").first.click()
        page.wait_for_function("document.querySelectorAll('#moves .ply').length === 2")
        page.click('#moves .ply[data-ply="1"]')
        page.wait_for_selector('#moves .ply.current[data-ply="1"]')
        colours = page.evaluate("""() => {
          const b = document.querySelector('#moves .ply.current');
          return [getComputedStyle(b, '::before').color, getComputedStyle(b).color,
                  getComputedStyle(b).backgroundColor, getComputedStyle(b, '::before').content];
        }""")
        page.locator(".movelist").screenshot(path=str(screenshot(page, f"current-move-{scheme}")))
    finally:
        context.close()
    number, move, background, content = colours
    assert content == '"1. "'
    assert contrast(number, background) == pytest.approx(contrast(move, background))
    assert contrast(number, background) >= 3.0


def test_the_search_panel_shows_the_search_of_the_position_on_the_board(
        url: str, page: Any) -> None:
    """X (the person) plays 1 and 9, iterative deepening answers each: the panel follows the
    board. At the start it shows no search (once it showed the last one), after X's 1
    O's search of that position, after O's answer the search that chose it, and so on."""
    page.goto(f"{url}/?game=tictactoe&player=iterative")
    page.wait_for_selector("#board svg")
    idle = "!document.querySelector('#status').textContent.includes('thinking')"
    page.locator('#board rect[aria-label="cell 1"]').click()
    page.wait_for_function(f"document.querySelectorAll('#moves .ply').length === 2 && {idle}")
    first, first_rows = page.inner_text("#result"), page.locator("#infos tr").count()
    page.locator('#board rect[aria-label="cell 9"]').click()
    page.wait_for_function(f"document.querySelectorAll('#moves .ply').length === 4 && {idle}")
    last = page.inner_text("#result")
    assert first.startswith("Played ") and last.startswith("Played ") and first != last
    answers = [first.split()[1].rstrip(":"), last.split()[1].rstrip(":")]

    def at(ply: int) -> tuple[str, str, int]:
        page.click("#to-start" if ply == 0 else f'#moves .ply[data-ply="{ply}"]')
        page.wait_for_selector("#to-start.current" if ply == 0
                               else f'#moves .ply.current[data-ply="{ply}"]')
        return (page.inner_text("#search-of"), page.inner_text("#result"),
                page.locator("#infos tr").count())

    assert at(0) == ("No search of this position (the start) yet.", "", 0)
    screenshot(page, "search-panel-at-the-start")
    text, result, rows = at(1)
    assert (text, result) == ("The search of the position after move 1, O to move.", first)
    assert rows == first_rows > 0 and page.inner_text("#value-head") == "value for O"
    assert at(2)[:2] == (f"The search that chose move 2 ({answers[0]}), from the position "
                         "after move 1.", first)
    assert at(3)[:2] == ("The search of the position after move 3, O to move.", last)
    assert at(4)[:2] == (f"The search that chose move 4 ({answers[1]}), from the position "
                         "after move 3.", last)


def test_checkers_draws_the_first_moves_of_the_line_as_arrows_with_a_legend(
        url: str, page: Any) -> None:
    """Once the engine's line is longer than three moves, the board shows only its first
    three, each an arrow in its side's colour, numbered on its shaft; a legend says
    whose each is (it once drew all eleven, numbers over the pieces, unnamed colours)."""
    page.goto(f"{url}/?game=checkers&player=engine")
    page.wait_for_selector("#board svg")
    page.check("#computer-first")
    page.fill("#seconds", "30")
    page.click("#setup button[type=submit]")
    page.wait_for_function("() => [...document.querySelectorAll('#infos tr td:last-child')]"
                           ".some((td) => td.textContent.split(' ').length >= 5)"
                           " && document.querySelector('.pv-legend')?.textContent.includes('of')")
    ghosts = page.locator("#board g.ghost")
    assert ghosts.count() == 3
    assert [str(g.get_attribute("class")) for g in ghosts.all()] == [
        "ghost side-a", "ghost side-b", "ghost side-a"]
    assert [g.locator("polyline").get_attribute("marker-end") for g in ghosts.all()] == [
        "url(#arrow-side-a)", "url(#arrow-side-b)", "url(#arrow-side-a)"]
    assert page.locator("#board g.ghost text").all_text_contents() == ["1", "2", "3"]
    legend = page.inner_text(".pv-legend")
    assert legend.startswith("The search's line, its first 3 of ")
    assert legend.endswith("moves as arrows: 1 Black, 2 White, 3 Black.")
    screenshot(page, "checkers-pv-arrows")
    page.click("#stop")
    page.wait_for_function("() => document.querySelector('#result').textContent.length > 0")
    assert page.locator(".pv-legend").count() == 0 and ghosts.count() == 0


def test_the_explain_page_draws_the_board_of_the_node_a_step_is_at(
        url: str, page: Any) -> None:
    """A game position's search, stepped through: beside the tree, the position of the
    node the step is at, drawn as the play page draws it (the notebook's explainer did;
    the page drew none). Connect Four after 4 4: at the root two stones, at node 1 1
    (the first leaf) four, the last one ringed."""
    page.goto(url + "/explain")
    page.select_option("#kind", "game")
    page.wait_for_selector("#game option[value='connect4']", state="attached")
    page.select_option("#game", "connect4")
    page.fill("#moves", "4 4")
    page.select_option("#depth", "2")
    page.click("button[type=submit]")
    page.wait_for_selector("#node-board svg")
    assert page.inner_text("#node-board-caption") == "The position at the root"
    assert page.locator("#node-board circle.stone").count() == 2
    for _ in range(3):  # the root entered, column 1 entered, its first leaf returns
        page.click("#next")
    page.wait_for_function("document.querySelector('#node-board-caption').textContent"
                           " === 'The position at node 1 1'")
    assert page.locator("#node-board circle.stone").count() == 4
    assert page.locator("#node-board .last-move").count() == 1
    screenshot(page, "explain-node-board")


def test_a_new_line_from_an_earlier_move_keeps_the_old_one(url: str, page: Any) -> None:
    """X plays 1, iterative deepening answers; back at the start X plays 5 instead: the
    old line is offered as "after ... " and a click on it plays it again, the new one
    kept in its place (it was thrown away)."""
    page.goto(f"{url}/?game=tictactoe&player=iterative")
    page.wait_for_selector("#board svg")
    idle = "!document.querySelector('#status').textContent.includes('thinking')"
    page.locator('#board rect[aria-label="cell 1"]').click()
    page.wait_for_function(f"document.querySelectorAll('#moves .ply').length === 2 && {idle}")
    first_line = page.locator("#moves .ply").all_inner_texts()
    page.click("#to-start")
    page.wait_for_selector("#to-start.current")
    page.locator('#board rect[aria-label="cell 5"]').click()
    page.wait_for_function(f"document.querySelectorAll('#moves .ply').length === 2 && {idle}"
                           " && document.querySelector('#moves .ply').textContent.endsWith('5')")
    second_line = page.locator("#moves .ply").all_inner_texts()
    assert page.inner_text("#variations") == \
        f"Other lines: from the start {first_line[0].split()[-1]} {first_line[1]}"
    screenshot(page, "variations")
    page.click("#variations .ply.variation")
    page.wait_for_function("document.querySelector('#moves .ply').textContent.endsWith('1')")
    assert page.locator("#moves .ply").all_inner_texts() == first_line
    assert page.inner_text("#variations") == \
        f"Other lines: from the start {second_line[0].split()[-1]} {second_line[1]}"
    assert page.inner_text("#status").startswith("O to move (move 1 of 2")


def test_the_graph_draws_what_the_analysis_proved(url: str, page: Any,
                                                  monkeypatch: Any) -> None:
    """Connect Four set up at 16 stones, Red (the person) to move, every column lost:
    the graph drew the position as an estimate; once the analysis has proven its moves,
    the graph draws it proven (the page asks for the graph again).
    (The graph's own solvers are told to prove nothing: only the analysis proves.)"""
    from zerosum.review import Valuer

    # Not a budget: a solver's table may already hold this position from another test.
    monkeypatch.setattr(Valuer, "exact_value", lambda self, state: None)
    page.goto(f"{url}/?game=connect4&player=engine")
    page.fill("#position", "1411141444142222")
    page.click("#setup button[type=submit]")
    page.wait_for_function("document.querySelector('#status').textContent === "
                           "'Red to move (you)'")
    page.locator('#board rect[aria-label="column 3"]').click()  # Red's 3: a second point
    page.wait_for_function("document.querySelectorAll('#moves .ply').length === 2 && "
                           "!document.querySelector('#status').textContent.includes('thinking')")
    page.click('#to-start')
    page.wait_for_selector("#to-start.current")
    page.wait_for_selector("#graph-svg")
    assert page.get_attribute("#graph-svg .point >> nth=0", "class") == "point estimate"
    page.click("#analyse")
    page.wait_for_function("document.querySelector('#analysis-status').textContent"
                           ".startsWith('done')")
    page.wait_for_function("document.querySelector('#graph-svg .point')"
                           "?.classList.contains('decided')")  # redrawn: for a moment none
    titles = page.locator("#graph-svg .point title").all_text_contents()
    assert titles[:2] == ["after move 0: -1 (Yellow wins, proven)",
                          "after move 1: -1 (Yellow wins in 17 plies)"]
    screenshot(page, "graph-proven-by-analysis")


def test_checkers_is_too_big_for_the_solver_at_once(url: str, page: Any) -> None:
    """Checkers 8x8 from the start: the analysis says at once that the solver cannot
    reach (random games show more positions than its budget: nothing is solved first),
    keeps the engine's estimates, and an estimate that rounds to nothing has no sign."""
    page.goto(f"{url}/?game=checkers&player=engine")
    page.wait_for_selector("#board svg")
    page.check("#show-values")
    page.wait_for_function("document.querySelector('#analysis-status').textContent"
                           ".includes('not proven')")
    assert page.inner_text("#analysis-status") == (
        "too big for the solver within 200,000 positions: 7 move(s) not proven "
        "(what is proven so far, else the engine's estimate, shown)")
    moves = page.locator(".move-value .mv-move").all_inner_texts()
    verdicts = page.locator(".move-value .mv-verdict").all_inner_texts()
    assert moves == ["C2-D1", "C4-D3", "C6-D5", "C8-D7", "C2-D3", "C4-D5", "C6-D7"]
    assert "≈0.00" in verdicts and not {"≈-0.00", "≈+0.00"} & set(verdicts), verdicts
    screenshot(page, "checkers-too-big")
