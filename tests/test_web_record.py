"""Game records of the web app: `GET /api/sessions/{id}/record` in each game's notation."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from zerosum.web.app import create_app


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(max_searches=1, max_seconds=60.0)) as c:
        yield c


def new(client: TestClient, game: str) -> str:
    sid: str = client.post("/api/sessions", json={"game": game}).json()["id"]
    return sid


def computer_move(client: TestClient, sid: str, player: str, depth: int) -> dict[str, Any]:
    with client.websocket_connect(f"/api/sessions/{sid}/think") as ws:
        ws.send_json({"type": "think", "player": player, "depth": depth, "seconds": 60})
        while True:
            m: dict[str, Any] = ws.receive_json()
            if m["type"] not in ("info", "started"):
                assert m["type"] == "result", m
                return m


def without_times(text: str) -> str:
    """Search times vary from run to run; everything else in a record is exact."""
    return re.sub(r"\d+\.\d\d s\b", "T s", text)


def test_checkers_record_is_pdn_with_the_computer_figures(client: TestClient) -> None:
    sid = new(client, "checkers")
    assert client.post(f"/api/sessions/{sid}/move", json={"move": "C2-D1"}).status_code == 200
    result = computer_move(client, sid, "alphabeta", 2)
    assert (result["move"], result["nodes"]) == ("F3-E2", 17)
    response = client.get(f"/api/sessions/{sid}/record")
    assert response.status_code == 200
    today = datetime.date.today()
    assert response.headers["content-disposition"] == \
        f'attachment; filename="checkers-{today:%Y%m%d}.pdn"'
    assert without_times(response.text) == (
        '[Event "zerosum game"]\n'
        f'[Date "{today:%Y.%m.%d}"]\n'
        '[Black "human"]\n'
        '[White "alphabeta"]\n'
        '[Result "*"]\n'
        "\n"
        "1. 9-13 22-17 {+0.01 (estimate, about even), depth 2, 17 nodes, T s} *\n")


def test_checkers_record_from_a_set_up_position_carries_its_fen(client: TestClient) -> None:
    fen = "W:W18:B14"  # White to move captures the last black man
    sid = client.post("/api/sessions", json={"game": "checkers", "position": fen}).json()["id"]
    assert client.post(f"/api/sessions/{sid}/move", json={"move": "18x9"}).status_code == 200
    text = client.get(f"/api/sessions/{sid}/record").text
    assert '[Black "?"]\n[White "human"]\n[Result "0-1"]\n[SetUp "1"]\n' in text
    assert text.endswith("\n\n1... 18x9 0-1\n")


def test_connect4_record_is_the_move_string_and_one_line_a_computer_move(
        client: TestClient) -> None:
    sid = new(client, "connect4")
    client.post(f"/api/sessions/{sid}/move", json={"move": "4"})
    result = computer_move(client, sid, "alphabeta", 3)
    client.post(f"/api/sessions/{sid}/move", json={"move": "1"})
    response = client.get(f"/api/sessions/{sid}/record")
    assert response.headers["content-disposition"].endswith(
        f'connect4-{datetime.date.today():%Y%m%d}.txt"')
    assert without_times(response.text) == (
        f"4{result['move']}1\n"
        f"2. {result['move']}  alphabeta: value {result['value']}, depth 3, "
        f"{result['nodes']:,} nodes, T s\n"
        "unfinished\n")
    assert (result["move"], result["nodes"]) == ("4", 76)


def test_other_games_list_the_moves_as_typed_and_the_outcome(client: TestClient) -> None:
    sid = new(client, "tictactoe")
    for move in ("1", "4", "2", "5", "3"):
        assert client.post(f"/api/sessions/{sid}/move", json={"move": move}).status_code == 200
    text = client.get(f"/api/sessions/{sid}/record").text
    assert text == "1. 1\n2. 4\n3. 2\n4. 5\n5. 3\nX wins: three in a row\n"


def test_record_of_an_unknown_session_is_404(client: TestClient) -> None:
    response = client.get("/api/sessions/nope/record")
    assert response.status_code == 404 and "no session 'nope'" in response.json()["error"]
