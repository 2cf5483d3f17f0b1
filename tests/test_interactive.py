"""Interactive play: menu help and bad answers, end-of-game lines, the progress line,
Ctrl-C while the computer thinks, and every engine honouring a stop."""

from __future__ import annotations

import io
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from clocks import SteppingClock

from zerosum.cli import main as zerosum
from zerosum.cli.play import ask_depth, full_search_note, menu, start
from zerosum.console import EndOfInput, choose
from zerosum.game import AnyGame
from zerosum.games.checkers import Checkers
from zerosum.games.connect4 import Connect4
from zerosum.games.maxconnect4 import MaxConnect4, parse_board
from zerosum.games.nqueens import nqueens
from zerosum.games.registry import all_games, get_game
from zerosum.games.takestones import TakeStones
from zerosum.games.tictactoe import TicTacToe
from zerosum.players.agents import ComputerAgent, EngineAgent, engines_of, playable
from zerosum.players.catalogue import searcher
from zerosum.players.terminal import HumanAgent, Quit, Watch, progress_line
from zerosum.result import Info, InfoSink, Limit
from zerosum.running import Progress, Running
from zerosum.search import SearchResult, Stop
from zerosum.search.estimate import ALPHABETA_COST, PROBE_NODES, full_search_cost

ROOT = Path(__file__).resolve().parents[1]


class Terminal(io.StringIO):
    """Output that says it is a terminal, so the progress line is drawn."""

    def isatty(self) -> bool:
        return True


def test_menu_help_and_bad_answers() -> None:
    out = io.StringIO()
    items = [("first", "first (moves first)"), ("second", "second")]
    inp = io.StringIO("?\n\u00b2\n99999999999999999999\nabc\n2\n")
    assert choose(inp, out, "Your side:", items, help="  first: you move first.") == "second"
    assert out.getvalue() == (
        "\nYour side:\n  1. first (moves first)\n  2. second\n"
        "Choice [1]:   first: you move first.\n  Type the number of your choice.\n"
        "Choice [1]:   not valid: the choice must be a whole number from 1 to 2, not "
        "'\u00b2' (? for help)\n"
        "Choice [1]:   not valid: the choice must be a whole number from 1 to 2, not "
        "'99999999999999999999' (? for help)\n"
        "Choice [1]:   not valid: the choice must be a whole number from 1 to 2, not "
        "'abc' (? for help)\n"
        "Choice [1]: "
    )


def test_menu_option_help_and_plain_errors() -> None:
    n = [s.name for s in all_games()]
    inp = io.StringIO(f"{n.index('takestones') + 1}\nabc\n?\n5\n?\nbogus\n\n")
    out = io.StringIO()
    assert menu(inp, out) == 0  # the input ends at the opponent question: Bye.
    text = out.getvalue()
    assert "not valid: must be a whole number from 1 to 10,000, not 'abc' (? for help)" in text
    assert "  Number of stones on the table (numbered 1 to N).\n  Enter keeps 7.\n" in text
    assert ("Scale of the computer's scores: trace or summary [trace]: "
            "  How the computer scores positions, as the course's two output formats do:\n"
            "  trace (a win is 100, estimates 5 to 7) or summary (a win is 1, estimates\n"
            "  0.5 to 0.7). It changes the numbers shown, not how the computer plays.\n"
            "  Possible answers: trace, summary.\n  Enter keeps trace.\n") in text
    assert "not valid: choose one of trace, summary, not 'bogus' (? for help)" in text
    assert "invalid literal" not in text and "Traceback" not in text
    assert text.endswith("Bye.\n")


def test_opponent_help_explains_the_algorithms() -> None:
    n = [s.name for s in all_games()]
    out = io.StringIO()
    menu(io.StringIO(f"{n.index('tictactoe') + 1}\n?\n"), out)
    text = out.getvalue()
    assert "  alphabeta: the same choice as minimax, found faster" in text
    assert "  iterative: alpha-beta to depth 1, 2, 3, ... until its time per move runs out;" in text


def test_depth_to_the_end_only_where_it_finishes() -> None:
    out = io.StringIO()
    assert ask_depth(io.StringIO("0\n"), out, TicTacToe(), "alphabeta", 4) == 0
    assert out.getvalue() == "Depth limit (0 = to the end of the game: a second or less) [4]: "
    out = io.StringIO()
    assert ask_depth(io.StringIO("?\n0\n3\n"), out, Checkers(8), "alphabeta", 6) == 3
    text = out.getvalue()
    assert text.startswith("Depth limit (1 or more) [6]:   The depth is how many plies ahead")
    assert ("  To the end is not offered: alpha-beta to the end of this game would not finish "
            "(estimated 1.0e+21 positions, over a million years); choose a depth.\n") in text
    assert ("  not valid: alpha-beta to the end of this game would not finish (estimated "
            "1.0e+21 positions, over a million years); choose a depth (? for help)\n") in text


