"""Connect Four: notations, the game, the course's node counts, the solver, the engine."""

from __future__ import annotations

import io
import math
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache, partial
from pathlib import Path
from typing import Any

import pytest
from clocks import SteppingClock

from zerosum.frontends.connect4 import main as connect_four
from zerosum.game import InputError, format_value
from zerosum.games.connect4 import Connect4
from zerosum.games.connect4.analysis import solve_rows
from zerosum.games.connect4.bitboard import geometry
from zerosum.games.connect4.course import CourseConnect4
from zerosum.games.connect4.engine import SCALE, Connect4Kernel, Memory, heuristic
from zerosum.games.connect4.game import Position, plies_to_win, position_from_stones
from zerosum.games.connect4.notation import (
    Stones,
    format_course,
    format_grid,
    parse_course,
    parse_grid,
    parse_moves,
    parse_position,
)
from zerosum.games.connect4.solver import NEAR_EMPTY, Solver, Table, plies_to_end
from zerosum.games.registry import get_game
from zerosum.kernel import ALL, Enhancements, KernelFactory, KernelSpec
from zerosum.match import Rules, play_match
from zerosum.players.agents import EngineAgent
from zerosum.players.text import MatchPrinter
from zerosum.result import Limit, SearchResult
from zerosum.search import alphabeta_search, minimax_search
from zerosum.search.driver import analyse_with
from zerosum.stop import Stop

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "connect4"
EXAMPLE = ".ryyrry,.rryry.,..y.r..,..y....,.......,......."
EMPTY = ",".join(["......."] * 6)


def position(moves: str) -> Position:
    return position_from_stones(parse_moves(moves))


# -- notations ----------------------------------------------------------------------------


def test_course_string_round_trip_and_cells() -> None:
    stones = parse_course(EXAMPLE)
    assert format_course(stones) == EXAMPLE
    geo = geometry()
    assert stones.red & geo.bit(1, 0) and stones.yellow & geo.bit(2, 3)
    assert stones.red.bit_count() == 7 and stones.yellow.bit_count() == 7


def test_move_sequence_and_grid_agree() -> None:
    stones = parse_moves("4455")
    assert format_grid(stones) == "\n".join(
        [". . . . . . ."] * 4 + [". . . O O . .", ". . . X X . .", "1 2 3 4 5 6 7"]
    )
    assert parse_grid(format_grid(stones, numbers=False)) == stones
    assert parse_position(format_course(stones)) == stones
    assert parse_position("-") == Stones(0, 0) == parse_moves("")


@pytest.mark.parametrize(
    "text, message",
    [
        (",".join(["......."] * 5), "must have 6 comma-separated rows, not 5"),
        (",".join(["......."] * 7), "must have 6 comma-separated rows, not 7"),
        ("......,.......,.......,.......,.......,.......", "row 1 (from the bottom) must have 7"),
        ("..x....,.......,.......,.......,.......,.......", "row 1 has 'x'"),
        ("..R....,.......,.......,.......,.......,.......", "row 1 has 'R'"),
        (".......,..r....,.......,.......,.......,.......",
         "column 2 (of 0-6) has a piece floating"),
        ("", "must have 6 comma-separated rows, not 1"),
    ],
)
def test_malformed_course_strings(text: str, message: str) -> None:
    with pytest.raises(InputError, match=re.escape(message)):
        parse_course(text)


def test_a_move_sequence_with_spaces_and_columns_past_nine() -> None:
    assert parse_moves("4 4 5 5") == parse_moves("4455") == parse_moves(" 4  4\t5 5 ")
    wide = geometry(12, 6)
    stones = parse_moves("12 1 10", wide)
    assert stones.red == wide.bit(11, 0) | wide.bit(9, 0) and stones.yellow == wide.bit(0, 0)
    with pytest.raises(InputError, match=re.escape("'13' (move 1) is not a column 1-12")):
        parse_moves("13 1", wide)


