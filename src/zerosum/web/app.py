"""The web app of `zerosum serve`: play the registered games in a browser and watch the
computer's search as it runs.

All state lives in memory: a session is one game being played (its options, the
positions so far and the moves between them). The JSON API creates sessions, plays,
takes back and restarts them; a WebSocket per session runs a search in a worker thread
(never on the event loop), streams each `Info` it reports, then plays its move. The
server bounds every search whatever the client asks (time, nodes, how many run at once).
Bad input gets HTTP 400 (or an error message on the socket) with one line, never a
traceback; nothing a client sends is evaluated or imported.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from importlib.resources import files
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from zerosum.convert import one_line, shown
from zerosum.game import AnyGame, InputError, format_value
from zerosum.games.registry import GameSpec, all_games, get_game
from zerosum.kernel import bound_memory, forget, kept_entries
from zerosum.match import player_names
from zerosum.players.agents import ComputerAgent, playable
from zerosum.players.catalogue import Choice, default_kind, kind_of, make_player, names_for
from zerosum.players.spec import agent_from_spec
from zerosum.players.text import value_text
from zerosum.records import HUMAN, Ply, game_record
from zerosum.result import Info, Limit, SearchResult, depth_text
from zerosum.stop import Stop
from zerosum.web.analysis import analysis_routes
from zerosum.web.explain import explain_routes
from zerosum.web.messages import (
    brief,
    parse_json,
    positive,
    post,
    read_requests,
    reason,
    whole,
)
from zerosum.web.positions import position_format
from zerosum.web.views import view_of

STATIC = files("zerosum.web") / "static"
MAX_DEPTH = 64
MAX_SESSIONS = 200  # the oldest is forgotten beyond this
# A session whose engine has played keeps its tables (kernel.memory_of) for its next
# move: after a long think, 200 MB or more. The server bounds them all together:
TABLE_MEMORY = 256  # MB for all sessions' tables (`zerosum serve --table-memory`)
ENTRY_BYTES = 250  # what a table entry costs, about: a dict slot, a tuple, its key
IDLE_SECONDS = 600.0  # a session's tables are freed after this long without a search
SWEEP_SECONDS = 60.0  # how often the server looks for such sessions
DEFAULT_SECONDS = 1.0
MAX_BODY = 64 * 1024  # bytes of a request (a checkers FEN is under 200)


class NotFound(Exception):
    """A request names a session the server does not have."""


def players_of(spec: GameSpec) -> list[str]:
    return names_for(spec)


def game_entry(spec: GameSpec, agents: Sequence[str] = ()) -> dict[str, Any]:
    written = position_format(spec)
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
            value = o.type(str(given_value))
        except (ValueError, TypeError, argparse.ArgumentTypeError) as e:  # InputError too
            raise InputError(f"option {o.name}: {message(e)}") from None
        if o.choices is not None and value not in o.choices:
            raise InputError(f"option {o.name}: {brief(value)} is not one of "
                             f"{', '.join(map(str, o.choices))}")
        values[o.name] = value
    return values


@dataclass
class Session:
    """One game in play: the positions from its start, the moves between them."""

    id: str
    spec: GameSpec
    options: dict[str, Any]
    game: AnyGame
    states: list[Any]
    plies: list[Ply] = field(default_factory=list)
    thinking: bool = False
    start_position: str | None = None  # as given, when the game began from one
    used: float = 0.0  # when it last searched (time.monotonic), 0: never

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def moves(self) -> list[str]:
        return [ply.text for ply in self.plies]

    def play(self, text: str) -> None:
        if self.game.is_terminal(self.state):
            raise InputError(f"the game is over: {self.game.outcome(self.state)}")
        action = self.game.parse_move(self.state, text)
        self.play_action(action, HUMAN)

    def play_action(self, action: Any, by: str, **figures: Any) -> None:
        """Play `action`; a computer move (`by` its player) keeps its search figures."""
        text = self.game.format_move(action)
        self.states.append(self.game.result(self.state, action))
        self.plies.append(Ply(action, text, by, **figures))

    def undo(self) -> None:
        """Take back the last move."""
        if not self.moves:
            raise InputError("no move to take back")
        self.states.pop()
        self.plies.pop()

    def restart(self) -> None:
        del self.states[1:]
        self.plies.clear()

    def record(self, today: datetime.date) -> tuple[str, str]:
        """The game so far in its notation, and a file name for it."""
        fen = None
        if self.start_position is not None and self.spec.position is not None:
            fen = self.spec.position.format(self.game, self.states[0])
        text, extension = game_record(self.spec.name, self.game, self.states[0], self.plies,
                                      self.state, self.start_position, today, fen)
        return text, f"{self.spec.name}-{today:%Y%m%d}.{extension}"

    def to_json(self) -> dict[str, Any]:
        game, state = self.game, self.state
        over = game.is_terminal(state)
        names = player_names(game)
        legal = [] if over else [game.format_move(a) for a in game.actions(state)]
        written = position_format(self.spec)
        position = None if written is None else written.format(game, state)
        return {
            "id": self.id,
            "game": self.spec.name,
            "title": self.spec.title,
            "options": self.options,
            "view": view_of(self.spec.name, game, state),
            "text": game.render(state),
            "legal": legal,
            "move_help": game.move_help(),
            "players": list(names),
            "to_move": names[0] if game.is_maxs_turn(state) else names[1],
            "over": over,
            "outcome": game.outcome(state) if over else None,
            "moves": list(self.moves),
            "position": position,
            "thinking": self.thinking,
        }


@dataclass
class Job:
    """A search the client asked for, within the server's bounds."""

    player: str
    limit: Limit


