"""A tournament's settings, and the games they make, always in the same order.

Games come in colour-swapped pairs: for each opening, each pairing of agents plays one
game with each agent first. Pair k of every pairing starts from opening k, the same for
all, so no pairing is luckier in its openings than another. The openings are random
sequences of moves drawn from the seed (none repeated while fresh ones turn up) or read
from a file. Balanced openings keep the game's value: where a solver settles the start
and an opening within a small budget, an opening that hands one side a won game (two
random plies of tic-tac-toe often do) is drawn again, as chess match runners use
balanced books; an opening no solver settles is kept. Game numbers run pair by pair
across the pairings, so an interrupted tournament has played about as many games of each
pairing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import count
from typing import Any

from zerosum.game import AnyGame, InputError
from zerosum.games.registry import GameSpec
from zerosum.tournament.jobs import (
    FORFEITS,
    GameJob,
    built,
    expect,
    is_int,
    is_number,
    load_object,
    stored_json,
    strings,
)

FORMATS = ("round-robin", "gauntlet")
UNTIMED_TIMEOUT = 60.0  # seconds a move may take from an agent with no time limit
DRAWS_PER_OPENING = 500  # tries for an unseen opening before a repeat is allowed
# A balanced opening's check: the exact solver's budget per position (positions for the
# generic solver, nodes for a game's own), and the openings that may change the game's
# value in a row before the rest are taken unchecked (a game where few keep it).
BALANCE_BUDGET = 200_000
BALANCE_TRIES = 200


@dataclass(frozen=True)
class Settings:
    """What decides a tournament's games. Two runs with equal settings play equal jobs,
    which is how a rerun recognises its own database."""

    game: str
    agents: tuple[str, ...]
    games: int | None = 10  # per pairing (an even number), None: until stopped (SPRT)
    format: str = "round-robin"
    seed: int = 1
    opening_plies: int = 2
    openings: tuple[tuple[str, ...], ...] | None = None  # from a file, used in turn
    max_plies: int | None = 400
    adjudicate: bool = True
    move_timeouts: tuple[float, ...] = ()  # each agent's, in agents' order
    options: tuple[tuple[str, Any], ...] = ()
    late: str = "game"  # what a late move forfeits: the "game", or the "move" (it passes)
    balanced: bool = True  # random openings that keep the game's value

    def to_json(self) -> str:
        return stored_json(self)

    @classmethod
    def from_json(cls, text: str) -> Settings:
        """The settings `to_json` wrote; Damaged if `text` is anything else."""
        what = "settings"
        data = load_object(text, what)
        data.setdefault("balanced", False)  # a database from before balanced openings
        s: Settings = built(cls, data, what)
        expect(isinstance(s.game, str), what, "game")
        expect(strings(s.agents) and len(s.agents) >= 2, what, "agents")
        expect(s.games is None or is_int(s.games), what, "games")
        expect(s.format in FORMATS, what, "format")
        expect(is_int(s.seed) and is_int(s.opening_plies), what, "seed")
        expect(s.openings is None or (isinstance(s.openings, list | tuple)
               and all(strings(o) for o in s.openings)), what, "openings")
        expect(s.max_plies is None or is_int(s.max_plies), what, "max_plies")
        expect(isinstance(s.adjudicate, bool), what, "adjudicate")
        expect(s.late in FORFEITS, what, "late")
        expect(isinstance(s.balanced, bool), what, "balanced")
        expect(isinstance(s.move_timeouts, list | tuple) and len(s.move_timeouts) == len(s.agents)
               and all(is_number(t) and t > 0 for t in s.move_timeouts), what,
               "move_timeouts")
        expect(isinstance(s.options, list | tuple) and all(
            isinstance(o, list) and len(o) == 2 and isinstance(o[0], str)
            for o in s.options), what, "options")
        return replace(s, agents=tuple(s.agents), openings=None if s.openings is None
                       else tuple(tuple(o) for o in s.openings),
                       move_timeouts=tuple(s.move_timeouts),
                       options=tuple(tuple(o) for o in s.options))

    def extends(self, other: Settings) -> bool:
        """Whether these settings are `other`'s with as many games or more: the same
        tournament, longer (its games are numbered so that the first ones are the same)."""
        if (self.games is None) != (other.games is None):
            return False
        more = self.games is None or other.games is None or self.games >= other.games
        return more and replace(self, games=other.games) == other

    def pairings(self) -> list[tuple[int, int]]:
        """Which agents meet, as indexes into `agents`: every two of them in a round
        robin, the first against each other in a gauntlet."""
        n = len(self.agents)
        if self.format == "gauntlet":
            return [(0, j) for j in range(1, n)]
        return [(i, j) for i in range(n) for j in range(i + 1, n)]

    def total(self) -> int | None:
        return None if self.games is None else self.games * len(self.pairings())


def agent_seed(seed: int, number: int, side: int) -> int:
    """The seed of an agent in game `number`: from the tournament's seed, the same on
    every machine (a string seeds Python's Random by its SHA-512, not by hash())."""
    return random.Random(f"zerosum:{seed}:{number}:{side}").randrange(2**31)


def random_openings(game: AnyGame, plies: int, rng: random.Random) -> Iterator[tuple[str, ...]]:
    """Openings of `plies` random moves (in the game's notation), none ending the game;
    no opening repeats while a fresh one turns up in DRAWS_PER_OPENING draws."""
    seen: set[tuple[str, ...]] = set()
    while True:
        for _ in range(DRAWS_PER_OPENING):
            state, moves = game.initial_state(), list[str]()
            while len(moves) < plies and not game.is_terminal(state):
                action = rng.choice(list(game.actions(state)))
                moves.append(game.format_move(action))
                state = game.result(state, action)
            opening = tuple(moves)
            if not game.is_terminal(state) and opening not in seen:
                break
        seen.add(opening)
        yield opening


def balanced_openings(game: AnyGame, spec: GameSpec, plies: int,
                      rng: random.Random) -> Iterator[tuple[str, ...]]:
    """Random openings (random_openings) that keep the value of the game's start, where
    a solver settles both within BALANCE_BUDGET; all of them where none settles the
    start, and the rest after BALANCE_TRIES in a row changed it."""
    from zerosum.review import Valuer
    from zerosum.tournament.referee import opening_state

    valuer = Valuer(spec, game, BALANCE_BUDGET, depth=1)
    start = valuer.exact_value(game.initial_state())
    rejected = 0
    for opening in random_openings(game, plies, rng):
        if start is not None and rejected < BALANCE_TRIES:
            value = valuer.exact_value(opening_state(game, opening))
            if value is not None and value.value != start.value:
                rejected += 1
                continue
        rejected = 0
        yield opening


def openings(settings: Settings, game: AnyGame) -> Iterator[tuple[str, ...]]:
    """The openings of pairs 0, 1, 2, ...: the file's in turn, or random ones (balanced
    where the settings ask)."""
    if settings.openings is not None:
        while True:
            yield from settings.openings
    from zerosum.tournament.referee import game_spec

    rng = random.Random(settings.seed)
    if settings.balanced and settings.opening_plies > 0:
        yield from balanced_openings(game, game_spec(settings.game),
                                     settings.opening_plies, rng)
    yield from random_openings(game, settings.opening_plies, rng)


def jobs(settings: Settings, game: AnyGame) -> Iterator[GameJob]:
    """The tournament's games, in order."""
    pairings = settings.pairings()
    pairs = count() if settings.games is None else range(settings.games // 2)
    number = 0
    for pair, opening in zip(pairs, openings(settings, game), strict=False):
        for round_, (i, j) in enumerate(pairings):
            for first, second in ((i, j), (j, i)):
                number += 1
                yield GameJob(number, settings.game, (settings.agents[first],
                                                      settings.agents[second]),
                              opening, (agent_seed(settings.seed, number, 0),
                                        agent_seed(settings.seed, number, 1)),
                              (settings.move_timeouts[first], settings.move_timeouts[second]),
                              settings.max_plies, settings.adjudicate, settings.options,
                              pair, round_, settings.late)


def move_timeout(seconds: float | None) -> float:
    """How long a move may take before its agent loses on time: a generous multiple of
    the agent's own time limit (a search checks its clock only every so many nodes),
    or UNTIMED_TIMEOUT for an agent limited by depth or nodes."""
    return UNTIMED_TIMEOUT if seconds is None else 3 * seconds + 2


def read_openings(text: str, name: str, game: AnyGame) -> tuple[tuple[str, ...], ...]:
    """Openings from a file's text: one per line, moves in the game's notation separated
    by spaces; blank lines and lines starting with # are skipped. Each must be legal
    and leave the game unfinished: InputError naming the line otherwise."""
    found: list[tuple[str, ...]] = []
    for number, line in enumerate(text.splitlines(), 1):
        moves = tuple(line.split())
        if not moves or moves[0].startswith("#"):
            continue
        from zerosum.tournament.referee import opening_state

        try:
            state = opening_state(game, moves)
        except InputError as e:
            raise InputError(f"openings file {name}, line {number}: {e}") from None
        if game.is_terminal(state):
            raise InputError(f"openings file {name}, line {number}: the game is over "
                             "after this opening")
        found.append(moves)
    if not found:
        raise InputError(f"openings file {name} holds no opening")
    return tuple(found)


def check_agents(agents: Sequence[str], format_: str) -> None:
    if len(agents) < 2:
        raise InputError(f"a tournament needs two agents or more (--agent), not {len(agents)}")
    if len(set(agents)) != len(agents):
        twice = next(a for a in agents if agents.count(a) > 1)
        raise InputError(f"agent {twice!r} is given twice: give each agent once "
                         "(settings make them different, e.g. seed=2)")
    if format_ not in FORMATS:
        raise InputError(f"unknown format {format_!r}; choose from {', '.join(FORMATS)}")
