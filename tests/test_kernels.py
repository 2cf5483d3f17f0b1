"""The kernels against the textbook: with every enhancement off, one pass of a kernel run
by the driver is plain alpha-beta, so it examines exactly the nodes `alphabeta_search`
examines and finds the same value (the root counted once).

One difference is by design: in a win/draw/loss game the generic kernel scores a win by
its distance (a faster win is worth more, a slower loss less), where the textbook's
utilities make all wins equal. Two wins at different depths then compare differently,
so the cutoffs, and the node counts, differ (the value does not). Declared as a score
game (its utilities taken as they are), the same game gives exactly the textbook's count.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from twins import played

from zerosum.game import AnyGame, Values
from zerosum.games.connect4.game import Connect4
from zerosum.games.maxconnect4 import MaxConnect4, Position
from zerosum.games.maxconnect4.engine import MaxConnect4Kernel
from zerosum.games.takestones import TakeStones
from zerosum.games.tictactoe import TicTacToe
from zerosum.games.tree import TreeGame
from zerosum.kernel import Enhancements, Kernel
from zerosum.result import Limit, SearchResult
from zerosum.search import alphabeta_search
from zerosum.search.driver import deepen
from zerosum.search.negamax import ProtocolKernel
from zerosum.stop import Stop

NONE = Enhancements.none()
FIG52 = (Path(__file__).parent.parent / "docs" / "examples" / "fig52.txt").read_text()


class OneProtocolPass(ProtocolKernel):
    """The generic kernel with one pass, to its maximum depth."""

    def depths(self) -> Iterable[int]:
        return (self.max_depth,)


class OneMaxConnect4Pass(MaxConnect4Kernel):
    """The Max-Connect4 kernel with one pass, to the depth the limit gives."""

    def depths(self) -> Iterable[int]:
        return (self.label,)


def one_pass(kernel: Kernel, depth: int) -> SearchResult:
    return deepen(kernel, Limit(depth=depth), Stop(), None, NONE)


def as_score_game(game: AnyGame) -> AnyGame:
    """The same game with its utilities taken as plain scores (no distance scoring)."""
    scored = copy.copy(game)
    values = game.values
    scored.values = Values("score", values.win, values.lo, values.hi)  # type: ignore[misc]
    return scored


def random_state(game: AnyGame, seed: int, plies: int) -> Any:
    return played(game, random.Random(seed), plies)


@pytest.mark.parametrize(("game", "plies", "depth"), [
    (TicTacToe(), 0, 9), (TicTacToe(), 1, 3), (TicTacToe(), 2, 8),
    (Connect4(4, 4), 2, 5), (Connect4(5, 4), 3, 4),
    (TakeStones(7), 0, 7), (TakeStones(12), 1, 4), (TakeStones(10, "summary"), 1, 9),
    (TreeGame.from_text(FIG52), 0, 2), (TreeGame.from_text(FIG52, max_first=False), 0, 2),
])
def test_the_protocol_kernel_is_textbook_alphabeta(game: AnyGame, plies: int,
                                                   depth: int) -> None:
    scored = as_score_game(game)
    for seed in range(3):
        state = random_state(game, seed, plies)
        textbook = alphabeta_search(game, state, depth)
        result = one_pass(OneProtocolPass(scored, state, Stop(), None, NONE, depth), depth)
        assert (result.stats.nodes, result.value) == (textbook.stats.nodes, textbook.value)
        assert result.action == textbook.action
        # With the game's own values: the same value, by another count in outcome games.
        own = one_pass(OneProtocolPass(game, state, Stop(), None, NONE, depth), depth)
        assert own.value == textbook.value


def test_distance_scoring_changes_the_count() -> None:
    """Tic-tac-toe from the empty board, full depth: 20,866 nodes with wins scored by
    their distance, 18,297 with all wins equal (the textbook's); both find the draw."""
    game = TicTacToe()
    state = game.initial_state()
    own = one_pass(OneProtocolPass(game, state, Stop(), None, NONE, 9), 9)
    textbook = alphabeta_search(game, state, 9)
    assert (own.stats.nodes, own.value) == (20866, 0)
    assert (textbook.stats.nodes, textbook.value) == (18297, 0)


def test_fig52_counts() -> None:
    """AIMA figure 5.5: alpha-beta examines the root, B and its three leaves, C and its
    first leaf (the rest pruned), D and its three leaves: 11 nodes; the value 3, move B."""
    game = TreeGame.from_text(FIG52)
    result = one_pass(OneProtocolPass(game, game.initial_state(), Stop(), None, NONE, 2), 2)
    assert (result.stats.nodes, result.value, result.action) == (11, 3, 0)


@pytest.mark.parametrize(("pieces", "depth"), [(0, 4), (5, 5), (12, 4), (20, 5), (25, 3)])
def test_the_maxconnect4_kernel_is_textbook_alphabeta(pieces: int, depth: int) -> None:
    """The same evaluation (hundredths from the mover's side, divided by 100 exactly as
    MaxConnect4.evaluate does) and the same order (columns left to right)."""
    game = MaxConnect4()
    for seed in range(2):
        pos: Position = random_state(game, seed, pieces)
        textbook = alphabeta_search(game, pos, depth)
        kernel = OneMaxConnect4Pass(game, pos, Stop(), NONE)
        result = one_pass(kernel, depth)
        assert (result.stats.nodes, result.value) == (textbook.stats.nodes, textbook.value)
        assert result.action == textbook.action
        assert not result.decided


@pytest.mark.parametrize("name", ["connect4", "maxconnect4", "checkers"])
def test_a_bound_on_memory_caps_what_an_engine_keeps(name: str) -> None:
    """kernel.bound_memory: no more entries kept than allowed, however long the search;
    forget frees them; without a bound the engine keeps more."""
    from zerosum.games.registry import get_game
    from zerosum.kernel import bound_memory, forget, kept_entries
    from zerosum.players.agents import engines_of

    spec = get_game(name)
    engine = engines_of(spec)["engine"]
    free, bounded = spec.create(), spec.create()
    bound_memory(bounded, 2000)
    for game in (free, bounded):
        result = engine(game, game.initial_state(), Limit(nodes=60_000))
        assert result.stats.nodes > 10_000
    slack = 1024 if name == "checkers" else 0  # it makes room at its check, every 1,024 nodes
    assert 0 < kept_entries(bounded) <= 2000 + slack < kept_entries(free)
    forget(free)
    assert kept_entries(free) == 0


def test_two_searches_of_one_game_at_once_never_share_its_memory() -> None:
    """A game's engine memory is lent to one search at a time (kernel.memory_of): the
    next search gets the same one back (its table keeps serving), a search while it is
    out gets another (a native search lets other threads run at its checks: a table
    changed under it would crash it), and what both keep is counted."""
    from zerosum.kernel import forget, kept_entries, memory_of

    game = Connect4()
    made: list[dict[int, int]] = []

    def make() -> dict[int, int]:
        made.append({len(made): 0})
        return made[-1]

    with memory_of(game, make) as first, memory_of(game, make) as second:
        assert first is not second
    with memory_of(game, make) as again:
        assert again is first  # the one given back last (the inner block ended first)
    assert len(made) == 2 and kept_entries(game) == 2
    forget(game)
    with memory_of(game, make) as fresh:
        assert fresh is made[2]


def test_forgetting_a_game_forgets_the_games_made_from_it() -> None:
    """A learned player's engine plays `game` under its weights as another object with
    its own memory (kernel.derive); forgetting the game (a grader between positions)
    must forget that one too."""
    from zerosum.kernel import derive, forget, kept_entries, memory_of

    game, other = Connect4(), Connect4()
    made = derive(game, Connect4())
    for g in (game, made, other):
        with memory_of(g, lambda: {1: 1}):
            pass
    assert kept_entries(made) == kept_entries(other) == 1
    forget(game)
    assert kept_entries(game) == kept_entries(made) == 0 and kept_entries(other) == 1


@pytest.mark.parametrize("name", ["connect4", "maxconnect4", "checkers"])
def test_what_an_engine_keeps_goes_with_its_game(name: str) -> None:
    """A game object searched by its engine is freed with everything kept for it (a
    server's sessions come and go): nothing kept holds the game."""
    import gc
    import weakref

    from zerosum.games.registry import get_game
    from zerosum.players.agents import engines_of

    spec = get_game(name)
    game = spec.create()
    engines_of(spec)["engine"](game, game.initial_state(), Limit(depth=3))
    gone = weakref.ref(game)
    del game
    gc.collect()
    assert gone() is None
