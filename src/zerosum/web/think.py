"""The think socket of a session, /api/sessions/{sid}/think: the computer's search runs
in a worker thread (a zerosum.running.Running, never on the event loop), its Info
streamed to the page as it comes, then its move played."""

from __future__ import annotations

import asyncio
import time
from functools import partial
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from zerosum.game import InputError, side_to_move
from zerosum.players.agents import ComputerAgent, playable
from zerosum.players.catalogue import make_player
from zerosum.players.spec import agent_from_spec
from zerosum.players.text import value_text
from zerosum.result import Info, InfoSink, SearchResult, depth_text
from zerosum.running import Running
from zerosum.stop import Stop
from zerosum.web.messages import post, read_requests, reason
from zerosum.web.sessions import (
    Job,
    NotFound,
    Server,
    Session,
    info_message,
    limit_json,
    message,
)
from zerosum.web.views import pv_marks


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
        session.play_action(result.action, job.player, result, result.stats.wall_time)
        session.thinking = False  # as the state sent with the result shows
        return {
            "type": "result",
            "move": game.format_move(result.action),
            "value": value_text(game, result, side_to_move(game, state)),
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
        queue: asyncio.Queue[dict[str, Any] | Running[SearchResult]] = asyncio.Queue()
        game, state = session.game, session.state
        own = job.player in self.server.agents  # a person's agent file, loaded afresh

        def search(on_info: InfoSink, stop: Stop) -> SearchResult:
            agent = agent_from_spec(session.spec, job.player) if own else make_player(
                session.spec, job.player, job.choice)
            if not isinstance(agent, ComputerAgent):
                raise InputError(f"{job.player} cannot analyse a position")
            result = agent.analyse(game, state, job.limit, on_info, stop)
            if own and result.action not in game.actions(state):
                raise InputError(f"{job.player} played an illegal move, {result.action!r}")
            return result

        def on_info(info: Info) -> None:
            message = info_message(game, info, side_to_move(game, state))
            message["pv_marks"] = pv_marks(session.spec, game, state, info.pv)
            post(loop, queue, message)

        Running(search, stop, on_info, partial(post, loop, queue))
        while True:
            item = await queue.get()
            if isinstance(item, Running):
                error = item.error()  # reported to the client in one line
                return error if error is not None else item.result()
            await self.send(item)
