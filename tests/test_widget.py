"""The notebook widget's Python side (zerosum.widget): the state it gives the front end,
the messages it takes (checked, the moves by the game), the search it runs and the
explanation it steps through; the widget's module joined from the page's board module."""

from __future__ import annotations

import re
from typing import Any

import pytest

from zerosum.games.registry import get_game
from zerosum.widget import STATIC, Controller, bundle, widget


def controller(name: str = "tictactoe", **options: Any) -> Controller:
    return Controller(get_game(name).create(**options))


def test_a_move_is_checked_by_the_game_and_changes_the_state() -> None:
    c = controller()
    c.handle({"type": "move", "move": "5"})
    c.handle({"type": "move", "move": "5"})
    snap = c.snapshot()
    assert snap["moves"] == ["5"]
    assert snap["error"] == "move 1 (5): cell 5 is not free"
    assert snap["status"] == "O to move" and snap["first"] == 1
    assert snap["legal"] == ["1", "2", "3", "4", "6", "7", "8", "9"]
    c.handle({"type": "undo"})
    assert c.snapshot()["moves"] == [] and c.snapshot()["error"] == ""
    c.handle({"type": "undo"})
    assert c.snapshot()["error"] == "no move to take back"


@pytest.mark.parametrize(("message", "error"), [
    ("move 5", "a message is a JSON object"),
    ({"type": "fly"}, "unknown message type 'fly'"),
    ({"type": "move", "move": 5}, "move must be text, not 5"),
    ({"type": "think", "player": "deep blue", "depth": 3, "seconds": 1},
     "unknown player 'deep blue' for tictactoe; choose from random, minimax, alphabeta, "
     "depth-limited, iterative, mcts"),
    ({"type": "think", "player": "alphabeta", "depth": -3, "seconds": 1},
     "depth must be a whole number from 1 to 99, not -3"),
    ({"type": "think", "player": "alphabeta", "depth": True, "seconds": 1},
     "depth must be a whole number from 1 to 99, not true"),
    ({"type": "think", "player": "alphabeta", "depth": 3, "seconds": 0},
     "seconds must be a number from 0.01 to 3600, not 0"),
    # a number too big for a float is refused for its range, never converted
    ({"type": "think", "player": "alphabeta", "depth": 3, "seconds": 10**400},
     "seconds must be a number from 0.01 to 3600, not '100000000000000000000000'... "
     "(401 characters)"),
    ({"type": "step", "index": 0}, "nothing to step through: explain a position first"),
])
def test_a_bad_message_is_one_line_of_error_and_changes_nothing(message: Any,
                                                                error: str) -> None:
    c = controller()
    before = c.snapshot()
    c.handle(message)
    after = c.snapshot()
    assert after.pop("error") == error
    before.pop("error")
    assert after == before


def test_the_computer_thinks_in_a_thread_streams_its_info_and_moves() -> None:
    c = controller()
    seen: list[int] = []
    c.on_change = lambda: seen.append(len(c.infos))
    c.handle({"type": "move", "move": "5"})
    c.handle({"type": "think", "player": "iterative", "depth": 4, "seconds": 5})
    c.wait()
    snap = c.snapshot()
    assert snap["moves"] == ["5", "1"]  # iterative deepening proves the corner
    assert not snap["thinking"] and snap["error"] == ""
    assert snap["infos"][-1]["value"] == "0 (draw, proven)"
    assert snap["infos"][-1]["pv"][0] == "1"
    # Where each move of the line lands, placed by Python as for the page's think.
    last = snap["infos"][-1]
    assert last["marks"] == [[int(move) - 1] for move in last["pv"]]
    assert [i["depth"] for i in snap["infos"]] == list(range(1, len(snap["infos"]) + 1))
    assert snap["result"].startswith("iterative played 1: value 0 (draw, proven), ")
    assert max(seen) == len(snap["infos"])  # the front end heard of every Info


