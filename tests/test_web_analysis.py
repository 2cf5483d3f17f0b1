"""The analysis board over its WebSocket and the value history (zerosum.web.analysis),
through Starlette's test client: every move's estimate, then its proven value, by
Connect Four's own solver or the generic one, as each is found; a game's values."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient  # the `dev` extra installs the `web` one
from starlette.websockets import WebSocketDisconnect

from zerosum.games.connect4.game import Connect4
from zerosum.games.connect4.moves import verdict
from zerosum.games.connect4.solver import Solver
from zerosum.web.app import create_app

# 26 stones, red to move: red wins at once in 1, 2, 4 or 6 and loses at once elsewhere.
NEAR_THE_END = "75714731126547633713426512"


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(max_searches=1, max_seconds=60.0)) as c:
        yield c


def session(client: TestClient, game: str = "connect4", moves: str | list[str] = "") -> str:
    s = client.post("/api/sessions", json={"game": game}).json()
    for m in moves:
        s = client.post(f"/api/sessions/{s['id']}/move", json={"move": m}).json()
    sid: str = s["id"]
    return sid


def until_done(ws: Any) -> list[dict[str, Any]]:
    messages = []
    while True:
        m: dict[str, Any] = ws.receive_json()
        messages.append(m)
        if m["type"] in ("done", "error"):
            return messages


def test_every_column_is_solved_as_the_solver_scores_it(client: TestClient) -> None:
    with client.websocket_connect(f"/api/sessions/{session(client, moves=NEAR_THE_END)}"
                                  "/analysis") as ws:
        ws.send_json({"type": "analyse", "seconds": 5})
        messages = until_done(ws)
    assert messages[0] == {"type": "started", "seconds": 5.0,
                           "moves": ["1", "2", "3", "4", "5", "6", "7"]}
    # Each column ends the game at once or lets the opponent win at once: decided even
    # at the estimate's depth, so each is sent as proven (never as an estimate), in the
    # engine's order, and the solver has nothing left to do.
    assert [m for m in messages if m["type"] == "estimate"] == []
    columns = [m for m in messages if m["type"] == "move"]
    assert [m["move"] for m in columns] == ["1", "2", "3", "4", "5", "6", "7"]
    game = Connect4()
    state = game.initial_state()
    for move in NEAR_THE_END:
        state = game.result(state, game.parse_move(state, move))
    solver = Solver()
    for m in columns:
        score = solver.move_score(state.current, state.mask, int(m["move"]) - 1)
        assert (score > 0) - (score < 0) == {"win": 1, "loss": -1}[m["outcome"]]
    assert {m["move"]: m["verdict"] for m in columns} == {
        "1": "wins in 1 ply", "2": "wins in 1 ply", "4": "wins in 1 ply",
        "6": "wins in 1 ply", "3": "loses in 2 plies", "5": "loses in 2 plies",
        "7": "loses in 2 plies"}
    assert {m["outcome"] for m in columns} == {"win", "loss"}
    assert messages[-1] == {"type": "done", "unproven": [], "stopped": False, "why": ""}


def test_columns_past_the_estimate_are_proven_by_the_solver(client: TestClient) -> None:
    """16 stones: the engine's estimate decides no column; Connect Four's own solver
    (its Solver capability's move_values) proves each, as `zerosum solve connect4 --all-moves
    1411141444142222` scores them (-10, -5, -9, -6, -6: yellow's 12th, 17th, 13th, 16th
    and 16th stone)."""
    sid = session(client, moves="1411141444142222")
    with client.websocket_connect(f"/api/sessions/{sid}/analysis") as ws:
        ws.send_json({"type": "analyse", "seconds": 30})
        messages = until_done(ws)
    proven = {m["move"]: (m["verdict"], m["score"]) for m in messages if m["type"] == "move"}
    assert proven == {"2": ("loses in 8 plies", -10), "3": ("loses in 18 plies", -5),
                      "5": ("loses in 10 plies", -9), "6": ("loses in 16 plies", -6),
                      "7": ("loses in 16 plies", -6)}
    assert messages[-1]["unproven"] == []


def test_a_move_in_progress_shows_its_interval_and_the_cheap_moves_come_first(
        client: TestClient) -> None:
    """Pons's first L1_R1 position (8 stones, score +11): its columns score -4, -3,
    +11, +4, 0, -2, -5 (`zerosum solve connect4 --all-moves 32164625`). Column 3 is
    proven first, before the centre; a move still being proven is reported with the
    interval of its score proven so far, which always holds its score, and in words
    ("loss or draw" for column 5 before its draw is proven)."""
    scores = {"1": -4, "2": -3, "3": 11, "4": 4, "5": 0, "6": -2, "7": -5}
    with client.websocket_connect(f"/api/sessions/{session(client, moves='32164625')}"
                                  "/analysis") as ws:
        ws.send_json({"type": "analyse", "seconds": 60})
        messages = until_done(ws)
    proven = [m for m in messages if m["type"] == "move"]
    assert {m["move"]: m["score"] for m in proven} == scores
    assert proven[0]["move"] == "3"
    bounds = [m for m in messages if m["type"] == "bound"]
    assert bounds
    for m in bounds:
        assert m["lo"] <= scores[m["move"]] <= m["hi"], m
        assert m["nodes"] > 0
    assert {"move": "5", "words": "loss or draw", "lo": -1, "hi": 0} in [
        {k: m[k] for k in ("move", "words", "lo", "hi")} for m in bounds]
    # No bound comes after its move's proof.
    for m in proven:
        assert all(b["move"] != m["move"] for b in messages[messages.index(m):]
                   if b["type"] == "bound")
    assert messages[-1]["unproven"] == []


def test_tictactoe_moves_are_valued_by_the_generic_solver(client: TestClient) -> None:
    """X in the corner, O beside it: X wins with 4, 5 or 7 (in 5 plies), draws elsewhere
    (search/solve.py); the estimate (iterative deepening at depth 4) decides some of
    them already, the solver the rest."""
    sid = session(client, "tictactoe", moves="12")
    with client.websocket_connect(f"/api/sessions/{sid}/analysis") as ws:
        ws.send_json({"type": "analyse", "seconds": 30})
        messages = until_done(ws)
    proven = {m["move"]: m["verdict"] for m in messages if m["type"] == "move"}
    assert proven == {"3": "draw", "4": "wins in 5 plies", "5": "wins in 5 plies",
                      "6": "draw", "7": "wins in 5 plies", "8": "draw", "9": "draw"}
    assert messages[-1] == {"type": "done", "unproven": [], "stopped": False, "why": ""}


def test_a_game_too_big_for_the_solver_keeps_its_estimates(client: TestClient,
                                                           monkeypatch: Any) -> None:
    from zerosum.web import analysis

    monkeypatch.setattr(analysis, "SOLVE_BUDGET", 100)
    sid = session(client, "tictactoe")
    with client.websocket_connect(f"/api/sessions/{sid}/analysis") as ws:
        ws.send_json({"type": "analyse", "seconds": 30})
        messages = until_done(ws)
    estimates = [m["move"] for m in messages if m["type"] == "estimate"]
    assert estimates == [str(c) for c in range(1, 10)]  # nothing decided at depth 4
    assert messages[-1]["why"] == "too big for the solver within 100 positions"
    assert messages[-1]["unproven"] == estimates


def test_the_value_history_marks_decided_values_and_the_moves_that_changed_them(
        client: TestClient) -> None:
    """1 2 9 3: O's 2 loses the draw, X's 9 throws the win away, O's 3 loses again."""
    sid = session(client, "tictactoe", moves="1293")
    values = client.get(f"/api/sessions/{sid}/history").json()["values"]
    assert [v["value"] for v in values] == [0.0, 0.0, 1.0, 0.0, 1.0]
    assert all(v["decided"] for v in values)
    assert [v["bar"] for v in values] == [0, 0, 1, 0, 1]
    assert [v["mark"] for v in values] == [
        "", "", "turned a draw into a loss: draw -> loss", "threw a win away: win -> draw",
        "turned a draw into a loss: draw -> loss"]
    assert values[4]["text"] == "+1 (X wins in 1 ply)"


def test_the_move_list_steps_back_and_a_move_there_starts_a_new_line(
        client: TestClient) -> None:
    sid = session(client, "tictactoe", moves="1293")
    shown = client.post(f"/api/sessions/{sid}/goto", json={"ply": 2}).json()
    assert shown["cursor"] == 2 and shown["moves"] == ["1", "2", "9", "3"]
    assert shown["view"]["last"] == [1] and shown["to_move"] == "X"
    assert "9" in shown["legal"] and "2" not in shown["legal"]
    after = client.post(f"/api/sessions/{sid}/move", json={"move": "5"}).json()
    assert after["moves"] == ["1", "2", "5"] and after["cursor"] == 3
    bad = client.post(f"/api/sessions/{sid}/goto", json={"ply": 9})
    assert (bad.status_code, bad.json()) == (400, {"error": "ply must be 0 to 3"})


def test_verdicts_count_plies_as_the_solve_command_does() -> None:
    # Pons's scores on 7x6 with 16 stones played (red to move, 8 stones each).
    assert verdict(0, 16, 42) == ("draw", None)
    assert verdict(13, 16, 42) == ("win", 1)  # red's 9th stone
    assert verdict(-13, 16, 42) == ("loss", 2)  # yellow's 9th stone
    assert verdict(-5, 16, 42) == ("loss", 18)  # yellow's 17th stone
    assert verdict(5, 15, 42) == ("win", 19)  # yellow to move: its 17th


PAST_THE_BOOK = "1153355"  # its moves' positions, of 8 stones, are past the book


def test_stop_leaves_the_columns_unproven_and_frees_the_slot(client: TestClient) -> None:
    # Seven stones: the book (to 7 stones) knows this position's score, not its moves'
    # (each needs 6.3M nodes or more): no column is proven in a test's time.
    sid = session(client, moves=PAST_THE_BOOK)
    with client.websocket_connect(f"/api/sessions/{sid}/analysis") as ws:
        ws.send_json({"type": "analyse"})
        ws.send_json({"type": "stop"})
        done = until_done(ws)[-1]
    assert done["type"] == "done" and done["stopped"] is True
    assert sorted(done["unproven"]) == ["1", "2", "3", "4", "5", "6", "7"]
    # The one search slot is free again: a second analysis starts.
    with client.websocket_connect(f"/api/sessions/{sid}/analysis") as ws:
        ws.send_json({"type": "analyse", "seconds": 30})
        assert ws.receive_json()["type"] == "started"
        ws.send_json({"type": "stop"})
        assert until_done(ws)[-1]["stopped"] is True


def test_a_bad_budget_is_refused_and_the_socket_stays_open(client: TestClient) -> None:
    with client.websocket_connect(f"/api/sessions/{session(client, moves=NEAR_THE_END)}"
                                  "/analysis") as ws:
        for seconds, shown in ((0, "0"), (-1, "-1"), ("5", "'5'"), (True, "true"),
                               ([[1]], "[[1]]"), (-10**60, "'-10000000000000000000000'... "
                                                           "(62 characters)"),
                               # too big for a float: refused by its range, not converted
                               (10**400, "'100000000000000000000000'... (401 characters)")):
            ws.send_json({"type": "analyse", "seconds": seconds})
            assert ws.receive_json() == {
                "type": "error",
                "error": f"seconds must be a number above 0 and at most 86,400, not {shown}"}
        ws.send_json({"type": "analyse", "seconds": 100})  # the server caps it at 60
        assert ws.receive_json()["seconds"] == 60.0


def test_a_malformed_message_closes_the_connection(client: TestClient) -> None:
    with client.websocket_connect(f"/api/sessions/{session(client)}/analysis") as ws:
        ws.send_text("{\"type\": \"solve everything\"")
        error = ws.receive_json()["error"]
        assert error.startswith("malformed message") and "\n" not in error
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1003


def test_an_unknown_session_is_refused(client: TestClient) -> None:
    with client.websocket_connect("/api/sessions/f00/analysis") as ws:
        assert ws.receive_json() == {
            "type": "error", "error": "no such session (the server may have restarted)"}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008


def think(client: TestClient, sid: str, player: str, seconds: float) -> list[dict[str, Any]]:
    with client.websocket_connect(f"/api/sessions/{sid}/think") as ws:
        ws.send_json({"type": "think", "player": player, "seconds": seconds})
        messages = []
        while not messages or messages[-1]["type"] not in ("result", "error"):
            messages.append(ws.receive_json())
    return messages


def test_infos_carry_the_principal_variations_cells_and_mcts_root_moves(
        client: TestClient) -> None:
    """Each Info names the cells of its principal variation's moves (the drawing's `last`
    after each: a checkers move's whole path), and MCTS's its root moves' visits."""
    sid = session(client, "tictactoe", moves="15")
    infos = [m for m in think(client, sid, "iterative", 5) if m["type"] == "info"]
    last = infos[-1]
    assert last["pv_marks"] == [[int(move) - 1] for move in last["pv"]]
    assert last["root"] == []
    sid = session(client, "checkers")
    infos = [m for m in think(client, sid, "iterative", 0.3) if m["type"] == "info"]
    first = infos[0]  # depth 1: one move, its path from a square to the next row's
    assert len(first["pv_marks"]) == 1 and len(first["pv_marks"][0]) == 2
    (a, b), = first["pv_marks"]
    assert b // 8 == a // 8 + 1  # black moves down the board
    sid = session(client, "tictactoe")
    infos = [m for m in think(client, sid, "mcts", 0.3) if m["type"] == "info"]
    root = infos[-1]["root"]
    assert sorted(r["move"] for r in root) == [str(c) for c in range(1, 10)]
    assert sum(r["visits"] for r in root) <= infos[-1]["nodes"]


def test_the_value_history_of_a_game_too_big_to_solve_is_the_engines_estimate(
        client: TestClient) -> None:
    sid = session(client, "checkers", moves=["C2-D1", "F1-E2", "B3-C2", "E2-D3"])
    values = client.get(f"/api/sessions/{sid}/history").json()["values"]
    assert [v["ply"] for v in values] == [0, 1, 2, 3, 4]
    # zerosum review's values: the engine's at the page's depth (4)
    assert [v["text"] for v in values] == [
        "+0.007 (estimate, about even)", "-0.006 (estimate, about even)",
        "+0.011 (estimate, about even)", "-0.005 (estimate, about even)",
        "+0.11 (estimate, good for Black)"]
    assert all(v["value"] is not None and not v["decided"] for v in values)
    assert all(-1 < v["bar"] < 1 and "estimate" in v["text"] for v in values)
    assert [v["mark"] for v in values] == [""] * 5  # estimates say nothing was thrown away


def test_the_budget_is_the_time_asked_for_and_the_reason_is_the_true_one() -> None:
    """The server's node cap (here 1,000 nodes) bounds a think, not an analysis: the
    16-stone position's columns (46,568 nodes for `zerosum solve --all-moves`) are all
    proven within the time asked for. A budget too short says "time's up" with the
    budget; a stop says "stopped"; the page learns the server's cap from /api/games."""
    with TestClient(create_app(max_searches=1, max_seconds=60.0, max_nodes=1_000)) as c:
        assert c.get("/api/games").json()["limits"] == {"seconds": 60.0, "nodes": 1_000}
        sid = session(c, moves="1411141444142222")
        with c.websocket_connect(f"/api/sessions/{sid}/analysis") as ws:
            ws.send_json({"type": "analyse", "seconds": 60})
            done = until_done(ws)[-1]
        assert (done["unproven"], done["why"]) == ([], "")
        sid = session(c, moves=PAST_THE_BOOK)  # no column proven in 0.2 s
        with c.websocket_connect(f"/api/sessions/{sid}/analysis") as ws:
            ws.send_json({"type": "analyse", "seconds": 0.2})
            done = until_done(ws)[-1]
            assert (done["why"], done["stopped"]) == ("time's up (0.2 s)", False)
            ws.send_json({"type": "analyse", "seconds": 30})
            ws.send_json({"type": "stop"})
            done = until_done(ws)[-1]
        assert (done["why"], done["stopped"], len(done["unproven"])) == ("stopped", True, 7)


def test_what_the_analysis_proves_feeds_the_value_graph(client: TestClient,
                                                        monkeypatch: Any) -> None:
    """16 stones, Red to move, every column a loss (-10 to -5): once the analysis has
    proven them, the graph's last points are proven too, not estimates, and Red's 2 (a
    loss in 8 plies where 3 loses in 18) is no mistake the graph may mark: both lost.
    (The graph's own solvers are told to prove nothing: only the analysis proves.)"""
    from zerosum.review import Valuer

    # Not a budget: a solver's table may already hold this position from another test.
    monkeypatch.setattr(Valuer, "exact_value", lambda self, state: None)
    sid = session(client, moves="1411141444142222")
    before = client.get(f"/api/sessions/{sid}/history").json()["values"]
    assert before[-1]["decided"] is False  # the engine's estimate
    with client.websocket_connect(f"/api/sessions/{sid}/analysis") as ws:
        ws.send_json({"type": "analyse", "seconds": 30})
        assert until_done(ws)[-1]["unproven"] == []
    client.post(f"/api/sessions/{sid}/move", json={"move": "2"})
    after = client.get(f"/api/sessions/{sid}/history").json()["values"]
    assert [(p["decided"], p["text"], p["mark"]) for p in after[-2:]] == [
        (True, "-1 (Yellow wins, proven)", ""),
        (True, "-1 (Yellow wins in 7 plies)", "")]


def test_a_win_the_analysis_proved_and_a_move_threw_away_is_marked() -> None:
    """Tic-tac-toe from a position too big for the graph's own solve (its budget cut to
    10 positions): X, to move after 1 2, wins with 4, 5 or 7 (the analysis proves it);
    X's 3 draws, so the graph marks it as the win thrown away."""
    from zerosum.web import analysis

    with TestClient(create_app(max_searches=1, max_seconds=60.0)) as c:
        original = analysis.HISTORY_BUDGET
        analysis.HISTORY_BUDGET = 10
        try:
            sid = session(c, "tictactoe", moves="12")
            with c.websocket_connect(f"/api/sessions/{sid}/analysis") as ws:
                ws.send_json({"type": "analyse", "seconds": 30})
                assert until_done(ws)[-1]["unproven"] == []
            c.post(f"/api/sessions/{sid}/move", json={"move": "3"})
            after = c.get(f"/api/sessions/{sid}/history").json()["values"]
        finally:
            analysis.HISTORY_BUDGET = original
    assert [(p["decided"], p["text"]) for p in after[2:]] == [
        (True, "+1 (X wins, proven)"), (True, "0 (draw, proven)")]
    assert after[3]["mark"] == "threw a win away: win -> draw"
