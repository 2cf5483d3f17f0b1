"""The "explain a search" page: a textbook tree (the `zerosum tree` format) searched by
minimax or alpha-beta, sent to the browser node by node to be stepped through.

The events come from the search's own tracer (zerosum.explain.trace_tree), in the order
the nodes returned (post-order); nothing here searches. Values are sent as text
("-inf", "3", "+inf") because JSON has no infinity.

A game position may be searched with a transposition table. The table is watched (each
probe's answer is logged between the tracer's events), and each hit is told by what it
did: an exact value or a bound that closes the window settles the node (a cut by the
table), a bound inside the window only narrows it, a bound outside it changes nothing.
To tell these apart, the window each node was entered with is replayed from the events:
alpha-beta's own update, a node's children entered with its window as it stood then.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from zerosum.convert import shown
from zerosum.explain import fmt, trace_tree
from zerosum.game import AnyGame, InputError
from zerosum.games.registry import get_game
from zerosum.games.tree import Node, Path, TreeGame
from zerosum.result import Limit, SearchResult, TraceEvent
from zerosum.search import alphabeta, minimax, minimax_search
from zerosum.stop import Stop
from zerosum.table import Bound, Entry, TranspositionTable, narrow

PAGE = files("zerosum.web") / "static" / "explain.html"
ALGORITHMS = ("alphabeta", "minimax")
MAX_NODES = 2000  # a tree the page can still draw; the request body limit comes first mostly
MAX_DEPTH = 4  # a game position's search depth: Connect Four at 4 plies is 2,801 nodes
MAX_GAME_NODES = 3000  # the page expands such a tree lazily, one node's children at a time

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


def cut_reason(maxs_turn: bool, event: TraceEvent) -> str:
    """Why a node stopped searching its children: the textbook's two tests."""
    if maxs_turn:
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
        "reason": cut_reason(game.is_maxs_turn(path), event) if pruned else None,
    }


def algorithm_of(body: dict[str, Any]) -> str:
    """The request's "algorithm" (default alpha-beta), one of ALGORITHMS."""
    algorithm = body.get("algorithm", "alphabeta")
    if not isinstance(algorithm, str) or algorithm not in ALGORITHMS:
        raise InputError(f"algorithm must be one of {', '.join(ALGORITHMS)}")
    return str(algorithm)


def flag(body: dict[str, Any], key: str) -> bool:
    """The request's true/false setting `key` (default false)."""
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise InputError(f"{key} must be true or false")
    return value


def explain_json(body: dict[str, Any]) -> dict[str, Any]:
    """The answer of POST /api/explain {tree, algorithm?, min_first?}."""
    if "game" in body:
        return game_json(body)
    text = body.get("tree")
    if not isinstance(text, str) or not text.strip():
        raise InputError("give the tree as text: {\"tree\": \"A[B[3 12 8] C[2 4 6]]\"}")
    algorithm = algorithm_of(body)
    min_first = flag(body, "min_first")
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


@dataclass
class Probe:
    """What the table answered when the search entered an inner node `depth` plies down."""

    depth: int
    entry: Entry | None


class WatchedTable(TranspositionTable):
    """A transposition table that logs each probe's answer into the search's event log."""

    def __init__(self, log: list[TraceEvent | Probe], limit: int) -> None:
        super().__init__()
        self.log, self.limit = log, limit

    def probe(self, key: Hashable, remaining: int | None) -> Entry | None:
        entry = super().probe(key, remaining)
        depth = self.limit - (0 if remaining is None else remaining)
        self.log.append(Probe(depth, entry))
        return entry


@dataclass
class Visit:
    """A node a game search returned from, with the children it searched and what the
    table had for it (None: no usable entry, or no table)."""

    event: TraceEvent
    kids: list[Visit]
    entry: Entry | None = None
    window: tuple[float, float] = field(default=(-math.inf, math.inf))  # as entered


def visits(log: list[TraceEvent | Probe]) -> Visit:
    """The searched tree, rebuilt from post-order events: a node's children are the
    nodes one ply deeper that returned just before it (states may repeat, paths do not).
    A probe comes when its node is entered; that node returns before another of its depth
    is entered, so the last probe at a depth belongs to the next node returning there."""
    stack: list[Visit] = []
    probed: dict[int, Entry | None] = {}
    for item in log:
        if isinstance(item, Probe):
            probed[item.depth] = item.entry
            continue
        kids: list[Visit] = []
        while stack and stack[-1].event.depth == item.depth + 1:
            kids.append(stack.pop())
        stack.append(Visit(item, kids[::-1], probed.pop(item.depth, None)))
    return stack[-1]


def replay_windows(game: AnyGame, visit: Visit, window: tuple[float, float]) -> None:
    """Set the window each node of `visit`'s tree was entered with: alpha-beta's update
    (fail-soft), the stored bound first."""
    visit.window = alpha, beta = window
    if visit.entry is not None:
        alpha, beta = narrow(visit.entry[1], visit.entry[2], alpha, beta)
    maxs_turn = game.is_maxs_turn(visit.event.state)
    v = -math.inf if maxs_turn else math.inf
    for kid in visit.kids:
        replay_windows(game, kid, (alpha, beta))
        if maxs_turn:
            v = max(v, kid.event.value)
            alpha = max(alpha, v)
        else:
            v = min(v, kid.event.value)
            beta = min(beta, v)


BOUNDS = {Bound.EXACT: "exact", Bound.LOWER: "lower", Bound.UPPER: "upper"}


