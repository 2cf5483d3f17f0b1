"""The "explain a search" page: a textbook tree (the `zerosum tree` format) searched by
minimax or alpha-beta, sent to the browser node by node to be stepped through.

The steps come from the search's own tracer (zerosum.explain.trace_steps), in the order
the search went: each inner node entered with the window passed down, each node
returning with its value and final window; nothing here searches. Values are sent as
text ("-inf", "3", "+inf") because JSON has no infinity; a game position's in the
game's own number format (zerosum.game.format_number).

A game position may be searched with a transposition table. The table is watched (each
probe's answer is logged between the tracer's events: it belongs to the node just
entered), and each hit is told by what it did against the window the node was entered
with: an exact value or a bound that closes the window settles the node (a cut by the
table), a bound inside the window only narrows it, a bound outside it changes nothing.
A search with the table and no hit says why (`table_note`).
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

from zerosum.convert import json_number, shown
from zerosum.explain import cut_reason, fmt, trace_steps, trace_tree
from zerosum.game import AnyGame, InputError, format_number, format_value, replay
from zerosum.games.registry import GameSpec, get_game
from zerosum.games.tree import Node, Path, TreeGame
from zerosum.players.spec import agent_from_spec
from zerosum.result import Limit, MoveStats, SearchResult, TraceEvent
from zerosum.search import alphabeta, minimax, minimax_search
from zerosum.search.mcts import Simulation, mcts_search
from zerosum.stop import Stop
from zerosum.table import Bound, Entry, TranspositionTable, narrow
from zerosum.web.views import view_of

PAGE = files("zerosum.web") / "static" / "explain.html"
ALGORITHMS = ("alphabeta", "minimax")  # the tree searches, whose counts are compared
MCTS_SIMULATIONS = (1, 300)  # the least and most simulations stepped through (~4 kB each)
MCTS_SECONDS = 10.0  # a budget that takes longer (long playouts) is refused
MAX_NODES = 2000  # a tree the page can still draw; the request body limit comes first mostly
MAX_DEPTH = 4  # a game position's search depth: Connect Four at 4 plies is 2,801 nodes
MAX_GAME_NODES = 3000  # the page expands such a tree lazily, one node's children at a time

BodyReader = Callable[[Request], Awaitable[dict[str, Any]]]
Players = Callable[[GameSpec], list[str]]  # the players the server offers beside the kinds


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


def event_json(game: TreeGame, event: TraceEvent, index: dict[Path, int],
               seen: set[Path], windowed: bool) -> dict[str, Any]:
    """One step: a node entered (with the window passed down) or a node returning."""
    path: Path = event.state
    node = game.node(path)
    enter = event.kind == "enter"
    pruned = [] if enter else [index[kid] for kid in kids(path, node) if kid not in seen]
    return {
        "kind": event.kind,
        "node": index[path],
        "path": list(path),
        "label": node.label,
        "value": None if enter else fmt(event.value),
        "alpha": fmt(event.alpha) if windowed else None,
        "beta": fmt(event.beta) if windowed else None,
        "pruned": pruned,
        "reason": cut_reason(game.is_maxs_turn(path), event) if pruned else None,
    }


def trace_summary(events: list[dict[str, Any]], hits: int | None = None) -> str:
    """What a tree search's steps show, in a line: nodes entered and returned, cuts."""
    entered = sum(e["kind"] == "enter" for e in events)
    returned = len(events) - entered
    cuts = [e for e in events if e["pruned"]]
    pruned = sum(len(e["pruned"]) for e in cuts)
    text = f"{entered} inner nodes entered, {returned} nodes returned, "
    text += (f"{len(cuts)} cut{'s' * (len(cuts) != 1)} pruning {pruned} children" if cuts
             else "nothing pruned")
    return text + ("" if not hits else f", {hits} table hits")


def algorithm_of(body: dict[str, Any]) -> str:
    """The request's "algorithm" (default alpha-beta), one of ALGORITHMS."""
    algorithm = body.get("algorithm", "alphabeta")
    if not isinstance(algorithm, str) or algorithm not in (*ALGORITHMS, "mcts"):
        raise InputError(f"algorithm must be one of {', '.join(ALGORITHMS)}, mcts")
    return str(algorithm)