def test_the_cost_of_to_the_end_is_what_the_chosen_search_visits() -> None:
    """8-Queens, variation 2: alpha-beta's textbook average (the tree's size to the power
    0.7) once said "about 7 s"; the probe, alpha-beta itself with ordering and a table,
    finishes within its budget (3,095 nodes), so that is the figure. Minimax visits the
    whole tree (about 4.4e7 positions): not offered."""
    game = get_game("nqueens").create(size=8, variation="2")
    probe = searcher("alphabeta").analyse(game, game.initial_state(),
                                          Limit(nodes=PROBE_NODES))
    assert probe.complete and probe.stats.nodes == 3095
    nodes, _ = full_search_cost(game, game.initial_state(), ALPHABETA_COST, probe)
    assert nodes == 3095
    assert full_search_note(game, "alphabeta") == (True, "a second or less")
    ok, note = full_search_note(game, "minimax")
    assert not ok and note.startswith("minimax to the end of this game would not finish "
                                      "(estimated 4.4e+07 positions, ")
    # Without a probe, the old guess: alpha-beta's textbook average, seconds at best.
    assert full_search_cost(game, game.initial_state(), ALPHABETA_COST)[0] > 100_000


def test_command_line_refuses_a_search_that_cannot_finish(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert zerosum(["play", "checkers", "--size", "4", "--opponent", "minimax",
                    "--depth", "0"]) == 2
    err = capsys.readouterr().err
    # The size is Knuth's estimate (seeded); the time, at the probe's measured speed.
    assert re.fullmatch(r"zerosum: error: minimax to the end of this game would not finish "
                        r"\(estimated 1\.6e\+07 positions, [0-9.]+ (s|minutes|hours)\); "
                        r"choose a depth\n", err), err


def test_outcome_lines() -> None:
    t = TicTacToe()
    state = t.initial_state()
    for a in [0, 3, 1, 4, 2]:
        state = t.result(state, a)
    assert t.outcome(state) == "X wins: three in a row"
    assert t.render(state) == "X X X\nO O .\n. . ."
    c = Connect4()
    s = c.initial_state()
    for col in [0, 1, 0, 1, 0, 1, 0]:
        s = c.result(s, col)
    assert c.outcome(s) == "Red wins: four in a row"
    m = MaxConnect4()
    full = parse_board("\n".join(["1122112"] * 6 + ["1"]), counts=False)  # scoring only
    assert m.outcome(full) == "Final score 12-9: Player 1 wins"
    assert "to move" not in m.render(full)
    ts = TakeStones(7)
    end = ts.initial_state()
    while not ts.is_terminal(end):
        end = ts.result(end, ts.actions(end)[0])
    assert ts.outcome(end) == "Min has no stone to take: Max wins"
    assert "to move" not in ts.render(end)
    q = nqueens(4, "1a")
    s = q.initial_state()
    while not q.is_terminal(s):
        s = q.result(s, q.actions(s)[0])
    assert q.outcome(s) == "No safe square left for X after 2 queens: O wins"
    k = Checkers(4, "max", "course", 1)
    s = k.initial_state()
    while not k.is_terminal(s):
        s = k.result(s, k.actions(s)[0])
    assert k.outcome(s) == "Draw: 1 moves by each side without a winner"
    assert "Next to play" not in k.render(s)


def test_progress_line_text() -> None:
    assert progress_line(Progress(7, 1_234_567, "nodes", None, 2.5)) == (
        "Thinking: depth 7, 1,234,567 nodes, 493,827 nodes/s, 2.5 s (Ctrl-C to stop)")


def blocking_search(on_info: InfoSink, stop: Stop, released: threading.Event) -> SearchResult:
    """A fake search that 'thinks' until stopped or released: depth 3 finished (its
    Info), 50,000 nodes counted on its stop."""
    stop.nodes_used = 50_000
    on_info(Info(depth=3, value=0.25, pv=(4,), nodes=40_000, elapsed=0.1))
    while not stop.requested and not released.is_set():
        released.wait(0.001)
    return SearchResult(0.25, 4, [4], depth=3, complete=not stop.requested)


def test_watch_draws_the_progress_line_on_a_terminal_only() -> None:
    released = threading.Event()
    reads = SteppingClock(0.25)

    def clock() -> float:
        if reads.reads == 4:  # start, then three polls: 0.25 s, 0.5 s, 0.75 s
            released.set()
        return reads()

    out = Terminal()
    watch = Watch(io.StringIO(), out, clock=clock, interval=0.001)
    result = watch.run(TicTacToe(), TicTacToe().initial_state(), lambda: Running(
        lambda on_info, stop: blocking_search(on_info, stop, released)))
    assert result.action == 4
    line1 = "Thinking: depth 3, 50,000 nodes, 200,000 nodes/s, 0.2 s (Ctrl-C to stop)"
    line2 = "Thinking: depth 3, 50,000 nodes, 100,000 nodes/s, 0.5 s (Ctrl-C to stop)"
    text = out.getvalue()
    assert line1 not in text  # before half a second: nothing
    assert text.startswith("\r" + line2 + "\rThinking: depth 3, 50,000 nodes, 66,667 nodes/s, "
                           "0.8 s (Ctrl-C to stop)")
    width = max(len(line) for line in text.split("\r"))
    assert text.endswith("\r" + " " * width + "\r")  # cleared before the move is told


def interrupting_clock(after: int) -> SteppingClock:
    class Clock(SteppingClock):
        interrupted = False

        def __call__(self) -> float:
            if self.reads == after and not self.interrupted:
                self.interrupted = True  # once: thinking on is not interrupted again
                raise KeyboardInterrupt
            return super().__call__()

    return Clock(0.25)


@pytest.mark.parametrize(("answers", "outcome"), [
    ("p\n", "played"), ("\n", "played"), ("x\n?\np\n", "played"), ("c\n", "played"),
    ("q\n", "quit"), ("", "quit"),
])
def test_ctrl_c_stops_and_asks(answers: str, outcome: str) -> None:
    released = threading.Event()
    runs: list[int] = []

    def search(on_info: InfoSink, stop: Stop) -> SearchResult:
        runs.append(1)
        if len(runs) > 1:  # thinking on: this time it finishes
            released.set()
        return blocking_search(on_info, stop, released)

    out = io.StringIO()
    watch = Watch(io.StringIO(answers), out, clock=interrupting_clock(1), interval=0.001)
    game = TicTacToe()
    if outcome == "quit":
        with pytest.raises(Quit):
            watch.run(game, game.initial_state(), lambda: Running(search))
    else:
        assert watch.run(game, game.initial_state(), lambda: Running(search)).action == 4
    text = out.getvalue()
    assert text.startswith("\nSearch stopped at depth 3 (best so far: 5). "
                           "[p]lay it, [c]ontinue thinking, [q]uit? ")
    if answers.startswith("x"):
        assert "Please answer p, c or q (not 'x').\n  p (or Enter): play the best move" in text
    assert len(runs) == (2 if answers == "c\n" else 1)


def test_a_stopped_search_still_has_a_move() -> None:
    game = TicTacToe()
    stop = Stop()
    stop.request()
    agent = searcher("alphabeta")
    result = playable(game, game.initial_state(),
                      agent.analyse(game, game.initial_state(), stop=stop))
    assert not result.complete and result.action == 0 and result.stats.nodes == 256


def requested() -> Stop:
    stop = Stop()
    stop.request()
    return stop


def test_every_engine_stops_at_once_with_a_move() -> None:
    for name, options, bound in [("connect4", {}, 256), ("checkers", {"size": 8}, 1024),
                                 ("maxconnect4", {}, 2048)]:
        spec = get_game(name)
        game = spec.create(**options)
        state = game.initial_state()
        stop = requested()
        result = engines_of(spec)["engine"](game, state, Limit(seconds=60), None, stop)
        assert result.action in game.actions(state), name
        assert stop.nodes_used <= bound, name


class StopAfter(Stop):
    """A stop requested once the search has reported `limit` nodes (a person pressing
    Ctrl-C mid-search, at a reproducible moment)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    @property
    def requested(self) -> bool:
        return self.nodes_used >= self.limit


@pytest.mark.parametrize(("name", "options", "check"), [
    ("connect4", {}, 256), ("connect4", {"width": 4, "height": 4}, 1024),
    ("checkers", {"size": 8}, 1024), ("maxconnect4", {}, 1024),
])
def test_engines_stop_mid_search_with_their_best_move(
        name: str, options: dict[str, int], check: int) -> None:
    spec = get_game(name)
    game = spec.create(**options)
    state = game.initial_state()
    stop = StopAfter(5000)
    result = engines_of(spec)["engine"](game, state, Limit(seconds=60), None, stop)
    assert result.action in game.actions(state)
    assert 5000 <= stop.nodes_used < 5000 + 2 * check  # reported at each check


def test_engines_report_progress() -> None:
    spec = get_game("connect4")
    game = spec.create()
    engine = engines_of(spec)["engine"]
    running = Running(lambda on_info, stop: engine(game, game.initial_state(),
                                                   Limit(seconds=0.05), on_info, stop))
    assert running.wait(30)
    result, progress = running.result(), running.progress()
    assert progress.depth == result.depth == running.infos[-1].depth
    assert progress.best == result.action == running.infos[-1].pv[0]
    assert progress.nodes > 0  # as the engine's kernel last showed its stop


class Recording:
    """A Runner that runs the search at once, keeping what the live line starts from."""

    def __init__(self) -> None:
        self.shown: list[tuple[int, str]] = []

    def run(self, game: AnyGame, state: Any,
            start: Callable[[], Running[SearchResult]]) -> SearchResult:
        running = start()
        self.shown.append((running.given_depth, running.given_unit))
        running.wait()
        return running.result()


def test_the_live_line_starts_from_the_players_depth_and_unit() -> None:
    """A fixed-depth search works at its limit from the start; MCTS counts
    simulations; an engine deepening shows its depths as it reports them."""
    game = TicTacToe()
    watch = Recording()
    players: list[ComputerAgent] = [
        searcher("depth-limited", depth=2), searcher("iterative", seconds=0.05),
        searcher("mcts", nodes=50, seed=1),
        EngineAgent("engine", engines_of(get_game("connect4"))["engine"], 0.05)]
    for agent in players:
        agent.watch = watch
        g = Connect4() if isinstance(agent, EngineAgent) else game
        assert agent.choose(g, g.initial_state()).action is not None
    assert watch.shown == [(2, "nodes"), (0, "nodes"), (0, "simulations"), (0, "nodes")]


class Interrupting(io.StringIO):
    """Input where the person presses Ctrl-C at the first prompt."""

    def readline(self, size: int | None = -1) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_at_a_move_prompt_leaves_with_130() -> None:
    spec = get_game("tictactoe")
    out = io.StringIO()
    assert start(spec, {}, searcher("alphabeta"), "first", Interrupting(), out) == 130
    assert out.getvalue().endswith("Your move (? for help): \nGame stopped (Ctrl-C).\n")


def test_sigint_while_thinking_then_quit() -> None:
    """End to end: a real SIGINT while minimax thinks; the question; q leaves with 130."""
    p = subprocess.Popen([sys.executable, "-m", "zerosum", "play", "connect4", "--opponent",
                          "minimax", "--depth", "9", "--side", "second"], cwd=ROOT,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    try:
        assert p.stdout is not None and p.stdin is not None
        for line in p.stdout:  # the first board is shown: the engine thinks next
            if line.startswith("Red (X) to move"):
                break
        time.sleep(0.2)  # let it start thinking (minimax to depth 9 takes minutes)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate("q\n", timeout=60)
    finally:
        p.kill()
    assert p.returncode == 130
    assert "Search stopped at depth 9 (best so far: " in out
    assert err == ""


@pytest.mark.parametrize("name", ["connect4", "maxconnect4", "takestones", "tictactoe"])
def test_odd_moves_reask_without_a_traceback(name: str) -> None:
    spec = get_game(name)
    game = spec.create()
    out = io.StringIO()
    human = HumanAgent(io.StringIO("\u00b2\n99999999999999999999\nabc\n"), out)
    with pytest.raises(EndOfInput):
        human.choose(game, game.initial_state())
    text = out.getvalue()
    assert text.count("Invalid move: ") == 3 and text.count("Legal moves: ") == 3
    assert "invalid literal" not in text


def test_command_line_notes_a_long_search_to_the_end(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # the person leaves at once
    assert zerosum(["play", "tictactoe", "--opponent", "minimax", "--depth", "0"]) == 0
    out = capsys.readouterr().out
    # Minimax visits the whole tree (Knuth's estimate, seeded), at the probe's speed.
    assert re.match(r"Searching to the end of the game takes about \d+ s for the first "
                    r"move.\nTic-tac-toe: X = human, O = minimax\n", out), out