class Server:
    """The sessions and the search bounds."""

    def __init__(self, max_searches: int, max_seconds: float, max_nodes: int,
                 table_memory: int = TABLE_MEMORY, games: Sequence[GameSpec] = (),
                 agents: Sequence[str] = ()) -> None:
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
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self.running = 0
        self.slots = threading.Lock()  # a test client may run each socket on its own loop

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
            written = position_format(spec)
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
        """The search asked for, checked and bounded by the server."""
        if session.game.is_terminal(session.state):
            raise InputError("the game is over")
        player = request.get("player", default_kind(session.spec))
        players = [*players_of(session.spec), *self.agents]
        if not isinstance(player, str) or player not in players:
            raise InputError(f"unknown player {brief(player)}; choose from "
                             f"{', '.join(players)}")
        seconds = request.get("seconds", DEFAULT_SECONDS)
        if seconds is None:
            seconds = DEFAULT_SECONDS
        seconds = positive(seconds, "seconds")
        depth = request.get("depth")
        if depth is not None:
            depth = whole(depth, "depth", 0, MAX_DEPTH)
        if depth is None and player in players_of(session.spec) \
                and kind_of(session.spec, player).fixed_depth:
            depth = session.spec.default_depth
        if depth == 0 and player != "depth-limited":
            depth = None  # to the end of the game
        limit = Limit(depth=depth, seconds=float(min(seconds, self.max_seconds)),
                      nodes=self.max_nodes)
        return Job(player, limit)