def flag(body: dict[str, Any], key: str) -> bool:
    """The request's true/false setting `key` (default false)."""
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise InputError(f"{key} must be true or false")
    return value


def explain_json(body: dict[str, Any], players: Players = lambda spec: []) -> dict[str, Any]:
    """The answer of POST /api/explain {tree, algorithm?, min_first?} (`players`: those
    the server offers for a game, which may guide MCTS, see mcts_json)."""
    if algorithm_of(body) == "mcts":
        return mcts_json(body, players)
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
    result, steps = trace_steps(game, algorithm)
    seen = {e.state for e in steps if e.kind == "exit"}
    windowed = algorithm == "alphabeta"
    events = [event_json(game, e, index, seen, windowed) for e in steps]
    return {
        "algorithm": algorithm,
        "value": fmt(result.value),
        "best": None if result.action is None else game.label((result.action,)),
        "counts": counts,
        "nodes": nodes,
        # in the order the search went: inner nodes entered, every node returning
        "events": events,
        "summary": {"effort": f"{result.stats.nodes:,} nodes examined",
                    "trace": trace_summary(events)},
    }


@dataclass
class Probe:
    """What the table answered for the inner node the search has just entered."""

    entry: Entry | None


class WatchedTable(TranspositionTable):
    """A transposition table that logs each probe's answer into the search's event log."""

    def __init__(self, log: list[TraceEvent | Probe]) -> None:
        super().__init__()
        self.log = log

    def probe(self, key: Hashable, remaining: int | None) -> Entry | None:
        entry = super().probe(key, remaining)
        self.log.append(Probe(entry))
        return entry


@dataclass
class Visit:
    """A node the game search examined: its entry (None for a leaf, which is not
    entered), its exit, the children it searched and what the table had for it (None:
    no usable entry, or no table)."""

    enter: TraceEvent | None
    event: TraceEvent | None = None
    kids: list[Visit] = field(default_factory=list)
    entry: Entry | None = None

    @property
    def window(self) -> tuple[float, float]:
        """The window passed down to the node."""
        return (-math.inf, math.inf) if self.enter is None else (self.enter.alpha,
                                                                self.enter.beta)


def visits(log: list[TraceEvent | Probe]) -> Visit:
    """The searched tree, rebuilt from the log of entries, probes and exits: a probe
    belongs to the node just entered, an exit one ply below the innermost open node is
    a leaf of it, and one at its depth closes it."""
    stack: list[Visit] = []  # the inner nodes entered and not yet returned
    root: Visit | None = None
    for item in log:
        if isinstance(item, Probe):
            stack[-1].entry = item.entry
        elif item.kind == "enter":
            visit = Visit(item)
            if stack:
                stack[-1].kids.append(visit)
            stack.append(visit)
        elif stack and stack[-1].enter is not None and stack[-1].enter.depth == item.depth:
            root = stack.pop()
            root.event = item
        else:
            leaf = Visit(None, item)
            if stack:
                stack[-1].kids.append(leaf)
            else:
                root = leaf
    assert root is not None and not stack, "the log holds one whole search"
    return root


BOUNDS = {Bound.EXACT: "exact", Bound.LOWER: "lower", Bound.UPPER: "upper"}


def table_json(visit: Visit, number: Callable[[float], str]) -> dict[str, Any] | None:
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
    return {"bound": BOUNDS[Bound(bound)], "value": number(value), "effect": effect,
            "window": [number(alpha), number(beta)],
            "narrowed": [number(after[0]), number(after[1])]}


def play_moves(game: AnyGame, text: str) -> Any:
    """The position after the moves `text` (written as in play) from the start."""
    return replay(game, game.initial_state(), text.split())


def game_search(game: AnyGame, state: Any, algorithm: str, depth: int,
                table: bool) -> tuple[SearchResult, list[TraceEvent | Probe]]:
    log: list[TraceEvent | Probe] = []
    if algorithm == "minimax":
        return minimax.analyse(game, state, Limit(depth=depth), tracer=log.append,
                               trace_entries=True), log
    tt = WatchedTable(log) if table else None
    return alphabeta.analyse(game, state, Limit(depth=depth), table=tt, tracer=log.append,
                             trace_entries=True), log


