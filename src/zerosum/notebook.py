"""Rich display in notebooks (Jupyter, VS Code, Colab): a position's board drawn as the
page draws it, a game's move list, a search result as a table, an explain trace as a
tree. Nothing here needs more than the standard library.

Game states are plain ints and tuples (fast to search) that do not know their game, so
a state is shown with its game: `show(game, state)`, or a `Position` (a game and the
moves played, which plays on with `.play("5")`). `show(game, x)` shows anything: a
state, a list of moves (from the start), a SearchResult, a trace (TraceEvents). A
SearchResult shown alone is a table too (SearchResult._repr_html_), with its moves as
Python writes them.

A board is drawn from its view, the plain JSON a game declares for the page (its
registration's `view(game, state, last)`, or the `view=` given here for a game of your
own), by zerosum.svg: the notebook and the page draw the same thing. A game without a
view shows its text rendering.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from zerosum.game import AnyGame, format_value, play_line
from zerosum.games.registry import GameSpec, all_games
from zerosum.result import SearchResult, TraceEvent, html_table
from zerosum.review import DEFAULT_BUDGET, Valuer, review
from zerosum.svg import board_svg, pv_marks

ViewFunction = Callable[[Any, Any, Any], dict[str, Any]]


def spec_of(game: AnyGame) -> GameSpec | None:
    """The registration of a game of the package (by its `name`), or None."""
    name = getattr(game, "name", None)
    return next((spec for spec in all_games() if spec.name == name), None)


def view_function(game: AnyGame) -> ViewFunction | None:
    """The drawing a game's registration declares, if any."""
    spec = spec_of(game)
    return None if spec is None else spec.view


def view_of(game: AnyGame, state: Any, last: Any = None,
            view: ViewFunction | None = None) -> dict[str, Any]:
    """The view of `state` (`last` the move that led to it): `view`, else the game's
    declared drawing, else its text."""
    draw = view or view_function(game)
    if draw is None:
        return {"kind": "text", "text": game.render(state)}
    return draw(game, state, last)


def mover(game: AnyGame, state: Any) -> str:
    return game.players[0] if game.is_maxs_turn(state) else game.players[1]


@dataclass
class Board:
    """A state drawn as on the page; `pv` (moves) marked as the page marks a search's
    principal variation."""

    game: AnyGame
    state: Any
    last: Any = None
    pv: Sequence[Any] = ()
    view: ViewFunction | None = None

    def svg(self) -> str:
        drawn = view_of(self.game, self.state, self.last, self.view)
        first = 0 if self.game.is_maxs_turn(self.state) else 1
        marks = [] if drawn["kind"] == "text" else pv_marks(
            self.view or view_function(self.game), self.game, self.state, self.pv)
        return board_svg(drawn, marks, first, title=f"{type(self.game).__name__} board")

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        return self.game.render(self.state)


@dataclass
class MoveList:
    """The moves of a game from `states[0]`, each with who made it and, where known,
    the value after it and what it did (zerosum.review)."""

    game: AnyGame
    states: list[Any]
    actions: list[Any]
    values: list[str] | None = None  # the value after each move, in words
    verdicts: list[str | None] | None = None

    def rows(self) -> list[tuple[str, str, str, str]]:
        out = []
        for i, action in enumerate(self.actions):
            value = self.values[i] if self.values else ""
            verdict = (self.verdicts[i] if self.verdicts else None) or ""
            out.append((f"{i + 1}.", mover(self.game, self.states[i]),
                        self.game.format_move(action), f"{value} {verdict}".strip()))
        return out

    def _repr_html_(self) -> str:
        head = "<tr><th></th><th>player</th><th>move</th><th>value</th><th></th></tr>"
        body = []
        for i, (number, who, move, _) in enumerate(self.rows()):
            value = self.values[i] if self.values else ""
            verdict = (self.verdicts[i] if self.verdicts else None) or ""
            cells = [escape(number), escape(who), escape(move), escape(value),
                     f"<b style='color:#b00020'>{escape(verdict)}</b>" if verdict else ""]
            body.append("<tr>" + "".join(f"<td style='text-align:left'>{c}</td>"
                                         for c in cells) + "</tr>")
        return f"<table class='zerosum-moves'>{head}{''.join(body)}</table>"

    def __repr__(self) -> str:
        return " ".join(self.game.format_move(a) for a in self.actions)


