"""Explain views: what a search did at every node, built from its tracer events."""

from __future__ import annotations

import math
from typing import Any

from zerosum.games.tree import Path, TreeGame
from zerosum.result import SearchResult, TraceEvent
from zerosum.search import alphabeta_search, minimax_search


def fmt(x: float) -> str:
    if x == math.inf:
        return "+inf"
    if x == -math.inf:
        return "-inf"
    return f"{x + 0.0:g}"  # + 0.0: a negated 0 is shown as 0, not -0


def trace_tree(game: TreeGame, algorithm: str) -> tuple[SearchResult, dict[Path, TraceEvent]]:
    """Search the whole tree, recording each node's returning event by its path."""
    events: dict[Path, TraceEvent] = {}

    def tracer(event: TraceEvent) -> None:
        events[event.state] = event

    search: Any = alphabeta_search if algorithm == "alphabeta" else minimax_search
    result = search(game, game.initial_state(), tracer=tracer)
    return result, events


def explain_tree(game: TreeGame, algorithm: str, explain: bool = True) -> str:
    """A report of the search over an explicit tree: the value, the best move, nodes
    examined and, with `explain`, every node (pre-order, indented by depth) with its value,
    its final alpha and beta (inner nodes, alpha-beta), and the children it pruned."""
    result, events = trace_tree(game, algorithm)
    lines = [
        f"algorithm: {algorithm}",
        f"value: {fmt(result.value)}",
        f"best move: {game.label((result.action,)) if result.action is not None else '-'}",
        f"principal variation: {' '.join(game.label(tuple(result.pv[: i + 1])) for i in range(len(result.pv))) or '-'}",  # noqa: E501
        f"nodes examined: {result.stats.nodes}",
        f"leaves evaluated: {result.stats.evaluated}",
    ]
    if not explain:
        return "\n".join(lines) + "\n"
    lines.append("")
    pruned_total = 0
    for path in game.paths():
        node = game.node(path)
        indent = "  " * len(path)
        event = events.get(path)
        if event is None:
            continue  # shown as pruned under its parent
        role = "leaf" if node.is_leaf else ("max" if game.is_maxs_turn(path) else "min")
        text = f"{indent}{node.label} [{role}] value {fmt(event.value)}"
        if not node.is_leaf and algorithm == "alphabeta":
            text += f"  alpha {fmt(event.alpha)} beta {fmt(event.beta)}"
        skipped = [
            game.label((*path, i))
            for i in range(len(node.children))
            if (*path, i) not in events
        ]
        if skipped:
            pruned_total += len(skipped)
            text += f"  pruned: {', '.join(skipped)}"
        lines.append(text)
    lines.append("")
    lines.append(f"branches pruned: {pruned_total}")
    return "\n".join(lines) + "\n"
