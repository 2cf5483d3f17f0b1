"""An interactive board for notebooks (Jupyter, VS Code, Colab): play a game, watch a
search stream its Info, step through an alpha-beta explanation. It needs the `notebook`
extra (anywidget), imported only when a widget is made.

    from zerosum.widget import widget
    widget("connect4")                       # or widget(my_game, view=my_view)

`Controller` is the widget without the notebook: the position, the messages the front
end sends (each checked: its type, its fields, and the move by the game itself) and the
state the front end draws (`snapshot`), so it is tested without a browser. The front end
is web/static/widget.js with the page's board module, web/static/board.js, joined into
the one ES module anywidget loads (`bundle`), coloured by the page's board.css: one
drawing for the page and the notebook.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zerosum.convert import brief, json_number, shown
from zerosum.extras import install_hint
from zerosum.game import AnyGame, InputError, format_value, side_to_move
from zerosum.games.registry import GameSpec, get_game
from zerosum.notebook import (
    Position,
    ViewFunction,
    mover,
    spec_of,
    trace_tree,
    view_function,
    view_of,
)
from zerosum.players.agents import playable
from zerosum.players.catalogue import Choice, kind_of, names_for
from zerosum.result import Info, SearchResult, TraceEvent
from zerosum.running import Running
from zerosum.search.alphabeta import alphabeta_search
from zerosum.svg import pv_marks

STATIC = Path(__file__).resolve().parent / "web" / "static"
MAX_STEPS = 20_000  # nodes of a trace one can step through; deeper: lower the depth
MAX_SECONDS = 3600.0


IMPORT = re.compile(r'^import \{([^}]*)\} from "(?:\./|/static/)([\w-]+\.js)";\n', re.M)
EXPORT = re.compile(r"^export (?:async )?(?:const|let|function|class) ([\w$]+)", re.M)


def bundle(entry: str = "widget.js") -> str:
    """The widget's front end as the one ES module anywidget loads: `entry` with the
    page's modules it imports (board.js, and what they import in turn) joined in, each
    in a scope of its own that hands over only its exports. The page loads the same
    files as they are (it needs no build step); this is the notebook's."""
    parts: list[str] = []
    done: set[str] = set()

    def joined(name: str, top: bool) -> None:
        code = (STATIC / name).read_text(encoding="utf-8")
        for match in IMPORT.finditer(code):
            if match.group(2) not in done:
                done.add(match.group(2))
                joined(match.group(2), False)
        # Each import becomes a destructuring of the module's scope.
        code = IMPORT.sub(lambda m: f"const {{ {names_of(m.group(1))} }} = "
                                    f"{scope(m.group(2))};\n", code)
        if top:
            parts.append(code)
            return
        names = EXPORT.findall(code)
        code = re.sub(r"^export (?=(?:async )?(?:const|let|function|class) )", "", code,
                      flags=re.M)
        parts.append(f"const {scope(name)} = (() => {{\n{code}\n"
                     f"return {{ {', '.join(names)} }};\n}})();\n")

    joined(entry, True)
    return "\n".join(parts)


def styles() -> str:
    """The widget's CSS: the page's board colours (board.css), light and dark."""
    return (STATIC / "board.css").read_text(encoding="utf-8")


def names_of(specifiers: str) -> str:
    """An import's `{ a, b as c }` as a destructuring's `a, b: c`."""
    return ", ".join(part.strip().replace(" as ", ": ") for part in specifiers.split(",")
                     if part.strip())


def scope(name: str) -> str:
    """The variable holding a joined module's exports: board.js -> module_board."""
    return "module_" + re.sub(r"\W", "_", name.removesuffix(".js"))


def field(message: dict[str, Any], name: str, kind: type, lo: float | None = None,
          hi: float | None = None) -> Any:
    """A message's field of the given type (and range), else InputError; numbers are
    checked as every request's are (convert.json_number)."""
    value: Any = message.get(name)
    if kind in (int, float):
        return json_number(value, name, lo=lo, hi=hi, whole=kind is int)
    if not isinstance(value, kind):
        what = {str: "text", bool: "true or false"}.get(kind, kind.__name__)
        raise InputError(f"{name} must be {what}, not {brief(value)}")
    return value


