"""Iterative deepening: the one driver (search/driver.py) with the generic kernel,
alpha-beta to depth 1, 2, 3, ... within a time per move."""

from __future__ import annotations

from functools import partial

from zerosum.games.registry import GameSpec
from zerosum.players.catalogue import SEARCH_SETTINGS, Choice, PlayerKind, register
from zerosum.result import Analyser
from zerosum.search import iterative


def analyser(spec: GameSpec | None, choice: Choice) -> Analyser:
    return partial(iterative.analyse, enhancements=choice.enhancements)


register(PlayerKind(
    "iterative", "alpha-beta deeper and deeper within a time per move", None,
    SEARCH_SETTINGS, timed=True, analyser=analyser, title="iterative deepening", order=50,
    explain="alpha-beta to depth 1, 2, 3, ... until its time per move runs out; plays the "
    "best move of the deepest search it finished."))
