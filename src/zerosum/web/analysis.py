"""Connect Four analysis for the web app: every column of a session's position, the
engine's quick estimate first, then the solver's exact score as each is proven.

One WebSocket per analysis, /api/sessions/{sid}/analysis: the client sends
{"type": "analyse", "seconds": s} (bounded by the server's limit) and gets "started",
one "estimate" per column, one "column" per column as the solver proves it (centre
first), then "done" naming the columns left unproven when time ran out or the client
stopped. {"type": "stop"} or closing the socket stops the solver (a zerosum Stop). The
work runs in a worker thread and holds one of the server's search slots, like a think.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Protocol

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from zerosum.convert import one_line
from zerosum.game import InputError, plies_text
from zerosum.games.connect4.game import Connect4, Position, plies_to_win
from zerosum.games.connect4.solver import Solver
from zerosum.players.agents import engines_of
from zerosum.result import Limit
from zerosum.stop import SearchStopped, Stop
from zerosum.web.messages import positive, post, read_requests, reason

ESTIMATE_DEPTH = 4  # plies of the engine's search under each column: quick, a hint only
DEFAULT_SECONDS = 10.0
SOLVER_CAPACITY = 1_000_000  # table entries of one analysis's own solver


class Sessions(Protocol):
    """What the analysis needs of the app's server (zerosum.web.app.Server)."""

    @property
    def max_seconds(self) -> float: ...
    @property
    def max_nodes(self) -> int: ...
    @property
    def session_entries(self) -> int: ...
    @property
    def sessions(self) -> Mapping[str, Any]: ...

    def acquire(self) -> bool: ...
    def release(self) -> None: ...


def verdict(score: int, stones: int, cells: int) -> tuple[str, str]:
    """The outcome ("win", "draw", "loss") and its words ("wins in 3 plies") of a column
    whose solver score, from the mover's side, is `score`, with `stones` on the board
    before it is played; the plies counted are both sides' moves, this one included (as
    `zerosum solve connect4` counts them)."""
    if score == 0:
        return "draw", "draw"
    stone = cells // 2 + 1 - abs(score)
    if score > 0:  # the mover has played stones // 2 stones (red moves first)
        return "win", f"wins in {plies_text(plies_to_win(stone, stones // 2, True))}"
    return "loss", f"loses in {plies_text(plies_to_win(stone, (stones + 1) // 2, False))}"


Send = Callable[[dict[str, Any]], None]


def estimates(spec: Any, game: Connect4, state: Position, stop: Stop, send: Send) -> list[int]:
    """The engine's value of each column, from the mover's side, by a shallow search; a
    column whose value it decides (a win at once, a win or loss within its depth) is
    sent as proven, like the solver's, and is among the columns returned."""
    engine = engines_of(spec)["engine"]
    sign = 1 if state.red_to_move else -1
    stones, proven = state.mask.bit_count(), []
    for column in game.actions(state):
        child = game.result(state, column)
        plies: int | None
        if game.is_terminal(child):
            value, decided, plies = sign * game.utility(child), True, 0
        else:
            result = engine(game, child, Limit(depth=ESTIMATE_DEPTH), None, stop)
            value, decided, plies = sign * result.value, result.decided, result.plies
        if decided:  # the kernel's decided values are solver scores (a proven win: +-1)
            score = int(value)
            outcome, words = verdict(score, stones, game.geo.cells)
            if plies is not None:
                send({"type": "column", "column": game.format_move(column), "score": score,
                      "outcome": outcome, "verdict": words})
            else:  # proven, its length unknown
                send({"type": "column", "column": game.format_move(column), "score": None,
                      "outcome": outcome, "verdict": f"{words.split(' in ')[0]} (proven)"})
            proven.append(column)
            continue
        send({"type": "estimate", "column": game.format_move(column),
              "value": round(float(value), 3), "decided": False})
    return proven


