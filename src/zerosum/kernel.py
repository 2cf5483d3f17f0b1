"""What a game's fast engine supplies to the one iterative-deepening driver
(`zerosum.search.driver`): a *kernel*, the game-specific part of a negamax search.

The driver owns everything that is the same in every game: the limits and the stop,
the passes of iterative deepening, the root (the previous best move first, principal
variation search, aspiration windows), the `Info` stream and the `SearchResult`. A
kernel owns what is specific: its position representation (bitboards, make/unmake),
its node function with the game's ordering, evaluation and quiescence, its key, and
what its numbers mean (`verdict`). It may keep a `TranspositionTable` (one format for
all, zerosum.table) between searches.

It lives on the ground floor because games implement it and know no search algorithm.
"""

from __future__ import annotations

import importlib
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from zerosum.result import Limit
    from zerosum.stop import Stop


@dataclass(frozen=True)
class Enhancements:
    """The search enhancements, each switchable (for ablation benches and teaching).

    A kernel honours the ones it has and ignores the rest: `table` (transposition
    table: its move first, its bounds cut), `ordering` (the game's move ordering),
    `pvs` (principal variation search: null windows after the first move), `killers`
    (killer moves and the history heuristic), `quiescence` (the game's quiet-position
    search at the horizon), `aspiration` (root windows around the previous value),
    `solution` (a game's exact solution read before any search, where the engine has
    one: checkers on 4x4; off, the engine searches, so its evaluation can be graded).
    """

    table: bool = True
    ordering: bool = True
    pvs: bool = True
    killers: bool = True
    quiescence: bool = True
    aspiration: bool = True
    solution: bool = True

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def none(cls) -> Enhancements:
        return cls(**{name: False for name in cls.names()})


ALL = Enhancements()


@dataclass(frozen=True)
class Verdict:
    """What a kernel's number at the root means: the value from Max's side on the
    game's utility scale, whether it is decided, and in how many plies (if known: the
    minimax distance). `search_on`: decided, yet the passes go on choosing among moves
    that all keep it (a proven draw: the deepest search finds the opponent's best chances
    to go wrong); otherwise a decided value ends the deepening."""

    value: float
    decided: bool = False
    plies: int | None = None
    search_on: bool = False
    depth: int = 0  # of an undecided value from `prepare`: the depth looked (0: static)


class Kernel(Protocol):
    """A game's negamax search from one root position; see the module doc.

    Moves are in the kernel's own form (e.g. a bit mask); `action` turns one into the
    game's action. Values are from the side to move at the root, fail-soft.
    """

    nodes: int  # nodes examined by search_move since the kernel was made
    seldepth: int  # the deepest ply reached (0 if the kernel does not track it)
    hits: int  # table hits (0 if not tracked)
    grain: float | None  # the smallest difference between two values (None: no null windows)
    aspiration: float  # the half-width of an aspiration window, in the kernel's units
    uses: frozenset[str]  # the Enhancements it honours (the others change nothing)

    def prepare(self, limit: Limit) -> tuple[Any, Verdict] | None:
        """A decision before any search, or None: a win in one, a single legal move, a
        solver's answer within part of the time (the kernel's stop bounds it). A kernel
        may also narrow the moves its passes search here (e.g. to moves proven safe)."""
        ...

    def depths(self) -> Iterable[int]:
        """The depths of the passes, in order (e.g. 1, 3, 5, ... for Connect Four)."""
        ...

    def start_pass(self, depth: int) -> Sequence[Any]:
        """Called before each pass: the root's moves in search order."""
        ...

    def search_move(self, move: Any, depth: int, alpha: float, beta: float) -> float:
        """The value of playing `move` at the root, searched `depth - 1` plies below
        it, within (alpha, beta); raises SearchStopped when the stop says so."""
        ...

    def action(self, move: Any) -> Any: ...

    def principal_variation(self, move: Any, depth: int) -> list[Any]:
        """The expected line (game actions) starting with `move`, at most `depth` long."""
        ...

    def verdict(self, value: float) -> Verdict: ...


