"""`zerosum ugi`: a zerosum player as a UGI engine (zerosum.ugi), driven as a match runner
drives one: in process line by line, and two engine processes playing each other."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from zerosum.games.registry import get_game
from zerosum.players.spec import agent_from_spec
from zerosum.result import Info, Limit
from zerosum.ugi import UgiEngine

ROOT = Path(__file__).resolve().parents[1]


def engine(game: str = "tictactoe", player: str = "alphabeta") -> tuple[UgiEngine, io.StringIO]:
    spec = get_game(game)
    agent = agent_from_spec(spec, player, 1)
    out = io.StringIO()
    return UgiEngine(agent.name, spec.create, agent.start, out,
                     None if spec.position is None else spec.position.parse), out


def talk(ugi: UgiEngine, out: io.StringIO, *lines: str) -> list[str]:
    """What the engine says to `lines`, its search (if any) left to finish on its own:
    no stop is sent unless a line says so."""
    for line in lines:
        if not ugi.handle(line):
            break
    ugi.answered.wait()
    said = out.getvalue().splitlines()
    out.seek(0)
    out.truncate()
    return said


def test_handshake_queries_and_a_search() -> None:
    ugi, out = engine()
    assert talk(ugi, out, "ugi", "isready") == [
        "id name zerosum alphabeta", "id author zerosum", "ugiok", "readyok"]
    assert talk(ugi, out, "uginewgame", "position startpos moves 5 1", "query p1turn",
                "query gameover", "query result") == [
        "response true", "response false", "response none"]
    said = talk(ugi, out, "go depth 3")
    # Alpha-beta streams nothing while it runs: one info line from its result, the
    # value from the mover's side in hundredths of a win.
    assert re.fullmatch(r"info depth 3 seldepth 3 score cp 33 time \d+ nodes 126 pv 6 4 7",
                        said[0]), said
    assert said[1:] == ["bestmove 6"]


def test_go_depth_reaches_that_depth_with_a_stepping_engine() -> None:
    # Connect Four's engine deepens two plies at a time; a depth between its steps is
    # its last pass all the same.
    ugi, out = engine("connect4", "engine")
    said = talk(ugi, out, "position startpos", "go depth 4")
    assert [" ".join(line.split()[:2]) for line in said[:-1]] == [
        "info depth", "info depth", "info depth"]
    assert [int(line.split()[2]) for line in said[:-1]] == [1, 3, 4]
    assert re.fullmatch(r"info depth 4 score cp 0 time \d+ nodes 240 pv 4 4 4 4", said[2])
    said = talk(ugi, out, "go depth 2")
    assert [line.split()[:3] for line in said] == [
        ["info", "depth", "1"], ["info", "depth", "2"], ["bestmove", "4"]]


@pytest.mark.parametrize(("line", "limit", "infinite"), [
    ("go depth 4", Limit(depth=4), False),
    ("go movetime 250", Limit(depth=6, seconds=0.25), False),
    ("go nodes 500", Limit(depth=6, nodes=500), False),
    # cutegames' clock, all four: X (p1) to move takes 1/20 of 1 s plus its 10 ms
    ("go p1time 1000 p2time 2000 p1inc 10 p2inc 20", Limit(depth=6, seconds=0.06), False),
    # ... at most half its time left
    ("go p1time 30 p2time 2000 p1inc 100 p2inc 20", Limit(depth=6, seconds=0.015), False),
    ("go infinite", Limit(depth=6), True),  # none of the player's time: until stop
    ("go", Limit(depth=6, seconds=1.0), False),  # the player's own limit
])
def test_each_kind_of_go_and_the_players_own_limit(line: str, limit: Limit,
                                                   infinite: bool) -> None:
    spec = get_game("tictactoe")
    ugi = UgiEngine("test", spec.create, agent_from_spec(spec, "alphabeta").start,
                    io.StringIO(), own=Limit(depth=6, seconds=1.0))
    got, endless = ugi.limit(line.split()[1:])
    assert (got.depth, got.nodes, endless) == (limit.depth, limit.nodes, infinite)
    assert got.seconds == pytest.approx(limit.seconds)


def test_go_infinite_answers_only_after_stop() -> None:
    ugi, out = engine("tictactoe", "iterative")
    ugi.handle("position startpos moves 1 4 2 5")
    ugi.handle("go infinite")
    assert ugi.searched.wait(60)  # the search has its answer (X wins at 3) ...
    assert not ugi.answered.is_set()  # ... and keeps it for stop
    assert re.fullmatch(r"info depth 1 seldepth 1 score mate 1 time \d+ nodes 6 pv 3\n",
                        out.getvalue()), out.getvalue()
    assert talk(ugi, out, "stop")[-1:] == ["bestmove 3"]
    # The game over: no move, `0000`, also only after stop.
    ugi.handle("position startpos moves 1 4 2 5 3")
    ugi.handle("go infinite")
    assert ugi.searched.wait(60) and out.getvalue() == ""
    assert talk(ugi, out, "stop") == ["bestmove 0000"]


def test_a_search_cut_short_by_stop_claims_no_score() -> None:
    # Alpha-beta to the end of Connect Four cannot finish before the stop it is sent.
    ugi, out = engine("connect4", "alphabeta:depth=0")
    said = talk(ugi, out, "position startpos", "go infinite", "stop")
    assert re.fullmatch(r"info seldepth \d+ time \d+ nodes \d+", said[0]), said
    assert said[1:] == ["info string stopped before the search finished", "bestmove 1"]


def test_options_are_the_players_settings_and_setoption_changes_them() -> None:
    from zerosum.cli.ugi import player_options, searcher

    spec = get_game("tictactoe")
    agent = searcher(spec, "alphabeta:depth=3", None)
    options, configure = player_options(spec, "alphabeta:depth=3", agent, None)
    out = io.StringIO()
    ugi = UgiEngine(agent.name, spec.create, agent.start, out, None, agent.limit, options,
                    configure)
    assert talk(ugi, out, "ugi") == [
        "id name zerosum alphabeta:depth=3",
        "id author zerosum",
        "option name time type string default none",
        "option name depth type spin default 3 min 0 max 99",
        "option name nodes type string default none",
        "option name seed type string default none",
        "option name off type string default none",
        "ugiok"]
    said = talk(ugi, out, "setoption name depth value 2", "position startpos moves 5", "go")
    # Depth 2: O's search after X took the centre, as `zerosum analyse` finds it.
    assert re.fullmatch(r"info depth 2 seldepth 2 score cp -33 time \d+ nodes 23 pv 1 3",
                        said[0]), said
    assert said[1:] == ["bestmove 1"]
    assert talk(ugi, out, "setoption name depth value -1", "setoption name time value 0.5",
                "setoption name depth value none") == [
        "info string error: player 'alphabeta:depth=-1': depth must be a whole number "
        "from 0 to 99, not '-1'"]
    # Depth unset: the game's default (9) again, which a budget of 40 nodes cuts short.
    said = talk(ugi, out, "go nodes 40")
    assert re.fullmatch(r"info seldepth 8 time \d+ nodes 41", said[0]), said
    assert said[1:] == ["info string stopped before the search finished", "bestmove 1"]
    assert ugi.own == Limit(depth=9, seconds=0.5)


def test_a_piped_session_reaches_the_depth_asked_before_its_input_ends() -> None:
    # As cutegames' example session goes, the input ending after `go`: the search with
    # a limit still finishes (a `go infinite` would be stopped).
    lines = "ugi\nisready\nuginewgame\nposition startpos\nquery p1turn\ngo depth 4\n"
    p = subprocess.run([sys.executable, "-m", "zerosum", "ugi", "connect4"], cwd=ROOT,
                       input=lines, capture_output=True, text=True, timeout=60)
    said = [line for line in re.sub(r" time \d+ ", " time T ", p.stdout).splitlines()
            if not line.startswith("option ")]
    assert (p.returncode, p.stderr) == (0, "")
    assert said == ["id name zerosum engine", "id author zerosum", "ugiok", "readyok",
                    "response true",
                    "info depth 1 score cp 1 time T nodes 8 pv 4",
                    "info depth 3 score cp 1 time T nodes 83 pv 4 4 4",
                    "info depth 4 score cp 0 time T nodes 240 pv 4 4 4 4",
                    "bestmove 4"]


def test_a_finished_game_and_its_result() -> None:
    ugi, out = engine()
    assert talk(ugi, out, "position startpos moves 1 4 2 5 3", "query gameover",
                "query result", "query p1turn", "go movetime 50") == [
        "response true", "response p1win", "response false", "bestmove 0000"]


@pytest.mark.parametrize(("moves", "value", "decided", "plies", "score"), [
    ("", 0.25, False, None, "cp 25"),  # X to move, an estimate for X
    ("5", 0.25, False, None, "cp -25"),  # O to move: the same value is against O
    ("", 1, True, 5, "mate 3"),  # X wins in 5 plies: 3 of X's moves
    ("5", 1, True, 4, "mate -2"),  # O loses in 4 plies: 2 of O's moves
    ("5", -1, True, None, "cp 100000"),  # O wins, proven, distance unknown
    ("", 0, True, 9, "cp 0"),  # a proven draw
])
def test_scores_are_from_the_movers_side(moves: str, value: float, decided: bool,
                                         plies: int | None, score: str) -> None:
    ugi, out = engine()
    talk(ugi, out, f"position startpos moves {moves}")
    assert ugi.score(Info(depth=1, value=value, pv=(), nodes=1, elapsed=0.0,
                          decided=decided, plies=plies)) == score


@pytest.mark.parametrize(("line", "error"), [
    ("bogus", "unknown command 'bogus'"),
    ("position startpos moves 1 1", "move 2 (1): cell 1 is not free"),
    ("position fen x", "this game has no position format: use startpos and moves"),
    ("position", "position takes startpos or fen TEXT, then moves"),
    ("go depth x", "go depth must be a whole number from 0 to 1,000,000,000,000, not 'x'"),
    ("go depth ²", "go depth must be a whole number from 0 to 1,000,000,000,000, not '²'"),
    ("go movetime -3", "go movetime must be a whole number from 0 to 1,000,000,000,000, not '-3'"),
    ("go wtime 100", "go: unknown 'wtime'"),
    ("query colour", "query takes gameover, p1turn or result"),
    ("setoption name hash value 4", "no option 'hash' (options: none)"),
    ("setoption depth 4", "setoption takes name NAME value VALUE"),
])
def test_a_bad_line_is_answered_and_changes_nothing(line: str, error: str) -> None:
    ugi, out = engine()
    assert talk(ugi, out, "position startpos moves 5", line, "query p1turn") == [
        f"info string error: {error}", "response false"]


def test_checkers_positions_come_as_fen() -> None:
    ugi, out = engine("checkers", "alphabeta:depth=2")
    said = talk(ugi, out, "position fen W:W18:B14 moves 18x9", "query gameover",
                "query result")
    # White (the second player) takes Black's last piece.
    assert said == ["response true", "response p2win"]


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "zerosum", "ugi", *args], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def ask(proc: subprocess.Popen[str], line: str, until: str) -> list[str]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    said = []
    while True:
        answer = proc.stdout.readline()
        assert answer, f"the engine ended after {said}"
        said.append(answer.strip())
        if answer.startswith(until):
            return said


def test_two_engine_processes_play_a_game_refereed_by_zerosum() -> None:
    spec = get_game("connect4")
    game = spec.create(width=5, height=4)
    engines = [start("connect4", "--width", "5", "--height", "4", "--player", "engine"),
               start("connect4", "--width", "5", "--height", "4", "--player", "mcts:seed=4")]
    try:
        for proc in engines:
            assert ask(proc, "ugi", "ugiok")[-1] == "ugiok"
            assert ask(proc, "isready", "readyok") == ["readyok"]
        state, moves = game.initial_state(), []
        while not game.is_terminal(state):
            proc = engines[len(moves) % 2]
            position = "position startpos" + (" moves " + " ".join(moves) if moves else "")
            proc.stdin.write(position + "\n")  # type: ignore[union-attr]
            said = ask(proc, "go movetime 30", "bestmove")
            move = said[-1].split()[1]
            state = game.result(state, game.parse_move(state, move))  # legal, or it raises
            moves.append(move)
        expected = {1: "p1win", -1: "p2win", 0: "draw"}[int(game.utility(state) > 0)
                                                         - int(game.utility(state) < 0)]
        for proc in engines:
            proc.stdin.write(f"position startpos moves {' '.join(moves)}\n")  # type: ignore[union-attr]
            assert ask(proc, "query result", "response") == [f"response {expected}"]
    finally:
        for proc in engines:
            proc.communicate("quit\n", timeout=30)
    assert [proc.returncode for proc in engines] == [0, 0]


def test_go_infinite_searches_until_stop() -> None:
    proc = start("connect4", "--player", "iterative")
    try:
        # Searching: its first pass reported (an event to wait for, not a time).
        first = ask(proc, "go infinite", "info depth")
        said = ask(proc, "stop", "bestmove")
        assert said[-1] == "bestmove 4" and first == [first[0]]
        assert first[0].startswith("info depth 1 ")
    finally:
        proc.communicate("quit\n", timeout=30)
    assert proc.returncode == 0


def test_a_bad_player_spec_is_one_line() -> None:
    p = subprocess.run([sys.executable, "-m", "zerosum", "ugi", "tictactoe", "--player",
                        "deep-blue"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and "unknown player 'deep-blue'" in p.stderr


@pytest.mark.parametrize(("moves", "value", "decided", "plies"), [
    ("", 0.25, False, None),
    ("5", 0.25, False, None),
    ("", 1, True, 5),
    ("5", 1, True, 4),
    ("5", -1, True, None),
])
def test_the_driver_reads_back_what_the_engine_says(moves: str, value: float, decided: bool,
                                                    plies: int | None) -> None:
    from zerosum.ugi import read_info

    ugi, out = engine()
    talk(ugi, out, f"position startpos moves {moves}")
    info = Info(depth=4, value=value, pv=(0, 1), nodes=77, elapsed=0.012, decided=decided,
                plies=plies)
    ugi.report(info)
    line = out.getvalue().strip()
    heard = read_info(ugi.game, ugi.state, line)
    assert heard is not None
    assert (heard.depth, heard.nodes, heard.pv, heard.elapsed) == (4, 77, (0, 1), 0.012)
    assert (heard.value, heard.decided, heard.plies) == (value, decided, plies)


@pytest.mark.parametrize(("line", "move"), [
    ("bestmove 5", 4),
    ("bestmove 0", "bestmove '0' is not a move here: a move is a cell number 1-9 (row by row), "
                   "not '0'"),
    ("bestmove", "bestmove names no move"),
    ("bestmove 0000", "bestmove 0000: the engine has no move, but the game is not over"),
    ("bestmove 5 ponder 1", 4),
])
def test_a_bestmove_is_a_legal_move_or_an_error(line: str, move: object) -> None:
    from zerosum.game import InputError
    from zerosum.ugi import read_bestmove

    game = get_game("tictactoe").create()
    if isinstance(move, int):
        assert read_bestmove(game, game.initial_state(), line) == move
    else:
        with pytest.raises(InputError) as e:
            read_bestmove(game, game.initial_state(), line)
        assert str(e.value) == move


@pytest.mark.parametrize(("limit", "line"), [
    (Limit(depth=3), "go depth 3"),
    (Limit(nodes=200), "go nodes 200"),
    (Limit(seconds=0.5), "go movetime 500"),
    (Limit(seconds=0.0001), "go movetime 1"),
    (Limit(depth=3, seconds=1.0), "go depth 3"),
    (Limit(), "go infinite"),
])
def test_the_driver_sends_one_kind_of_go(limit: Limit, line: str) -> None:
    from zerosum.ugi import go_command

    assert go_command(limit) == line