def table_json(visit: Visit) -> dict[str, Any] | None:
    """What the table's entry did at this node: "exact" (its value settles the node), "cut"
    (its bound closes the window: settled too), "narrowed" (the node is searched within
    a smaller window) or "none" (the bound lies outside the window)."""
    if visit.entry is None:
        return None
    _, bound, value, _ = visit.entry
    alpha, beta = visit.window
    after = narrow(bound, value, alpha, beta)
    if bound == Bound.EXACT:
        effect = "exact"
    elif after[0] >= after[1]:
        effect = "cut"
    else:
        effect = "narrowed" if after != (alpha, beta) else "none"
    return {"bound": BOUNDS[Bound(bound)], "value": fmt(value), "effect": effect,
            "window": [fmt(alpha), fmt(beta)], "narrowed": [fmt(after[0]), fmt(after[1])]}


def play_moves(game: AnyGame, text: str) -> Any:
    """The position after the moves `text` (written as in play) from the start."""
    state = game.initial_state()
    for i, move in enumerate(text.split(), 1):
        if game.is_terminal(state):
            raise InputError(f"move {i} {shown(move)}: the game is already over")
        try:
            action = game.parse_move(state, move)
        except InputError as e:
            raise InputError(f"move {i} {shown(move)} is not legal: {e}") from None
        state = game.result(state, action)
    return state


def game_search(game: AnyGame, state: Any, algorithm: str, depth: int,
                table: bool) -> tuple[SearchResult, list[TraceEvent | Probe]]:
    log: list[TraceEvent | Probe] = []
    if algorithm == "minimax":
        return minimax.analyse(game, state, Limit(depth=depth), tracer=log.append), log
    tt = WatchedTable(log, depth) if table else None
    return alphabeta.analyse(game, state, Limit(depth=depth), table=tt, tracer=log.append), log


def game_nodes(game: AnyGame, root: Visit, depth: int,
               windowed: bool) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The nodes in pre-order (the searched ones and the children cut off) and the
    events in the order the nodes returned."""
    nodes: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []  # appended as the nodes returned: post-order

    def role(state: Any, ply: int) -> str:
        if ply == depth or game.is_terminal(state):
            return "leaf"
        return "max" if game.is_maxs_turn(state) else "min"

    def add(path: list[int], label: str, state: Any, value: str | None) -> int:
        nodes.append({"path": path, "label": label, "role": role(state, len(path)),
                      "value": value, "children": []})
        return len(nodes) - 1

    def walk(visit: Visit, path: list[int], label: str) -> int:
        e = visit.event
        i = add(path, label, e.state, None)
        for k, kid in enumerate(visit.kids):
            text = game.format_move(kid.event.action)
            name = text if not path else f"{label} {text}"
            nodes[i]["children"].append(walk(kid, [*path, k], name))
        inner = nodes[i]["role"] != "leaf"
        pruned: list[int] = []
        if inner and visit.kids:
            searched = [kid.event.action for kid in visit.kids]
            for a in game.actions(e.state):
                if a not in searched:
                    k = len(nodes[i]["children"])
                    text = game.format_move(a)
                    cut = add([*path, k], text if not path else f"{label} {text}",
                              game.result(e.state, a), None)
                    nodes[i]["children"].append(cut)
                    pruned.append(cut)
        events.append({
            "node": i, "path": path, "label": label, "value": fmt(e.value),
            "alpha": fmt(e.alpha) if windowed else None,
            "beta": fmt(e.beta) if windowed else None,
            "pruned": pruned,
            "reason": cut_reason(game.is_maxs_turn(e.state), e) if pruned else None,
            "table": table_json(visit),
        })
        return i

    walk(root, [], "start")
    return nodes, events


def game_json(body: dict[str, Any]) -> dict[str, Any]:
    """The answer of POST /api/explain {game, moves?, depth, algorithm?, table?}."""
    name = body.get("game")
    if not isinstance(name, str):
        raise InputError("name a game: {\"game\": \"tictactoe\"}")
    spec = get_game(name)
    moves = body.get("moves", "")
    if not isinstance(moves, str):
        raise InputError("moves must be text, e.g. \"1 5\"")
    depth = body.get("depth", 2)
    if not isinstance(depth, int) or isinstance(depth, bool) or not 1 <= depth <= MAX_DEPTH:
        raise InputError(f"depth must be a whole number from 1 to {MAX_DEPTH}")
    algorithm = algorithm_of(body)
    table = flag(body, "table")
    game = spec.create()
    state = play_moves(game, moves)
    # the whole tree's size first, with a budget, so a wide game cannot run on
    if not minimax_search(game, state, depth, stop=Stop(nodes=MAX_GAME_NODES)).complete:
        raise InputError(f"{name} at depth {depth} has over {MAX_GAME_NODES:,} nodes "
                         "from this position; choose a smaller depth")
    counts = {}
    for algo in ALGORITHMS:
        r, _ = game_search(game, state, algo, depth, table)
        counts[algo] = {"nodes": r.stats.nodes, "leaves": r.stats.evaluated,
                        "table_hits": r.stats.table_hits}
    result, log = game_search(game, state, algorithm, depth, table)
    root = visits(log)
    replay_windows(game, root, (-math.inf, math.inf))
    nodes, steps = game_nodes(game, root, depth, algorithm == "alphabeta")
    return {
        "algorithm": algorithm,
        "value": fmt(result.value),
        "best": None if result.action is None else game.format_move(result.action),
        "counts": counts,
        "lazy": True,
        "nodes": nodes,
        "events": steps,
    }


def explain_routes(read_body: BodyReader) -> list[BaseRoute]:
    """The page and its API; `read_body` is the app's bounded JSON body reader."""

    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE.read_text(encoding="utf-8"))

    async def explain(request: Request) -> Response:
        return JSONResponse(explain_json(await read_body(request)))

    return [Route("/explain", page), Route("/api/explain", explain, methods=["POST"])]