# What makes a kernel for one root (GameSpec.kernel is one): (game, state, stop,
# enhancements) -> a Kernel. A game declares its own with a KernelSpec; a bench or a test
# may write another (a kernel with a stage turned off, a fresh memory).
KernelFactory = Callable[[Any, Any, "Stop", Enhancements], Kernel]


@dataclass(frozen=True)
class KernelSpec:
    """How a game declares its engine's kernel (`GameSpec(kernel=KernelSpec(...))`): the
    one recipe for every game (docs/architecture.md, "How to add an engine kernel").

    `module` (imported when the engine first plays, so `zerosum --help` stays quick)
    defines `Memory(game)`, what the engine keeps for one game object from move to move
    (its table, sized by `capacity_for(game, ...)`), and the kernel class `name`, made
    as `name(game, state, stop, enhancements, memory)`. The driver asks for a kernel
    with `kernel_for`, which lends it the game object's memory (`memory_of`) for the
    search; called, the spec is a KernelFactory making a kernel over a fresh memory
    (nothing to give back: for a caller outside the driver). Whether
    the kernel's node function is the Python one or its compiled twin is decided inside
    the kernel class, by `zerosum.native`, never here or by a caller."""

    module: str
    name: str

    def __call__(self, game: Any, state: Any, stop: Stop,
                 enhancements: Enhancements = ALL) -> Kernel:
        engine = importlib.import_module(self.module)
        kernel: Kernel = getattr(engine, self.name)(game, state, stop, enhancements,
                                                    engine.Memory(game))
        return kernel

    @contextmanager
    def lend(self, game: Any, state: Any, stop: Stop,
             enhancements: Enhancements = ALL) -> Iterator[Kernel]:
        """A kernel over a memory of `game` lent to it until the block ends."""
        engine = importlib.import_module(self.module)
        with memory_of(game, lambda: engine.Memory(game)) as memory:
            yield getattr(engine, self.name)(game, state, stop, enhancements, memory)


@contextmanager
def kernel_for(make_kernel: KernelFactory, game: Any, state: Any, stop: Stop,
               enhancements: Enhancements = ALL) -> Iterator[Kernel]:
    """The kernel of one search: a game's KernelSpec's with a memory lent for the
    search; any other factory's (a bench's, a test's, with a memory of its own) as made."""
    if isinstance(make_kernel, KernelSpec):
        with make_kernel.lend(game, state, stop, enhancements) as kernel:
            yield kernel
    else:
        yield make_kernel(game, state, stop, enhancements)


T = TypeVar("T")


class Lender(Generic[T]):
    """Things lent to one user at a time (a search's tables, a solver). A borrower gets
    the one the last gave back, so what it keeps keeps serving, or, while every one is
    out, a new one made by the borrower's `make`: two borrowers at once never share
    one, and no more are made than were out at once. Searches need it: a native search
    lets other threads run at its checks, and a table grown or cleared under it would
    crash it. (The lender keeps no `make`: one that holds a game would keep the game,
    and so its memories, alive in `memory_of`'s weak map.)"""

    def __init__(self) -> None:
        self.made: list[T] = []
        self.idle: list[T] = []
        self.lock = threading.Lock()

    @contextmanager
    def lend(self, make: Callable[[], T]) -> Iterator[T]:
        with self.lock:
            thing = self.idle.pop() if self.idle else None
        if thing is None:
            thing = make()
            with self.lock:
                self.made.append(thing)
        try:
            yield thing
        finally:
            with self.lock:
                self.idle.append(thing)


_MEMORIES: weakref.WeakKeyDictionary[Any, Lender[Any]] = weakref.WeakKeyDictionary()
_MEMORIES_LOCK = threading.Lock()
_BOUNDS: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
# game -> the games made from it for an engine to play (a game with learned weights):
# forgetting a game forgets what the engine kept for those too.
_DERIVED: weakref.WeakKeyDictionary[Any, weakref.WeakSet[Any]] = weakref.WeakKeyDictionary()


