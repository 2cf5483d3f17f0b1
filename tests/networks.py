"""A tiny AlphaZero network for the explain page's tests (web and browser): trained for
two tic-tac-toe games (what it learned does not matter: the page's search is checked
against the learner's own), and its learner on a position."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from zerosum.games.registry import get_game


def tiny_network(folder: Path) -> Path:
    from zerosum.learn.train import train

    spec = get_game("tictactoe")
    out = folder / "ttt.zsnet"
    train(spec, spec.create(), {}, "alphazero", out, games=2, seed=1,
          settings={"hidden": 16, "simulations": 8, "fast": 4}, checkpoint_seconds=1e9)
    return out


def learner_after(path: Path, moves: tuple[str, ...]) -> tuple[Any, Any, Any]:
    """The network's learner, its game and the tic-tac-toe position after `moves`."""
    from zerosum.learn.methods import learner_of, read

    spec = get_game("tictactoe")
    game = spec.create()
    learner = learner_of(read(path, spec), spec, game, str(path))
    state = game.initial_state()
    for move in moves:
        state = game.result(state, game.parse_move(state, move))
    return learner, game, state
