"""One game of a tournament, and its result: plain data that crosses processes (pickled)
and goes into the database (as JSON), so a game can be played anywhere and recorded once.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from zerosum.match import MoveRecord

FORFEITS = ("game", "move")  # what a late move costs (zerosum.match.Rules.late)


class Damaged(ValueError):
    """Stored JSON that is not what a tournament wrote (the database's reader names the
    row: zerosum.tournament.store)."""


def load_object(text: object, what: str) -> dict[str, Any]:
    if not isinstance(text, str):
        raise Damaged(f"its {what} is not text")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise Damaged(f"its {what} is not JSON") from None
    if not isinstance(data, dict):
        raise Damaged(f"its {what} is not a JSON object")
    return data


def built(cls: type, data: dict[str, Any], what: str) -> Any:
    """cls(**data), its fields not yet checked; Damaged if keys are missing or unknown."""
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise Damaged(f"its {what} has an unknown key {unknown[0]!r}")
    try:
        return cls(**data)
    except TypeError as e:  # a key missing
        raise Damaged(f"its {what} is incomplete ({e})") from None


def expect(ok: bool, what: str, key: str) -> None:
    """Damaged, naming `key`, unless `ok`."""
    if not ok:
        raise Damaged(f"its {what} has a wrong {key!r}")


def is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def is_number(x: object) -> bool:
    return (is_int(x) or isinstance(x, float)) and math.isfinite(x)  # type: ignore[arg-type]


def strings(x: object, n: int | None = None) -> bool:
    return isinstance(x, list | tuple) and all(isinstance(s, str) for s in x) \
        and (n is None or len(x) == n)


def stored_json(record: Any) -> str:
    """A dataclass (a job, the settings) as stored: `late` left out at its default, as
    they were written before a move could be forfeit, so old databases read the same."""
    data = asdict(record)
    if data.get("late") == "game":
        del data["late"]
    return json.dumps(data, sort_keys=True)


@dataclass(frozen=True)
class GameJob:
    """Everything a worker needs to play one game, and nothing that lives in a process.

    `number` counts from 1 in schedule order; the same settings give the same numbers, so a
    resumed tournament knows which games are done. `agents[0]` plays first (Max) and
    `agents[1]` second; both are agent specs (`zerosum.players.spec.agent_from_spec`). `opening`
    is in the game's notation. `seeds` seed each agent (unless its spec sets a seed).
    `move_timeout` is each side's limit for one move, in seconds: past it the side loses.
    `max_plies` ends the game as a draw (None: no limit); `adjudicate` lets the game's
    solver's verdict end a decided game early (Connect Four's). `late`: what a move
    past its timeout costs, the "game" or, as in COMP3608's tournament, the "move".
    """

    number: int
    game: str
    agents: tuple[str, str]
    opening: tuple[str, ...] = ()
    seeds: tuple[int, int] = (0, 0)
    move_timeout: tuple[float, float] = (60.0, 60.0)
    max_plies: int | None = None
    adjudicate: bool = True
    options: tuple[tuple[str, Any], ...] = ()  # the game's options (width, height, ...)
    pair: int = 0  # games of one pair share an opening, each agent once on each side
    round: int = 0  # which pairing of agents (round-robin: each two agents are one)
    late: str = "game"  # a late move forfeits the "game" or the "move" (the side passes)

    def to_json(self) -> str:
        return stored_json(self)

    @classmethod
    def from_json(cls, text: str) -> GameJob:
        """The job `to_json` wrote; Damaged if `text` is anything else."""
        what = "job"
        data = load_object(text, what)
        job: GameJob = built(cls, data, what)
        expect(is_int(job.number) and job.number >= 1, what, "number")
        expect(isinstance(job.game, str), what, "game")
        expect(strings(job.agents, 2), what, "agents")
        expect(strings(job.opening), what, "opening")
        expect(isinstance(job.seeds, list | tuple) and len(job.seeds) == 2
               and all(is_int(s) for s in job.seeds), what, "seeds")
        expect(isinstance(job.move_timeout, list | tuple) and len(job.move_timeout) == 2
               and all(is_number(t) and t > 0 for t in job.move_timeout), what,
               "move_timeout")
        expect(job.max_plies is None or is_int(job.max_plies), what, "max_plies")
        expect(isinstance(job.adjudicate, bool), what, "adjudicate")
        expect(isinstance(job.options, list | tuple) and all(
            isinstance(o, list) and len(o) == 2 and isinstance(o[0], str)
            for o in job.options), what, "options")
        expect(is_int(job.pair) and is_int(job.round), what, "pair")
        expect(job.late in FORFEITS, what, "late")
        (a, b), (s, t), (u, v) = job.agents, job.seeds, job.move_timeout  # checked: pairs
        return replace(job, agents=(a, b), opening=tuple(job.opening), seeds=(s, t),
                       move_timeout=(u, v), options=tuple(tuple(o) for o in job.options))


@dataclass(frozen=True)
class GameResult:
    """How a game ended: the first agent's score (1, 1/2 or 0), why, and the moves.

    `reason` says it in words: the game's own outcome ("Red wins"), an adjudication,
    the move limit, or what an agent did wrong (crashed, timed out, illegal move).
    `fault` is the index of the agent that forfeited the game, if one did.
    """

    number: int
    score: float
    reason: str
    moves: tuple[MoveRecord, ...] = field(default=())
    fault: int | None = None
    seconds: float = 0.0  # the whole game, wall clock
    names: tuple[str, ...] = ()  # the agents' own names, where they have one (own files)

    def to_json(self) -> str:
        data = asdict(self)
        if not self.names:
            del data["names"]  # as results were written before agents' names were kept
        for move in data["moves"]:
            if not move["forfeit"]:
                del move["forfeit"]  # as moves were written before a move could be lost
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> GameResult:
        """The result `to_json` wrote; Damaged if `text` is anything else."""
        what = "result"
        data = load_object(text, what)
        result: GameResult = built(cls, data, what)
        expect(is_int(result.number), what, "number")
        expect(is_number(result.score) and result.score in (0, 0.5, 1), what, "score")
        expect(isinstance(result.reason, str), what, "reason")
        expect(result.fault in (None, 0, 1) and not isinstance(result.fault, bool), what,
               "fault")
        expect(is_number(result.seconds), what, "seconds")
        expect(isinstance(result.moves, list | tuple) and all(isinstance(m, dict)
                                                              for m in result.moves), what,
               "moves")
        expect(strings(result.names) and len(result.names) in (0, 2), what, "names")
        moves = tuple(_move(m) for m in result.moves)  # type: ignore[arg-type]  # dicts
        return replace(result, score=float(result.score), moves=moves,
                       names=tuple(result.names))


def _move(data: dict[str, Any]) -> MoveRecord:
    what = "result's move"
    m: MoveRecord = built(MoveRecord, data, what)
    expect(isinstance(m.move, str), what, "move")
    expect(is_number(m.seconds), what, "seconds")
    expect(m.value is None or isinstance(m.value, str), what, "value")
    expect(m.depth is None or is_int(m.depth), what, "depth")
    expect(m.nodes is None or is_int(m.nodes), what, "nodes")
    expect(m.by in (-1, 0, 1) and is_int(m.by), what, "by")
    expect(isinstance(m.forfeit, str), what, "forfeit")
    return m
