"""The N-Queens game: hand-worked values, search agreement, tree sizes, keys, heuristic."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator
from typing import Any

import pytest

from zerosum.game import InputError, format_value
from zerosum.games.nqueens import ColumnQueens, NQueens, SquareQueens, nqueens, tree_size
from zerosum.games.registry import get_game
from zerosum.search import TranspositionTable, alphabeta_search, minimax_search

# ---------------------------------------------------------------- values worked out by hand
#
# 1a/1b, N = 3 (X in column 1, O in column 2, X in column 3):
#
#   X row 1 -- O row 3 -- X: column 3 has no open row (rows 1, 3 taken, row 2 on
#                            O's diagonal): X loses with 2 queens: 1a -1, 1b -2
#   X row 2 -- O: column 2 has no open row (rows 1 and 3 are on X's diagonals):
#               O loses with 1 queen: 1a +1, 1b +1
#   X row 3 -- mirror of row 1: -1 / -2
#   value +1 (1a) and +1 (1b), best move ('X', 2); 1 + 2 + 1 + 2 = 6 nodes.
#
# 1a/1b, N = 4:
#
#   X row 1 --+-- O row 3 -- X: column 3 closed (rows 1, 3 taken, 2 and 4 on O's
#             |              diagonals): O wins with 2 queens: -1 / -2
#             +-- O row 4 -- X row 2 -- O: column 4 closed: X wins with 3: +1 / +3
#             O picks row 3: -1 / -2
#   X row 2 ----- O row 4 -- X row 1 -- O row 3: all four placed, O wins: -1 / -4
#   X row 3, X row 4: mirrors of rows 2 and 1.
#   value -1 (1a, every opening loses; the first is kept) and -2 (1b: X loses with
#   the fewest queens by opening in row 1); 1 + 4 + 4 + 4 + 4 = 17 nodes.
#
# 2/2b, N = 3: the centre (2, 2) attacks every square: X wins with 1 queen (+1). A corner
#   leaves two squares that attack each other, an edge two in one row: O places the
#   last queen either way (-1 / -2). Value +1, best move (2, 2).
#
# 2/2b, N = 4: X in the corner (1, 1) leaves (2,3) (2,4) (3,2) (3,4) (4,2) (4,3); by the
#   diagonal symmetry O has three kinds of reply, and each leaves X exactly one more
#   queen to place: O (2,3) leaves only (4,2); O (2,4) leaves (3,2) and (4,3), which
#   attack each other; O (3,4) leaves only (4,2). X wins with 3 queens, and 3 is the
#   most an X win can have on a 4 x 4 board (4 queens would be O's win): +1 / +3 with
#   (1, 1), the first square in row-major order.

HAND = {
    ("1a", 1): (1, ("X", 1)), ("1b", 1): (1, ("X", 1)),
    ("1a", 2): (1, ("X", 1)), ("1b", 2): (1, ("X", 1)),
    ("1a", 3): (1, ("X", 2)), ("1b", 3): (1, ("X", 2)),
    ("1a", 4): (-1, ("X", 1)), ("1b", 4): (-2, ("X", 1)),
    ("2", 1): (1, (1, 1)), ("2b", 1): (1, (1, 1)),
    ("2", 2): (1, (1, 1)), ("2b", 2): (1, (1, 1)),
    ("2", 3): (1, (2, 2)), ("2b", 3): (1, (2, 2)),
    ("2", 4): (1, (1, 1)), ("2b", 4): (3, (1, 1)),
}


@pytest.mark.parametrize(("variation", "size"), sorted(HAND))
def test_hand_worked_values(variation: str, size: int) -> None:
    game = nqueens(size, variation)
    r = minimax_search(game, game.initial_state())
    assert (r.value, r.action) == HAND[variation, size]


def test_hand_worked_lines() -> None:
    game = nqueens(4, "1b")
    r = minimax_search(game, game.initial_state())
    assert r.pv == [("X", 1), ("O", 3)]
    three = nqueens(3)
    assert r.stats.nodes == 17
    assert minimax_search(three, three.initial_state()).stats.nodes == 6
    x2 = game.result(game.initial_state(), ("X", 2))
    assert minimax_search(game, x2).pv == [("O", 4), ("X", 1), ("O", 3)]
    assert minimax_search(game, x2).value == -4


# Minimax values from the empty board for N = 1..10 (these searches take 0.1 s).
VALUES_1A = [1, 1, 1, -1, 1, 1, 1, -1, -1, 1]
VALUES_1B = [1, 1, 1, -2, 5, 5, 5, -6, -6, 7]
MOVES_1 = [1, 1, 2, 1, 1, 2, 3, 1, 1, 3]  # first best opening row, 1a (1b differs at 5)


def test_values_up_to_ten() -> None:
    for n in range(1, 11):
        a = minimax_search(nqueens(n, "1a"), ((), 0, 0, 0))  # the empty board
        b = minimax_search(nqueens(n, "1b"), ((), 0, 0, 0))
        assert (a.value, a.action) == (VALUES_1A[n - 1], ("X", MOVES_1[n - 1]))
        assert b.value == VALUES_1B[n - 1]
        # The same winner in both scorings: the last to place wins in both.
        assert (a.value > 0) == (b.value > 0)
    assert minimax_search(nqueens(5, "1b"), ((), 0, 0, 0)).action == ("X", 2)


# ---------------------------------------------------------------- the searches agree


def agreeing(game: NQueens, depth: int | None = None) -> tuple[float, Any]:
    s = game.initial_state()
    mm = minimax_search(game, s, depth)
    ab = alphabeta_search(game, s, depth)
    tab = alphabeta_search(game, s, depth, order=True, table=TranspositionTable())
    assert ab.value == mm.value == tab.value
    assert ab.action == mm.action  # both keep the first best in actions() order
    assert ab.stats.nodes <= mm.stats.nodes
    return mm.value, mm.action


@pytest.mark.parametrize("variation", ["1a", "1b"])
def test_searches_agree_columns(variation: str) -> None:
    for n in range(1, 10):
        agreeing(nqueens(n, variation))
        for depth in (1, 2, 3, 4):
            agreeing(nqueens(n, variation), depth)


@pytest.mark.parametrize("variation", ["2", "2b"])
def test_searches_agree_squares(variation: str) -> None:
    for n in range(1, 6):
        agreeing(nqueens(n, variation))
    for n in (4, 5, 6):
        for depth in (1, 2, 3):
            agreeing(nqueens(n, variation), depth)


def test_table_search_far_beyond_minimax() -> None:
    # alpha-beta with table and ordering, N = 11 and 12 (values as in docs/nqueens.md).
    for n, v1a, v1b in ((11, 1, 7), (12, 1, 5)):
        for variation, value in (("1a", v1a), ("1b", v1b)):
            game = nqueens(n, variation)
            r = alphabeta_search(game, game.initial_state(), order=True,
                                 table=TranspositionTable())
            assert r.value == value
    game = nqueens(7, "2b")
    r = alphabeta_search(game, game.initial_state(), order=True, table=TranspositionTable())
    assert (r.value, r.action) == (5, (4, 4))


# ---------------------------------------------------------------- tree sizes (perft)


def column_placements(n: int) -> int:
    """Non-attacking placements of k queens in the first k columns, k = 0..n, counted
    by brute force over row sequences (independent of the game's bitmasks)."""
    total = 0
    for k in range(n + 1):
        for rows in itertools.permutations(range(n), k):
            if all(abs(rows[i] - rows[j]) != j - i for i in range(k) for j in range(i + 1, k)):
                total += 1
    return total


def square_sequences(n: int) -> int:
    """Orders of placement of every set of mutually non-attacking queens: the number of
    paths from the root of variation 2's tree. Every order of such a set is legal
    (attacks are symmetric), and every node is such an ordered set."""
    cells = [(r, c) for r in range(n) for c in range(n)]

    def attack(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1])

    total = 0
    for k in range(n + 1):
        for chosen in itertools.combinations(cells, k):
            if not any(attack(a, b) for a, b in itertools.combinations(chosen, 2)):
                total += math.factorial(k)
    return total


