"""Explain views: what a search did at every node, built from its tracer events.

`zerosum tree --explain` shows each node once, as it returned (pre-order, indented by
depth); `--steps` shows the search as it went: each inner node entered with the window
passed down, each node returning with its value and final window, each cut and why."""

from __future__ import annotations

import math
from collections.abc import Callable
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


def cut_reason(maxs_turn: bool, event: TraceEvent, number: Callable[[float], str] = fmt) -> str:
    """Why a node stopped searching its children: the textbook's two tests."""
    if maxs_turn:
        return f"value {number(event.value)} >= beta {number(event.beta)} at a Max node"
    return f"value {number(event.value)} <= alpha {number(event.alpha)} at a Min node"


def trace_steps(game: TreeGame, algorithm: str) -> tuple[SearchResult, list[TraceEvent]]:
    """Search the whole tree, recording every event in order: inner nodes' entries and
    every node's exit."""
    events: list[TraceEvent] = []
    search: Any = alphabeta_search if algorithm == "alphabeta" else minimax_search
    result = search(game, game.initial_state(), tracer=events.append, trace_entries=True)
    return result, events


def trace_tree(game: TreeGame, algorithm: str) -> tuple[SearchResult, dict[Path, TraceEvent]]:
    """Search the whole tree, recording each node's returning event by its path."""
    result, events = trace_steps(game, algorithm)
    return result, {e.state: e for e in events if e.kind == "exit"}


def explain_tree(game: TreeGame, algorithm: str, explain: bool = True,
                 steps: bool = False) -> str:
    """A report of the search over an explicit tree: the value, the best move, nodes
    examined and, with `explain`, every node (pre-order, indented by depth) with its value,
    its final alpha and beta (inner nodes, alpha-beta), and the children it pruned; with
    `steps`, the search step by step instead (see steps_text)."""
    result, events = trace_tree(game, algorithm)
    lines = [
        f"algorithm: {algorithm}",
        f"value: {fmt(result.value)}",
        f"best move: {game.label((result.action,)) if result.action is not None else '-'}",
        f"principal variation: {' '.join(game.label(tuple(result.pv[: i + 1])) for i in range(len(result.pv))) or '-'}",  # noqa: E501
        f"nodes examined: {result.stats.nodes}",
        f"leaves evaluated: {result.stats.evaluated}",
    ]
    if steps:
        return "\n".join([*lines, "", *steps_text(game, algorithm)]) + "\n"
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


def steps_text(game: TreeGame, algorithm: str) -> list[str]:
    """The search in the order it went, a line an event, indented by depth: an inner node
    entered with the window passed down (alpha-beta), a node returning with its value
    (an inner node: its final window and the children it cut off, with the test that cut
    them), e.g. "  C [min] enters with alpha 3 beta +inf"."""
    _, events = trace_steps(game, algorithm)
    returned = {e.state for e in events if e.kind == "exit"}
    lines = []
    for number, e in enumerate(events, 1):
        path: Path = e.state
        node = game.node(path)
        role = "leaf" if node.is_leaf else ("max" if game.is_maxs_turn(path) else "min")
        text = f"{number:>3}  {'  ' * len(path)}{node.label} [{role}]"
        window = f"  alpha {fmt(e.alpha)} beta {fmt(e.beta)}" if algorithm == "alphabeta" else ""
        if e.kind == "enter":
            lines.append(f"{text} enters{window}")
            continue
        if node.is_leaf:
            lines.append(f"{text} value {fmt(e.value)}")
            continue
        text += f" returns {fmt(e.value)}{window}"
        skipped = [game.label((*path, i)) for i in range(len(node.children))
                   if (*path, i) not in returned]
        if skipped:
            text += f"  pruned: {', '.join(skipped)} ({cut_reason(game.is_maxs_turn(path), e)})"
        lines.append(text)
    return lines
