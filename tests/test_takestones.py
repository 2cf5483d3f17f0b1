"""Take-Stones: rules, the evaluation by hand, the assignment's outputs exactly."""

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.frontends.cs540_takestones import main, report
from zerosum.game import InputError
from zerosum.games.registry import get_game
from zerosum.games.takestones import SUMMARY, TRACE, Scale, Stones, TakeStones
from zerosum.search import TraceEvent, alphabeta_search, minimax_search

ROOT = Path(__file__).resolve().parents[1]
LAUNCHER = ROOT / "assignments" / "cs540-takestones" / "TakeStones"

TRACE_7_3_1_4_2_3 = """\
3
5 7
alpha: -1000\tbeta: 1000
6
3 5 7
alpha: 100\tbeta: 1000
2
3 5 6 7
alpha: -1000\tbeta: 100
NEXT MOVE
6
3 5 7
"""


def summary(move: int, value: str, visited: int, evaluated: int, depth: int, ebf: str) -> str:
    return (f"Move: {move}\nValue: {value}\nNumber of Nodes Visited: {visited}\n"
            f"Number of Nodes Evaluated: {evaluated}\nMax Depth Reached: {depth}\n"
            f"Avg Effective Branching Factor: {ebf}\n")


# --- rules ------------------------------------------------------------------------------


@pytest.mark.parametrize("n, first", [(7, [1, 3]), (6, [1]), (10, [1, 3]), (11, [1, 3, 5]),
                                      (3, [1]), (2, []), (1, [])])
def test_first_move_is_odd_below_half(n: int, first: list[int]) -> None:
    game = TakeStones(n)
    assert game.actions(game.initial_state()) == first


def test_later_moves_are_free_multiples_and_factors() -> None:
    game = TakeStones(12)
    state = game.replay([3, 6])  # Max took 3, Min 6: Max to move
    assert game.is_maxs_turn(state)
    assert game.actions(state) == [1, 2, 12]
    assert game.actions(game.result(state, 1)) == [2, 4, 5, 7, 8, 9, 10, 11, 12]


def test_replay_keeps_illegal_history_but_not_nonsense() -> None:
    game = TakeStones(10)
    state = game.replay([4, 2, 6])  # 4 is no legal first move; replayed anyway
    assert state == Stones(0b1010100, 6, 3)
    assert not game.is_maxs_turn(state)
    with pytest.raises(InputError, match="no stone 11"):
        game.replay([11])
    with pytest.raises(InputError, match="taken twice"):
        game.replay([1, 2, 1])


def test_player_without_a_stone_loses() -> None:
    game = TakeStones(7)
    state = game.replay([1, 7])  # nothing divides or is divided by 7: Max stuck
    assert game.is_terminal(state) and game.utility(state) == -100
    assert game.winner(state) == "Min"
    state = game.replay([1, 3])
    assert not game.is_terminal(state) and game.actions(state) == [6]
    state = game.replay([1, 4, 2, 6, 3])  # Min to move after 3; 5 and 7 are no partners
    assert game.is_terminal(state) and game.utility(state) == 100


def test_largest_prime_factors() -> None:
    game = TakeStones(30)
    assert [game.largest_prime[s] for s in (2, 4, 6, 9, 12, 15, 25, 28, 29, 30)] == [
        2, 2, 3, 3, 3, 5, 5, 7, 29, 5]


# --- evaluation, hand-computed ------------------------------------------------------------


@pytest.mark.parametrize(
    "n, taken, value",
    [
        (10, [3, 6], 0),  # stone 1 still free
        (10, [3, 1], -5),  # after 1, Max may take 2 4 5 6 7 8 9 10: 8 moves, even
        (9, [3, 1], 5),  # after 1: 2 4 5 6 7 8 9: 7 moves, odd
    ],
)
def test_evaluation_simple_cases(n: int, taken: list[int], value: float) -> None:
    game = TakeStones(n)
    state = game.replay(taken)
    assert game.is_maxs_turn(state)
    assert game.evaluate(state) == value


def test_evaluation_prime_and_composite_by_hand() -> None:
    game = TakeStones(12)
    # Last 2 (prime), Min to move, legal 4 6 8 10 12: five multiples of 2, odd: +7.
    assert game.evaluate(game.replay([1, 3, 2])) == 7
    # Last 5 (prime), Max to move, legal 10 only: one multiple of 5, odd: +7.
    assert game.evaluate(game.replay([1, 5])) == 7
    # Last 7, Max to move: no legal move, zero multiples: even: -7 (were it a cutoff).
    assert game.evaluate(game.replay([1, 7])) == -7
    # Last 4 (p = 2), Max to move: legal 2 8 12, all multiples of 2: 3, odd: +6.
    assert game.evaluate(game.replay([1, 4])) == 6
    # Last 6 (p = 3), Max to move: legal 2 3 12; multiples of 3 among them: 3 12: -6.
    assert game.evaluate(game.replay([1, 6])) == -6
    # Last 9 (p = 3), Max: legal 3 only (p itself, free): +6; with 3 taken: 0 moves: -6.
    assert game.evaluate(game.replay([1, 9])) == 6
    assert game.evaluate(game.replay([1, 3, 5, 9])) == -6


