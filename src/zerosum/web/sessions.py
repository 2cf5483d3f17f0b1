"""The server's sessions: a session is one game being played in the page (its options,
the positions so far and the moves between them, the position shown), all in memory,
and the bounds every search keeps whatever the client asks (time, nodes, how many run
at once, the engines' tables of all sessions together).
"""

from __future__ import annotations

import datetime
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request

from zerosum.convert import MAX_DEPTH, brief, one_line, shown
from zerosum.game import AnyGame, InputError, format_value
from zerosum.games.registry import GameSpec, all_games, get_game
from zerosum.kernel import bound_memory, forget, kept_entries
from zerosum.match import Move, MoveRecord, player_names
from zerosum.players.catalogue import (
    DEFAULT_SECONDS,
    Choice,
    default_kind,
    kind_of,
    names_for,
)
from zerosum.records import HUMAN, game_record
from zerosum.result import Info, Limit, SearchResult
from zerosum.web.messages import parse_json, positive, whole
from zerosum.web.views import view_of

MAX_SESSIONS = 200  # the oldest is forgotten beyond this
# A session whose engine has played keeps its tables (kernel.memory_of) for its next
# move: after a long think, 200 MB or more. The server bounds them all together:
TABLE_MEMORY = 256  # MB for all sessions' tables (`zerosum serve --table-memory`)
ENTRY_BYTES = 250  # what a table entry costs, about: a dict slot, a tuple, its key
IDLE_SECONDS = 600.0  # a session's tables are freed after this long without a search
SWEEP_SECONDS = 60.0  # how often the server looks for such sessions
MAX_BODY = 64 * 1024  # bytes of a request (a checkers FEN is under 200)


class NotFound(Exception):
    """A request names a session the server does not have."""


def players_of(spec: GameSpec) -> list[str]:
    return names_for(spec)


def game_entry(spec: GameSpec, agents: Sequence[str] = ()) -> dict[str, Any]:
    written = spec.position
    return {
        "name": spec.name,
        "title": spec.title,
        "summary": spec.summary,
        "options": [{"name": o.name, "default": o.default, "help": o.help,
                     "choices": None if o.choices is None else list(o.choices)}
                    for o in spec.options],
        "players": [*players_of(spec), *agents],
        "default_player": default_kind(spec),
        "position": None if written is None else written.name,
    }