def info_message(game: AnyGame, info: Info) -> dict[str, Any]:
    return {
        "type": "info",
        "depth": info.depth,
        "value": format_value(game, info.value, decided=info.decided, plies=info.plies),
        "decided": info.decided,
        "nodes": info.nodes,
        "unit": info.unit,
        "nodes_per_second": round(info.nodes_per_second),
        "elapsed": round(info.elapsed, 3),
        "pv": [game.format_move(a) for a in info.pv],
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


def create_app(max_searches: int = 2, max_seconds: float = 10.0,
               max_nodes: int = 20_000_000, table_memory: int = TABLE_MEMORY,
               own_games: Sequence[GameSpec] = (), agents: Sequence[str] = ()) -> Starlette:
    """The app; at most `max_searches` searches at once, each within `max_seconds` and
    `max_nodes` whatever the client asks; the engines' tables of all sessions within
    `table_memory` MB, about. `own_games`: a person's own games (game files), offered
    beside zerosum's; `agents`: their agent files' specs (FILE.py[:settings]), offered
    as players of every game."""
    server = Server(max_searches, max_seconds, max_nodes, table_memory, own_games, agents)

    async def page(request: Request) -> Response:
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))

    async def games(request: Request) -> Response:
        return JSONResponse({"games": [game_entry(spec, server.agents)
                                       for spec in server.games.values()]})

    async def create(request: Request) -> Response:
        session = server.new_session(await body_of(request))
        return JSONResponse(session.to_json())

    async def show(request: Request) -> Response:
        return JSONResponse(server.session(request.path_params["sid"]).to_json())

    def idle(request: Request) -> Session:
        session = server.session(request.path_params["sid"])
        if session.thinking:
            raise InputError("the computer is thinking; stop it first")
        return session

    async def move(request: Request) -> Response:
        session = idle(request)
        text = (await body_of(request)).get("move")
        if not isinstance(text, str):
            raise InputError("give the move as text: {\"move\": \"5\"}")
        session.play(text)
        return JSONResponse(session.to_json())

    async def undo(request: Request) -> Response:
        session = idle(request)
        plies = (await body_of(request)).get("plies", 1)
        if isinstance(plies, bool) or not isinstance(plies, int) or plies not in (1, 2):
            raise InputError("plies must be 1 or 2")
        for _ in range(min(plies, len(session.moves)) or 1):
            session.undo()
        return JSONResponse(session.to_json())

    async def restart(request: Request) -> Response:
        session = idle(request)
        await body_of(request)  # nothing to read, but a malformed body is refused
        session.restart()
        return JSONResponse(session.to_json())

    async def record(request: Request) -> Response:
        session = server.session(request.path_params["sid"])
        text, name = session.record(datetime.date.today())
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="{name}"'})

    async def bad_input(request: Request, error: Exception) -> Response:
        return JSONResponse({"error": message(error)}, status_code=400)

    async def not_found(request: Request, error: Exception) -> Response:
        return JSONResponse({"error": message(error)}, status_code=404)

    async def think(ws: WebSocket) -> None:
        await Thinker(server, ws).serve()

    routes = [
        Route("/", page),
        Route("/api/games", games),
        Route("/api/sessions", create, methods=["POST"]),
        Route("/api/sessions/{sid}", show),
        Route("/api/sessions/{sid}/move", move, methods=["POST"]),
        Route("/api/sessions/{sid}/undo", undo, methods=["POST"]),
        Route("/api/sessions/{sid}/new", restart, methods=["POST"]),
        Route("/api/sessions/{sid}/record", record),
        WebSocketRoute("/api/sessions/{sid}/think", think),
        *explain_routes(body_of),
        *analysis_routes(server),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    handlers = {InputError: bad_input, NotFound: not_found}
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def sweeping() -> None:
            while True:
                await asyncio.sleep(SWEEP_SECONDS)
                server.sweep()

        task = asyncio.create_task(sweeping())
        try:
            yield
        finally:
            task.cancel()

    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.state.server = server  # for tests and benches: the sessions and their tables
    return app


class Thinker:
    """One WebSocket: {"type": "think", "player", "seconds", "depth"} starts a search
    (info messages as it goes, then "result" with the move played); {"type": "stop"}
    makes it move now; closing the socket stops it. A malformed message closes the
    connection (code 1003); a refused request (busy, bad player) gets an "error" or
    "busy" message and the socket stays open."""

    def __init__(self, server: Server, ws: WebSocket) -> None:
        self.server, self.ws = server, ws
        self.stop: Stop | None = None
        self.search: asyncio.Task[None] | None = None
        self.busy = False  # a search of this socket is running
        self.open = True

    async def send(self, message: dict[str, Any]) -> None:
        if not self.open:
            return
        try:
            await self.ws.send_json(message)
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.open = False

    def request_stop(self) -> None:
        if self.stop is not None:
            self.stop.request()

    async def refuse(self, error: str) -> None:
        """Say why, and close this connection (a malformed message)."""
        await self.send({"type": "error", "error": error})
        await self.ws.close(code=1003, reason=reason(error))
        self.open = False

    async def serve(self) -> None:
        await self.ws.accept()
        try:
            session = self.server.session(self.ws.path_params["sid"])
        except NotFound as e:
            await self.send({"type": "error", "error": message(e)})
            await self.ws.close(code=1008, reason=reason(message(e)))
            return
        try:
            await read_requests(self.ws, "think", partial(self.start, session),
                                self.request_stop, self.refuse)
        except WebSocketDisconnect:
            self.open = False
        finally:
            if self.stop is not None:
                self.stop.request()  # a closed tab stops its search
            if self.search is not None:
                await self.search

    async def start(self, session: Session, request: dict[str, Any]) -> None:
        if self.busy:
            await self.send({"type": "error", "error": "already thinking"})
            return
        try:
            if session.thinking:
                raise InputError("the computer is already thinking in this game")
            job = self.server.job(session, request)
        except InputError as e:
            await self.send({"type": "error", "error": message(e)})
            return
        if not self.server.acquire():
            await self.send({"type": "busy", "error": f"busy: {self.server.max_searches} "
                             "searches are running; try again in a moment"})
            return
        session.thinking = self.busy = True
        self.server.make_room(session)
        self.stop = Stop(seconds=job.limit.seconds, nodes=job.limit.nodes, check_every=128)
        self.search = asyncio.create_task(self.run(session, job, self.stop))

    async def run(self, session: Session, job: Job, stop: Stop) -> None:
        # The search is over (slot freed, no longer busy) before its reply goes out, so a
        # client may ask for the next move as soon as it reads this one.
        try:
            await self.send({"type": "started", "player": job.player,
                             "limit": limit_json(job.limit)})
            reply = await self.finish(session, job, stop)
        finally:
            session.thinking = False
            session.used = time.monotonic()
            self.busy = False
            self.server.release()
        if reply is not None:
            await self.send(reply)

    async def finish(self, session: Session, job: Job, stop: Stop) -> dict[str, Any] | None:
        """Search, play the move found; the message to send (None if the client left)."""
        outcome = await self.search_in_thread(session, job, stop)
        if isinstance(outcome, BaseException):
            return {"type": "error", "error": f"the search failed: {message(outcome)}"}
        if not self.open:
            return None  # the client left: its search is abandoned, no move is played
        game, state = session.game, session.state
        result = playable(game, state, outcome)
        session.play_action(result.action, job.player, value=value_text(game, result),
                            depth=result.depth, nodes=result.stats.nodes, unit=result.unit,
                            seconds=result.stats.wall_time)
        session.thinking = False  # as the state sent with the result shows
        return {
            "type": "result",
            "move": game.format_move(result.action),
            "value": value_text(game, result),
            "depth": result.depth,
            "depth_text": depth_text(result.depth, result.unit),
            "complete": result.complete,
            "stopped": stop.requested,  # by the client: its stop, or a closed socket
            "nodes": result.stats.nodes,
            "unit": result.unit,
            "seconds": round(result.stats.wall_time, 3),
            "state": session.to_json(),
        }

    async def search_in_thread(self, session: Session, job: Job,
                               stop: Stop) -> SearchResult | BaseException:
        """Run the search in a worker thread; forward its Info messages as they come."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[dict[str, Any] | SearchResult | BaseException] = asyncio.Queue()
        game, state = session.game, session.state
        own = job.player in self.server.agents  # a person's agent file, loaded afresh

        def on_info(info: Info) -> None:
            post(loop, queue, info_message(game, info))

        def work() -> None:
            outcome: SearchResult | BaseException
            try:
                agent = agent_from_spec(session.spec, job.player) if own else make_player(
                    session.spec, job.player, Choice(depth=job.limit.depth or 0,
                                                     seconds=job.limit.seconds))
                if not isinstance(agent, ComputerAgent):
                    raise InputError(f"{job.player} cannot analyse a position")
                outcome = agent.analyse(game, state, job.limit, on_info, stop)
                if own and outcome.action not in game.actions(state):
                    outcome = InputError(f"{job.player} played an illegal move, "
                                         f"{outcome.action!r}")
            except Exception as e:  # reported to the client in one line
                outcome = e
            post(loop, queue, outcome)

        threading.Thread(target=work, name="zerosum-search", daemon=True).start()
        while True:
            item = await queue.get()
            if not isinstance(item, dict):
                return item
            await self.send(item)
