"""The think socket of a session, /api/sessions/{sid}/think: the player kind's search
(PlayerKind.start: a zerosum.running.Running in a worker thread, never on the event
loop), its Info streamed to the page as it comes, then its move played."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket

from zerosum.game import InputError, side_to_move
from zerosum.players.agents import ComputerAgent, playable
from zerosum.players.catalogue import kind_of
from zerosum.players.spec import agent_from_spec
from zerosum.players.text import value_text
from zerosum.result import SearchResult, depth_text
from zerosum.web.sessions import (
    Job,
    NotFound,
    Server,
    Session,
    info_message,
    limit_json,
    message,
)
from zerosum.web.socket import SearchSocket
from zerosum.web.views import pv_marks


class Thinker(SearchSocket):
    """One WebSocket: {"type": "think", "player", "seconds", "depth"} starts a search
    (info messages as it goes, then "result" with the move played); {"type": "stop"}
    makes it move now; closing the socket stops it. A malformed message closes the
    connection (code 1003); a refused request (busy, bad player) gets an "error" or
    "busy" message and the socket stays open."""

    request = "think"

    def __init__(self, server: Server, ws: WebSocket) -> None:
        super().__init__(ws)
        self.server = server
        self.busy = False  # a search of this socket is running

    def find_session(self, sid: str) -> tuple[Session | None, str]:
        try:
            return self.server.session(sid), ""
        except NotFound as e:
            return None, message(e)

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
        self.begin()
        self.task = asyncio.create_task(self.run(session, job))

    async def run(self, session: Session, job: Job) -> None:
        # The search is over (slot freed, no longer busy) before its reply goes out, so a
        # client may ask for the next move as soon as it reads this one.
        try:
            await self.send({"type": "started", "player": job.player,
                             "limit": limit_json(job.limit)})
            reply = await self.finish(session, job)
        finally:
            session.thinking = False
            session.used = time.monotonic()
            self.busy = False
            self.server.release()
        if reply is not None:
            await self.send(reply)

    async def finish(self, session: Session, job: Job) -> dict[str, Any] | None:
        """Search, play the move found; the message to send (None if the client left)."""
        outcome = await self.search(session, job)
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
            "stopped": self.stop_asked,  # by the client: its stop, or a closed socket
            "nodes": result.stats.nodes,
            "unit": result.unit,
            "seconds": round(result.stats.wall_time, 3),
            "state": session.to_json(),
        }

    async def search(self, session: Session, job: Job) -> SearchResult | BaseException:
        """The player's search (PlayerKind.start; a person's agent file, or a training
        run's weights, loaded afresh off the event loop), its Info messages forwarded
        as they come."""
        game, state = session.game, session.state
        own = job.player in self.server.agents_for(session.spec)
        try:
            if own:
                agent = await run_in_threadpool(agent_from_spec, session.spec, job.player)
                if not isinstance(agent, ComputerAgent):
                    raise InputError(f"{job.player} cannot analyse a position")
                running = agent.start(game, state, job.limit)
            else:
                running = kind_of(session.spec, job.player).start(
                    session.spec, game, state, job.choice, job.limit)
        except Exception as e:  # reported to the client in one line
            return e
        self.watch(running)
        async for info in running:
            update = info_message(game, info, side_to_move(game, state))
            update["pv_marks"] = pv_marks(session.spec, game, state, info.pv)
            await self.send(update)
        error = running.error()
        if error is not None:
            return error
        result = running.result()
        if own and result.action not in game.actions(state):
            return InputError(f"{job.player} played an illegal move, {result.action!r}")
        return result
