"""`zerosum serve --tournament DB`: a tournament's standings and a game replayed move by
move, through the API and in headless Chromium. The database is a real tournament's
(random against alphabeta at depth 1), its second agent renamed as a class tournament's
student with a name made to break a page."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import live_server, screenshot

from zerosum.cli import main

pytest.importorskip("starlette")

SPEC = "alphabeta:depth=1"
STUDENT = "<b>bold<i>"  # a student's key is always safe; the page must not trust that
ENTRANT = f"course:comp3608,dir=/x/t.sqlite.builds/{STUDENT}:./ConnectFour"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("tournament") / "t.sqlite"
    with pytest.raises(SystemExit) as done:
        raise SystemExit(main(["tournament", "connect4", "--agent", "random", "--agent", SPEC,
                               "--games", "2", "--workers", "1", "--db", str(path)]))
    assert done.value.code == 0
    with sqlite3.connect(path) as con:
        for table, column in (("settings", "json"), ("games", "job"), ("games", "result"),
                              ("games", "first"), ("games", "second")):
            con.execute(f"UPDATE {table} SET {column} = replace({column}, ?, ?)",
                        (SPEC, ENTRANT))
    return str(path)


@pytest.fixture(scope="module")
def server(db: str) -> Iterator[str]:
    from zerosum.web.app import create_app

    with live_server(create_app(tournament=db)) as base:
        yield base


def test_the_standings_and_a_replay_as_json(db: str) -> None:
    from starlette.testclient import TestClient

    from zerosum.web.app import create_app

    client = TestClient(create_app(tournament=db))
    data = client.get("/api/tournament").json()
    assert data["game"] == "connect4" and data["total"] == 2 and data["played"] == 2
    assert [r["name"] for r in data["standings"]] == [STUDENT, "random"]
    assert [r["points"] for r in data["standings"]] == [2.0, 0.0]
    assert [(g["number"], g["first"], g["second"]) for g in data["games"]] == [
        (2, STUDENT, "random"), (1, "random", STUDENT)]
    game = client.get("/api/tournament/games/1").json()
    plies = game["plies"]
    assert plies[0]["note"] == "the start" and set(plies[0]["view"]["cells"]) == {""}
    assert [p["by"] for p in plies[1:3]] == ["opening", "opening"]  # two random plies
    assert plies[3]["by"] == "random" and plies[4]["by"] == STUDENT
    assert game["score"] == "0-1" and game["reason"].startswith("Yellow wins")
    stones = [sum(c != "" for c in p["view"]["cells"]) for p in plies]
    assert stones == list(range(len(plies)))  # one stone more a ply, none lost
    assert client.get("/api/tournament/games/9").status_code == 404
    assert client.get("/api/tournament/games/x1").status_code == 400


def test_the_page_shows_the_standings_and_steps_through_a_game(server: str,
                                                                page: Any) -> None:
    page.goto(f"{server}/tournament")
    page.wait_for_selector("#standings tbody tr")
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).locator("td").nth(1).text_content() == STUDENT
    assert page.locator("#standings b, #games b").count() == 0  # shown as text, not HTML
    assert page.inner_text("#summary") == "connect4: 2 of 2 games played"
    page.wait_for_selector("#replay-board svg")  # the latest game, at its end
    title = page.inner_text("#replay-title")
    assert title.startswith(f"Game 2: {STUDENT} – random, 1-0")
    last = int(page.get_attribute("#ply", "max") or 0)
    assert page.input_value("#ply") == str(last)
    page.click("#first")
    assert page.inner_text("#ply-note") == "the start"
    page.click("#forward")
    page.click("#forward")
    page.click("#forward")
    assert page.inner_text("#ply-note").startswith("move 3: ")
    assert page.inner_text("#ply-note").endswith(f" by {STUDENT}")
    page.locator("#games tbody tr").nth(1).click()  # game 1
    page.wait_for_function("document.querySelector('#replay-title').textContent"
                           ".startsWith('Game 1:')")
    shot = screenshot(page, "tournament-replay")
    assert shot.stat().st_size > 10_000


def test_serve_refuses_a_file_that_is_no_tournament_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.sqlite"
    with pytest.raises(SystemExit) as done:
        raise SystemExit(main(["serve", "--tournament", str(missing)]))
    assert done.value.code == 2
    assert capsys.readouterr().err == f"zerosum: error: no tournament database {missing}\n"
    assert not missing.exists()