def test_column_tree_sizes() -> None:
    # 2057 for N = 8 is the size of the classic 8-queens backtrack tree (Knuth, TAOCP
    # 7.2.2); the full game tree of 1a/1b is exactly that tree.
    expected = {1: 2, 2: 3, 3: 6, 4: 17, 5: 54, 6: 153, 7: 552, 8: 2057}
    for n, count in expected.items():
        assert column_placements(n) == count
        for variation in ("1a", "1b"):
            game = nqueens(n, variation)
            assert tree_size(game) == count
            assert minimax_search(game, game.initial_state()).stats.nodes == count


def test_square_tree_sizes() -> None:
    expected = {1: 2, 2: 5, 3: 26, 4: 297, 5: 4698}
    for n, count in expected.items():
        assert square_sequences(n) == count
        game = nqueens(n, "2")
        assert tree_size(game) == count
        assert minimax_search(game, game.initial_state()).stats.nodes == count


# ---------------------------------------------------------------- keys and symmetry


def random_line(game: NQueens, rng: random.Random) -> list[Any]:
    state, moves = game.initial_state(), []
    for _ in range(rng.randrange(game.size + 1)):
        if game.is_terminal(state):
            break
        a = rng.choice(game.actions(state))
        moves.append(a)
        state = game.result(state, a)
    return moves


