"""The one catalogue of player kinds: which players exist for a game, what each is
called and does, the settings it takes (with their types, ranges and defaults), the
limits it understands (a time per move, a fixed depth) and how it is built.

Every list of players is generated from here: `zerosum play`'s menu and `--opponent`,
`zerosum analyse --player`, the spec language of tournaments (`NAME:SETTING=VALUE,...`,
zerosum.players.spec), the web page's players (/api/games) and the checkers program's
menu. A module adds a kind with `register(PlayerKind(...))` when it is imported; a kind
whose players need an argument (an external program's command) says so with
`argument` and is written `NAME:ARGUMENT`. Modules of zerosum.players.kinds are imported
the first time the kinds are listed, so a kind added there needs no other edit: a
search algorithm is one module there, a kind with an `analyser`.

A kind is also the one way a search starts: `kind.start(spec, game, state, choice,
limit)` resolves the limit once, builds the player and returns its search running in a
worker thread (zerosum.running.Running), which every front end reads as a stream.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from zerosum.convert import MAX_DEPTH, MAX_SECONDS, parse_float, parse_int, shown
from zerosum.game import InputError
from zerosum.games.registry import GameSpec
from zerosum.kernel import ALL, Enhancements
from zerosum.match import Agent
from zerosum.players.agents import ComputerAgent, EngineAgent, SearchAgent, engines_of
from zerosum.plugins import import_submodules
from zerosum.result import Analyser, InfoSink, Limit, SearchResult
from zerosum.running import Running
from zerosum.search.estimate import Cost

DEFAULT_SECONDS = 1.0  # a timed player's time per move when none is given


def read_off(text: str, what: str) -> Enhancements:
    """`off=pvs+aspiration`: the enhancements switched off (names of Enhancements)."""
    off = [n for n in text.split("+") if n]
    unknown = [n for n in off if n not in Enhancements.names()]
    if unknown:
        raise InputError(f"{what}: no enhancement {shown(unknown[0])}; choose from "
                         f"{', '.join(Enhancements.names())}")
    return replace(ALL, **{n: False for n in off})


@dataclass(frozen=True)
class Setting:
    """One setting of a player as written (`depth=6`): its name, what it means (with its
    range and default, for help texts) and its reader (text, what -> value), which
    raises InputError naming `what` on a value out of range."""

    name: str
    help: str
    read: Callable[[str, str], Any]


SETTINGS: dict[str, Setting] = {s.name: s for s in (
    Setting("time", f"seconds per move, above 0 and up to {MAX_SECONDS:g} (timed players: "
            f"default {DEFAULT_SECONDS:g})",
            lambda t, w: parse_float(t, w, lo=0, lo_open=True, hi=MAX_SECONDS)),
    Setting("depth", f"plies, 0 to {MAX_DEPTH}; 0 = to the end of the game (fixed-depth "
            "players: default the game's depth)",
            lambda t, w: parse_int(t, w, lo=0, hi=MAX_DEPTH)),
    Setting("nodes", "a node budget, 1 or more (MCTS: simulations)",
            lambda t, w: parse_int(t, w, lo=1)),
    Setting("seed", "the seed of a player's random choices, 0 or more",
            lambda t, w: parse_int(t, w, lo=0)),
    Setting("off", f"enhancements switched off, joined by + ({', '.join(Enhancements.names())})",
            read_off),
)}


@dataclass(frozen=True)
class Choice:
    """A player's settings as chosen (written, asked in a menu or given as flags), before
    the kind's defaults: None means not given. `depth` 0 means to the end of the game.
    `argument` is what follows `NAME:` for a kind that takes one (a command); `extra`,
    the values of the kind's own settings (PlayerKind.own_settings) by name."""

    depth: int | None = None
    seconds: float | None = None
    nodes: int | None = None
    seed: int | None = None
    enhancements: Enhancements = ALL
    argument: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)


Build = Callable[[GameSpec, Limit, Choice], Agent]
# A search's analyser made for one player (its own table, its own stream of seeds), for
# a game's registration (None: any game, see searcher).
MakeAnalyser = Callable[[GameSpec | None, Choice], Analyser]


def everywhere(spec: GameSpec) -> bool:
    return True