@dataclass
class Position:
    """A game and the moves played from its start: shows its board (the last move
    marked) beside its move list; `play` returns the position after more moves."""

    game: AnyGame
    actions: list[Any] = field(default_factory=list)
    view: ViewFunction | None = None
    start: Any = None

    def __post_init__(self) -> None:
        if self.start is None:
            self.start = self.game.initial_state()
        self.states = [self.start]
        for a in self.actions:
            self.states.append(self.game.result(self.states[-1], a))

    @property
    def state(self) -> Any:
        return self.states[-1]

    def play(self, *moves: str) -> Position:
        """The position after `moves`, typed as in `zerosum play` (InputError names an
        illegal one)."""
        played = play_line(self.game, self.state, moves)[1]
        return Position(self.game, [*self.actions, *played], self.view, self.start)

    def review(self, budget: int = DEFAULT_BUDGET, depth: int = 4) -> MoveList:
        """The move list with the value after each move and the moves that changed the
        game's value, as `zerosum review` finds them (exact within `budget`, else
        estimates at `depth`)."""
        spec = spec_of(self.game) or GameSpec(getattr(self.game, "name", "game"),
                                              type(self.game).__name__, lambda: self.game)
        values = Valuer(spec, self.game, budget, depth).all(self.states)
        texts = [self.game.format_move(a) for a in self.actions]
        reviewed = review(self.game, self.states, texts, values)
        return MoveList(self.game, self.states, self.actions,
                        [r.value_text(self.game) for r in reviewed],
                        [r.verdict for r in reviewed])

    def board(self, pv: Sequence[Any] = ()) -> Board:
        last = self.actions[-1] if self.actions else None
        return Board(self.game, self.state, last, pv, self.view)

    def moves(self) -> MoveList:
        return MoveList(self.game, self.states, self.actions)

    def _repr_html_(self) -> str:
        status = (self.game.outcome(self.state) if self.game.is_terminal(self.state)
                  else f"{mover(self.game, self.state)} to move")
        return ("<div class='zerosum-position' style='display:flex;gap:1.5em;"
                f"align-items:flex-start'><div>{self.board().svg()}<p>{escape(status)}</p>"
                f"</div><div>{self.moves()._repr_html_()}</div></div>")

    def __repr__(self) -> str:
        return self.game.render(self.state)


@dataclass
class ResultTable:
    """A search result in the game's words: value, best move, PV, effort."""

    game: AnyGame
    result: SearchResult

    def rows(self) -> list[tuple[str, str]]:
        r = self.result
        value = format_value(self.game, r.value, decided=r.decided, plies=r.plies)
        return r.rows(self.game.format_move, value)

    def _repr_html_(self) -> str:
        return html_table(self.rows())

    def __repr__(self) -> str:
        return "\n".join(f"{label}: {text}" for label, text in self.rows())


@dataclass
class Node:
    """A node of a traced search, rebuilt from the post-order events."""

    event: TraceEvent
    children: list[Node] = field(default_factory=list)


def trace_tree(events: Sequence[TraceEvent]) -> Node | None:
    """The search tree of a trace: events come in post-order (a node after its
    children), so each node adopts the waiting nodes one ply below it."""
    waiting: dict[int, list[Node]] = {}
    root = None
    for e in events:
        node = Node(e, waiting.pop(e.depth + 1, []))
        waiting.setdefault(e.depth, []).append(node)
        root = node
    return root


@dataclass
class TraceTable:
    """An explain trace (zerosum.result.TraceEvent, as a tracer receives them) as a
    tree: each node under its parent, with its value, final window and cutoff."""

    game: AnyGame
    events: Sequence[TraceEvent]

    def rows(self) -> list[tuple[int, str, str, str, str, str]]:
        out: list[tuple[int, str, str, str, str, str]] = []

        def walk(node: Node) -> None:
            e = node.event
            move = "root" if e.action is None else self.game.format_move(e.action)
            out.append((e.depth, move, f"{e.value:g}", f"{e.alpha:g}", f"{e.beta:g}",
                        "pruned the rest" if e.pruned else ""))
            for child in node.children:
                walk(child)

        root = trace_tree(self.events)
        if root is not None:
            walk(root)
        return out

    def _repr_html_(self) -> str:
        head = ("<tr><th style='text-align:left'>move</th><th>value</th><th>alpha</th>"
                "<th>beta</th><th></th></tr>")
        body = "".join(
            f"<tr><td style='text-align:left;padding-left:{1.2 * depth:.1f}em'>"
            f"{escape(move)}</td><td>{value}</td><td>{alpha}</td><td>{beta}</td>"
            f"<td>{escape(cut)}</td></tr>"
            for depth, move, value, alpha, beta, cut in self.rows())
        return f"<table class='zerosum-trace'>{head}{body}</table>"

    def __repr__(self) -> str:
        return "\n".join(f"{'  ' * d}{move}: {value} [{alpha}, {beta}] {cut}".rstrip()
                         for d, move, value, alpha, beta, cut in self.rows())


def show(game: AnyGame, thing: Any, **options: Any) -> Any:
    """`thing` of `game` as a notebook displays it: a SearchResult as a table, a trace
    (a list of TraceEvents) as a tree, a list of moves as the position they reach with
    its move list, anything else as a state's board (`options`: `last`, `pv`, `view`)."""
    if isinstance(thing, SearchResult):
        return ResultTable(game, thing)
    if isinstance(thing, (list, tuple)) and thing and all(
            isinstance(e, TraceEvent) for e in thing):
        return TraceTable(game, thing)
    if isinstance(thing, list):
        return Position(game, list(thing), **options)
    return Board(game, thing, **options)