def replay(game: NQueens, moves: list[Any]) -> Any:
    state = game.initial_state()
    for a in moves:
        state = game.result(state, a)
    return state


def square_symmetries(n: int) -> Iterator[Any]:
    m = n + 1
    yield from (
        lambda r, c: (r, c), lambda r, c: (c, m - r), lambda r, c: (m - r, m - c),
        lambda r, c: (m - c, r), lambda r, c: (r, m - c), lambda r, c: (m - r, c),
        lambda r, c: (c, r), lambda r, c: (m - c, m - r),
    )


def test_column_keys_fold_the_mirror() -> None:
    rng = random.Random(7)
    for n in (5, 6, 8, 9):
        game = nqueens(n, "1b")
        for _ in range(40):
            moves = random_line(game, rng)
            mirrored = [(p, n + 1 - r) for p, r in moves]
            a, b = replay(game, moves), replay(game, mirrored)
            assert game.key(a) == game.key(b)
            assert minimax_search(game, a).value == minimax_search(game, b).value
            assert game.evaluate(a) == game.evaluate(b) or game.is_terminal(a)


def test_square_keys_fold_eight_symmetries() -> None:
    rng = random.Random(11)
    for n in (4, 5, 6):
        game = nqueens(n, "2b")
        for _ in range(25):
            moves = random_line(game, rng)
            state = replay(game, moves)
            for f in square_symmetries(n):
                image = replay(game, [f(r, c) for r, c in moves])
                assert game.key(image) == game.key(state)
                assert image[1].bit_count() == state[1].bit_count()
    # Different positions keep different keys: 25 first moves on 5 x 5 fall into 6
    # classes (centre, corners, edge middles, the 4 + 4 off-centre edge cells, the
    # inner corners, the inner edge middles).
    game = nqueens(5, "2")
    keys = {game.key(game.result(game.initial_state(), a))
            for a in game.actions(game.initial_state())}
    assert len(keys) == 6


def test_keys_distinguish_different_futures() -> None:
    game = nqueens(6, "1a")
    keys: dict[Any, float] = {}

    def walk(state: Any) -> None:
        key = game.key(state)
        value = minimax_search(game, state).value
        assert keys.setdefault(key, value) == value
        for a in game.actions(state):
            walk(game.result(state, a))

    walk(game.initial_state())
    # 153 nodes, 69 keys: the mirror folds about half, and a few positions reached
    # by different placements leave the same rows and diagonals attacked.
    assert len(keys) == 69


# ---------------------------------------------------------------- the heuristic


def lengths(game: NQueens, state: Any) -> tuple[int, int]:
    """Fewest and most queens still to be placed below `state` (brute force)."""
    if game.is_terminal(state):
        return 0, 0
    below = [lengths(game, game.result(state, a)) for a in game.actions(state)]
    return 1 + min(b[0] for b in below), 1 + max(b[1] for b in below)


def all_states(game: NQueens) -> Iterator[Any]:
    def walk(state: Any) -> Iterator[Any]:
        yield state
        for a in game.actions(state):
            yield from walk(game.result(state, a))

    return walk(game.initial_state())


@pytest.mark.parametrize(("variation", "size"), [("1b", 7), ("1b", 8), ("2b", 4)])
def test_heuristic_bounds_hold_and_exact_when_tight(variation: str, size: int) -> None:
    game = nqueens(size, variation)
    tight = 0
    scale = size
    for state in all_states(game):
        if game.is_terminal(state):
            continue
        lo, hi = game.remaining_bounds(state)
        shortest, longest = lengths(game, state)
        assert 1 <= lo <= shortest and longest <= hi
        e = game.evaluate(state)
        assert -scale <= e <= scale
        if lo == hi:
            tight += 1
            assert e == minimax_search(game, state).value
    assert tight > 0


def test_heuristic_values() -> None:
    # 1a, N = 4 after X row 1, O row 4: column 3 has one open row (2) and column 4 is
    # open now but only row 3, at distance 1 with 1 open square <= 3: X surely places
    # one, perhaps two: lengths 1 or 2 -> final counts 3 (X wins) or 4 (O wins): 0.
    game = nqueens(4, "1a")
    s = replay(game, [("X", 1), ("O", 4)])
    assert game.remaining_bounds(s) == (1, 2)
    assert game.evaluate(s) == 0
    # The empty 8 x 8 board in 1b: columns 2 and 3 cannot be closed in time (8 > 3,
    # 8 > 6; column 4: 8 > 9 fails): 3 to 8 queens, (3 - 4 + 5 - 6 + 7 - 8) / 6 = -0.5.
    game = nqueens(8, "1b")
    assert game.remaining_bounds(game.initial_state()) == (3, 8)
    assert game.evaluate(game.initial_state()) == -0.5
    # 2, N = 3 after a corner: two squares left that attack each other: exactly 1 more.
    game2 = nqueens(3, "2")
    s2 = game2.result(game2.initial_state(), (1, 1))
    assert game2.remaining_bounds(s2) == (1, 1) and game2.evaluate(s2) == -1