@dataclass(frozen=True)
class PlayerKind:
    """A kind of player. `help`: one line for menus and choices; `explain`: a few
    sentences for a person choosing (default: `help`). `settings`: the settings it
    takes (names of SETTINGS). The limits it understands: `timed` (a time per move,
    DEFAULT_SECONDS unless given; with `depth_alone`, a depth given without a time
    searches by depth alone) and `fixed_depth` (a depth, the game's `default_depth`
    unless given; `to_the_end`: 0 may mean to the end of the game). `applies`: the games
    it plays. `build(spec, limit, choice)`: the player, given its resolved limit; a
    search needs none, only `analyser(spec, choice)` (the Analyser one player of this
    kind searches with), its `title` (as a person reads it, e.g. "alpha-beta") and its
    `unit` (what it counts: nodes, or MCTS's simulations), and `full_cost`, what its
    search to the end of a game costs (zerosum.search.estimate; None: not estimated).
    `order`: its place in menus among the kinds of its group (generic searches, a
    game's own, programs). `argument`: the name of what follows `NAME:` (e.g.
    "COMMAND"), or None; such a kind is written `NAME[,SETTING=VALUE...]:ARGUMENT`.
    `own_settings`: settings beyond the common ones (SETTINGS), read into
    `Choice.extra`."""

    name: str
    help: str
    build: Build | None = None
    settings: tuple[str, ...] = ()
    timed: bool = False
    depth_alone: bool = False
    fixed_depth: bool = False
    to_the_end: bool = True
    applies: Callable[[GameSpec], bool] = everywhere
    explain: str = ""
    argument: str | None = None
    own_settings: tuple[Setting, ...] = ()
    engine: bool = field(default=False, compare=False)  # a game's own player
    analyser: MakeAnalyser | None = field(default=None, compare=False)
    title: str = ""
    unit: str = "nodes"
    order: int = 100
    full_cost: Cost | None = None  # what a search to the end costs, if it can be estimated

    @property
    def shown_name(self) -> str:
        """The kind as a person reads it: its title, else its name."""
        return self.title or self.name

    def readers(self) -> dict[str, Setting]:
        """The settings this kind reads, by name: the common ones it takes, then its own."""
        return {**{s: SETTINGS[s] for s in self.settings},
                **{s.name: s for s in self.own_settings}}

    def limit(self, spec: GameSpec, choice: Choice) -> Limit:
        """The limit a player of this kind gets from `choice`, its defaults filled in;
        InputError for a depth of 0 where that is not "to the end"."""
        depth = choice.depth
        if depth is None and self.fixed_depth:
            depth = spec.default_depth
        if depth == 0:
            if not self.to_the_end:
                raise InputError(f"{self.name} needs a depth of 1 or more")
            depth = None  # to the end of the game
        seconds = choice.seconds
        if seconds is None and self.timed and not (self.depth_alone and depth is not None) \
                and choice.nodes is None:
            seconds = DEFAULT_SECONDS
        return Limit(depth=depth, seconds=seconds, nodes=choice.nodes)

    def make(self, spec: GameSpec, choice: Choice = Choice(),
             limit: Limit | None = None) -> Agent:
        """A player of this kind with `choice`'s settings, within `limit` (default:
        the kind's, `self.limit(spec, choice)`)."""
        limit = self.limit(spec, choice) if limit is None else limit
        if self.build is not None:
            return self.build(spec, limit, choice)
        if self.analyser is None:
            raise ValueError(f"player kind {self.name!r} has neither build nor analyser")
        analyser = self.analyser(spec, choice)
        if self.engine:
            return EngineAgent(self.name, analyser, limit)
        return SearchAgent(self.player_name(limit), analyser, limit, self.unit,
                           choice.enhancements)

    def player_name(self, limit: Limit) -> str:
        """A search player's name: the kind and its limit, e.g. `iterative (1 s)`."""
        detail = f"{limit.seconds:g} s" if self.timed and limit.seconds is not None \
            else f"depth {limit.depth}" if limit.depth is not None else ""
        return f"{self.name} ({detail})" if detail else self.name

    def start(self, spec: GameSpec, game: Any, state: Any, choice: Choice = Choice(),
              limit: Limit | None = None, on_info: InfoSink | None = None,
              on_done: Callable[[Running[SearchResult]], None] | None = None,
              ) -> Running[SearchResult]:
        """The one way a search starts: a player of this kind (`choice`'s settings,
        within `limit`, default the kind's, resolved here once) searching `state` in a
        worker thread under one Stop; InputError if this kind cannot analyse a position
        (it only chooses moves)."""
        limit = self.limit(spec, choice) if limit is None else limit
        agent = self.make(spec, choice, limit)
        if not isinstance(agent, ComputerAgent):
            raise InputError(f"{self.name} cannot analyse a position")
        return agent.start(game, state, limit, on_info, on_done)

    def usage(self) -> str:
        """How the kind is written, e.g. `alphabeta[:depth=N,...]`, `ugi:COMMAND`."""
        if self.argument is not None:
            return f"{self.name}[,SETTING=VALUE...]:{self.argument}" if self.readers() \
                else f"{self.name}:{self.argument}"
        return self.name


KINDS: dict[str, PlayerKind] = {}
PLUGINS = "zerosum.players.kinds"  # the package whose modules register more kinds
_discovered = False


def known() -> dict[str, PlayerKind]:
    """Every registered kind, the modules of PLUGINS imported (once) first."""
    global _discovered
    if not _discovered:
        _discovered = True
        import_submodules(PLUGINS)
    return KINDS


def register(kind: PlayerKind) -> PlayerKind:
    """Add a kind of player to the catalogue (at import time); its name must be new. The
    kind then appears in every menu and choice of the games it applies to, and in the
    spec language (`NAME`, `NAME:SETTINGS` or, with `argument`, `NAME:ARGUMENT`)."""
    if kind.name in KINDS:
        raise ValueError(f"player kind {kind.name!r} is registered twice")
    for s in kind.settings:
        if s not in SETTINGS:
            raise ValueError(f"player kind {kind.name!r}: no setting {s!r}")
    if kind.build is None and kind.analyser is None:
        raise ValueError(f"player kind {kind.name!r}: give it a build or an analyser")
    KINDS[kind.name] = kind
    return kind