def number_of(game: AnyGame) -> Callable[[float], str]:
    """The game's own number format (a decided value as it is, an estimate to three
    decimals), for values and windows alike."""
    return lambda v: format_number(v, decided=game.values.decides(v))


def game_nodes(game: AnyGame, root: Visit, depth: int,
               windowed: bool) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The nodes in pre-order (the searched ones and the children cut off) and the
    steps in the order the search went (inner nodes entered, every node returning)."""
    nodes: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    number = number_of(game)

    def role(state: Any, ply: int) -> str:
        if ply == depth or game.is_terminal(state):
            return "leaf"
        return "max" if game.is_maxs_turn(state) else "min"

    def add(path: list[int], label: str, state: Any, value: str | None) -> int:
        nodes.append({"path": path, "label": label, "role": role(state, len(path)),
                      "value": value, "children": []})
        return len(nodes) - 1

    def window(e: TraceEvent) -> dict[str, str | None]:
        return {"alpha": number(e.alpha) if windowed else None,
                "beta": number(e.beta) if windowed else None}

    def walk(visit: Visit, path: list[int], label: str) -> int:
        assert visit.event is not None
        e = visit.event
        i = add(path, label, e.state, None)
        if visit.enter is not None:
            events.append({"kind": "enter", "node": i, "path": path, "label": label,
                           "value": None, **window(visit.enter), "pruned": [],
                           "reason": None, "table": None})
        for k, kid in enumerate(visit.kids):
            assert kid.event is not None
            text = game.format_move(kid.event.action)
            name = text if not path else f"{label} {text}"
            nodes[i]["children"].append(walk(kid, [*path, k], name))
        inner = nodes[i]["role"] != "leaf"
        pruned: list[int] = []
        if inner and visit.kids:
            searched = [kid.event.action for kid in visit.kids if kid.event is not None]
            for a in game.actions(e.state):
                if a not in searched:
                    k = len(nodes[i]["children"])
                    text = game.format_move(a)
                    cut = add([*path, k], text if not path else f"{label} {text}",
                              game.result(e.state, a), None)
                    nodes[i]["children"].append(cut)
                    pruned.append(cut)
        events.append({
            "kind": "exit", "node": i, "path": path, "label": label, "value": number(e.value),
            **window(e),
            "pruned": pruned,
            "reason": cut_reason(game.is_maxs_turn(e.state), e, number) if pruned else None,
            "table": table_json(visit, number),
        })
        return i

    walk(root, [], "start")
    return nodes, events


def table_note(game: AnyGame, state: Any, depth: int, hits: int) -> str | None:
    """Why a search with the table had no hit, and where it would have some."""
    if hits:
        return None
    why = (f"No table hits: within {depth} plies from here no inner node is reached twice "
           "by different move orders (the same position comes back 3 plies down at the "
           "soonest, one side's two moves played the other way round, and leaves are not "
           "looked up: 4 plies at least)")
    for deeper in range(depth + 1, MAX_DEPTH + 1):
        if not minimax_search(game, state, deeper, stop=Stop(nodes=MAX_GAME_NODES)).complete:
            break  # too big for the page from here on
        found = game_search(game, state, "alphabeta", deeper, True)[0].stats.table_hits
        if found:
            return f"{why}. At depth {deeper} this position has {found}: try it."
    return (f"{why}, nor within any depth this page searches from this position. "
            "Try a position with more moves left, or a game whose moves can be played "
            "in another order.")


def game_json(body: dict[str, Any]) -> dict[str, Any]:
    """The answer of POST /api/explain {game, moves?, depth, algorithm?, table?}."""
    name = body.get("game")
    if not isinstance(name, str):
        raise InputError("name a game: {\"game\": \"tictactoe\"}")
    spec = get_game(name)
    moves = body.get("moves", "")
    if not isinstance(moves, str):
        raise InputError("moves must be text, e.g. \"1 5\"")
    depth = whole(body, "depth", 2, 1, MAX_DEPTH)
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
    nodes, steps = game_nodes(game, visits(log), depth, algorithm == "alphabeta")
    hits = counts["alphabeta"]["table_hits"]
    return {
        "algorithm": algorithm,
        "value": format_value(game, result.value, decided=result.decided),
        "best": None if result.action is None else game.format_move(result.action),
        "counts": counts,
        "table_note": table_note(game, state, depth, hits) if table else None,
        "lazy": True,
        "nodes": nodes,
        "events": steps,
        "summary": {"effort": f"{result.stats.nodes:,} nodes examined",
                    "trace": trace_summary(steps, result.stats.table_hits)},
    }


def whole(body: dict[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    """The request's whole number `key` within [lo, hi]."""
    return int(json_number(body.get(key, default), key, lo=lo, hi=hi, whole=True))