# ---------------------------------------------------------------- moves and display


def test_moves_and_parsing() -> None:
    game = nqueens(5, "1a")
    s = game.initial_state()
    assert game.actions(s) == [("X", r) for r in range(1, 6)]
    # Written in the game's notation everywhere; read in it, as a number, or as the tuple.
    assert (game.format_move(("X", 3)), game.format_move(("O", 3))) == ("X3", "O3")
    assert nqueens(5, "2").format_move((2, 3)) == "r2c3"
    for text in ("3", "X3", "X 3", "('X', 3)", " x3 "):
        assert game.parse_move(s, text) == ("X", 3)
    s = game.result(s, ("X", 3))
    assert game.actions(s) == [("O", 1), ("O", 5)]
    for bad in ("2", "X 1", "0", "", "1 5", "row"):
        with pytest.raises(InputError):
            game.parse_move(s, bad)
    with pytest.raises(InputError):
        game.result(s, ("O", 2))
    sq = nqueens(4, "2")
    t = sq.result(sq.initial_state(), (2, 2))
    assert sq.actions(t) == [(1, 4), (3, 4), (4, 1), (4, 3)]
    assert sq.parse_move(t, "(4, 1)") == (4, 1) and sq.parse_move(t, "3 4") == (3, 4)
    for bad in ("1 1", "4", "5 5", "2,2"):
        with pytest.raises(InputError):
            sq.parse_move(t, bad)
    with pytest.raises(InputError):
        nqueens(0)
    with pytest.raises(InputError):
        nqueens(4, "3")


def test_render() -> None:
    game = nqueens(4, "1a")
    s = replay(game, [("X", 1), ("O", 4)])
    assert game.render(s) == "\n".join([
        "    1  2  3  4",
        " 1  X  -  -  -",
        " 2  -  -  .  -",
        " 3  -  -  -  .",
        " 4  -  O  -  -",
        "X to move in column 3",
    ])
    sq = nqueens(3, "2")
    t = replay(sq, [(1, 1), (2, 3)])
    assert sq.render(t) == "    1  2  3\n 1  X  -  -\n 2  -  -  O\n 3  -  -  -"
    assert sq.is_terminal(t) and sq.utility(t) == -1
    assert format_value(game, 1, decided=True) == "+1 (X wins, proven)"
    assert format_value(nqueens(8, "1b"), -6, decided=True, plies=3) == "-6 (O wins in 3 plies)"
    # Scored variations: an estimate may exceed the smallest win, so it says what it is.
    assert format_value(nqueens(8, "1b"), 1.5) == "+1.5 (estimate, good for X)"


def test_registered_for_play() -> None:
    spec = get_game("nqueens")
    game = spec.create(size=7, variation="2b")
    assert isinstance(game, SquareQueens) and game.size == 7 and game.scored
    assert isinstance(spec.create(), ColumnQueens)


# ---------------------------------------------------------------- heavier checks


@pytest.mark.slow
def test_searches_agree_larger() -> None:
    # Plain minimax still feasible: 1a/1b N = 11, 12 (166,926 and 856,189 nodes),
    # 2/2b N = 6 (63,069 nodes).
    for n in (11, 12):
        for variation in ("1a", "1b"):
            assert agreeing(nqueens(n, variation))[0] == {11: (1, 7), 12: (1, 5)}[n][
                variation == "1b"]
    assert minimax_search(nqueens(12), ((), 0, 0, 0)).stats.nodes == 856_189
    for variation, value in (("2", 1), ("2b", 5)):
        assert agreeing(nqueens(6, variation))[0] == value


@pytest.mark.slow
@pytest.mark.parametrize(("variation", "size", "value"), [
    ("1a", 13, 1), ("1a", 14, -1), ("1a", 15, 1), ("1a", 16, 1),
    ("1b", 13, 7), ("1b", 14, -8), ("1b", 15, 11), ("1b", 16, 9),
    ("2", 9, 1), ("2", 10, -1), ("2b", 9, 7), ("2b", 10, -8),
])
def test_published_values(variation: str, size: int, value: int) -> None:
    # The values in docs/nqueens.md (bench/nqueens_values.py).
    game = nqueens(size, variation)
    r = alphabeta_search(game, game.initial_state(), order=True, table=TranspositionTable())
    assert r.value == value