# Every built-in kind reads every setting (those it has no use for, e.g. a seed for
# alpha-beta, change nothing), as tournaments have always written them.
SEARCH_SETTINGS = tuple(SETTINGS)
BARE_DEPTH = 4  # a search that needs a depth, made without a game (searcher)


def searches() -> list[PlayerKind]:
    """The generic search algorithms (kinds with an analyser, not a game's own), in
    menu order."""
    return sorted((k for k in known().values() if k.analyser is not None and not k.engine),
                  key=lambda k: k.order)


def search_named(name: str) -> PlayerKind | None:
    """The generic search called `name`, None if there is none."""
    return next((k for k in searches() if k.name == name), None)


def shown_name(name: str) -> str:
    """A generic search's name as a person reads it ("alpha-beta"), else `name`."""
    kind = search_named(name)
    return name if kind is None else kind.shown_name


def searcher(algorithm: str = "alphabeta", depth: int | None = None,
             seconds: float | None = None, enhancements: Enhancements = ALL,
             seed: int | None = None, nodes: int | None = None) -> SearchAgent:
    """A generic search as a player without a game's registration (the library's,
    tests', notebooks' way): to the end unless `depth` is given (a search that needs a
    depth: BARE_DEPTH), a timed one DEFAULT_SECONDS unless `seconds` is given."""
    kind = search_named(algorithm)
    if kind is None or kind.analyser is None:
        raise InputError(f"unknown algorithm {algorithm!r}; choose from "
                         f"{tuple(k.name for k in searches())}")
    if depth is None and not kind.to_the_end:
        depth = BARE_DEPTH
    if seconds is None and kind.timed:
        seconds = DEFAULT_SECONDS
    try:
        limit = Limit(depth=depth, seconds=seconds, nodes=nodes)
    except ValueError as e:  # the one check of a limit
        raise InputError(str(e)) from None
    choice = Choice(depth=depth, seconds=seconds, nodes=nodes, seed=seed,
                    enhancements=enhancements)
    return SearchAgent(kind.player_name(limit), kind.analyser(None, choice), limit,
                       kind.unit, enhancements)


def engine_analyser(name: str) -> MakeAnalyser:
    """A game's own player `name` (its kernel's engine, or its solver)."""
    def make(spec: GameSpec | None, choice: Choice) -> Analyser:
        if spec is None:
            raise InputError(f"{name} is a game's own player: name the game")
        return engines_of(spec, choice.enhancements)[name]

    return make


def all_kinds() -> list[PlayerKind]:
    """Every registered kind (a game's own analysers are kinds of that game only), in
    menu order: the generic ones, a game's own, then the programs."""
    return sorted(known().values(),
                  key=lambda k: (k.argument is not None, k.engine, k.order))


def kinds_for(spec: GameSpec) -> list[PlayerKind]:
    """The kinds of player of this game, in menu order: the generic ones, then the
    game's own (its engine, then its solver), then any registered later (external
    programs)."""
    kinds = known()
    generic = [k for k in kinds.values() if not k.engine and k.argument is None
               and k.applies(spec)]
    own = [k for k in kinds.values() if k.engine and k.applies(spec)]
    generic.sort(key=lambda k: k.order)
    own.sort(key=lambda k: k.order)
    others = [k for k in kinds.values() if k.argument is not None and k.applies(spec)]
    return [*generic, *own, *others]


def names_for(spec: GameSpec) -> list[str]:
    """The names of the kinds that need no argument (the choices of a menu or a flag)."""
    return [k.name for k in kinds_for(spec) if k.argument is None]


def default_kind(spec: GameSpec) -> str:
    """The default opponent: the game's own first player, else iterative deepening."""
    return next((k.name for k in kinds_for(spec) if k.engine), "iterative")


def kind_of(spec: GameSpec, name: str) -> PlayerKind:
    """The kind called `name` for this game; InputError listing the kinds otherwise."""
    for k in kinds_for(spec):
        if k.name == name:
            return k
    raise InputError(f"unknown player {shown(name)} for {spec.name}; choose from "
                     f"{', '.join(k.usage() for k in kinds_for(spec))}")


def make_player(spec: GameSpec, name: str, choice: Choice = Choice()) -> Agent:
    """A player of kind `name` for this game, with `choice`'s settings."""
    return kind_of(spec, name).make(spec, choice)


def explain_kinds(kinds: list[PlayerKind], indent: str = "  ", width: int = 79) -> str:
    """The kinds' explanations, one paragraph each: the help of a menu of players."""
    import textwrap

    return "\n".join(textwrap.fill(f"{k.name}: {k.explain or k.help}", width,
                                   initial_indent=indent, subsequent_indent=indent + "  ")
                     for k in kinds)