def solve_columns(game: Connect4, state: Position, stop: Stop, send: Send,
                  proven: Sequence[int] = (), capacity: int = SOLVER_CAPACITY) -> list[str]:
    """The solver's score of each column, centre first, each sent once proven (but those
    `proven` already); the columns left unproven when the stop came."""
    geo = game.geo
    solver = Solver(geo.width, geo.height, capacity=capacity, clock=stop.clock)
    solver.stop = stop
    # Its periodic check (which also asks the stop) runs only under a limit.
    solver.limit(seconds=stop.time_left(), nodes=stop.node_budget)
    columns = [c for c in geo.centre_order if geo.playable(state.mask, c) and c not in proven]
    stones = state.mask.bit_count()
    for i, column in enumerate(columns):
        try:
            score = solver.move_score(state.current, state.mask, column)
        except SearchStopped:
            return [game.format_move(c) for c in columns[i:]]
        outcome, words = verdict(score, stones, geo.cells)
        send({"type": "column", "column": game.format_move(column), "score": score,
              "outcome": outcome, "verdict": words})
    return []


class Analyst:
    """One analysis socket (see the module's docstring)."""

    def __init__(self, server: Sessions, ws: WebSocket) -> None:
        self.server, self.ws = server, ws
        self.stop: Stop | None = None
        self.task: asyncio.Task[None] | None = None

    async def send(self, message: dict[str, Any]) -> None:
        try:
            await self.ws.send_json(message)
        except (WebSocketDisconnect, RuntimeError, OSError):
            if self.stop is not None:
                self.stop.request()

    def request_stop(self) -> None:
        if self.stop is not None:
            self.stop.request()

    async def refuse(self, error: str, code: int) -> None:
        await self.send({"type": "error", "error": one_line(error)})
        await self.ws.close(code=code, reason=reason(error))

    async def serve(self) -> None:
        await self.ws.accept()
        session = self.server.sessions.get(self.ws.path_params["sid"])
        if session is None:
            await self.refuse("no such session (the server may have restarted)", 1008)
            return
        if session.spec.name != "connect4":
            await self.refuse(f"analysis is for Connect Four only, not {session.spec.title}",
                              1008)
            return
        try:
            await read_requests(self.ws, "analyse", partial(self.start, session),
                                self.request_stop, partial(self.refuse, code=1003))
        except WebSocketDisconnect:
            pass
        finally:
            if self.stop is not None:
                self.stop.request()  # a closed tab stops its solver
            if self.task is not None:
                await self.task

    async def start(self, session: Any, request: dict[str, Any]) -> None:
        if self.task is not None and not self.task.done():
            await self.send({"type": "error", "error": "already analysing"})
            return
        try:
            seconds = positive(request.get("seconds", DEFAULT_SECONDS), "seconds")
        except InputError as e:
            await self.send({"type": "error", "error": str(e)})
            return
        if session.game.is_terminal(session.state):
            await self.send({"type": "error", "error": "the game is over"})
            return
        if not self.server.acquire():
            await self.send({"type": "busy", "error": "busy: the server's searches are all "
                             "running; try again in a moment"})
            return
        budget = min(float(seconds), self.server.max_seconds)
        self.stop = Stop(seconds=budget, nodes=self.server.max_nodes, check_every=128)
        self.task = asyncio.create_task(self.run(session.spec, session.game, session.state,
                                                 budget, self.stop))

    async def run(self, spec: Any, game: Connect4, state: Position, seconds: float,
                  stop: Stop) -> None:
        try:
            await self.send({"type": "started", "seconds": seconds,
                             "columns": [game.format_move(c) for c in game.actions(state)]})
            loop = asyncio.get_running_loop()
            queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
            capacity = min(SOLVER_CAPACITY, self.server.session_entries)  # the server's share

            def send(message: dict[str, Any]) -> None:
                post(loop, queue, message)

            def work() -> None:
                try:
                    proven = estimates(spec, game, state, stop, send)
                    unproven = solve_columns(game, state, stop, send, proven, capacity)
                    send({"type": "done", "unproven": unproven,
                          "stopped": stop.requested})
                except SearchStopped:  # stopped during the estimates
                    send({"type": "done", "stopped": stop.requested,
                          "unproven": [game.format_move(c) for c in game.actions(state)]})
                except Exception as e:  # reported to the client in one line
                    send({"type": "error", "error": f"the analysis failed: {e}"})

            threading.Thread(target=work, name="zerosum-analysis", daemon=True).start()
            while True:
                message = await queue.get()
                await self.send(message)
                if message["type"] in ("done", "error"):
                    return
        finally:
            self.server.release()


def analysis_routes(server: Sessions) -> list[BaseRoute]:
    """The analysis socket, over the app's sessions and search slots."""

    async def analysis(ws: WebSocket) -> None:
        await Analyst(server, ws).serve()

    return [WebSocketRoute("/api/sessions/{sid}/analysis", analysis)]