def position_of(body: dict[str, Any]) -> tuple[AnyGame, Any, Callable[[tuple[Any, ...]], str]]:
    """The game, the position and how a node is named (by its path of moves): a pasted
    tree (its labels) or a game's position after `moves` (the moves to the node; the
    root "start")."""
    if "game" in body:
        name = body.get("game")
        if not isinstance(name, str):
            raise InputError("name a game: {\"game\": \"tictactoe\"}")
        game = get_game(name).create()
        moves = body.get("moves", "")
        if not isinstance(moves, str):
            raise InputError("moves must be text, e.g. \"1 5\"")
        return game, play_moves(game, moves), lambda path: " ".join(
            game.format_move(a) for a in path) or "start"
    text = body.get("tree")
    if not isinstance(text, str) or not text.strip():
        raise InputError("give the tree as text: {\"tree\": \"A[B[3 12 8] C[2 4 6]]\"}")
    tree = TreeGame.from_text(text, max_first=not flag(body, "min_first"))
    if len(tree.paths()) > MAX_NODES:
        raise InputError(f"tree: {len(tree.paths()):,} nodes; this page draws at most "
                         f"{MAX_NODES:,}")
    return tree, tree.initial_state(), lambda path: tree.label(tuple(path))


def below(path: tuple[Any, ...], action: Any) -> tuple[Any, ...]:
    """The path to the child reached by `action`."""
    return (*path, action)


def fmt_prior(p: float | None) -> str | None:
    """A network's prior as the page shows it (the root has none)."""
    return None if p is None else f"{p:.3f}"


def guide_of(body: dict[str, Any], players: Players) -> Any:
    """The learned player guiding the search, if the request names one (`player`): it
    must be one the server offers for the game (a training run's `learned:FILE`, never
    a file the page names), and a policy-value network (alphazero), searched by its own
    PUCT. None for MCTS's random playouts."""
    player = body.get("player")
    if player is None:
        return None
    name = body.get("game")
    if not isinstance(player, str) or not isinstance(name, str):
        raise InputError("player: name a learned player offered for a game position")
    spec = get_game(name)
    if player not in players(spec):
        raise InputError(f"player {shown(player, 60)} is not offered here for {spec.name} "
                         "(zerosum serve --train FILE offers a run's weights)")
    agent = agent_from_spec(spec, player)
    if not hasattr(agent, "puct"):
        raise InputError(f"player {shown(player, 60)} is not a learned player")
    return agent