def test_summary_scale_and_its_sign_for_min() -> None:
    trace, summ = TakeStones(12), TakeStones(12, "summary")
    max_to_move = trace.replay([1, 4])
    min_to_move = trace.replay([1, 3, 2])
    assert trace.evaluate(max_to_move) == 6 and summ.evaluate(max_to_move) == 0.6
    # The trace format keeps Max's-side values for Min; the summary negates them.
    assert trace.evaluate(min_to_move) == 7 and summ.evaluate(min_to_move) == -0.7
    assert summ.utility(trace.replay([1, 7])) == -1.0
    assert summ.evaluate(trace.replay([3, 6])) == 0.0  # stone 1 free: 0 for either side
    assert TRACE.min_sign == 1 and SUMMARY.min_sign == -1


# --- the search on it --------------------------------------------------------------------


# Game values from the first move, by full minimax (and alpha-beta): Max wins only with
# 8 stones (first move 3) and 12 (first move 5) up to 12 stones.
MAX_WINS = {8: 3, 12: 5}


@pytest.mark.parametrize("n", range(3, 13))
def test_alphabeta_agrees_with_minimax_on_whole_games(n: int) -> None:
    game = TakeStones(n)
    mm = minimax_search(game, game.initial_state())
    ab = alphabeta_search(game, game.initial_state(), alpha=-1000, beta=1000)
    assert (ab.value, ab.action) == (mm.value, mm.action)
    assert ab.stats.nodes <= mm.stats.nodes
    assert (mm.value, mm.action) == ((100, MAX_WINS[n]) if n in MAX_WINS else (-100, 1))


def test_known_game_values() -> None:
    # For n <= 6 Max's only first move is 1 (none at all for n <= 2), and Min answers with
    # a prime p > n/2 (2, 3, 3, 5, 5 for n = 2..6) whose only partner, 1, is gone: Max is
    # stuck. So Min wins every game up to 6 stones.
    for n in range(1, 7):
        game = TakeStones(n)
        result = alphabeta_search(game, game.initial_state())
        assert result.value == -100 and result.decided
        if n >= 3:
            assert game.actions(game.initial_state()) == [1]
            prime = {3: 3, 4: 3, 5: 5, 6: 5}[n]
            assert game.is_terminal(game.replay([1, prime]))


def test_trace_is_the_tracer_events_in_post_order() -> None:
    game = TakeStones(7)
    events: list[TraceEvent] = []
    result = alphabeta_search(game, game.replay([1, 4, 2]), 3, alpha=-1000, beta=1000,
                              tracer=events.append)
    assert [(e.action, e.depth, e.alpha, e.beta, e.value) for e in events] == [
        (3, 2, -1000, 1000, 100), (6, 1, 100, 1000, 100), (None, 0, -1000, 100, 100)]
    assert len(events) == result.stats.nodes == 3


# --- the front-end: the assignment's outputs ---------------------------------------------


def test_trace_output_of_the_assignment() -> None:
    assert report(["7", "3", "1", "4", "2", "3"]) == TRACE_7_3_1_4_2_3


@pytest.mark.parametrize(
    "args, expected",
    [
        ("7 3 1 4 2 3", summary(6, "1.0", 3, 1, 2, "1.0")),
        ("3 0 0", summary(1, "-1.0", 4, 2, 2, "1.5")),
        ("7 1 1 2", summary(5, "-1.0", 12, 7, 2, "2.2")),
        ("10 3 4 2 6 4", summary(1, "1.0", 25, 13, 4, "2.0")),
    ],
)
def test_summary_outputs_of_the_assignment(args: str, expected: str) -> None:
    assert report([*args.split(), "--format", "summary"]) == expected


