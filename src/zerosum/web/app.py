"""The web app of `zerosum serve`: play the registered games in a browser and watch the
computer's search as it runs; an analysis board beside it.

The app's routes over the sessions (web/sessions.py: the sessions, the server's search
bounds), the think socket (web/think.py), the analysis (web/analysis.py) and the explain
page (web/explain.py). Bad input gets HTTP 400 (or an error message on a socket) with one
line, never a traceback; nothing a client sends is evaluated or imported.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
from collections.abc import AsyncIterator, Sequence
from importlib.resources import files

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from zerosum.convert import MAX_DEPTH
from zerosum.game import InputError
from zerosum.games.registry import GameSpec
from zerosum.web.analysis import analysis_routes
from zerosum.web.explain import explain_routes
from zerosum.web.sessions import (
    SWEEP_SECONDS,
    TABLE_MEMORY,
    NotFound,
    Server,
    Session,
    body_of,
    game_entry,
    message,
)
from zerosum.web.think import Thinker
from zerosum.web.tournament import tournament_routes
from zerosum.web.training import Run, training_routes

STATIC = files("zerosum.web") / "static"
__all__ = ["MAX_DEPTH", "STATIC", "Server", "create_app"]


def create_app(max_searches: int = 2, max_seconds: float = 10.0,
               max_nodes: int = 20_000_000, table_memory: int = TABLE_MEMORY,
               own_games: Sequence[GameSpec] = (), agents: Sequence[str] = (),
               tournament: str | None = None, train: str | None = None) -> Starlette:
    """The app; at most `max_searches` searches at once, each within `max_seconds` and
    `max_nodes` whatever the client asks; the engines' tables of all sessions within
    `table_memory` MB, about. `own_games`: a person's own games (game files), offered
    beside zerosum's; `agents`: their agent files' specs (FILE.py[:settings]), offered
    as players of every game; `tournament`: a tournament's database, shown live at
    /tournament; `train`: a training run's weights file, watched at /train (its
    weights a player of its game)."""
    run = None if train is None else Run(train)
    learned = {} if run is None else {run.fresh()[1].name: [run.player()]}
    server = Server(max_searches, max_seconds, max_nodes, table_memory, own_games, agents,
                    learned)

    async def page(request: Request) -> Response:
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))

    async def games(request: Request) -> Response:
        return JSONResponse({"games": [game_entry(spec, server.agents_for(spec))
                                       for spec in server.games.values()],
                             "limits": {"seconds": server.max_seconds,
                                        "nodes": server.max_nodes}})

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

    async def goto(request: Request) -> Response:
        session = idle(request)
        ply = (await body_of(request)).get("ply")
        if isinstance(ply, bool) or not isinstance(ply, int):
            raise InputError("give the ply to show as a whole number: {\"ply\": 3}")
        session.goto(ply)
        return JSONResponse(session.to_json())

    async def line(request: Request) -> Response:
        session = idle(request)
        index = (await body_of(request)).get("variation")
        if isinstance(index, bool) or not isinstance(index, int):
            raise InputError("give the variation to play as a whole number: "
                             "{\"variation\": 0}")
        session.switch(index)
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
        Route("/api/sessions/{sid}/goto", goto, methods=["POST"]),
        Route("/api/sessions/{sid}/line", line, methods=["POST"]),
        Route("/api/sessions/{sid}/new", restart, methods=["POST"]),
        Route("/api/sessions/{sid}/record", record),
        WebSocketRoute("/api/sessions/{sid}/think", think),
        *explain_routes(body_of, server.agents_for),
        *analysis_routes(server),
        *(tournament_routes(tournament) if tournament is not None else []),
        *(training_routes(run) if run is not None else []),
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


