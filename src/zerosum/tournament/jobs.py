"""One game of a tournament, and its result: plain data that crosses processes (pickled)
and goes into the database (as JSON), so a game can be played anywhere and recorded once.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class GameJob:
    """Everything a worker needs to play one game, and nothing that lives in a process.

    `number` counts from 1 in schedule order; the same settings give the same numbers, so a
    resumed tournament knows which games are done. `agents[0]` plays first (Max) and
    `agents[1]` second; both are agent specs (`zerosum.agents.agent_from_spec`). `opening`
    is in the game's notation. `seeds` seed each agent (unless its spec sets a seed).
    `move_timeout` is each side's limit for one move, in seconds: past it the side loses.
    `max_plies` ends the game as a draw (None: no limit); `adjudicate` lets the game's
    adjudicator end a decided game early (Connect Four: its solver).
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

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> GameJob:
        data = json.loads(text)
        return cls(**{**data, "agents": tuple(data["agents"]),
                      "opening": tuple(data["opening"]), "seeds": tuple(data["seeds"]),
                      "move_timeout": tuple(data["move_timeout"]),
                      "options": tuple(tuple(o) for o in data["options"])})


@dataclass(frozen=True)
class MoveRecord:
    """One move as played: its notation, and for a searching agent its value as the
    agent saw it (written as zerosum.game.format_value writes it), depth, nodes, time."""

    move: str
    seconds: float
    value: str | None = None
    depth: int | None = None
    nodes: int | None = None
    by: int = 0  # 0: the first agent of the job (Max), 1: the second; -1: the opening


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

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> GameResult:
        data = json.loads(text)
        return cls(**{**data, "moves": tuple(MoveRecord(**m) for m in data["moves"])})
