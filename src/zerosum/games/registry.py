"""The one place where games make themselves known to the command, the menu and later UIs.

A game module calls `register(GameSpec(...))` at import time; `all_games()` imports
every module of `zerosum.games` once, so a new game needs no edit anywhere else.
What a game can do beyond the Game protocol (its own perft counter, a position format,
a perfect solver) is declared in its GameSpec too, so commands read it from there.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from zerosum.convert import shown
from zerosum.game import AnyGame, InputError
from zerosum.kernel import KernelFactory
from zerosum.plugins import Registry
from zerosum.result import Analyser
from zerosum.stop import Stop

View = dict[str, Any]


@dataclass(frozen=True)
class Option:
    """A game parameter, offered as `--name` on the command line and asked in the menu."""

    name: str
    type: Callable[[str], Any]
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    explain: str = ""  # what the choices mean, in plain words: the menu's `?` shows it

    def read(self, text: str) -> Any:
        """The option's value from its written form: the one reading of an option, for
        its flag, the menu's question, the page's request and a tournament; InputError
        saying what is wrong (the converter's own message where it gives one)."""
        try:
            value = self.type(text)
        except InputError:
            raise
        except argparse.ArgumentTypeError as e:
            raise InputError(str(e)) from None
        except (ValueError, TypeError):
            raise InputError(f"not a valid {self.name}: {shown(text)}") from None
        if self.choices is not None and value not in self.choices:
            raise InputError(f"choose one of {', '.join(map(str, self.choices))}, "
                             f"not {shown(text)}")
        return value

    def flag(self, text: str) -> Any:
        """`read` as an argparse type (its errors as argparse reports them)."""
        try:
            return self.read(text)
        except InputError as e:
            raise argparse.ArgumentTypeError(str(e)) from None


def add_options(parser: argparse.ArgumentParser, options: tuple[Option, ...]) -> None:
    """A game's options as `--name` flags of a subcommand (play, analyse, perft, solve,
    ugi), each with its help, what its choices mean, and its default."""
    for o in options:
        explain = f". {o.explain}" if o.explain else ""
        parser.add_argument(f"--{o.name.replace('_', '-')}", dest=o.name, type=o.flag,
                            default=o.default, choices=o.choices,
                            help=f"{o.help}{explain} (default: %(default)s)")


@dataclass(frozen=True)
class PositionFormat:
    """A game's written form of a position (`zerosum perft --fen`): `parse(game, text)`
    returns the state (InputError when the text is not one) and `format(game, state)`
    writes it back."""

    name: str
    parse: Callable[[Any, str], Any]
    format: Callable[[Any, Any], str]


@dataclass(frozen=True)
class SolveCommand:
    """A game's own `zerosum solve GAME`: `add_arguments` adds its arguments to the
    game's subparser and `rows(args)` yields the report as (label, text) rows, each as
    soon as it is proven. Both import the solver only when called, so `zerosum --help`
    stays quick."""

    help: str
    description: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    rows: Callable[[argparse.Namespace], Iterator[tuple[str, str]]]


@dataclass(frozen=True)
class MoveValue:
    """A legal move's proven value, from the side making it: `outcome` "win", "draw" or
    "loss", `plies` to the end of the game with best play, this move counted (None:
    proven, its length unknown), `score` the game's own figure where it has one
    (Connect Four's solver score), for a tooltip.

    A move still being proven is reported with `interval`, the game's own figures
    [lo, hi] proven so far, `outcome` what they already tell ("win", "loss", "win or
    draw", "loss or draw", "open") and `nodes` searched for it so far."""

    action: Any
    outcome: str
    plies: int | None
    score: int | None = None
    interval: tuple[int, int] | None = None
    nodes: int = 0


@dataclass(frozen=True)
class Solver:
    """A game's own perfect solver, for a game too big for the generic one
    (search/solve.py): one capability, and every use of exact play reads it from here.

    `play(game, state, limit, on_info, stop)`: an Analyser that plays and analyses
    perfectly where it proves the position within the limit (the "solver" player, the
    review's exact values); `command`, its `zerosum solve GAME`; `verdict(game, state)`,
    a quick exact verdict on a position near the end (Max's utility if decided, else
    None), which lets a tournament end such a game early and the page's value history
    call it exact; `move_values(game, state, stop)`, the proven value of each legal
    move, yielded one by one as each is proven (SearchStopped when `stop` says so), for
    the page's analysis."""

    play: Analyser
    command: SolveCommand | None = None
    verdict: Callable[[Any, Any], float | None] | None = None
    move_values: Callable[[Any, Any, Stop], Iterator[MoveValue]] | None = None


@dataclass(frozen=True)
class InARow:
    """The rules of a game of `k` in a row (an m,n,k-game): Max moves first, each move
    puts one piece of the mover's on an empty cell, `k` of a side's pieces in a line
    (across, down or diagonally) win, and a full board is a draw. A move is the
    number of the cell it fills (tic-tac-toe), or with `drop` a column, which fills its
    lowest empty cell (Connect Four); the legal moves in increasing order, as the
    game's `actions` lists them. A game that declares these beside its cells can be
    self-played whole by a compiled kernel (zerosum.learn.ntuple)."""

    k: int
    drop: bool = False


@dataclass(frozen=True)
class Cells:
    """A game's board as a grid of cells, for learners that read boards (the n-tuple
    networks of zerosum.learn.ntuple): `rows` x `cols` cells numbered row by row,
    `read(state)` the content of each (0 empty, 1 Max's piece, 2 Min's piece; up to
    `kinds` - 1 for games with more, e.g. kings), and `symmetries`, the permutations
    of the cell numbers that map a position onto an equivalent one (`p[i]` is where
    cell i goes), the identity first. `in_a_row`: the game's rules, where they are
    those of InARow (row 0 the top, where a dropped piece enters)."""

    rows: int
    cols: int
    read: Callable[[Any], Sequence[int]]
    symmetries: tuple[tuple[int, ...], ...]
    kinds: int = 3
    in_a_row: InARow | None = None


@dataclass(frozen=True)
class GameSpec:
    """A game as the commands and the menu know it.

    Everything beyond the Game protocol is a plain declared capability, None (or its
    default) where the game lacks it, and every game declares it the same way:
    `kernel`, its fast search, which the "engine" player runs; `perft(game, state,
    depth)`, a leaf counter faster than walking `actions` and `result`; `position`, a
    position format; `solver`, its own perfect solver (`Solver`: the "solver" player,
    `zerosum solve GAME`, a tournament's adjudication and the page's proven moves all
    read it there).

    What the page and the records need of it, declared here (as a chess library keeps
    its drawing beside its board), so that the web and the records never name a game:
    `view(game, state, last)`, the drawing of a state as plain JSON (its format:
    zerosum.web.views; a grid or a checkers board, its coordinates in the notation moves
    are written in, `last` the move that led to it marked, a finished game's winning
    line); `record`, the style
    of its game record ("pdn", "move-string" or "plain", see zerosum.records);
    `cells(game)`: the game's board as cells (`Cells`, for this game's options), which
    board-reading learners need. `programs`: the course programs' calling conventions
    the game is played by (e.g. "course:comp3608", a COMP3608 program called once a
    move), each the name of a kind of player of players/kinds/programs.py.
    """

    name: str
    title: str
    make: Callable[..., AnyGame]
    options: tuple[Option, ...] = ()
    kernel: KernelFactory | None = None
    default_depth: int = 4
    summary: str = ""
    perft: Callable[[Any, Any, int], int] | None = None
    position: PositionFormat | None = None
    solver: Solver | None = None
    view: Callable[[Any, Any, Any], View] | None = None
    record: str = "plain"
    programs: tuple[str, ...] = ()
    cells: Callable[[Any], Cells] | None = None

    def create(self, **kwargs: Any) -> AnyGame:
        values = {o.name: kwargs.get(o.name, o.default) for o in self.options}
        return self.make(**values)


_GAMES: Registry[GameSpec] = Registry("zerosum.games", "game", lambda spec: spec.name)


def register(spec: GameSpec) -> GameSpec:
    return _GAMES.register(spec)


def all_games() -> list[GameSpec]:
    return _GAMES.all()


def get_game(name: str) -> GameSpec:
    return _GAMES.get(name)


def kernel_of(name: str) -> KernelFactory:
    """The engine kernel the game `name` declares (GameSpec.kernel): how front ends,
    commands and benches get a kernel, never from the engine module itself."""
    kernel = get_game(name).kernel
    if kernel is None:
        raise LookupError(f"the game {name} has no engine kernel")
    return kernel
