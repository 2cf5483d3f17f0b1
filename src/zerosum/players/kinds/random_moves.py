"""Random moves: the player that judges nothing."""

from __future__ import annotations

from zerosum.games.registry import GameSpec
from zerosum.match import Agent
from zerosum.players.agents import RandomAgent
from zerosum.players.catalogue import SEARCH_SETTINGS, Choice, PlayerKind, register
from zerosum.result import Limit


def build_random(spec: GameSpec, limit: Limit, choice: Choice) -> Agent:
    return RandomAgent(choice.seed)


register(PlayerKind(
    "random", "random moves", build_random, SEARCH_SETTINGS, order=10,
    explain="plays any legal move at random; easy to beat."))
