"""A person's own game and agent in the browser: `zerosum serve --game-file FILE --agent
FILE.py` (the app through Starlette's TestClient, then the page in headless Chromium)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from browser import live_server, screenshot
from starlette.testclient import TestClient

from zerosum.cli import main
from zerosum.cli.serve import own_games_and_agents
from zerosum.web.app import create_app

ROOT = Path(__file__).resolve().parents[1]
GAME = str(ROOT / "docs" / "examples" / "mygame.py")
AGENT = str(ROOT / "docs" / "examples" / "myagent.py")
PLAYERS = ["random", "minimax", "alphabeta", "depth-limited", "iterative", "mcts", AGENT]


def app(game_files: list[str], agents: list[str]) -> Any:
    games, specs = own_games_and_agents(game_files, agents)
    return create_app(max_searches=2, max_seconds=5.0, own_games=games, agents=specs)


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(app([GAME], [AGENT])) as c:
        yield c


def think(client: TestClient, sid: str, player: str) -> dict[str, Any]:
    with client.websocket_connect(f"/api/sessions/{sid}/think") as ws:
        ws.send_json({"type": "think", "player": player})
        while True:
            m: dict[str, Any] = ws.receive_json()
            if m["type"] in ("result", "error"):
                return m


def test_the_game_file_joins_the_menu_and_the_agent_file_every_game(
        client: TestClient) -> None:
    games = client.get("/api/games").json()["games"]
    assert [g["name"] for g in games] == ["checkers", "connect4", "maxconnect4", "nqueens",
                                          "takestones", "tictactoe", "mygame"]
    assert games[-1] == {"name": "mygame", "title": "mygame", "summary": "", "options": [],
                         "players": PLAYERS, "default_player": "iterative",
                         "position": None}
    assert games[-2]["players"][-1] == AGENT
    s = client.post("/api/sessions", json={"game": "mygame"}).json()
    assert (s["view"], s["legal"]) == ({"kind": "text", "text": "21 counters left"},
                                       ["1", "2", "3"])
    s = client.post(f"/api/sessions/{s['id']}/move", json={"move": "2"}).json()
    # 19 left: Greedy cannot win at once, and every move leaves 16-18, none a win for
    # the person in one: it picks among the three by its seed.
    m = think(client, s["id"], AGENT)
    assert m["type"] == "result" and m["move"] in ("1", "2", "3")
    assert m["state"]["moves"] == ["2", m["move"]]
    # The agent plays zerosum's games too: a win in one is taken.
    s = client.post("/api/sessions", json={"game": "tictactoe"}).json()
    for move in ("1", "4", "2", "5"):
        client.post(f"/api/sessions/{s['id']}/move", json={"move": move})
    m = think(client, s["id"], AGENT)
    assert (m["move"], m["state"]["outcome"]) == ("3", "X wins: three in a row")


def test_an_agent_files_illegal_move_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "illegal.py"
    bad.write_text("class A:\n    def play(self, game, state):\n        return 42\n\n"
                   "def make_agent(seed, **settings):\n    return A()\n")
    with TestClient(app([], [str(bad)])) as c:
        s = c.post("/api/sessions", json={"game": "tictactoe"}).json()
        m = think(c, s["id"], str(bad))
        assert m == {"type": "error",
                     "error": f"the search failed: {bad} played an illegal move, 42"}
        assert c.get(f"/api/sessions/{s['id']}").json()["moves"] == []


@pytest.mark.parametrize(("args", "message"), [
    (["--game-file", "nowhere.py"], "game file nowhere.py: no such file"),
    (["--agent", "alphabeta"], "--agent alphabeta: give your own agent's file, "
                               "FILE.py[:SETTING=VALUE,...]; the page offers zerosum's players"),
    (["--agent", f"{AGENT}:greed=2"], f"agent file {AGENT}, line 52: ValueError while "
                                      "making the agent: Greedy takes no settings, not greed"),
    (["--game-file", "{tmp}/tictactoe.py"], "two games named 'tictactoe': rename your game "
                                            "file (or give its GameSpec another name)"),
])
def test_serve_refuses_a_broken_file_in_one_line(args: list[str], message: str,
                                                 tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn

    (tmp_path / "tictactoe.py").write_text((ROOT / "docs/examples/mygame.py").read_text())
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: pytest.fail("the server started"))
    assert main(["serve", *[a.format(tmp=tmp_path) for a in args]]) == 2
    assert capsys.readouterr() == ("", f"zerosum: error: {message}\n")


def test_serve_passes_the_files_to_the_app(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    import uvicorn

    apps: list[Any] = []

    def run(server: Any, sockets: list[Any]) -> None:  # the app kept instead of served
        apps.append(server.config.app)

    monkeypatch.setattr(uvicorn.Server, "run", run)
    with socket.socket() as s:  # a port free now
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert main(["serve", "--game-file", GAME, "--agent", AGENT, "--port", str(port)]) == 0
    with TestClient(apps[0]) as c:
        assert c.get("/api/games").json()["games"][-1]["players"] == PLAYERS
    assert capsys.readouterr().err == ""


def test_the_page_plays_the_game_file_against_the_agent_file(page: Any) -> None:
    with live_server(app([GAME], [AGENT])) as url:
        page.goto(url)
        page.wait_for_selector("#board")
        page.select_option("#game", "mygame")  # choosing it starts it
        page.wait_for_function("() => document.querySelector('#board pre')?.textContent"
                               " === '21 counters left'")
        page.select_option("#player", AGENT)
        page.fill("#move", "3")
        page.press("#move", "Enter")
        page.wait_for_function("() => document.querySelector('#status').textContent"
                               ".endsWith('(you)') && document.querySelector('#moves')"
                               ".textContent.split(' ').length === 3")
        played = page.inner_text("#moves").removeprefix("Moves: ").split()
        assert played[0] == "3" and played[1] in ("1", "2", "3")
        assert page.inner_text("#board pre") == f"{18 - int(played[1])} counters left"
        assert page.inner_text("#error") == ""
        screenshot(page, "own-game-and-agent")


def test_a_wide_text_board_fits_the_page(page: Any, tmp_path: Path) -> None:
    """A person's game draws itself as text: its longest line fits the board's width
    (the font shrinks with it; it was cut off), and a short board keeps the page's size."""
    text = Path(GAME).read_text()
    start = text.index("    def render(")
    end = text.index("\n\n", start)
    wide = tmp_path / "wide.py"
    wide.write_text(text[:start] + "    def render(self, state):\n        return '\\n'.join("
                    "['|' + 'o ' * 12 + '|  row ' + str(r) + ' of the counters on the long "
                    "table' for r in range(3)] + [f'{state[0]} counters left'])"
                    + text[end:])
    with live_server(app([str(wide), GAME], [])) as url:
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(url)
        page.wait_for_selector("#board")
        page.select_option("#game", "wide")
        page.wait_for_selector("#board pre")
        scroll, client, size = page.eval_on_selector(
            "#board pre", "e => [e.scrollWidth, e.clientWidth, getComputedStyle(e).fontSize]")
        assert scroll <= client and float(size.removesuffix("px")) < 17.6
        screenshot(page, "own-game-wide-text")
        page.select_option("#game", "mygame")
        page.wait_for_function("() => document.querySelector('#board pre')?.textContent"
                               " === '21 counters left'")
        assert page.eval_on_selector("#board pre", "e => getComputedStyle(e).fontSize") \
            == "17.6px"  # 1.1rem