@contextmanager
def memory_of(game: Any, make: Callable[[], T]) -> Iterator[T]:
    """What a game's engine keeps from move to move (its table, say), one per game
    object, lent to one search at a time: made by `make` the first time, forgotten with
    the game. A new game object (a new match) starts afresh; two matches never share
    what one of them learnt. Two searches of one game at once (a server's analysis
    beside its engine's move) get one each (a `Lender`). `make` sizes its tables by
    `capacity_for(game, ...)`."""
    with _MEMORIES_LOCK:
        lender = _MEMORIES.get(game)
        if lender is None:
            lender = _MEMORIES[game] = Lender()
    with lender.lend(make) as memory:
        yield memory


def bound_memory(game: Any, entries: int) -> None:
    """Let no table the engine keeps for `game` hold more than `entries` entries (a
    server bounding its sessions' memory); what is kept already is forgotten, so the
    next search makes it anew within the bound."""
    _BOUNDS[game] = max(2, entries)
    forget(game)


def capacity_for(game: Any, default: int) -> int:
    """The capacity of a table an engine keeps for `game`: its own `default`, or less
    under `bound_memory`."""
    bound = _BOUNDS.get(game)
    return default if bound is None else min(default, bound)


def forget(game: Any) -> None:
    """Drop what the engine keeps for `game` and for the games derived from it
    (`derive`): their memory is freed; the next search starts afresh."""
    _MEMORIES.pop(game, None)
    for made in list(_DERIVED.get(game, ())):
        forget(made)


def derive(game: Any, made: Any) -> Any:
    """Record that `made` is `game` as an engine plays it under other weights (it has
    its own memory, since its values differ): forgetting `game` forgets it too.
    Returns `made`."""
    with _MEMORIES_LOCK:
        _DERIVED.setdefault(game, weakref.WeakSet()).add(made)
    return made


class Weighted:
    """`game` as an engine plays it under other evaluation weights (learned or fitted
    ones), the same game in every other respect: the engine reads them with
    `evaluation_weights`. A new object, so it gets its own memory (`memory_of`): values
    under other weights must not meet in one table."""

    def __init__(self, game: Any, weights: Sequence[int]) -> None:
        self._game, self.evaluation_weights = game, tuple(weights)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def evaluation_weights(game: Any, default: Sequence[int], what: str) -> tuple[int, ...]:
    """The weights an engine evaluates `game` by: those it carries (`Weighted`), else
    the engine's own `default`; ValueError unless as many whole numbers."""
    w = getattr(game, "evaluation_weights", default)
    if len(w) != len(default) or not all(isinstance(x, int) for x in w):
        raise ValueError(f"{what}'s evaluation takes {len(default)} whole weights, "
                         f"not {w!r}")
    return tuple(w)


def kept_entries(game: Any) -> int:
    """How many entries the tables kept for `game` hold: the kept table's, or those of
    the kept object's attributes (tables, dicts, a solver's table)."""
    lender = _MEMORIES.get(game)
    return 0 if lender is None else sum(_kept_entries(kept) for kept in lender.made)


def _kept_entries(kept: Any) -> int:
    own = _entries(kept)
    if own is not None:
        return own
    return sum(_entries(part) or 0 for part in vars(kept).values())


def _entries(part: Any) -> int | None:
    """The entries `part` holds if it is a table (a dict, a TranspositionTable, an
    object with a `table` dict, a native table: a mapping with `get` and a length),
    else None."""
    if isinstance(part, dict) or (hasattr(part, "get") and hasattr(part, "__len__")):
        return len(part)
    for name in ("entries", "table"):
        held = getattr(part, name, None)
        if isinstance(held, dict):
            return len(held)
    return None