class Controller:
    """A game in a notebook: its position, a computer player thinking in a thread, an
    explanation to step through; `on_change` is told after every change."""

    def __init__(self, game: AnyGame, view: ViewFunction | None = None,
                 player: str = "alphabeta", depth: int = 4, seconds: float = 1.0,
                 on_change: Callable[[], None] | None = None) -> None:
        self.game = game
        self.spec = spec_of(game) or GameSpec(getattr(game, "name", "game"),
                                              type(game).__name__, lambda: game)
        self.position = Position(game, view=view)
        self.view = view
        self.players = names_for(self.spec)  # the one catalogue of players
        self.player, self.depth, self.seconds = player, depth, seconds
        self.on_change = on_change
        self.infos: list[dict[str, Any]] = []
        self.unit = "nodes"
        self.result = ""
        self.error = ""
        self.running: Running[SearchResult] | None = None
        self.idle_now = threading.Event()  # no search, or its move made
        self.idle_now.set()
        self.trace: list[tuple[TraceEvent, list[Any]]] = []
        self.step: dict[str, Any] = {}
        self.lock = threading.Lock()

    @property
    def thinking(self) -> bool:
        return not self.idle_now.is_set()

    def changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def snapshot(self) -> dict[str, Any]:
        """What the front end draws."""
        game, state = self.game, self.position.state
        over = game.is_terminal(state)
        last = self.position.actions[-1] if self.position.actions else None
        status = game.outcome(state) if over else (
            f"{mover(game, state)} (computer) is thinking…" if self.thinking
            else f"{mover(game, state)} to move")
        with self.lock:
            infos = list(self.infos)
        return {
            "title": self.spec.title, "view": view_of(game, state, last, self.view),
            "status": status, "over": over, "thinking": self.thinking,
            "moves": [game.format_move(a) for a in self.position.actions],
            "legal": [] if over else [game.format_move(a) for a in game.actions(state)],
            "first": 0 if game.is_maxs_turn(state) else 1,
            "players": self.players, "player": self.player, "depth": self.depth,
            "seconds": self.seconds, "infos": infos, "unit": self.unit,
            "result": self.result, "error": self.error,
            "steps": len(self.trace), "step": self.step,
        }

    def handle(self, message: Any) -> None:
        """One message from the front end; a bad one sets `error` (one line)."""
        self.error = ""
        try:
            if not isinstance(message, dict):
                raise InputError("a message is a JSON object")
            kind = message.get("type")
            actions: dict[str, Callable[[dict[str, Any]], None]] = {
                "move": self.move, "think": self.think, "stop": self.halt,
                "undo": self.undo, "explain": self.explain, "step": self.go_to}
            if kind not in actions:
                raise InputError(f"unknown message type {kind!r}"[:120])
            actions[kind](message)
        except InputError as e:
            self.error = str(e)
        self.changed()

    def idle(self) -> None:
        if self.thinking:
            raise InputError("the computer is thinking: stop it first")

    def move(self, message: dict[str, Any]) -> None:
        self.idle()
        self.position = self.position.play(field(message, "move", str))
        self.trace, self.step, self.infos, self.result = [], {}, [], ""

    def undo(self, message: dict[str, Any]) -> None:
        self.idle()
        if not self.position.actions:
            raise InputError("no move to take back")
        self.position = Position(self.game, self.position.actions[:-1], self.view,
                                 self.position.start)
        self.trace, self.step = [], {}

    def think(self, message: dict[str, Any]) -> None:
        """The chosen player searches in a thread, its Info streamed, then moves."""
        self.idle()
        if self.game.is_terminal(self.position.state):
            raise InputError(f"the game is over: {self.game.outcome(self.position.state)}")
        player = field(message, "player", str)
        if player not in self.players:  # a kind that takes a command has no place here
            raise InputError(f"unknown player {shown(player)} for {self.spec.name}; "
                             f"choose from {', '.join(self.players)}")
        kind = kind_of(self.spec, player)
        depth = field(message, "depth", int, 1, 99)
        seconds = field(message, "seconds", float, 0.01, MAX_SECONDS)
        self.player, self.depth, self.seconds = player, depth, seconds  # all checked
        # The depth for a player searching to a depth, the time for a timed one.
        choice = Choice(depth=depth if kind.fixed_depth else None,
                        seconds=seconds if kind.timed else None, seed=1)
        game, state = self.game, self.position.state
        self.infos, self.result, self.trace, self.step = [], "", [], {}
        side = side_to_move(game, state)  # the search's values are its side's, as shown

        def on_info(info: Info) -> None:
            with self.lock:
                self.unit = info.unit
                self.infos.append({
                    "depth": info.depth, "nodes": info.nodes, "elapsed": info.elapsed,
                    "value": format_value(game, info.value, decided=info.decided,
                                          plies=info.plies, side=side),
                    "pv": [game.format_move(a) for a in info.pv],
                    "marks": pv_marks(self.view or view_function(game), game, state, info.pv)})
            self.changed()

        def done(running: Running[SearchResult]) -> None:
            try:
                r = playable(game, state, running.result())
                text = game.format_move(r.action)
                value = format_value(game, r.value, decided=r.decided, plies=r.plies,
                                     side=side)
                self.result = (f"{player} played {text}: value {value}, "
                               f"{r.stats.nodes:,} {r.unit}, {r.stats.wall_time:.2f} s"
                               + ("" if r.complete else " (stopped)"))
                self.position = self.position.play(text)
            except Exception as e:  # shown, never lost in a thread
                self.error = f"{player}: {e}"
            finally:
                self.idle_now.set()
                self.changed()

        self.idle_now.clear()
        try:
            self.running = kind.start(self.spec, game, state, choice, on_info=on_info,
                                      on_done=done)
        except InputError:  # a kind that cannot analyse: nothing started
            self.idle_now.set()
            raise

    def halt(self, message: dict[str, Any]) -> None:
        if self.running is not None:
            self.running.stop()

    def wait(self, timeout: float = 60.0) -> None:
        """Until the computer's move is made (tests, and scripts driving the widget)."""
        self.idle_now.wait(timeout)

    def explain(self, message: dict[str, Any]) -> None:
        """Trace alpha-beta to `depth` from the position: each node as it returns (its
        value and final window), with the line of moves that leads to it."""
        self.idle()
        state = self.position.state
        if self.game.is_terminal(state):
            raise InputError(f"the game is over: {self.game.outcome(state)}")
        depth = field(message, "depth", int, 1, 99)
        events: list[TraceEvent] = []

        def tracer(e: TraceEvent) -> None:
            if len(events) >= MAX_STEPS:
                raise InputError(f"more than {MAX_STEPS:,} nodes at depth {depth}: "
                                 "explain a shallower search")
            events.append(e)

        alphabeta_search(self.game, state, depth, tracer=tracer)
        paths: dict[int, list[Any]] = {}

        def walk(node: Any, path: list[Any]) -> None:
            paths[id(node.event)] = path
            for child in node.children:
                walk(child, [*path, child.event.action])

        root = trace_tree(events)
        if root is not None:
            walk(root, [])
        self.trace = [(e, paths.get(id(e), [])) for e in events]
        self.go_to({"index": 0})

    def go_to(self, message: dict[str, Any]) -> None:
        if not self.trace:
            raise InputError("nothing to step through: explain a position first")
        index = field(message, "index", int, 0, len(self.trace) - 1)
        e, path = self.trace[index]
        line = " ".join(self.game.format_move(a) for a in path) or "the root"
        cut = ", the rest of its moves pruned" if e.pruned else ""
        self.step = {"index": index,
                     "text": f"{line}: value {number(e.value)}, window "
                             f"[{number(e.alpha)}, {number(e.beta)}]{cut}",
                     "view": view_of(self.game, e.state, e.action, self.view)}


