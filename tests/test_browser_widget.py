"""The notebook widget's front end (zerosum.widget.bundle: the page's board module and
widget.js) in headless Chromium, with a tiny fake of anywidget's model: what it draws
from the model's state and the messages a person's clicks send."""

from __future__ import annotations

from typing import Any

from browser import screenshot

from zerosum.games.registry import get_game
from zerosum.widget import Controller, bundle, styles

LOAD = """async ([code, css, state]) => {
  const handlers = {};
  window.sent = [];
  const model = {
    get: (k) => state[k],
    on: (event, f) => { (handlers[event] ||= []).push(f); },
    send: (m) => window.sent.push(m),
  };
  // What anywidget does when Python changes a trait.
  window.change = (name, value) => {
    state[name] = value;
    (handlers[`change:${name}`] || []).forEach((f) => f());
  };
  const style = document.createElement("style"); // what anywidget does with _css
  style.textContent = css;
  document.head.append(style);
  const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  const module = await import(url);
  module.default.render({ model, el: document.getElementById("root") });
}"""


def ttt_view(game: Any, state: Any, last: Any = None) -> dict[str, Any]:
    """A tic-tac-toe view in the page's format (as a game's registration declares it)."""
    return {"kind": "grid", "rows": 3, "cols": 3, "click": "cell",
            "cells": ["" if c == "." else c for c in state[0]],
            "moves": {str(a): game.format_move(a) for a in game.actions(state)},
            "last": [] if last is None else [last], "line": []}


def load(page: Any, state: dict[str, Any]) -> None:
    page.set_content("<!doctype html><html><body><div id='root'></div></body></html>")
    page.evaluate(LOAD, [bundle(), styles(), state])


def tictactoe(*moves: str) -> dict[str, Any]:
    c = Controller(get_game("tictactoe").create(), view=ttt_view)
    for move in moves:
        c.handle({"type": "move", "move": move})
    return c.snapshot()


def test_a_click_on_a_cell_sends_its_move(page: Any) -> None:
    load(page, tictactoe("5"))
    assert page.locator(".zs-status").inner_text() == "O to move"
    assert "null" not in page.locator("#root").inner_text()  # no explanation yet: nothing
    assert page.locator("svg .mark").all_text_contents() == ["X"]
    assert page.locator("svg .last-move").count() == 1
    assert page.locator("svg .target").count() == 8  # the free cells
    page.locator("[aria-label='cell 1']").click()
    assert page.evaluate("window.sent") == [{"type": "move", "move": "1"}]
    page.locator(".zs-move").fill("9")
    page.locator("form button").click()
    assert page.evaluate("window.sent")[-1] == {"type": "move", "move": "9"}


def test_the_computer_is_asked_with_the_chosen_player_and_its_line_is_marked(
        page: Any) -> None:
    load(page, tictactoe("5"))
    page.locator(".zs-player").select_option("mcts")
    page.locator(".zs-depth").fill("3")
    page.locator(".zs-seconds").fill("0.5")
    page.locator(".zs-think").click()
    assert page.evaluate("window.sent") == [
        {"type": "think", "player": "mcts", "depth": 3, "seconds": 0.5}]
    # Python answers: thinking, then an Info with its principal variation.
    page.evaluate("window.change('thinking', true)")
    page.evaluate("""window.change('infos', [{depth: 2, value: '+0.1 (estimate, good for X)',
        nodes: 1234, elapsed: 0.25, pv: ['1', '9'], marks: [[0], [8]]}])""")
    assert page.locator("svg .ghost").count() == 2
    assert page.locator("svg .target").count() == 0  # no clicks while it thinks
    assert page.locator(".zs-stop").is_enabled()
    assert "1,234" in page.locator(".zs-table").inner_text()
    page.locator(".zs-stop").click()
    assert page.evaluate("window.sent")[-1] == {"type": "stop"}
    screenshot(page, "widget-thinking")


def test_a_checkers_move_is_picked_square_by_square(page: Any) -> None:
    cells = [""] * 16
    cells[1], cells[3], cells[12], cells[14] = "b", "b", "w", "w"
    view = {"kind": "paths", "rows": 4, "cols": 4, "cells": cells, "moves": [
        {"path": [1, 4], "text": "A2-B1"}, {"path": [1, 6], "text": "A2-B3"},
        {"path": [3, 6], "text": "A4-B3"}]}
    state = {**tictactoe(), "title": "Checkers", "view": view, "legal": ["A2-B1"]}
    load(page, state)
    page.locator("[aria-label='piece A2']").click()
    assert page.locator("[aria-label^='to ']").count() == 2
    page.locator("[aria-label='to B3']").click()
    assert page.evaluate("window.sent") == [{"type": "move", "move": "A2-B3"}]


def test_an_explanation_is_stepped_through(page: Any) -> None:
    c = Controller(get_game("tictactoe").create(), view=ttt_view)
    for move in ("5", "1", "9"):
        c.handle({"type": "move", "move": move})
    c.handle({"type": "explain", "depth": 1})
    load(page, c.snapshot())
    assert page.locator(".zs-step-text").inner_text() == (
        " 1 / 7: 2: value +0.222, window [-inf, +inf]")
    assert page.locator(".zs-explainer svg .mark").count() == 4  # the node's position
    page.locator(".zs-next").click()
    assert page.evaluate("window.sent") == [{"type": "step", "index": 1}]
    screenshot(page, "widget-explain")
