"""Connect Four analysis over its WebSocket (zerosum.web.analysis), through Starlette's
test client: every column's estimate, then the solver's verdicts, as the solver finds them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient  # the `dev` extra installs the `web` one
from starlette.websockets import WebSocketDisconnect

from zerosum.games.connect4.game import Connect4
from zerosum.games.connect4.solver import Solver
from zerosum.web.analysis import verdict
from zerosum.web.app import create_app

# 26 stones, red to move: red wins at once in 1, 2, 4 or 6 and loses at once elsewhere.
NEAR_THE_END = "75714731126547633713426512"


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(max_searches=1, max_seconds=60.0)) as c:
        yield c


def session(client: TestClient, game: str = "connect4", moves: str = "") -> str:
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
                           "columns": ["1", "2", "3", "4", "5", "6", "7"]}
    # Each column ends the game at once or lets the opponent win at once: decided even
    # at the estimate's depth, so each is sent as proven (never as an estimate), in the
    # engine's order, and the solver has nothing left to do.
    assert [m for m in messages if m["type"] == "estimate"] == []
    columns = [m for m in messages if m["type"] == "column"]
    assert [m["column"] for m in columns] == ["1", "2", "3", "4", "5", "6", "7"]
    game = Connect4()
    state = game.initial_state()
    for move in NEAR_THE_END:
        state = game.result(state, game.parse_move(state, move))
    solver = Solver()
    for m in columns:
        score = solver.move_score(state.current, state.mask, int(m["column"]) - 1)
        assert m["score"] == score
    assert {m["column"]: m["verdict"] for m in columns} == {
        "1": "wins in 1 ply", "2": "wins in 1 ply", "4": "wins in 1 ply",
        "6": "wins in 1 ply", "3": "loses in 2 plies", "5": "loses in 2 plies",
        "7": "loses in 2 plies"}
    assert {m["outcome"] for m in columns} == {"win", "loss"}
    assert messages[-1] == {"type": "done", "unproven": [], "stopped": False}


def test_verdicts_count_plies_as_the_solve_command_does() -> None:
    # Pons's scores on 7x6 with 16 stones played (red to move, 8 stones each).
    assert verdict(0, 16, 42) == ("draw", "draw")
    assert verdict(13, 16, 42) == ("win", "wins in 1 ply")  # red's 9th stone
    assert verdict(-13, 16, 42) == ("loss", "loses in 2 plies")  # yellow's 9th stone
    assert verdict(-5, 16, 42) == ("loss", "loses in 18 plies")  # yellow's 17th stone
    assert verdict(5, 15, 42) == ("win", "wins in 19 plies")  # yellow to move: its 17th


def test_stop_leaves_the_columns_unproven_and_frees_the_slot(client: TestClient) -> None:
    # Three stones, past the opening book: no column is proven in a test's time.
    sid = session(client, moves="444")
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
                                                           "(62 characters)")):
            ws.send_json({"type": "analyse", "seconds": seconds})
            assert ws.receive_json() == {
                "type": "error", "error": f"seconds must be a positive number, not {shown}"}
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


@pytest.mark.parametrize(("game", "error"), [
    ("tictactoe", "analysis is for Connect Four only, not Tic-tac-toe"),
    (None, "no such session (the server may have restarted)"),
])
def test_only_connect_four_sessions_are_analysed(client: TestClient, game: str | None,
                                                 error: str) -> None:
    sid = "f00" if game is None else session(client, game)
    with client.websocket_connect(f"/api/sessions/{sid}/analysis") as ws:
        assert ws.receive_json() == {"type": "error", "error": error}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008
