"""A game's own players: its engine (its kernel under the one driver) and its solver,
kinds of the games that declare them."""

from __future__ import annotations

from zerosum.players.catalogue import SEARCH_SETTINGS, PlayerKind, engine_analyser, register

register(PlayerKind(
    "engine", "the game's own engine", None, SEARCH_SETTINGS, timed=True,
    depth_alone=True, applies=lambda spec: spec.kernel is not None, engine=True,
    analyser=engine_analyser("engine"), order=70,
    explain="the game's own, stronger player, given a time per move."))
register(PlayerKind(
    "solver", "the game's own solver", None, SEARCH_SETTINGS, timed=True,
    depth_alone=True, applies=lambda spec: spec.solver is not None, engine=True,
    analyser=engine_analyser("solver"), order=80,
    explain="perfect play, when it can prove the position within the time per move; "
    "otherwise the engine's first choice."))
