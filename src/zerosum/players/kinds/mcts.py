"""Monte Carlo tree search (UCT with MCTS-Solver), counting simulations; each move's
seed drawn from the player's seed, so a match can be replayed."""

from __future__ import annotations

import random
from typing import Any

from zerosum.game import AnyGame
from zerosum.games.registry import GameSpec
from zerosum.players.catalogue import SEARCH_SETTINGS, Choice, PlayerKind, register
from zerosum.result import Analyser, InfoSink, Limit, SearchResult
from zerosum.search import mcts
from zerosum.stop import Stop


def analyser(spec: GameSpec | None, choice: Choice) -> Analyser:
    seeds = random.Random(choice.seed)  # each move's seed drawn from `seed`

    def analyse(game: AnyGame, state: Any, limit: Limit, on_info: InfoSink | None = None,
                stop: Stop | None = None) -> SearchResult:
        return mcts.analyse(game, state, limit, on_info, stop, seed=seeds.randrange(2**32))

    return analyse


register(PlayerKind(
    "mcts", "Monte Carlo tree search within a time per move", None, SEARCH_SETTINGS,
    timed=True, analyser=analyser, title="Monte Carlo tree search", unit="simulations",
    order=60,
    explain="Monte Carlo tree search: plays many random games from each move and prefers "
    "the moves that win most often; proven wins are played at once."))
