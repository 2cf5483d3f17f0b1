"""The "explain a search" page: a textbook tree (the `zerosum tree` format) searched by
minimax or alpha-beta, sent to the browser node by node to be stepped through.

The events come from the search's own tracer (zerosum.explain.trace_tree), in the order
the nodes returned (post-order); nothing here searches. Values are sent as text
("-inf", "3", "+inf") because JSON has no infinity.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from importlib.resources import files
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from zerosum.explain import fmt, trace_tree
from zerosum.game import InputError
from zerosum.games.tree import Node, Path, TreeGame
from zerosum.result import TraceEvent

PAGE = files("zerosum.web") / "static" / "explain.html"
ALGORITHMS = ("alphabeta", "minimax")
MAX_NODES = 2000  # a tree the page can still draw; the request body limit comes first mostly

BodyReader = Callable[[Request], Awaitable[dict[str, Any]]]


def kids(path: Path, node: Node) -> list[Path]:
    return [(*path, i) for i in range(len(node.children))]


def tree_json(game: TreeGame) -> tuple[list[dict[str, Any]], dict[Path, int]]:
    """The nodes in pre-order, each with its children's indices; and each path's index."""
    paths = game.paths()
    if len(paths) > MAX_NODES:
        raise InputError(f"tree: {len(paths):,} nodes; this page draws at most {MAX_NODES:,}")
    index = {path: i for i, path in enumerate(paths)}
    nodes = []
    for path in paths:
        node = game.node(path)
        nodes.append({
            "path": list(path),
            "label": node.label,
            "role": "leaf" if node.is_leaf else ("max" if game.is_maxs_turn(path) else "min"),
            "value": None if node.value is None else fmt(node.value),
            "children": [index[kid] for kid in kids(path, node)],
        })
    return nodes, index


def cut_reason(game: TreeGame, event: TraceEvent) -> str:
    """Why a node stopped searching its children: the textbook's two tests."""
    if game.is_maxs_turn(event.state):
        return f"value {fmt(event.value)} >= beta {fmt(event.beta)} at a Max node"
    return f"value {fmt(event.value)} <= alpha {fmt(event.alpha)} at a Min node"


def event_json(game: TreeGame, event: TraceEvent, index: dict[Path, int],
               seen: dict[Path, TraceEvent], windowed: bool) -> dict[str, Any]:
    path: Path = event.state
    node = game.node(path)
    pruned = [index[kid] for kid in kids(path, node) if kid not in seen]
    return {
        "node": index[path],
        "path": list(path),
        "label": node.label,
        "value": fmt(event.value),
        "alpha": fmt(event.alpha) if windowed else None,
        "beta": fmt(event.beta) if windowed else None,
        "pruned": pruned,
        "reason": cut_reason(game, event) if pruned else None,
    }


def explain_json(body: dict[str, Any]) -> dict[str, Any]:
    """The answer of POST /api/explain {tree, algorithm?, min_first?}."""
    text = body.get("tree")
    if not isinstance(text, str) or not text.strip():
        raise InputError("give the tree as text: {\"tree\": \"A[B[3 12 8] C[2 4 6]]\"}")
    algorithm = body.get("algorithm", "alphabeta")
    if algorithm not in ALGORITHMS:
        raise InputError(f"algorithm must be one of {', '.join(ALGORITHMS)}")
    min_first = body.get("min_first", False)
    if not isinstance(min_first, bool):
        raise InputError("min_first must be true or false")
    game = TreeGame.from_text(text, max_first=not min_first)
    nodes, index = tree_json(game)
    counts = {}
    for name in ALGORITHMS:
        result, _ = trace_tree(game, name)
        counts[name] = {"nodes": result.stats.nodes, "leaves": result.stats.evaluated}
    result, seen = trace_tree(game, algorithm)
    windowed = algorithm == "alphabeta"
    return {
        "algorithm": algorithm,
        "value": fmt(result.value),
        "best": None if result.action is None else game.label((result.action,)),
        "counts": counts,
        "nodes": nodes,
        # a dict keeps the order of first insertion: the order the nodes returned
        "events": [event_json(game, e, index, seen, windowed) for e in seen.values()],
    }


def explain_routes(read_body: BodyReader) -> list[BaseRoute]:
    """The page and its API; `read_body` is the app's bounded JSON body reader."""

    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE.read_text(encoding="utf-8"))

    async def explain(request: Request) -> Response:
        return JSONResponse(explain_json(await read_body(request)))

    return [Route("/explain", page), Route("/api/explain", explain, methods=["POST"])]