def option_values(spec: GameSpec, given: Any) -> dict[str, Any]:
    """The game's options from the request, each through the option's own converter."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise InputError("options must be an object of option names and values")
    known = {o.name: o for o in spec.options}
    for name in given:
        if name not in known:
            names = ", ".join(known) or "none"
            raise InputError(f"{spec.name} has no option {brief(name)} (its options: {names})")
    values = {}
    for o in spec.options:
        if o.name not in given:
            values[o.name] = o.default
            continue
        given_value = given[o.name]
        if isinstance(given_value, bool) or not isinstance(given_value, (str, int, float)):
            raise InputError(f"option {o.name}: give a number or text, not {brief(given_value)}")
        try:
            values[o.name] = o.read(str(given_value))
        except InputError as e:
            raise InputError(f"option {o.name}: {message(e)}") from None
    return values


MAX_VARIATIONS = 16  # lines a session keeps besides the one played


@dataclass
class Variation:
    """A line the game left: all its moves from the start (and who made them, and the
    positions), and the ply `at` where the line being played left it."""

    at: int
    plies: list[Move]
    by: list[str]
    states: list[Any]

    def moves(self, game: AnyGame) -> list[str]:
        return [game.format_move(ply.action) for ply in self.plies]


@dataclass
class Session:
    """One game in play: the positions from its start, the moves between them, and the
    position shown (`cursor`, a ply of the line: the person may step back to any). A
    move played at an earlier position starts a new line from there; the old line is
    kept as a variation (as lichess keeps them), which `switch` makes the line again.
    Playing the line's own next move steps on along it."""

    id: str
    spec: GameSpec
    options: dict[str, Any]
    game: AnyGame
    states: list[Any]
    plies: list[Move] = field(default_factory=list)
    by: list[str] = field(default_factory=list)  # who played each move: HUMAN or a player
    thinking: bool = False
    start_position: str | None = None  # as given, when the game began from one
    used: float = 0.0  # when it last searched (time.monotonic), 0: never
    cursor: int | None = None  # the ply shown; None: the last
    # The value graph's values by game.key (web/analysis.history: review.Valuer's), kept
    # between calls, with what the analysis proved
    estimates: dict[Any, Any] = field(default_factory=dict)
    variations: list[Variation] = field(default_factory=list)  # the lines left, newest first

    @property
    def at(self) -> int:
        """The ply of the position shown (0: the start)."""
        return len(self.plies) if self.cursor is None else self.cursor

    @property
    def state(self) -> Any:
        return self.states[self.at]

    @property
    def moves(self) -> list[str]:
        return [self.game.format_move(ply.action) for ply in self.plies]

    def play(self, text: str) -> None:
        if self.game.is_terminal(self.state):
            raise InputError(f"the game is over: {self.game.outcome(self.state)}")
        action = self.game.parse_move(self.state, text)
        self.play_action(action, HUMAN)

    def branch(self) -> None:
        """Drop the moves after the position shown: the game goes on from there."""
        at = self.at
        del self.states[at + 1:]
        del self.plies[at:]
        del self.by[at:]
        self.cursor = None

    def play_action(self, action: Any, by: str, result: SearchResult | None = None,
                    seconds: float = 0.0) -> None:
        """Play `action` at the position shown (a new line from there, the old one kept as
        a variation); a computer move (`by` its player) keeps its search and its time.
        A move that is the line's next one steps on along the line (which keeps its
        figures)."""
        at = self.at
        if at < len(self.plies):
            if self.plies[at].action == action:
                self.goto(at + 1)
                return
            self.keep(at)
        self.branch()
        side = 0 if self.game.is_maxs_turn(self.state) else 1
        self.states.append(self.game.result(self.state, action))
        self.plies.append(Move(action, result, seconds, side))
        self.by.append(by)

    def keep(self, at: int) -> None:
        """Keep the whole line as a variation that leaves the line being made at `at`."""
        line = Variation(at, list(self.plies), list(self.by), list(self.states))
        self.variations = [line, *[v for v in self.variations
                                   if v.moves(self.game) != line.moves(self.game)]]
        del self.variations[MAX_VARIATIONS:]

    def switch(self, index: int) -> None:
        """Make variation `index` the line again, the line it left a variation in its
        place; the position shown is the variation's first own move."""
        if not 0 <= index < len(self.variations):
            raise InputError(f"variation must be 0 to {len(self.variations) - 1}"
                             if self.variations else "there is no other line")
        chosen = self.variations[index]
        self.variations[index] = Variation(chosen.at, self.plies, self.by, self.states)
        self.plies, self.by, self.states = chosen.plies, chosen.by, chosen.states
        self.goto(min(chosen.at + 1, len(self.plies)))

    def goto(self, ply: int) -> None:
        """Show the position after `ply` moves (0: the start)."""
        if not 0 <= ply <= len(self.plies):
            raise InputError(f"ply must be 0 to {len(self.plies)}")
        self.cursor = None if ply == len(self.plies) else ply

    def undo(self) -> None:
        """Take back the move that led to the position shown."""
        self.branch()
        if not self.moves:
            raise InputError("no move to take back")
        self.states.pop()
        self.plies.pop()
        self.by.pop()

    def restart(self) -> None:
        del self.states[1:]
        self.plies.clear()
        self.by.clear()
        self.cursor = None
        self.variations.clear()

    def record(self, today: datetime.date) -> tuple[str, str]:
        """The game so far in its notation (the whole line, wherever the cursor is), and
        a file name for it."""
        fen = None
        if self.start_position is not None and self.spec.position is not None:
            fen = self.spec.position.format(self.game, self.states[0])
        moves = [MoveRecord.of(self.game, ply) for ply in self.plies]
        text, extension = game_record(self.spec.record, self.game, self.states[0], moves,
                                      self.by, self.start_position, today, fen)
        return text, f"{self.spec.name}-{today:%Y%m%d}.{extension}"

    def to_json(self) -> dict[str, Any]:
        game, state = self.game, self.state
        over = game.is_terminal(state)
        names = player_names(game)
        legal = [] if over else [game.format_move(a) for a in game.actions(state)]
        written = self.spec.position
        position = None if written is None else written.format(game, state)
        at = self.at
        last = self.plies[at - 1].action if at else None
        return {
            "id": self.id,
            "game": self.spec.name,
            "title": self.spec.title,
            "options": self.options,
            "view": view_of(self.spec, game, state, last),
            "text": game.render(state),
            "legal": legal,
            "move_help": game.move_help(),
            "players": list(names),
            "to_move": names[0] if game.is_maxs_turn(state) else names[1],
            "over": over,
            "outcome": game.outcome(state) if over else None,
            "moves": list(self.moves),
            "by": list(self.by),
            "cursor": at,
            "first": names[0] if game.is_maxs_turn(self.states[0]) else names[1],
            "position": position,
            "thinking": self.thinking,
            # each kept line: where it leaves this one, and its moves from there
            "variations": [{"at": v.at, "moves": v.moves(game)[v.at:]}
                           for v in self.variations],
        }