@pytest.mark.parametrize(
    "text, message",
    [
        ("48", "'8' at position 2 is not a column 1-7"),
        ("40", "'0' at position 2"),
        ("1111111", "move 7 plays in column 1, which is full"),
        ("12121212", "move 8 comes after the game was won"),
        ("4 4 x", "'x' (move 3) is not a column 1-7"),
        ("4 4 ²", "'²' (move 3) is not a column 1-7"),
        ("4 ٣", "'٣' (move 2) is not a column 1-7"),
        ("4 8", "'8' (move 2) is not a column 1-7"),
        ("4 0", "'0' (move 2) is not a column 1-7"),
        ("1 1 1 1 1 1 1", "move 7 plays in column 1, which is full"),
    ],
)
def test_malformed_move_sequences(text: str, message: str) -> None:
    with pytest.raises(InputError, match=re.escape(message)):
        parse_moves(text)


# -- the game --------------------------------------------------------------------------------


def test_game_rules_and_values() -> None:
    game = Connect4()
    state = position("121212")
    assert not game.is_terminal(state) and game.is_maxs_turn(state)
    won = game.result(state, 0)
    assert game.is_terminal(won) and game.actions(won) == []
    assert game.utility(won) == 22 - 4  # red won with its 4th stone
    lost = game.result(position("1212123"), 1)
    assert game.utility(lost) == -(22 - 4)
    with pytest.raises(InputError, match="column 1 is full"):
        game.result(position("111111"), 0)
    with pytest.raises(InputError, match="column number 1-7"):
        game.parse_move(state, "9")


def test_registered_with_its_engine() -> None:
    spec = get_game("connect4")
    assert spec.kernel == KernelSpec("zerosum.games.connect4.engine", "Connect4Kernel")
    assert spec.solver is not None and spec.solver.command is not None
    assert spec.solver.verdict is not None and spec.solver.move_values is not None
    assert [o.name for o in spec.options] == ["width", "height"]
    game = spec.create(width=8, height=7)
    assert game.actions(game.initial_state()) == list(range(8))


# -- the course's program: node counts are the acceptance test --------------------------------


def test_course_example_alphabeta_depth_4() -> None:
    game = CourseConnect4()
    state = position_from_stones(parse_course(EXAMPLE), red_to_move=True)
    result = alphabeta_search(game, state, 4)
    assert (result.action, result.stats.nodes) == (1, 297)


@pytest.mark.parametrize("depth, nodes", [(1, 8), (2, 57), (3, 400)])
def test_course_empty_board_minimax(depth: int, nodes: int) -> None:
    game = CourseConnect4()
    result = minimax_search(game, game.initial_state(), depth)
    assert (result.action, result.stats.nodes) == (0, nodes)


def test_course_evaluation_counts_maximal_runs() -> None:
    game = CourseConnect4()
    # Red: a horizontal run of three at the bottom (one 3-in-a-row, not two 2s) and
    # three lone-in-other-directions stones; yellow: three stones stacked in column 1.
    stones = parse_course("rrr.y..,....y..,....y..,.......,.......,.......")
    assert game.score(stones.red) == 3 + 100
    assert game.score(stones.yellow) == 3 + 100
    four = parse_course("rrrr...,yyy....,.......,.......,.......,.......")
    # 4 stones + one 4-in-a-row; each red stone with the yellow one above is no run.
    assert game.score(four.red) == 4 + 1000
    assert game.utility(position_from_stones(four, False)) == 10000


