"""Learned players (zerosum.learn) as a kind of player: the weights of a training run,
written `learned:FILE` (one ply: the move whose position the weights value most) or
`learned,depth=N:FILE` (alpha-beta to depth N, the learned value at its leaves)."""

from __future__ import annotations

from zerosum.games.registry import GameSpec
from zerosum.match import Agent
from zerosum.players.catalogue import Choice, PlayerKind, register
from zerosum.result import Limit


def build_learned(spec: GameSpec, limit: Limit, choice: Choice) -> Agent:
    from zerosum.learn.player import LearnedAgent  # loaded only when one plays

    return LearnedAgent(spec, choice.argument, limit)


register(PlayerKind(
    "learned", "weights learned by self-play (zerosum train), alone or searching",
    build_learned, ("depth",), applies=lambda spec: spec.cells is not None,
    argument="FILE",
    explain="plays with weights learned by self-play (`zerosum train`): alone it values "
    "the position after each move and takes the best; with depth=N, alpha-beta to depth "
    "N judges its leaves by the learned value."))
