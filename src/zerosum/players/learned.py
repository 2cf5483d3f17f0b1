"""A learned player (the `learned:FILE` kind of zerosum.players.kinds.learned): the
weights of a training run (zerosum.learn.weights) playing alone, one ply (each move's
afterstate valued, the best taken); given a depth, as the evaluation at the leaves of
alpha-beta (search/alphabeta.py) to that depth; given a number of simulations, as the
playout policy of Monte Carlo tree search (search/mcts.py): its playouts play the
learned move, and a random one a tenth of the time (PLAYOUT_EPSILON). A learner with
its own search says so: a policy-value network (alphazero) searches by its PUCT
(`puct`), a fitted or learned engine evaluation (texel, samuel) by the game's engine
(`engine_game`)."""

from __future__ import annotations

import os
import random
from typing import Any

from zerosum.game import AnyGame, InputError
from zerosum.games.registry import GameSpec
from zerosum.kernel import ALL, Enhancements, derive
from zerosum.learn.methods import Learner, learner_of, read
from zerosum.players.agents import ComputerAgent, engines_of
from zerosum.result import InfoSink, Limit, SearchResult
from zerosum.search import alphabeta, mcts
from zerosum.search.driver import bounded
from zerosum.search.mcts import SimulationTracer
from zerosum.stop import Stop
from zerosum.table import TranspositionTable

INSIDE = 0.999  # a learned value in (-1, 1) kept strictly inside a bounded game's wins
PLAYOUT_EPSILON = 0.1  # the share of random moves in a learned playout


class LearnedGame:
    """`game` with the learned value as its evaluation (on the game's scale), for a
    search to use at its leaves; everything else is the game's own."""

    def __init__(self, game: AnyGame, learner: Learner) -> None:
        self._game, self._learner = game, learner
        self._scale = game.values.win * INSIDE

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def evaluate(self, state: Any) -> float:
        return self._scale * self._learner.afterstate_value(state)

    def playout_policy(self, state: Any, rng: random.Random) -> Any:
        """The learned move, or a random one PLAYOUT_EPSILON of the time (playouts that
        all went the same way would tell MCTS one line only)."""
        if rng.random() < PLAYOUT_EPSILON:
            return rng.choice(list(self._game.actions(state)))
        return self._learner.best(state)[0]


class LearnedAgent(ComputerAgent):
    """The player of the weights in `path` for `spec` (read and checked at once)."""

    def __init__(self, spec: GameSpec, path: str | os.PathLike[str], limit: Limit,
                 simulations: int | None = None, seed: int | None = None,
                 enhancements: Enhancements = ALL) -> None:
        if simulations is not None and limit.depth:
            raise InputError("learned: give depth=N (alpha-beta) or mcts=N (Monte Carlo "
                             "tree search), not both")
        self.spec, self.path = spec, os.fspath(path)
        self.weights = read(path, spec)
        self.limit = limit
        self.simulations = simulations
        self.enhancements = enhancements  # of the engine a texel or samuel file plays with
        self.seeds = random.Random(seed)
        how = f", depth {limit.depth}" if limit.depth else \
            f", mcts {simulations}" if simulations else ""
        self.name = f"learned ({os.path.basename(self.path)}{how})"
        self._learners: dict[int, tuple[AnyGame, Learner]] = {}
        self._engine_games: dict[int, tuple[AnyGame, Any]] = {}

    def learner(self, game: AnyGame) -> Learner:
        """The learner for this game (its board checked against the file's)."""
        known = self._learners.get(id(game))
        if known is None or known[0] is not game:
            known = (game, learner_of(self.weights, self.spec, game, self.path))
            self._learners[id(game)] = known
        return known[1]

    def analyse(self, game: AnyGame, state: Any, limit: Limit | None = None,
                on_info: InfoSink | None = None, stop: Stop | None = None) -> SearchResult:
        limit = limit or self.limit
        learner = self.learner(game)
        if self.enhancements != ALL and (self.simulations is not None or not (
                (limit.depth or limit.seconds) and hasattr(learner, "engine_game"))):
            raise InputError(f"{self.name}: off=... switches off enhancements of a game's "
                             "engine, which only a texel or samuel file with a depth or a "
                             "time plays with")
        if self.simulations is not None and hasattr(learner, "puct"):
            return self.puct(game, state, self.simulations, limit, stop)
        if self.simulations is not None:
            guided: Any = LearnedGame(game, learner)
            result = mcts.analyse(guided, state, Limit(nodes=self.simulations,
                                                       seconds=limit.seconds),
                                  on_info, stop, seed=self.seeds.randrange(2**32))
            result.algorithm = "learned mcts"
            return result
        if (limit.depth or limit.seconds) and hasattr(learner, "engine_game"):
            tuned = self._engine_games.get(id(game))
            if tuned is None or tuned[0] is not game:  # one per game: the engine's memory
                tuned = self._engine_games[id(game)] = (
                    game, derive(game, learner.engine_game(game)))
            result = engines_of(self.spec, self.enhancements)["engine"](
                tuned[1], state, limit, on_info, stop)
            result.algorithm = f"engine, {learner.method} weights"
            return result
        if limit.depth:
            searched: Any = LearnedGame(game, learner)
            result = alphabeta.analyse(searched, state, limit, on_info, stop, order=True,
                                       table=TranspositionTable())
            result.algorithm = "learned alpha-beta"
            return result
        if game.is_terminal(state):
            return SearchResult(game.utility(state), None, [], depth=0, algorithm="learned")
        action, value = learner.best(state)
        mine = value if game.is_maxs_turn(state) else -value
        result = SearchResult(mine * game.values.win * INSIDE, action, [action], depth=1,
                              algorithm="learned")
        result.stats.nodes = len(game.actions(state))
        return result

    def puct(self, game: AnyGame, state: Any, simulations: int, limit: Limit,
             stop: Stop | None = None, tracer: SimulationTracer | None = None
             ) -> SearchResult:
        """A policy-value network's own PUCT search (zerosum.learn.alphazero) of
        `simulations`, ended sooner by the limit's time or by `stop` (its best move so
        far then; stopped by a request, not complete); `tracer` receives each simulation
        (the explain page's MCTS view). InputError for weights of another method."""
        learner: Any = self.learner(game)
        if not hasattr(learner, "puct"):
            raise InputError(f"{self.name}: {learner.method} weights have no PUCT search "
                             "(only a policy-value network, alphazero, has)")
        if game.is_terminal(state):
            return SearchResult(game.utility(state), None, [], depth=0,
                                algorithm="learned puct", unit="simulations")
        budget = bounded(Limit(seconds=limit.seconds), stop)
        action, mine, root = learner.puct(state, simulations, budget, tracer)
        value = mine if game.is_maxs_turn(state) else -mine
        result = SearchResult(value * game.values.win * INSIDE, action, [action], depth=1,
                              complete=not (stop is not None and stop.requested),
                              algorithm="learned puct", unit="simulations")
        result.stats.nodes = sum(root.visits)
        result.details["visits"] = dict(zip(root.actions, root.visits, strict=True))
        result.details["priors"] = dict(zip(root.actions, root.priors, strict=True))
        return result
