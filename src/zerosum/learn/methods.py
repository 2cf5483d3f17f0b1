"""The learning methods by name, and what the trainer and a learned player ask of one.

A method is one module with a learner class (`Learner` below): how it plays a move of
self-play (exploring), what it learns from a finished game, how it values a position
and chooses a move when it plays for real, and how it saves itself in the one weights
format (zerosum.learn.weights). A new method (Samuel's checkers, a small AlphaZero)
is one more module and one more line in METHODS.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Any, Protocol

from zerosum.game import AnyGame, InputError, shown
from zerosum.games.registry import GameSpec
from zerosum.learn import weights as weights_file
from zerosum.learn.alphazero import AlphaZeroLearner
from zerosum.learn.ntuple import NTupleLearner
from zerosum.learn.samuel import SamuelLearner
from zerosum.learn.texel import TexelLearner
from zerosum.learn.weights import Weights


class Learner(Protocol):
    method: str
    settings: Any

    def self_play_move(self, state: Any, rng: random.Random) -> tuple[Any, bool]:
        """A move of self-play and whether it was a random one (to explore)."""
        ...

    def learn(self, states: Sequence[Any], explored: Sequence[bool]) -> None:
        """Learn from a finished game: the positions after each move, the last the
        end; explored[t]: the move into states[t] was random."""
        ...

    def afterstate_value(self, state: Any) -> float:
        """The value of a position from Max's side, in [-1, 1]."""
        ...

    def best(self, state: Any) -> tuple[Any, float]:
        """The move it plays (one ply) and its value for the side to move."""
        ...

    def save(self, header: dict[str, Any]) -> Weights: ...


# name -> the learner's class: `learns(spec)` says which games it learns, `new(spec,
# game, rng, settings)` starts one (its random choices drawn from rng), `load(spec, game,
# weights, name)` reads one back. A class with `fitted_not_played` is fitted to solver
# labels at once (texel: `fit_file`), not trained by self-play. A learner with
# `engine_game(game)` is played with a depth by the game's own engine on that game (the
# engine with the learned evaluation) rather than by the generic alpha-beta; one with
# `puct(state, n)` searches mcts=N by its own PUCT (alphazero); `snapshot()`, if a
# learner has it, is kept in the run's history at each checkpoint (Samuel's weights);
# `play_self(rng)` and `learn_from(moves, explored)`, compiled twins of the trainer's
# functions of those names, play and learn a whole game where they can (n-tuples).
METHODS: dict[str, Any] = {"ntuple": NTupleLearner, "samuel": SamuelLearner,
                           "texel": TexelLearner, "alphazero": AlphaZeroLearner}


def new_learner(method: str, spec: GameSpec, game: AnyGame, rng: random.Random,
                settings: dict[str, Any] | None = None) -> Learner:
    if method not in METHODS:
        raise InputError(f"no learning method {shown(method)}; choose from "
                         f"{', '.join(METHODS)}")
    learner: Learner = METHODS[method].new(spec, game, rng, settings or {})
    return learner


def read(path: str | os.PathLike[str], spec: GameSpec) -> Weights:
    """The weights saved in `path`, checked to be for `spec`'s game and of a method
    known here; InputError in one line otherwise."""
    name = os.fspath(path)
    w = weights_file.read(name, spec.name)
    if w.method not in METHODS:
        raise InputError(f"weights file {shown(name, 60)}: method {shown(w.method)} is not "
                         f"known here (methods: {', '.join(METHODS)})")
    return w


def learner_of(w: Weights, spec: GameSpec, game: AnyGame, name: str) -> Learner:
    """The learner `w` holds, for `game` (InputError if its board is another size)."""
    learner: Learner = METHODS[w.method].load(spec, game, w, shown(name, 60))
    return learner