def mcts_json(body: dict[str, Any], players: Players = lambda spec: []) -> dict[str, Any]:
    """The answer of POST /api/explain {algorithm: "mcts", game and moves or tree,
    simulations?, seed?, player?}: MCTS's tree as it ended (nodes in pre-order, each with
    the simulation that added it) and each simulation's four steps, from the search's
    own tracer (zerosum.search.mcts.Simulation). A game whose values are a score (a
    tree's leaves) is searched with its utilities' range as the reward scale.

    With `player` (a learned policy-value network the server offers, see guide_of) the
    search is that network's PUCT, traced in the same terms (no playout: the leaf's
    value is the network's), and each node and move also shows its prior P and its Q
    (`guide` says whose search it is)."""
    game, state, name = position_of(body)
    simulations = whole(body, "simulations", 50, *MCTS_SIMULATIONS)
    seed = whole(body, "seed", 1, 0, 2**31 - 1)
    if game.is_terminal(state):
        raise InputError("the game is already over in this position: nothing to search")
    agent = guide_of(body, players)
    sims: list[Simulation] = []
    if agent is None:
        values = game.values
        bounds = ((values.lo, values.hi) if values.kind == "score" and values.lo < values.hi
                  and math.isfinite(values.hi - values.lo) else None)
        result = mcts_search(game, state, simulations=simulations, seconds=MCTS_SECONDS,
                             seed=seed, bounds=bounds, tracer=sims.append)
    else:
        result = agent.puct(game, state, simulations, Limit(seconds=MCTS_SECONDS),
                            tracer=sims.append)
    if result.stats.nodes < simulations and not result.decided:
        raise InputError(f"{simulations:,} simulations take over {MCTS_SECONDS:g} s here; "
                         "choose fewer")
    is_tree = isinstance(game, TreeGame)
    number = fmt if is_tree else number_of(game)

    def move(path: tuple[Any, ...]) -> str:
        """The move into the node at `path`, as the page names it."""
        return name(path) if is_tree else game.format_move(path[-1])

    def stats(options: tuple[MoveStats, ...], parent: tuple[Any, ...]) -> list[dict[str, Any]]:
        """Each move as the selection weighed it (PUCT weighs the moves not yet in the
        tree too: their node is None)."""
        return [{"node": index.get(below(parent, o.action)),
                 "move": move(below(parent, o.action)),
                 "visits": o.visits, "mean": number(o.mean),
                 "exploit": f"{o.uct_exploit:.3f}", "explore": f"{o.uct_explore:.3f}",
                 "score": f"{o.uct_exploit + o.uct_explore:.3f}",
                 "proven": None if o.proven is None else number(o.proven),
                 **({} if o.prior is None else {"prior": fmt_prior(o.prior)})} for o in options]

    # the tree: each node's children in the order they were added
    kids: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {(): []}
    added: dict[tuple[Any, ...], int] = {(): 0}
    for sim in sims:
        if sim.expanded is not None:
            kids[sim.expanded[:-1]].append(sim.expanded)
            kids[sim.expanded] = []
            added[sim.expanded] = sim.number
    priors: dict[tuple[Any, ...], float | None] = {}  # PUCT's: the network's, at the parent
    for sim in sims:
        parent: tuple[Any, ...] = ()
        for step in sim.selected:
            priors |= {below(parent, o.action): o.prior for o in step.options}
            parent = below(parent, step.chosen)
    nodes: list[dict[str, Any]] = []
    index: dict[tuple[Any, ...], int] = {}
    states: dict[tuple[Any, ...], Any] = {}
    todo: list[tuple[tuple[Any, ...], Any]] = [((), state)]
    while todo:  # pre-order, children in the order they were added
        path, s = todo.pop()
        index[path], states[path] = len(nodes), s
        role = ("leaf" if game.is_terminal(s) else "max" if game.is_maxs_turn(s) else "min")
        nodes.append({"path": [], "label": name(path),
                      "short": move(path) if path else name(path),
                      "role": role, "added": added[path], "children": [], "at": path,
                      **({} if agent is None else {"prior": fmt_prior(priors.get(path))})})
        todo.extend((kid, game.result(s, kid[-1])) for kid in reversed(kids[path]))
    for node in nodes:
        path = node.pop("at")
        node["children"] = [index[kid] for kid in kids[path]]
        node["path"] = [kids[path[:i]].index(path[: i + 1]) for i in range(len(path))]

    def ended(sim: Simulation, at: tuple[Any, ...]) -> str:
        """How the simulation's playout ended (from a proven node: its value); under
        PUCT, the network's value of the leaf (Max's side) or the game's end."""
        s = states[at]
        for action in sim.playout:
            s = game.result(s, action)
        words = "" if is_tree or not game.is_terminal(s) else game.outcome(s)
        if agent is not None:
            return words or f"{sim.utility:+.3f}"
        return number(sim.utility) + (f" ({words})" if words else "")

    def playout(sim: Simulation, at: tuple[Any, ...]) -> list[str]:
        path = list(at)
        for action in sim.playout:
            path.append(action)
        return [move(tuple(path[: len(at) + i + 1])) for i in range(len(sim.playout))]

    events = []
    for sim in sims:
        at = sim.expanded if sim.expanded is not None else (
            tuple(step.chosen for step in sim.selected))
        selection = []
        parent = ()
        for step in sim.selected:
            selection.append({"node": index[parent], "chosen": index[below(parent, step.chosen)],
                              "options": stats(step.options, parent)})
            parent = (*parent, step.chosen)
        events.append({
            "kind": "simulation", "number": sim.number, "node": index[at],
            "path": [index[at[:i]] for i in range(len(at) + 1)],
            "selection": selection,
            "expanded": None if sim.expanded is None else index[sim.expanded],
            "playout": playout(sim, at),
            "result": ended(sim, at), "reward": f"{sim.reward:.3f}",
            "updates": [{"node": index[u.path], "visits": u.visits,
                         "reward": f"{u.reward:g}", "mean": f"{u.reward / u.visits:.3f}",
                         "proven": None if u.proven is None else number(u.proven),
                         **({} if agent is None else
                            {"q": f"{2 * u.reward / u.visits - 1:+.3f}"})}
                        for u in sim.updates],
            "root_moves": stats(sim.root_moves, ()),
        })
    best = None if result.action is None else move((result.action,))
    value = (fmt(result.value) + ("" if result.decided else " (estimate)") if is_tree
             else format_value(game, result.value, decided=result.decided))
    proven = len({u.path for sim in sims for u in sim.updates if u.proven is not None})
    depth = max(len(n["path"]) for n in nodes)
    guide = None
    if agent is not None:
        settings = agent.learner(game).settings
        guide = {"player": body["player"], "name": agent.name, "c_puct": settings.c_puct,
                 "leaves": settings.leaves}
    return {
        "algorithm": "mcts",
        "value": value,
        "best": best,
        "counts": {"mcts": {"simulations": result.stats.nodes, "tree_nodes": len(nodes),
                            "tree_depth": depth}},
        "seed": seed,
        "guide": guide,
        "nodes": nodes,
        "events": events,
        "summary": {
            "effort": f"{result.stats.nodes:,} simulations",
            "trace": (f"a tree of {len(nodes):,} nodes {depth} deep, "
                      + (f"{proven} proven by the solver" if agent is None else
                         f"{proven} finished games reached")
                      + ("; the root proven" if result.decided else "")
                      + (f"; {best} visited {result.details['visits'][result.action]} "
                         f"times of {result.stats.nodes}" if best is not None else "")),
        },
    }


