"""The one place where games make themselves known to the command, the menu and later UIs.

A game module calls `register(GameSpec(...))` at import time; `all_games()` imports
every module of `zerosum.games` once, so a new game needs no edit anywhere else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from zerosum.game import AnyGame
from zerosum.plugins import Registry
from zerosum.result import SearchResult
from zerosum.stop import Stop


@dataclass(frozen=True)
class Option:
    """A game parameter, offered as `--name` on the command line and asked in the menu."""

    name: str
    type: Callable[[str], Any]
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    explain: str = ""  # what the choices mean, in plain words: the menu's `?` shows it


class Engine(Protocol):
    """A game's own engine: (game, state, seconds, stop) -> SearchResult. Games with a
    stronger player than the generic search (a solver, a tuned evaluation) offer it this
    way. `stop`, if given, may be requested from another thread: the engine then returns
    its best move so far within a few milliseconds; meanwhile it keeps the stop's
    progress (nodes_used, depth, best) up to date for a display."""

    def __call__(self, game: Any, state: Any, seconds: float,
                 stop: Stop | None = None) -> SearchResult: ...


@dataclass(frozen=True)
class GameSpec:
    name: str
    title: str
    make: Callable[..., AnyGame]
    options: tuple[Option, ...] = ()
    engines: dict[str, Engine] = field(default_factory=dict)
    default_depth: int = 4
    summary: str = ""

    def create(self, **kwargs: Any) -> AnyGame:
        values = {o.name: kwargs.get(o.name, o.default) for o in self.options}
        return self.make(**values)


_GAMES: Registry[GameSpec] = Registry("zerosum.games", "game", lambda spec: spec.name)


def register(spec: GameSpec) -> GameSpec:
    return _GAMES.register(spec)


def all_games() -> list[GameSpec]:
    return _GAMES.all()


def get_game(name: str) -> GameSpec:
    return _GAMES.get(name)