def number(value: float) -> str:
    """A trace's value or window bound as format_value writes an estimate's number."""
    if value in (float("inf"), float("-inf")):
        return "+inf" if value > 0 else "-inf"
    text = f"{value:+.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("+0", "-0") else text


_CLASS: list[type] = []


def widget_class() -> type:
    """The anywidget class (made once, when anywidget is first needed)."""
    if _CLASS:
        return _CLASS[0]
    try:
        import anywidget
        import traitlets
    except ImportError:
        raise InputError("the notebook widget needs the notebook extra (anywidget): "
                         + install_hint("notebook")) from None

    class GameWidget(anywidget.AnyWidget):
        _esm = bundle()
        _css = styles()
        title = traitlets.Unicode("").tag(sync=True)
        view = traitlets.Dict().tag(sync=True)
        status = traitlets.Unicode("").tag(sync=True)
        over = traitlets.Bool(False).tag(sync=True)
        thinking = traitlets.Bool(False).tag(sync=True)
        moves: traitlets.List[Any] = traitlets.List().tag(sync=True)
        legal: traitlets.List[Any] = traitlets.List().tag(sync=True)
        first = traitlets.Int(0).tag(sync=True)
        players: traitlets.List[Any] = traitlets.List().tag(sync=True)
        player = traitlets.Unicode("").tag(sync=True)
        depth = traitlets.Int(4).tag(sync=True)
        seconds = traitlets.Float(1.0).tag(sync=True)
        infos: traitlets.List[Any] = traitlets.List().tag(sync=True)
        unit = traitlets.Unicode("nodes").tag(sync=True)
        result = traitlets.Unicode("").tag(sync=True)
        error = traitlets.Unicode("").tag(sync=True)
        steps = traitlets.Int(0).tag(sync=True)
        step = traitlets.Dict().tag(sync=True)

        def __init__(self, controller: Controller) -> None:
            super().__init__()
            self.controller = controller
            controller.on_change = self.refresh
            self.on_msg(lambda _widget, content, _buffers: controller.handle(content))
            self.refresh()

        def refresh(self) -> None:
            snapshot = self.controller.snapshot()
            with self.hold_sync():
                for name, value in snapshot.items():
                    setattr(self, name, value)

    _CLASS.append(GameWidget)
    return GameWidget


def widget(game: AnyGame | str, view: ViewFunction | None = None, **settings: Any) -> Any:
    """An interactive board for `game` (a game object, or a registered game's name with
    its options as keywords), `view` drawing a game of your own; `player`, `depth` and
    `seconds` preset the computer's choices."""
    chosen = {k: settings.pop(k) for k in ("player", "depth", "seconds") if k in settings}
    if isinstance(game, str):
        game = get_game(game).create(**settings)
    elif settings:
        raise InputError(f"options {sorted(settings)} are for a game named by its name")
    return widget_class()(Controller(game, view, **chosen))
