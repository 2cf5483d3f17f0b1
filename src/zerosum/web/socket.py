"""What the page's search sockets share (think.py: the computer's move; analysis.py:
every move's value): one WebSocket of a session, its requests read
(messages.read_requests: one type that starts a search, and {"type": "stop"}), its
replies sent while the client listens, one search at a time in a zerosum.running
Running, read as a stream (`async for`: no queue, no polling), stopped by a stop
request or by the socket closing. A subclass says how a session is found and what a
request starts."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from zerosum.convert import one_line
from zerosum.running import Running
from zerosum.web.messages import read_requests, reason


class SearchSocket:
    """One socket. `request`: the type of message that starts a search."""

    request = ""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.open = True  # the client still listens
        self.running: Running[Any] | None = None
        self.task: asyncio.Task[None] | None = None
        self.stop_asked = False  # before the search's Running was made

    def find_session(self, sid: str) -> tuple[Any, str]:
        """(the session, "") or (None, why not)."""
        raise NotImplementedError

    async def start(self, session: Any, request: dict[str, Any]) -> None:
        """Start what `request` asks (as a task: the socket keeps reading), or say why not."""
        raise NotImplementedError

    async def send(self, message: dict[str, Any]) -> None:
        if not self.open:
            return
        try:
            await self.ws.send_json(message)
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.open = False  # no one listens: the search is abandoned
            self.request_stop()

    def begin(self) -> None:
        """A new search is about to start: forget the last one."""
        self.running, self.stop_asked = None, False

    def watch(self, running: Running[Any]) -> Running[Any]:
        """The search now running, stopped at once if a stop came before it started."""
        self.running = running
        if self.stop_asked:
            running.stop()
        return running

    def request_stop(self) -> None:
        self.stop_asked = True
        if self.running is not None:
            self.running.stop()

    async def refuse(self, error: str, code: int = 1003) -> None:
        """Say why, and close this connection (a malformed message: 1003)."""
        await self.send({"type": "error", "error": one_line(error)})
        await self.ws.close(code=code, reason=reason(error))
        self.open = False

    async def serve(self) -> None:
        await self.ws.accept()
        session, why = self.find_session(self.ws.path_params["sid"])
        if session is None:
            await self.refuse(why, 1008)
            return
        try:
            await read_requests(self.ws, self.request, partial(self.start, session),
                                self.request_stop, self.refuse)
        except WebSocketDisconnect:
            self.open = False
        finally:
            self.request_stop()  # a closed tab stops its search
            if self.task is not None:
                await self.task
