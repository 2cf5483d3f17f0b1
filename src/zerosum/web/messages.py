"""What a browser sends over a WebSocket: one small JSON object with a known "type"."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Collection
from typing import Any

MAX_MESSAGE = 4096  # characters of a WebSocket message


def parse_message(text: str, types: Collection[str]) -> dict[str, Any] | None:
    """The request `text` spells, or None when it is too long, not JSON, not an object or
    not of one of `types` (the caller closes that connection only)."""
    if len(text) > MAX_MESSAGE:
        return None
    try:
        request = json.loads(text)
    except ValueError:
        return None
    if not isinstance(request, dict) or request.get("type") not in types:
        return None
    return request


async def read_requests(ws: Any, kind: str, start: Callable[[dict[str, Any]], Awaitable[None]],
                        stop: Callable[[], None],
                        malformed: Callable[[str], Awaitable[None]]) -> None:
    """A socket's requests until it closes (WebSocketDisconnect): each {"type": kind} goes
    to `start`, each {"type": "stop"} to `stop`; anything else goes to `malformed` with
    what was expected, and ends the loop (the caller closes that connection only)."""
    while True:
        request = parse_message(await ws.receive_text(), (kind, "stop"))
        if request is None:
            await malformed(f"malformed message: expected JSON {{\"type\": \"{kind}\"}} or "
                            "{\"type\": \"stop\"}")
            return
        if request["type"] == "stop":
            stop()
        else:
            await start(request)