def run_front_end(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = connect_four(args)
    out, err = capsys.readouterr()
    return status, out, err


def test_front_end_classic_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_front_end([EXAMPLE, "red", "A", "4"], capsys) == (0, "1\n297\n", "")
    assert run_front_end([EMPTY, "red", "M", "2"], capsys) == (0, "0\n57\n", "")


@pytest.mark.parametrize(
    "args, message",
    [
        ([EXAMPLE, "blue", "A", "4"], "the player must be 'red' or 'yellow'"),
        ([EXAMPLE, "red", "B", "4"], "the mode must be M (minimax) or A (alpha-beta)"),
        ([EXAMPLE, "red", "A", "-3"], "DEPTH must be a whole number from 1 to 42, not '-3'"),
        ([EXAMPLE, "red", "A", "²"], "DEPTH must be a whole number from 1 to 42, not '²'"),
        ([EXAMPLE, "red", "A", "𝟚"], "DEPTH must be a whole number from 1 to 42, not '𝟚'"),
        ([EXAMPLE, "red", "A"], "expected 2 or 4 arguments, got 3"),
        ([EXAMPLE[:-1], "red", "A", "4"], "row 6 (from the bottom) must have 7 characters"),
        (["ry.....,ry.....,ry.....,r......,.......,.......", "yellow", "M", "2"],
         "STATE is already decided (red has four in a row)"),
        (["ryryryr,yryryry,yryryry,ryryryr,ryryryr,yryryry", "red", "A", "2"],
         "STATE is already decided (the board is full)"),
        (["ry.....,ry.....,ry.....,r......,.......,.......", "yellow"],
         "STATE is already decided"),
        # Any counts are allowed (the course's states need not be balanced), but a
        # state with a four has no move to choose, whoever is to move.
        (["r......,r......,r......,r......,.......,.......", "yellow"],
         "STATE is already decided (red has four in a row)"),
        (["ry.....,ry.....,ry.....,ry.....,.......,.......", "red"],
         "STATE is already decided (red and yellow have four in a row)"),
        (["ryyy...,r......,r......,r......,y......,.......", "yellow"],
         "STATE is already decided (red has four in a row)"),
        (["ry.....,ry.....,ry.....,r......,.......,.......", "red"],
         "STATE is already decided (red has four in a row)"),
        (["yyyy...,r......,r......,r......,.......,.......", "red"],
         "STATE is already decided (yellow has four in a row)"),
    ],
)
def test_front_end_errors(args: list[str], message: str,
                          capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_front_end(args, capsys)
    assert status == 2 and out == ""
    assert err.startswith("ConnectFour.py: ") and message in err and err.count("\n") == 1


def test_front_end_tournament_wins_and_blocks(capsys: pytest.CaptureFixture[str]) -> None:
    # Red wins at once in column 3 (0-based 3)...
    assert run_front_end(["rrr.yy.,y......,.......,.......,.......,.......", "red"],
                         capsys) == (0, "3\n", "")
    # ...and yellow, to move, must block there.
    assert run_front_end(["rrr.y..,y......,y......,.......,.......,.......", "yellow"],
                         capsys) == (0, "3\n", "")


def test_launcher_runs_with_plain_python() -> None:
    launcher = ROOT / "assignments" / "comp3608-connect4" / "ConnectFour.py"
    done = subprocess.run([sys.executable, str(launcher), EXAMPLE, "red", "A", "4"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (0, "1\n297\n")


# -- the solver -----------------------------------------------------------------------------


def load(name: str, step: int = 1, limit: int | None = None) -> list[tuple[str, int]]:
    lines = (DATA / name).read_text().split("\n")
    rows = [(line.split()[0], int(line.split()[1])) for line in lines if line.strip()]
    return rows[::step][:limit]


def solve_sequence(solver: Solver, moves: str) -> int:
    p = position(moves)
    solver.reset()
    return solver.solve(p.current, p.mask)


def test_a_win_with_the_next_stone_is_seen_without_a_search() -> None:
    solver = Solver(book=False)  # 4455 is in the book
    # 4455: red's 3 or 6 makes three in the bottom row, open at both ends.
    assert solve_sequence(solver, "4455") == 18
    assert solver.nodes == 2  # two null-window probes, each answered at the root
    # The node counts of a sample, pinned: they change only when the search does.
    total = 0
    for moves, score in load("Test_L2_R1", 1, 20):
        assert solve_sequence(solver, moves) == score
        total += solver.nodes
    assert total == 5363


def test_pons_example_and_known_values() -> None:
    solver = Solver()
    assert solve_sequence(solver, "4455") == 18
    p = position("4455")
    assert solver.best_moves(p.current, p.mask) == [2, 5]  # columns 3 and 6


@pytest.mark.parametrize(
    "name, step, limit",
    [("Test_L3_R1", 20, 50), ("Test_L2_R1", 40, 25), ("Test_L1_R1", 100, 4),
     ("Test_L2_R2", 500, 1)],
)
def test_solver_sample_of_each_set(name: str, step: int, limit: int) -> None:
    solver = Solver()
    for moves, score in load(name, step, limit):
        assert solve_sequence(solver, moves) == score, moves


def test_best_moves_keep_the_score() -> None:
    solver = Solver()
    for moves, score in load("Test_L2_R1", 97, 6):
        p = position(moves)
        best = solver.best_moves(p.current, p.mask, score)
        assert best
        for c in range(7):
            if not geometry().playable(p.mask, c):
                continue
            solver.reset()
            assert (solver.move_score(p.current, p.mask, c) == score) == (c in best), moves


def test_principal_variation_plays_out_the_score() -> None:
    game = Connect4()
    solver = Solver()
    for moves, score in load("Test_L3_R1", 111, 5):
        p = position(moves)
        line = solver.principal_variation(p.current, p.mask, score)
        state = p
        for c in line:
            state = game.result(state, c)
        assert game.is_terminal(state)
        value = game.utility(state)
        assert (value if p.red_to_move else -value) == score, moves


def test_weak_solve_gives_the_sign() -> None:
    solver = Solver()
    for moves, score in load("Test_L2_R1", 53, 10):
        p = position(moves)
        solver.reset()
        assert solver.solve(p.current, p.mask, weak=True) == (score > 0) - (score < 0)


def test_solve_rows_for_the_command() -> None:
    rows = dict(solve_rows("4455"))
    assert rows["position"] == "4 stones, red (X) to move"
    assert rows["score"] == "+18: the player to move wins with their 4th stone (in 3 plies)"
    assert rows["best moves"] == "3 6"
    assert rows["principal variation"] == "342"
    rows = dict(solve_rows("2252576253462244111563365343671351441", all_scores=True))
    assert rows["score"] == ("-1: the player to move loses; the opponent wins with their "
                             "21st stone (in 4 plies)")
    # Each move from its mover's side (Yellow here), the words naming the winner.
    assert rows["move 6"] == "-1 (Red wins in 4 plies)"
    assert rows["move 7"] == "-2 (Red wins in 2 plies)"
    assert [label for label, _ in solve_rows("2252576253462244111563365343671351441",
                                             all_scores=True, pv=False)] == [
        "position", "score", "best moves", "move 6", "move 7", "nodes"]
    with pytest.raises(InputError, match="already won"):
        solve_rows("1212121")


def test_solve_command_errors() -> None:
    done = subprocess.run([sys.executable, "-m", "zerosum", "solve", "connect4", "4x"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "'x' at position 2" in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("name, step", [("Test_L3_R1", 1), ("Test_L2_R1", 1),
                                        ("Test_L1_R1", 2), ("Test_L2_R2", 20)])
def test_solver_sets(name: str, step: int) -> None:
    solver = Solver()
    for moves, score in load(name, step):
        assert solve_sequence(solver, moves) == score, moves


# -- the tournament engine ------------------------------------------------------------------


def fresh(**options: int) -> KernelFactory:
    """Kernels with a table, threats and solver of their own (a new engine), so that no
    test depends on what another left in the kept ones."""
    def make(game: Any, state: Any, stop: Stop, enhancements: Enhancements) -> Connect4Kernel:
        return Connect4Kernel(game, state, stop, enhancements, Memory(game), **options)
    return make


def analyse(state: Position, seconds: float | None = None, depth: int | None = None,
            clock: SteppingClock | None = None, enhancements: Enhancements = ALL,
            **options: int) -> SearchResult:
    """The engine's search from `state` (a fresh engine), as the players run it."""
    stop = None if clock is None else Stop(clock=clock)
    return analyse_with(fresh(**options), Connect4(), state, Limit(depth, seconds),
                        stop=stop, enhancements=enhancements)


def test_engine_solves_the_end_game_exactly() -> None:
    geo = geometry()
    for moves, score in load("Test_L3_R1", 250, 4):
        p = position(moves)
        result = analyse(p, 2.0)
        assert result.decided and result.depth is None, moves  # solved before any pass
        red_score = score if p.red_to_move else -score
        assert result.value == red_score, moves
        assert result.plies == plies_to_end(geo, p.mask.bit_count(), score)
        solver = Solver()
        assert solver.achieves(p.current, p.mask, result.action, score), moves


def test_engine_blocks_and_never_plays_a_full_column() -> None:
    p = position_from_stones(parse_course("yyy.rr.,r......,r......,.......,.......,......."),
                             red_to_move=True)
    assert analyse(p, 0.3).action == 3
    assert analyse(position("444444"), 0.2).action != 3  # column 4 full


def test_play_says_how_far_off_a_decided_game_is() -> None:
    """After an engine move the terminal shows the value; a decided one as "wins in N"."""
    game = Connect4()
    out = io.StringIO()
    engine = EngineAgent("engine", partial(analyse_with, get_game("connect4").kernel), 0.5)
    # Red has three in the bottom row, open at both ends: yellow blocks one end, red
    # plays the other (2 plies) with its 4th stone.
    play_match(game, [engine, engine], state=position("44556"), rules=Rules(max_moves=1),
               observer=MatchPrinter(out, show_board=False))
    assert "plays 3: value -18 (Red wins in 2 plies), depth 1, nodes 1," in out.getvalue()


def test_the_table_keeps_the_positions_near_the_end_apart() -> None:
    """Positions with at most NEAR_EMPTY empty cells go to the near buckets (the first
    `near`), the others to the far ones after them; a small capacity keeps its bound."""
    table = Table(2_000_000, 42)
    assert (table.near, table.buckets, table.near_from) == (32_749, 467_239, 42 - NEAR_EMPTY)
    key = 123_456_789_012
    table.store(key, 5, 24)
    table.store(key + 1, 6, 23)
    assert table.held == {key % 32_749: [key], 32_749 + (key + 1) % 467_239: [key + 1]}
    small = Table(1000, 42)
    assert (small.near, small.buckets) == (113, 137)  # 4 * (113 + 137) = 1000 entries
    assert (Table(1, 42).near, Table(1, 42).buckets) == (1, 1)


def test_decided_values_are_solver_scores_with_their_plies() -> None:
    game = Connect4()
    # Red wins with its 4th stone: 1 ply on (a win in one, before any pass), 3 plies
    # (red plays three open at both ends), 2 plies (yellow cannot block both ends).
    for moves, plies in (("121212", 1), ("4455", 3), ("44556", 2)):
        result = analyse(position(moves), depth=7)
        assert (result.value, result.decided, result.plies) == (18, True, plies), moves
    result = analyse(position("1212123"), depth=7)  # yellow wins at once
    assert (result.value, result.decided, result.plies, result.depth) == (-18, True, 1, None)
    assert format_value(game, result.value, decided=True, plies=1) == "-18 (Yellow wins in 1 ply)"
    estimate = analyse(game.initial_state(), depth=5)
    assert not estimate.decided and 0 < estimate.value < 1 and estimate.plies is None


def test_plies_to_end_agree_with_the_solver_command() -> None:
    """`plies_to_end` (the kernel's and the solver player's) against `plies_to_win` (what
    `zerosum solve` prints), for every score possible with every number of stones."""
    geo = geometry()
    for moves in range(42):
        mover_has, other_has = moves // 2, (moves + 1) // 2
        for score in range(1, 19):
            stone = 22 - score
            if stone > mover_has and 2 * stone - 1 <= 42 - moves + 2 * mover_has:
                assert plies_to_end(geo, moves, score) == plies_to_win(stone, mover_has, True)
            if stone > other_has:
                assert plies_to_end(geo, moves, -score) == \
                    plies_to_win(stone, other_has, False), (moves, score)
        assert plies_to_end(geo, moves, 0) == 42 - moves


def test_the_engine_never_misses_nor_delays_a_win() -> None:
    """With every enhancement off too: a win in one is played at once, a forced win in
    3 plies is not put off (a later win scores less)."""
    for enhancements in (ALL, Enhancements.none()):
        result = analyse(position("121212"), depth=9, enhancements=enhancements)
        assert (result.action, result.value, result.plies) == (0, 18, 1)
        # Red makes three in the bottom row open at both ends (column 3 or 6).
        result = analyse(position("4455"), depth=9, enhancements=enhancements)
        assert result.action in (2, 5) and (result.value, result.plies) == (18, 3)


def random_positions(seed: int, count: int) -> list[tuple[int, int]]:
    """Positions of 4 to 35 random stones that the engine's search may be asked about:
    no four on the board, the mover cannot win at once and has a move not losing at
    once (the search handles the rest before evaluating)."""
    import random

    geo = geometry()
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        current = mask = 0
        for _ in range(rng.randrange(4, 36)):
            move = geo.move_bit(mask, rng.choice([c for c in range(7) if geo.playable(mask, c)]))
            if geo.has_four(current | move):
                break
            current, mask = current ^ mask, mask | move
        theirs = geo.winning_cells(current ^ mask, mask)
        if theirs & geo.possible(mask) or not geo.possible(mask) & ~(theirs >> 1):
            continue
        if geo.winning_cells(current, mask) & geo.possible(mask) or mask.bit_count() >= 40:
            continue
        found.append((current, mask))
    return found


def test_engine_evaluation_values() -> None:
    """`heuristic` (the leaves' one evaluation) on random positions: the values it had
    when the search kept a second, inlined copy of it (the copy is gone)."""
    geo = geometry()
    values = [heuristic(geo, current, mask) for current, mask in random_positions(3, 250)]
    assert values[:8] == [-2, 61, 2, -4, -16, 5, -1, -10]
    assert (sum(values), sum(i * v for i, v in enumerate(values))) == (-861, -95671)


def kernel_at(current: int, mask: int, **options: Any) -> Connect4Kernel:
    """A fresh engine kernel for the 7x6 position (current, mask)."""
    return Connect4Kernel(Connect4(), Position(current, mask, mask.bit_count() % 2 == 0),
                          Stop(), **options)


def reference_value(current: int, mask: int, depth: int) -> int:
    """The engine's depth-limited value by plain negamax: every move searched, no window,
    no table, the same rules (a threat must be blocked, two lose, no move under one)."""
    geo = geometry()
    moves = mask.bit_count()
    lost = -((geo.cells - moves) // 2) * 1000
    possible = geo.possible(mask)
    theirs = geo.winning_cells(current ^ mask, mask)
    if possible & theirs:
        if (possible & theirs).bit_count() > 1:
            return lost
        possible &= theirs
    candidates = possible & ~(theirs >> 1)
    if not candidates:
        return lost
    if moves >= geo.cells - 2:
        return 0
    if depth == 0:
        return heuristic(geo, current, mask)
    return max(-reference_value(current ^ mask, mask | move, depth - 1)
               for c in range(7) if (move := candidates & geo.columns[c]))


def test_engine_search_value_is_the_plain_negamax_value() -> None:
    """Alpha-beta with principal variation search, fail-soft, ordered, with a table:
    none of it changes the value of a fixed-depth search (in Connect Four a position
    is always met at the same ply, so one pass never reuses an entry of another depth)."""
    for current, mask in random_positions(5, 40):
        kernel = kernel_at(current, mask)
        value = kernel.search(current, mask, mask.bit_count(), 4, -10**9, 10**9, -1)
        assert value == reference_value(current, mask, 4), (current, mask)


@pytest.mark.parametrize("off", ["none", *Enhancements.names()])
def test_every_enhancement_keeps_the_plain_negamax_value(off: str) -> None:
    """Iterative deepening to depth 5 through the driver, with one enhancement off (or
    all of them): the root's value is still the plain negamax value (each pass meets
    a position at the same ply, so a pass never uses a shallower pass's entry)."""
    enhancements = Enhancements.none() if off == "none" else Enhancements(**{off: False})
    for current, mask, expected in depth_5_values():
        red = mask.bit_count() % 2 == 0
        result = analyse(Position(current, mask, red), depth=5, enhancements=enhancements)
        assert result.value * (1 if red else -1) * SCALE == pytest.approx(expected)


@cache
def depth_5_values() -> list[tuple[int, int, int]]:
    return [(current, mask, reference_value(current, mask, 5))
            for current, mask in random_positions(11, 4)]


def test_engine_keeps_the_win_its_evaluation_misses() -> None:
    """Seed 2, game 25 of bench/connect4_match.py, which the engine once lost as red:
    only column 2 (1-based) keeps the win; the search alone prefers column 4 at every
    depth it reaches with the same budget (13 plies); the weak solve proves column 2.
    The stepping clock (5 ms a reading) turns the time budget into a node budget: the
    searches read it every 256 or 1024 nodes."""
    p = position("76463662443332")
    kernel = kernel_at(p.current, p.mask)
    assert kernel.try_weak(math.inf) == (1, [1])
    assert kernel.nodes < 100_000
    result = analyse(p, 0.6, clock=SteppingClock(0.005))
    # Proven won, its length unknown: decided, worth the least win, with no plies.
    assert (result.action, result.value, result.decided, result.depth, result.plies) == \
        (1, 1, True, None, None)
    assert format_value(Connect4(), result.value, decided=True) == "+1 (Red wins, proven)"
    alone = analyse(p, 0.6, clock=SteppingClock(0.005), weak_solve_when_empty=0)
    assert alone.action == 3  # what the search alone plays


def test_engine_plays_only_moves_that_keep_a_drawn_game_drawn() -> None:
    p = position("6351166615313145174")  # 23 empty cells: drawn; only d and e keep it
    kernel = kernel_at(p.current, p.mask)
    assert kernel.try_weak(math.inf) == (0, [3, 4])
    solver = Solver()
    assert solver.solve(p.current, p.mask, weak=True) == 0
    geo7 = geometry()
    assert [c for c in range(7) if geo7.playable(p.mask, c)
            and solver.achieves(p.current, p.mask, c, 0)] == [3, 4]
    result = analyse(p, 0.4, clock=SteppingClock(0.005))
    # The draw is proven: the value says so, while the passes (deeper than one: a proven
    # draw does not end the deepening) choose among the moves keeping it.
    assert result.action in (3, 4) and (result.value, result.decided, result.plies) == \
        (0, True, None)
    assert result.depth is not None and result.depth > 1
    assert format_value(Connect4(), result.value, decided=True) == "0 (draw, proven)"


def test_each_enhancement_changes_the_effort_not_the_move() -> None:
    """Nodes of the passes 1, 3, 5, 7 from the empty board, one enhancement off at a
    time (Connect Four has no killer moves, quiescence search nor solution read before
    searching: no change there)."""
    nodes = {}
    for off in ["", "all", *Enhancements.names()]:
        enhancements = ALL if not off else Enhancements.none() if off == "all" \
            else Enhancements(**{off: False})
        result = analyse(Connect4().initial_state(), depth=7, enhancements=enhancements)
        assert (result.action, result.value, result.depth) == (3, 0.013, 7), off
        nodes[off] = result.stats.nodes
    assert nodes == {"": 3083, "all": 33036, "table": 6764, "ordering": 7128, "pvs": 3314,
                     "killers": 3083, "quiescence": 3083, "aspiration": 3146,
                     "solution": 3083}


def test_the_solver_plays_a_best_move_or_says_it_could_not() -> None:
    spec = get_game("connect4")
    game = spec.create()
    assert spec.solver is not None
    solver = spec.solver.play
    seen = []
    p = position("6351166615313145174")  # 23 empty cells: drawn; only d and e keep it
    result = solver(game, p, Limit(seconds=60), seen.append)
    assert (result.action, result.value, result.decided, result.plies) == (3, 0, True, 23)
    assert [(i.value, i.decided, i.pv) for i in seen] == [(0, True, (3,))]
    p = position("4455")
    result = solver(game, p, Limit(seconds=60))
    assert (result.action, result.value, result.decided, result.plies) == (2, 18, True, 3)
    # Past the opening book (the centre column full and two stones beside it: 8 stones)
    # within 1,000 nodes: the engine's first choice, the evaluation.
    result = solver(game, position("44444432"), Limit(nodes=1000))
    assert (result.action, result.value, result.decided, result.complete) == \
        (4, 0.001, False, False)
    assert 1000 <= result.stats.nodes < 1000 + 1024


def test_solve_rows_report_each_null_window_and_the_bounds() -> None:
    lines: list[str] = []
    moves, score = (Path(__file__).parent / "data" / "connect4" / "Test_L1_R1").read_text(
        ).split()[:2]
    rows = dict(solve_rows(moves, progress=lines.append))
    assert rows["score"].startswith(f"{int(score):+d}:")
    answers = [line for line in lines if line.startswith("score > ")]
    assert answers and all("? yes: " in a or "? no: " in a for a in answers)
    # The last answer closes the interval on the score.
    assert f"the score is in [{int(score):+d}, {int(score):+d}]" in answers[-1]


def test_an_interrupted_solve_keeps_the_interval_proven_so_far() -> None:
    """Ctrl-C (here raised by the progress display after two null windows) ends the
    solve with the score's interval those windows proved, then the interruption goes
    on (the command exits 130 as for any Ctrl-C)."""
    lines: list[str] = []

    def progress(text: str) -> None:
        lines.append(text)
        if sum("? yes" in line or "? no" in line for line in lines) == 2:
            raise KeyboardInterrupt

    rows = []
    with pytest.raises(KeyboardInterrupt):
        # One thread: the node counts are then exact (more add the helpers' nodes).
        for row in solve_rows("1411141444142222", progress=progress, threads=1):
            rows.append(row)
    assert lines[0].startswith("score > -6? yes: the score is in [-5, +13]; 8,310 nodes")
    assert rows == [("position", "16 stones, red (X) to move"),
                    ("score", "[-5, +6] so far, interrupted after 8,677 nodes: win, draw "
                              "or loss still open")]


def test_an_interrupted_all_moves_keeps_the_moves_proven(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C during --all-moves (here after columns 4 and 3 of 1411141444142222 are
    proven: -9 is not theirs, any numbers do) says what the moves proven tell: the
    position scores at least the best of them."""
    from zerosum.games.connect4 import analysis

    def two_then_ctrl_c(*_: object) -> Iterator[tuple[int, int, int]]:
        yield 3, -9, 0
        yield 2, -5, 100
        raise KeyboardInterrupt

    monkeypatch.setattr(analysis, "move_scores", two_then_ctrl_c)
    rows = []
    with pytest.raises(KeyboardInterrupt):
        for row in solve_rows("1411141444142222", all_scores=True, threads=1):
            rows.append(row)
    assert rows == [("position", "16 stones, red (X) to move"),
                    ("score", "[-5, +13] so far, interrupted after 100 nodes: win, draw "
                              "or loss still open"),
                    ("move 4", "-9 (Yellow wins in 10 plies)"),
                    ("move 3", "-5 (Yellow wins in 18 plies)")]


def test_an_interval_says_what_it_already_tells() -> None:
    from zerosum.games.connect4.analysis import interval_words

    assert interval_words(1, 18, 5) == "[+1, +18] so far, interrupted after 5 nodes: " \
        "the player to move wins"
    assert interval_words(-4, -1, 5).endswith("the player to move loses")
    assert interval_words(0, 3, 5).endswith("does not lose")
    assert interval_words(-3, 0, 5).endswith("does not win")


def test_two_searches_at_once_never_share_a_solver() -> None:
    """The "solver" player keeps one solver from search to search, but a second search
    while it is out (a server's other session, a value graph) gets a solver of its own:
    a solver serves one search at a time (solver.Lender)."""
    from zerosum.games.connect4.analysis import playing_solver

    geo = Connect4(5, 4).geo
    with playing_solver(geo) as first, playing_solver(geo) as second:
        assert second is not first
    with playing_solver(geo) as again:
        assert again in (first, second)
        with playing_solver(geo) as other:
            assert {again, other} == {first, second}  # no third: two ran at once, at most
