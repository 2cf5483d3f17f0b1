"""What a browser sends over a WebSocket: one small JSON object with a known "type"."""

from __future__ import annotations

import json
from collections.abc import Collection
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