def test_stop_makes_the_computer_move_at_once() -> None:
    c = controller("connect4")
    c.handle({"type": "think", "player": "mcts", "depth": 4, "seconds": 600})
    assert c.snapshot()["thinking"]
    c.handle({"type": "move", "move": "4"})
    assert c.snapshot()["error"] == "the computer is thinking: stop it first"
    c.handle({"type": "stop"})
    c.wait(30)
    snap = c.snapshot()
    assert not snap["thinking"] and len(snap["moves"]) == 1
    assert snap["result"].endswith(" (stopped)")


def test_an_explanation_steps_through_every_node_of_the_traced_search() -> None:
    c = controller()
    for move in ("5", "1", "9"):
        c.handle({"type": "move", "move": move})
    c.handle({"type": "explain", "depth": 1})
    snap = c.snapshot()
    assert snap["steps"] == 7  # six replies, then the root
    assert snap["step"]["text"] == "2: value +0.222, window [-inf, +inf]"
    c.handle({"type": "step", "index": 6})
    step = c.snapshot()["step"]
    assert step["text"] == "the root: value +0.111, window [-inf, +0.111]"
    c.handle({"type": "step", "index": 7})
    assert c.snapshot()["error"] == "index must be a whole number from 0 to 6, not 7"


def test_the_widget_module_is_the_page_board_module_and_the_widget_joined() -> None:
    code = bundle()
    assert not re.search(r"^\s*import ", code, re.M)  # one module, nothing to fetch
    assert code.startswith("const module_common = (() => {\n")  # board.js imports it
    assert "return { CELL, PV_ARROWS, drawBoard };" in code
    assert "const { drawBoard } = module_board;" in code
    assert re.findall(r"^export .*", code, re.M) == ["export default { render };"]


def test_modules_are_joined_once_each_in_their_own_scope(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import zerosum.widget as module

    (tmp_path / "common.js").write_text("export const $ = (id) => id;\nconst h = 1;\n")
    (tmp_path / "board.js").write_text('import { $ } from "/static/common.js";\n'
                                       "const h = 2;\nexport function draw() { return $; }\n")
    (tmp_path / "top.js").write_text('import { $ as find } from "./common.js";\n'
                                     'import { draw } from "./board.js";\n'
                                     "export default { draw, find };\n")
    monkeypatch.setattr(module, "STATIC", tmp_path)
    assert bundle("top.js") == (
        "const module_common = (() => {\nconst $ = (id) => id;\nconst h = 1;\n\n"
        "return { $ };\n})();\n\n"
        "const module_board = (() => {\nconst { $ } = module_common;\nconst h = 2;\n"
        "function draw() { return $; }\n\nreturn { draw };\n})();\n\n"
        "const { $: find } = module_common;\nconst { draw } = module_board;\n"
        "export default { draw, find };\n")


def test_the_anywidget_widget_syncs_the_controllers_state() -> None:
    pytest.importorskip("anywidget", reason="the notebook extra is not installed")
    w = widget("connect4", width=5, height=4, player="solver")
    assert (w.title, w.player) == ("Connect Four", "solver")
    # The page's board colours, light and dark: the page and the notebook look alike.
    assert w._css == (STATIC / "board.css").read_text(encoding="utf-8")
    assert ".last-move {" in w._css and "prefers-color-scheme: dark" in w._css
    assert w.players[-2:] == ["engine", "solver"]  # the catalogue's: the game's own last
    assert w.view == w.controller.snapshot()["view"] and w.legal == ["1", "2", "3", "4", "5"]
    w.controller.handle({"type": "move", "move": "3"})
    assert (w.moves, w.status) == (["3"], "Yellow to move")
    w.controller.handle({"type": "think", "player": "solver", "depth": 4, "seconds": 10})
    w.controller.wait()
    assert len(w.moves) == 2 and w.result.startswith("solver played ")
    assert "(draw" in w.result or "wins" in w.result  # the solver's value is exact


def test_without_the_extra_the_widget_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    import zerosum.widget as module
    from zerosum.game import InputError

    monkeypatch.setitem(sys.modules, "anywidget", None)  # import anywidget fails
    monkeypatch.setattr(module, "_CLASS", [])
    with pytest.raises(InputError, match=r"needs the notebook extra \(anywidget\): .*notebook"):
        widget("tictactoe")
    assert Controller(get_game("tictactoe").create()).snapshot()["title"] == "Tic-tac-toe"