def position_json(body: dict[str, Any]) -> dict[str, Any]:
    """The answer of POST /api/explain/position {game, moves}: the drawing of a node's
    position (web/views.py, as the play page draws it) and its text, so the page shows
    the board of the node a step is at, as the notebook's explainer does."""
    name = body.get("game")
    if not isinstance(name, str):
        raise InputError("name a game: {\"game\": \"tictactoe\"}")
    moves = body.get("moves", "")
    if not isinstance(moves, str):
        raise InputError("moves must be text, e.g. \"1 5\"")
    spec = get_game(name)
    game = spec.create()
    words = moves.split()
    before = play_moves(game, " ".join(words[:-1]))  # each move checked, named if wrong
    state, last = before, None
    if words:
        state = play_moves(game, moves)
        last = game.parse_move(before, words[-1])
    return {"view": view_of(spec, game, state, last), "text": game.render(state)}


def explain_routes(read_body: BodyReader, players: Players = lambda spec: []
                   ) -> list[BaseRoute]:
    """The page and its API; `read_body` is the app's bounded JSON body reader,
    `players` the players the server offers for a game beside the catalogue's kinds
    (a training run's weights: their PUCT search may be explained)."""

    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE.read_text(encoding="utf-8"))

    async def explain(request: Request) -> Response:
        return JSONResponse(explain_json(await read_body(request), players))

    async def position(request: Request) -> Response:
        return JSONResponse(position_json(await read_body(request)))

    return [Route("/explain", page), Route("/api/explain", explain, methods=["POST"]),
            Route("/api/explain/position", position, methods=["POST"])]