@dataclass
class Job:
    """A search the client asked for, within the server's bounds."""

    player: str
    limit: Limit
    choice: Choice  # as the catalogue makes the player (the limit is its `limit`)


class Server:
    """The sessions and the search bounds."""

    def __init__(self, max_searches: int, max_seconds: float, max_nodes: int,
                 table_memory: int = TABLE_MEMORY, games: Sequence[GameSpec] = (),
                 agents: Sequence[str] = (),
                 game_agents: dict[str, list[str]] | None = None) -> None:
        self.max_searches, self.max_seconds, self.max_nodes = max_searches, max_seconds, max_nodes
        # All tables within table_memory: each search's within a share (as many may run
        # at once; a share at least for the idle), the idle ones' within what is left.
        self.table_entries = table_memory * 2**20 // ENTRY_BYTES
        self.session_entries = max(2, self.table_entries // (max_searches + 1))
        # zerosum's games, then a person's own (from game files), each by its name.
        self.games = {spec.name: spec for spec in all_games()}
        for spec in games:
            if spec.name in self.games:
                raise InputError(f"two games named {spec.name!r}: rename your game file "
                                 "(or give its GameSpec another name)")
            self.games[spec.name] = spec
        self.agents = list(agents)  # a person's agent files, players of every game
        # Players of one game only, by its name (a training run's weights, learned:FILE).
        self.game_agents = dict(game_agents or {})
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self.running = 0
        self.slots = threading.Lock()  # a test client may run each socket on its own loop

    def agents_for(self, spec: GameSpec) -> list[str]:
        """The players offered beside the catalogue's kinds for this game."""
        return [*self.agents, *self.game_agents.get(spec.name, [])]

    def acquire(self) -> bool:
        """A search slot, if one is free."""
        with self.slots:
            if self.running >= self.max_searches:
                return False
            self.running += 1
            return True

    def release(self) -> None:
        with self.slots:
            self.running -= 1

    def new_session(self, body: dict[str, Any]) -> Session:
        name = body.get("game")
        if not isinstance(name, str):
            raise InputError("name a game: {\"game\": \"tictactoe\"}")
        spec = self.games.get(name) or get_game(name)  # get_game: the one "unknown" line
        options = option_values(spec, body.get("options"))
        game = spec.create(**options)
        state = game.initial_state()
        position = body.get("position")
        if position not in (None, ""):
            written = spec.position
            if written is None:
                raise InputError(f"{spec.name} has no position format")
            if not isinstance(position, str):
                raise InputError("position must be text")
            state = written.parse(game, position)
            position = " ".join(position.split())  # one line, as the record writes it
        session = Session(uuid.uuid4().hex, spec, options, game, [state],
                          start_position=None if position in (None, "") else str(position))
        bound_memory(game, self.session_entries)
        self.sessions[session.id] = session
        while len(self.sessions) > MAX_SESSIONS:
            forget(self.sessions.popitem(last=False)[1].game)
        return session

    def make_room(self, searching: Session) -> None:
        """Before `searching` searches: free the tables of sessions idle too long, then
        the least recently used ones until the idle sessions' tables and a full share
        for each running search fit in the server's table memory."""
        self.sweep()
        idle = sorted((s for s in list(self.sessions.values())
                       if s is not searching and not s.thinking and s.used),
                      key=lambda s: s.used)
        held = {s.id: kept_entries(s.game) for s in idle}
        room = self.table_entries - self.running * self.session_entries
        total = sum(held.values())
        for s in idle:
            if total <= room:
                break
            forget(s.game)
            s.used = 0.0
            total -= held[s.id]

    def sweep(self) -> None:
        """Free the tables of sessions that have not searched for IDLE_SECONDS."""
        now = time.monotonic()
        for s in list(self.sessions.values()):
            if s.used and not s.thinking and now - s.used >= IDLE_SECONDS:
                forget(s.game)
                s.used = 0.0

    def table_usage(self) -> int:
        """Entries held in all sessions' tables."""
        return sum(kept_entries(s.game) for s in list(self.sessions.values()))

    def session(self, sid: str) -> Session:
        session = self.sessions.get(sid)
        if session is None:
            raise NotFound(f"no session {shown(sid)} (the server may have restarted)")
        return session

    def job(self, session: Session, request: dict[str, Any]) -> Job:
        """The search asked for, checked and bounded by the server: the catalogue's limit
        for the player (its defaults filled in: the game's depth for a fixed-depth one),
        within the server's time and nodes."""
        if session.game.is_terminal(session.state):
            raise InputError("the game is over")
        player = request.get("player", default_kind(session.spec))
        agents = self.agents_for(session.spec)
        players = [*players_of(session.spec), *agents]
        if not isinstance(player, str) or player not in players:
            raise InputError(f"unknown player {brief(player)}; choose from "
                             f"{', '.join(players)}")
        # Every search has a time, a fixed-depth one too: the server's bound applies.
        seconds = request.get("seconds", DEFAULT_SECONDS)
        if seconds is None:
            seconds = DEFAULT_SECONDS
        seconds = positive(seconds, "seconds")
        depth = request.get("depth")
        if depth is not None:
            depth = whole(depth, "depth", 0, MAX_DEPTH)
        choice = Choice(depth=depth, seconds=float(min(seconds, self.max_seconds)),
                        nodes=self.max_nodes)
        if player in agents:  # an agent file or weights: no kind, the limit as asked
            limit = Limit(depth=depth or None, seconds=choice.seconds, nodes=choice.nodes)
        else:
            limit = kind_of(session.spec, player).limit(session.spec, choice)
        return Job(player, limit, choice)


def root_rows(game: AnyGame, info: Info) -> list[dict[str, Any]]:
    """MCTS's root moves for the live table (Info.root_moves): each move's visits, mean
    value (Max's side) and UCB1's two terms, "proven" where MCTS-Solver proved it; []
    for other searches."""
    rows: list[dict[str, Any]] = []
    for m in info.root_moves:
        rows.append({"move": game.format_move(m.action), "visits": m.visits,
                     "mean": round(m.mean, 3), "exploit": round(m.uct_exploit, 3),
                     "explore": round(m.uct_explore, 3),
                     "proven": "" if m.proven is None else format_value(
                         game, m.proven, decided=True)})
    return rows


def info_message(game: AnyGame, info: Info, side: int) -> dict[str, Any]:
    """An Info for the page, its value from player `side`'s point of view (the side to
    move: whose search it is)."""
    return {
        "type": "info",
        "depth": info.depth,
        "value": format_value(game, info.value, decided=info.decided, plies=info.plies,
                              side=side),
        "decided": info.decided,
        "nodes": info.nodes,
        "unit": info.unit,
        "nodes_per_second": round(info.nodes_per_second),
        "elapsed": round(info.elapsed, 3),
        "pv": [game.format_move(a) for a in info.pv],
        "root": root_rows(game, info),
    }


def limit_json(limit: Limit) -> dict[str, Any]:
    return {"depth": limit.depth, "seconds": limit.seconds, "nodes": limit.nodes}


async def body_of(request: Request) -> dict[str, Any]:
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise InputError(f"the request body is over {MAX_BODY:,} bytes")
    if not raw.strip():
        return {}
    body = parse_json(raw, "the request body")
    if not isinstance(body, dict):
        raise InputError("the request body must be a JSON object")
    return body


def message(error: BaseException) -> str:
    """An error as one line for the client."""
    return one_line(str(error).strip()) or type(error).__name__


