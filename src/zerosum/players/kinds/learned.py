"""Learned players (zerosum.learn) as a kind of player: the weights of a training run,
written `learned:FILE` (one ply: the move whose position the weights value most),
`learned,depth=N:FILE` (alpha-beta to depth N, the learned value at its leaves) or
`learned,mcts=N:FILE` (Monte Carlo tree search of N simulations, its playouts played by
the learned moves); `time=S` bounds a search's time per move (a texel file: the engine
with the fitted weights, given a time, as `engine:time=S`); `off=...` switches off
enhancements of the engine that a texel or samuel file plays with, as `engine:off=...`
(e.g. `off=solution`: on 4x4 checkers the engine searches instead of reading the
solution)."""

from __future__ import annotations

from zerosum.convert import parse_int
from zerosum.games.registry import GameSpec
from zerosum.match import Agent
from zerosum.players.catalogue import Choice, PlayerKind, Setting, register
from zerosum.result import Limit


def learnable(spec: GameSpec) -> bool:
    """Whether a learning method learns this game (what each learns it declares)."""
    from zerosum.learn.methods import METHODS  # loaded only when the kinds are listed

    return any(method.learns(spec) for method in METHODS.values())


def build_learned(spec: GameSpec, limit: Limit, choice: Choice) -> Agent:
    from zerosum.players.learned import LearnedAgent  # loaded only when one plays

    return LearnedAgent(spec, choice.argument, limit, choice.extra.get("mcts"), choice.seed,
                        choice.enhancements)


MCTS = Setting("mcts", "Monte Carlo tree search of this many simulations, 1 or more, the "
               "learned moves playing its playouts (default: none, one ply)",
               lambda t, w: parse_int(t, w, lo=1))


register(PlayerKind(
    "learned", "weights learned by self-play (zerosum train), alone or searching",
    build_learned, ("depth", "time", "seed", "off"),
    applies=lambda spec: learnable(spec),
    argument="FILE", own_settings=(MCTS,),
    explain="plays with weights learned by self-play (`zerosum train`): alone it values "
    "the position after each move and takes the best; with depth=N, alpha-beta to depth "
    "N judges its leaves by the learned value; with mcts=N, Monte Carlo tree search of N "
    "simulations plays its playouts with the learned moves (an AlphaZero network: its "
    "own PUCT search, guided by its priors). A texel file is the engine with fitted "
    "weights, a samuel file the engine with learned ones, by depth or time (off=... "
    "switches the engine's enhancements off, as for engine)."))
