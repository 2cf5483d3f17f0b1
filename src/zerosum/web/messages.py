"""What a client sends, read and checked: JSON request bodies and WebSocket messages
(one small JSON object with a known "type"), and the values in them.

Everything here treats its input as hostile: JSON nested past MAX_NESTING, a binary
frame, a float where a whole number belongs, a 5,000-digit value in an error message.
Each ends in an InputError (HTTP 400) or a close frame with a reason, never an
exception of another kind.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from starlette.websockets import WebSocketDisconnect

from zerosum.convert import MAX_SECONDS, json_number, one_line
from zerosum.game import InputError

MAX_MESSAGE = 4096  # characters of a WebSocket message
MAX_NESTING = 16  # arrays and objects within each other: no request needs more than 3
MAX_REASON = 123  # bytes of a close frame's reason (RFC 6455: 125 less the code)




def nesting(text: str) -> int:
    """How deep arrays and objects lie within each other in the JSON `text`, counted on
    the text before it is decoded: the decoder recurses, and whether a deep text ends
    in RecursionError or in a syntax error depends on the thread's stack and the
    interpreter's recursion limit, so the decoder cannot be the judge."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def parse_json(text: str | bytes, what: str) -> Any:
    """The JSON value `text` spells; an InputError naming `what` if it does not, or
    nests too deep (measured before decoding: the decoder recurses)."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{what} is not JSON") from None
    if nesting(text) > MAX_NESTING:
        raise InputError(f"{what} nests arrays or objects too deep "
                         f"(at most {MAX_NESTING} levels)")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise InputError(f"{what} is not JSON") from None


def whole(value: Any, what: str, lo: int, hi: int) -> int:
    """`value` if it is a whole number from `lo` to `hi` (a JSON integer: not 1.0, not
    true); an InputError otherwise."""
    return int(json_number(value, what, lo=lo, hi=hi, whole=True))


def positive(value: Any, what: str, hi: float = MAX_SECONDS) -> float:
    """`value` if it is a number above 0 and at most `hi` (not true, not NaN, not a
    400-digit integer); an InputError otherwise."""
    return json_number(value, what, lo=0, lo_open=True, hi=hi)


def reason(error: str) -> str:
    """`error` as a close frame's reason: one line, at most MAX_REASON bytes."""
    text = one_line(error)
    data = text.encode("utf-8")
    if len(data) <= MAX_REASON:
        return text
    return data[:MAX_REASON - 3].decode("utf-8", "ignore") + "..."


def parse_message(text: str, types: Collection[str]) -> dict[str, Any] | None:
    """The request `text` spells, or None when it is too long, not JSON, nested too deep,
    not an object or not of one of `types` (the caller closes that connection only)."""
    if len(text) > MAX_MESSAGE:
        return None
    try:
        request = parse_json(text, "the message")
    except InputError:
        return None
    if not isinstance(request, dict) or not isinstance(request.get("type"), str) \
            or request["type"] not in types:
        return None
    return request


async def receive_text(ws: Any) -> str | None:
    """The next text message of the socket, or None for a binary one; raises
    WebSocketDisconnect when the client has gone."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None


async def read_requests(ws: Any, kind: str, start: Callable[[dict[str, Any]], Awaitable[None]],
                        stop: Callable[[], None],
                        malformed: Callable[[str], Awaitable[None]]) -> None:
    """A socket's requests until it closes (WebSocketDisconnect): each {"type": kind} goes
    to `start`, each {"type": "stop"} to `stop`; anything else (a binary frame too) goes
    to `malformed` with what was expected, and ends the loop (the caller closes that
    connection only)."""
    expected = f"expected JSON {{\"type\": \"{kind}\"}} or {{\"type\": \"stop\"}}"
    while True:
        text = await receive_text(ws)
        if text is None:
            await malformed(f"malformed message: a binary frame; {expected} as text")
            return
        request = parse_message(text, (kind, "stop"))
        if request is None:
            await malformed(f"malformed message: {expected}")
            return
        if request["type"] == "stop":
            stop()
        else:
            await start(request)
