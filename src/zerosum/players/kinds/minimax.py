"""Minimax (AIMA fig. 5.3): every line of play, to a depth or to the end."""

from __future__ import annotations

from zerosum.games.registry import GameSpec
from zerosum.players.catalogue import SEARCH_SETTINGS, Choice, PlayerKind, register
from zerosum.result import Analyser
from zerosum.search import minimax
from zerosum.search.estimate import MINIMAX_COST


def analyser(spec: GameSpec | None, choice: Choice) -> Analyser:
    return minimax.analyse


register(PlayerKind(
    "minimax", "looks at every line of play, to a depth you choose", None, SEARCH_SETTINGS,
    fixed_depth=True, analyser=analyser, full_cost=MINIMAX_COST, order=20,
    explain="looks ahead every possible line of play to a fixed number of moves (the "
    "depth), or to the end of the game, and picks the best for itself."))
