"""Alpha-beta (AIMA fig. 5.7), to the end or to a depth, and depth-limited alpha-beta
(with the game's heuristic at the cutoff, AIMA 5.4): one search, two kinds."""

from __future__ import annotations

from typing import Any

from zerosum.game import AnyGame
from zerosum.games.registry import GameSpec
from zerosum.players.catalogue import SEARCH_SETTINGS, Choice, PlayerKind, register
from zerosum.result import Analyser, InfoSink, Limit, SearchResult
from zerosum.search import alphabeta
from zerosum.search.estimate import ALPHABETA_COST
from zerosum.stop import Stop
from zerosum.table import TranspositionTable


def analyser(spec: GameSpec | None, choice: Choice) -> Analyser:
    """Alpha-beta with the enhancements chosen (a table, move ordering)."""
    enhancements = choice.enhancements
    kept: list[tuple[Any, TranspositionTable]] = []  # (state, its table)

    def analyse(game: AnyGame, state: Any, limit: Limit, on_info: InfoSink | None = None,
                stop: Stop | None = None) -> SearchResult:
        # A table costs alpha-beta nothing in value and saves it the transposed
        # subtrees; searching the same state again (thinking on after a stop) reuses it.
        table = None
        if enhancements.table:
            if not kept or kept[0][0] != state:
                kept[:] = [(state, TranspositionTable())]
            table = kept[0][1]
        return alphabeta.analyse(game, state, limit, on_info, stop,
                                 order=enhancements.ordering, table=table)

    return analyse


register(PlayerKind(
    "alphabeta", "alpha-beta: minimax's choice, found faster", None, SEARCH_SETTINGS,
    fixed_depth=True, analyser=analyser, full_cost=ALPHABETA_COST, title="alpha-beta", order=30,
    explain="the same choice as minimax, found faster: it skips lines that cannot change "
    "the decision, so it can look deeper in the same time."))
register(PlayerKind(
    "depth-limited", "alpha-beta to a depth, judging positions by the game's heuristic",
    None, SEARCH_SETTINGS, fixed_depth=True, to_the_end=False, analyser=analyser,
    title="depth-limited search", order=40,
    explain="alpha-beta to a fixed depth, judging the positions there with the game's own "
    "rule of thumb (its heuristic)."))
