"""Rich display in notebooks (zerosum.notebook) and the board's SVG from its view
(zerosum.svg): the drawing the page makes, the tables of a result and a trace."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from zerosum.game import InputError
from zerosum.games.registry import get_game
from zerosum.games.tree import TreeGame
from zerosum.notebook import Board, Position, TraceTable, show
from zerosum.result import TraceEvent
from zerosum.search.alphabeta import alphabeta_search
from zerosum.svg import board_svg, pv_marks

NS = "{http://www.w3.org/2000/svg}"


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # well-formed XML, or this raises


def elements(svg: str, name: str, cls: str | None = None) -> list[ET.Element]:
    return [e for e in parsed(svg).iter(NS + name)
            if cls is None or cls in (e.get("class") or "").split()]


def ttt_view(game: Any, state: Any, last: Any = None) -> dict[str, Any]:
    """A tic-tac-toe view in the page's format, as a game's registration declares one."""
    board = state[0]
    return {"kind": "grid", "rows": 3, "cols": 3, "click": "cell",
            "cells": ["" if c == "." else c for c in board],
            "moves": {str(a): game.format_move(a) for a in game.actions(state)},
            "cell_labels": [str(i + 1) for i in range(9)],
            "last": [] if last is None else [last], "line": []}


def test_a_grid_is_drawn_as_the_page_draws_it() -> None:
    view = {"kind": "grid", "rows": 3, "cols": 3, "click": "cell",
            "cells": ["X", "", "", "", "O", "", "", "", "X"],
            "moves": {str(i): str(i + 1) for i in (1, 2, 3, 5, 6, 7)},
            "last": [8], "line": [], "cell_labels": [str(i) for i in range(1, 10)]}
    svg = board_svg(view, marks=[[1], [2]])
    assert [e.text for e in elements(svg, "text", "piece")] == ["X", "O", "X"]
    assert len(elements(svg, "rect")) == 1 + 9 + 1  # the ground, the cells, the last move
    assert elements(svg, "rect", "last")[0].get("x") == str(2 * 60 + 3)
    ghosts = elements(svg, "circle", "ghost")
    # The line's moves 2 and 3 (cells 1 and 2), its first by the first player (blue).
    assert [(g.get("cx"), g.get("cy"), g.get("fill")) for g in ghosts] == [
        ("90.0", "30.0", "#2b5cab"), ("150.0", "30.0", "#b23a48")]
    assert [e.text for e in elements(svg, "text", "coord")] == [str(i) for i in range(1, 10)]


def test_a_column_game_drops_its_principal_variation_to_the_lowest_empty_cell() -> None:
    cells = [""] * 16
    cells[12], cells[13] = "red", "yellow"  # the bottom row's first two
    view = {"kind": "grid", "rows": 4, "cols": 4, "click": "column", "cells": cells,
            "moves": {str(c): str(c + 1) for c in range(4)}, "line": [12, 13],
            "col_labels": ["1", "2", "3", "4"]}
    svg = board_svg(view, marks=[[8], [4], [15]], first=1)
    assert len(elements(svg, "circle", "red")) == 1
    assert len(elements(svg, "circle", "yellow")) == 1
    ghosts = [(g.get("cx"), g.get("cy"), g.get("fill"))
              for g in elements(svg, "circle", "ghost")]
    assert ghosts == [("30.0", "150.0", "#f4c20d"), ("30.0", "90.0", "#d62828"),
                      ("210.0", "210.0", "#f4c20d")]
    assert len(elements(svg, "circle", "line")) == 2
    assert [e.text for e in elements(svg, "text", "coord")] == ["1", "2", "3", "4"]
    assert parsed(svg).get("height") == str(4 * 60 + 18)  # room for the column numbers


def test_a_checkers_board_with_men_kings_and_the_first_move_of_a_line() -> None:
    cells = [""] * 16
    cells[1], cells[3], cells[12], cells[14] = "b", "B", "w", "W"
    view = {"kind": "paths", "rows": 4, "cols": 4, "cells": cells,
            "moves": [{"path": [1, 4], "text": "A2-B1"}, {"path": [3, 6], "text": "A4-B3"}]}
    svg = board_svg(view, marks=[[3, 6], [14, 11]])
    assert len(elements(svg, "rect")) == 16
    assert len(elements(svg, "circle", "black")) == 2
    assert len(elements(svg, "circle", "white")) == 2
    assert len(elements(svg, "text", "king")) == 2
    line = [p.get("points") for p in elements(svg, "polyline", "ghost")]
    assert line == ["210.0,30.0 150.0,90.0"]


def test_where_a_line_lands_is_computed_once_from_the_games_drawing() -> None:
    """The page's think socket and the notebook's board draw the same marks: each move's
    cells, the `last` of the game's own drawing after it (a Connect Four stone falls to
    the lowest empty cell: 7 columns, row 5 the bottom)."""
    spec = get_game("connect4")
    game = spec.create()
    state = game.initial_state()
    assert pv_marks(spec.view, game, state, [3, 3, 6]) == [[38], [31], [41]]
    ghosts = elements(Board(game, state, pv=[3, 3, 6]).svg(), "circle", "ghost")
    assert [(g.get("cx"), g.get("cy")) for g in ghosts] == [
        ("210.0", "330.0"), ("210.0", "270.0"), ("390.0", "330.0")]


def test_a_game_without_a_view_shows_its_text_escaped() -> None:
    svg = board_svg({"kind": "text", "text": "a < b\n  & c"})
    assert [e.text for e in elements(svg, "text")] == ["a < b", "  & c"]


def test_a_position_plays_on_and_shows_its_board_and_move_list() -> None:
    ttt = get_game("tictactoe").create()
    p = Position(ttt, view=ttt_view).play("5", "1", "9")
    assert p.actions == [4, 0, 8]
    assert p.moves().rows() == [("1.", "X", "5", ""), ("2.", "O", "1", ""),
                                ("3.", "X", "9", "")]
    html = p._repr_html_()
    assert "O to move" in html
    svg = re.search(r"<svg.*?</svg>", html)
    assert svg is not None
    assert [e.text for e in elements(svg.group(0), "text", "piece")] == ["O", "X", "X"]
    assert elements(svg.group(0), "rect", "last")[0].get("x") == str(2 * 60 + 3)
    with pytest.raises(InputError, match="move 1 \\(5\\)"):
        p.play("5")
    assert p.state == Position(ttt).play("5", "1", "9").state  # play made a new one


def test_a_reviewed_move_list_marks_the_moves_that_changed_the_value() -> None:
    ttt = get_game("tictactoe").create()
    reviewed = Position(ttt).play("5", "2").review()
    assert reviewed.rows() == [
        ("1.", "X", "5", "0 (draw, proven)"),
        ("2.", "O", "2", "-1 (X wins in 5 plies) turned a draw into a loss: draw -> loss")]
    assert "X wins in 5 plies" in reviewed._repr_html_()


def test_a_search_result_shows_as_a_table_in_the_games_words() -> None:
    ttt = get_game("tictactoe").create()
    p = Position(ttt).play("5", "1", "9")
    r = alphabeta_search(ttt, p.state)
    assert show(ttt, r).rows()[:6] == [
        ("value", "0 (draw, proven)"), ("best move", "3"),
        ("principal variation", "3 2 8 4 6 7"), ("depth", "depth end"),
        ("nodes", "279"), ("time", f"{r.stats.wall_time:.3f} s")]
    alone = r._repr_html_()  # without its game: the number and Python's moves
    assert "<th style='text-align:left'>value</th><td style='text-align:left'>+0 (decided)" in alone
    assert "279" in alone


def test_a_trace_shows_as_the_tree_of_the_search() -> None:
    game = TreeGame.from_text("A[B[3 12 8] C[2 4 6] D[14 5 2]]")  # AIMA figure 5.2
    events: list[TraceEvent] = []
    alphabeta_search(game, game.initial_state(), tracer=events.append)
    table = show(game, events)
    assert isinstance(table, TraceTable)
    assert repr(table).splitlines() == [
        "root: 3 [3, inf]",
        "  1: 3 [-inf, 3]",
        "    1: 3 [-inf, inf]",
        "    2: 12 [-inf, 3]",
        "    3: 8 [-inf, 3]",
        "  2: 2 [3, inf] pruned the rest",
        "    1: 2 [3, inf]",
        "  3: 2 [3, 5] pruned the rest",
        "    1: 14 [3, inf]",
        "    2: 5 [3, 14]",
        "    3: 2 [3, 5]",
    ]
    assert table._repr_html_().count("<tr>") == 1 + 11


def test_a_state_of_a_game_without_a_view_shows_its_rendering() -> None:
    stones = get_game("takestones").create()
    board = show(stones, stones.initial_state())
    assert isinstance(board, Board)
    lines = [e.text for e in elements(board._repr_svg_(), "text")]
    assert lines == stones.render(stones.initial_state()).splitlines()


def test_a_registered_game_draws_with_the_view_its_registration_declares() -> None:
    c4 = get_game("connect4").create(width=5, height=4)
    svg = Position(c4).play("3", "3", "4")._repr_html_()
    drawn = re.search(r"<svg.*?</svg>", svg)
    assert drawn is not None
    assert len(elements(drawn.group(0), "circle", "red")) == 2
    assert len(elements(drawn.group(0), "circle", "yellow")) == 1
    last = elements(drawn.group(0), "rect", "last")  # the red stone just dropped in 4
    assert [(r.get("x"), r.get("y")) for r in last] == [(str(3 * 60 + 3), str(3 * 60 + 3))]
    assert [e.text for e in elements(drawn.group(0), "text", "coord")] == [
        "1", "2", "3", "4", "5"]