def test_summary_sign_convention_for_min_decides_the_move() -> None:
    """9 stones, Max took 3, Min to move, depth 2. Min may take 1, 6 or 9; the leaves
    below (depth 2) have Min to move again, so the convention matters:

    - Min takes 1: Max then takes 5 and Min is stuck: Max wins, 1.0.
    - Min takes 6: Max takes 1 (Min to move, last 1, 6 free stones: even, table -0.5)
      or 2 (stone 1 free: 0).
    - Min takes 9: Max must take 1 (Min to move, last 1, 6 free stones: table -0.5).

    Negated for Min (our summary convention) the table's -0.5 is +0.5: values 1.0, 0.5,
    0.5, and Min takes the smaller tied stone, 6. Read from Max's side (the trace format)
    they are 1, 0, -0.5 (x100: 100, 0, -5) and Min takes 9. The tree has 14 nodes, 10 of
    them leaves: EBF 13/4 = 3.25, printed 3.3 (halves round up).
    """
    expected = summary(6, "0.5", 14, 10, 2, "3.3")
    assert report(["9", "1", "3", "2", "--format", "summary"]) == expected
    out = report(["9", "1", "3", "2"]).splitlines()
    assert out[-3:] == ["NEXT MOVE", "9", "1 2 4 5 6 7 8"]
    assert out[-4] == "alpha: -1000\tbeta: -5"  # the root: Min's value -5 in beta
    max_side = TakeStones(9, Scale(1.0, 0.5, 0.7, 0.6, min_sign=1))
    result = alphabeta_search(max_side, max_side.replay([3]), 2)
    assert (result.action, result.value) == (9, -0.5)


def test_game_over_is_reported_with_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["7", "2", "1", "7", "0"]) == 0
    assert capsys.readouterr().out == "Game over: Max has no stone to take, so Min wins.\n"
    assert main(["2", "0", "3", "--format", "summary"]) == 0
    assert capsys.readouterr().out == "Game over: Max has no stone to take, so Min wins.\n"
    assert main(["4", "3", "1", "3", "2", "0"]) == 0  # 1 3 2: Min to move, 4 free: no
    assert "Game over" not in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "expected at least 3 numbers"),
        (["7", "2", "1", "0"], "#taken is 2, so 2 taken stones and a depth must follow it"),
        (["7", "x", "0"], "#taken must be a whole number from 0 to 10,000, not 'x'"),
        (["0", "0", "0"], "#stones must be a whole number from 1 to 10,000, not '0'"),
        (["7", "0", "-1"], "depth must be a whole number from 0 to 10,000, not '-1'"),
        (["7", "0", "²"], "depth must be a whole number from 0 to 10,000, not '²'"),
        (["7", "0", "9" * 5000], "depth must be a whole number from 0 to 10,000, not '99999"),
        (["7", "1", "8", "0"], "there is no stone 8"),
        (["7", "2", "1", "1", "0"], "stone 1 is taken twice"),
        (["7", "0", "0", "--format", "json"], "--format must be trace or summary"),
        (["7", "0", "0", "--fast"], "unknown option '--fast'"),
        (["20000", "0", "0"], "#stones must be a whole number from 1 to 10,000, not '20000'"),
    ],
)
def test_malformed_arguments(args: list[str], message: str,
                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and "usage: TakeStones" in err[0]


def test_plus_sign_is_allowed_as_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["7", "0", "2"]) == 0
    plain = capsys.readouterr().out
    assert main(["+7", "+0", "+2"]) == 0
    assert capsys.readouterr().out == plain and plain.endswith("NEXT MOVE\n3\n1 2 4 5 6 7\n")


def test_launcher_runs_with_plain_python() -> None:
    run = subprocess.run([sys.executable, "-S", str(LAUNCHER), "7", "3", "1", "4", "2", "3"],
                         capture_output=True, text=True, check=False)
    assert (run.returncode, run.stdout, run.stderr) == (0, TRACE_7_3_1_4_2_3, "")
    assert LAUNCHER.stat().st_mode & 0o111


def test_registered_for_zerosum_play() -> None:
    spec = get_game("takestones")
    game = spec.create(stones=9)
    assert isinstance(game, TakeStones) and game.n == 9
    assert spec.create(stones=9, scale="summary").scale == SUMMARY
    state = game.initial_state()
    assert game.parse_move(state, " 3 ") == 3
    with pytest.raises(InputError, match="cannot be taken now; legal: 1 3"):
        game.parse_move(state, "5")
    with pytest.raises(InputError, match="stone number"):
        game.parse_move(state, "five")
    assert game.render(game.replay([3])) == (
        "stones left: 1 2 4 5 6 7 8 9\nlast taken: 3\nMin to move; may take: 1 6 9")


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 12), st.lists(st.integers(0, 100), max_size=4), st.integers(1, 4),
       st.sampled_from(["trace", "summary"]))
def test_alphabeta_agrees_with_minimax_at_depth(n: int, picks: list[int], depth: int,
                                                scale: str) -> None:
    """From random legal positions, depth-limited alpha-beta (the assignment's window)
    gives minimax's value and move: the evaluation plugs into the search soundly."""
    game = TakeStones(n, scale)
    state = game.initial_state()
    for pick in picks:
        moves = game.actions(state)
        if not moves:
            break
        state = game.result(state, moves[pick % len(moves)])
    mm = minimax_search(game, state, depth)
    ab = alphabeta_search(game, state, depth, alpha=-1000, beta=1000)
    assert (ab.value, ab.action) == (mm.value, mm.action)
