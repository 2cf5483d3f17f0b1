"""TD n-tuple networks: a value function over board cells learned by self-play with
TD(lambda) (Lucas 2008, "Learning to play Othello with n-tuple systems"; Thill, Koch
and Konen 2012, "Reinforcement learning with n-tuples on the game Connect-4", and 2014,
"Temporal difference learning with eligibility traces for the game Connect Four").

The network. An n-tuple is a few cells of the board (a random walk over neighbouring
cells, so that it sees a local pattern); the contents of its cells, read as a number in
base `kinds` (empty, Max's, Min's), index a table of weights. The value of a position
is tanh of the sum, over every tuple and every symmetry of the board (the tuple's cells
mapped by it), of the weight its pattern indexes: symmetric positions share their
weights, so what is learned on one is learned on all. Each table has two halves, one
for positions with Max to move and one for Min (as Thill et al.'s two sets of tables):
a tuple of a few cells cannot see whose turn it is. The value is from Max's side, in
(-1, 1), and it is the value of an afterstate (the position after a move), so the side
that moved is implicit in the board.

Play is one ply: each move's afterstate, valued by the network (an end of the game by
its utility's sign), the best for the side to move chosen. Self-play explores: with
probability `epsilon` a random move instead.

Learning, from a finished game: its afterstates x_0 .. x_T (x_T the end), valued once
with the weights as they were; the lambda-return G_t = (1 - lambda) V(x_{t+1}) +
lambda G_{t+1}, with G_{T-1} the game's result; each x_t's weights moved by alpha
(G_t - V(x_t)) times the gradient of V. A random move is not play to learn from: the
position before it is not updated and the return before it stops there (G = V of the
position it left), as Thill et al. do.

A schedule. A constant step size and exploration keep the weights moving as much as
they learn once the easy things are learned; so both may decay over a run (not by
default: see default_settings), geometrically from `alpha` to `alpha_final` and from
`epsilon` to `epsilon_final` over its first `decay_games` games (the run's planned
games unless given), then stay there: at game k of K, alpha_k = alpha (alpha_final /
alpha)^(k / K). Thill, Koch and Konen lower both
over their Connect-4 runs too (docs/learning.md: their exact schedule unconfirmed). The trainer
says which game is next (`at_game`) and how many are planned (`plan_games`); the
compiled twin is given the values of the game, so both paths stay the same.

Temporal coherence learning (TCL; Beal and Smith 1999, "Temporal coherence and
prediction decay in TD learning", used for Connect-4 by Bagheri, Thill, Koch and Konen
2015), with `tcl`: each weight keeps the sum of the changes asked of it (N) and of
their sizes (A), and moves by the change times |N| / A (1 before any): a weight pushed
one way again and again keeps its full step, one pushed back and forth (noise) nearly
stops. The step's schedule above applies on top of it.

The playable view (`playable`, for a game whose pieces drop: InARow(drop=True)). In
Connect Four an empty cell is of two kinds: the lowest empty cell of its column can be
filled by the next move, an empty cell above it cannot yet. A threat (three of a line
and its fourth cell empty) is live when that fourth cell is playable now, and only a
promise when it is not; a tuple that reads both as "empty" cannot tell them apart, and
a one-ply player has no search to find out. So with `playable` the network reads each
cell in four states (empty and not yet playable, Max's, Min's, empty and playable next)
and each tuple indexes its table in base 4: 4^8 = 65,536 weights a tuple and side to
move where base 3 has 3^8 = 6,561. This is the board vector of Thill, Koch and Konen's
Connect-4 agents (their GBG framework reads four position values, its
"reachable-empty" cells, and recommends them over three); a file says which view it
was trained with (its settings' `playable`; a file from before reads three).

The weights live in one flat array (`weights`); `features` lists, for each tuple and
symmetry, where its table starts and which cells it reads.
"""

from __future__ import annotations

import math
import random
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from zerosum import native as native_kernels
from zerosum.game import AnyGame, InputError, shown
from zerosum.games.registry import Cells, GameSpec
from zerosum.learn.weights import Weights

METHOD = "ntuple"


@dataclass(frozen=True)
class Settings:
    """The method's settings (saved with the weights). `tuples` of `length` cells each
    (fewer on a small board); `alpha` the step size (shared among the active weights),
    `lam` lambda, `epsilon` the exploration rate of self-play; both decay to
    `alpha_final` and `epsilon_final` over the first `decay_games` games (see the
    module)."""

    tuples: int = 0  # 0: chosen by the board's size (see default_settings)
    length: int = 0
    alpha: float = 0.5
    lam: float = 0.5
    epsilon: float = -1.0  # below 0: chosen by the board's size
    alpha_final: float = -1.0  # below 0: alpha's (no decay)
    epsilon_final: float = -1.0  # below 0: epsilon's (no decay)
    decay_games: int = 0  # 0: the run's planned games (fixed by the trainer)
    tcl: bool = False  # temporal coherence learning (see the module)
    playable: bool = False  # the playable view: four states a cell (see the module)

    def as_dict(self) -> dict[str, Any]:
        return {"tuples": self.tuples, "length": self.length, "alpha": self.alpha,
                "lam": self.lam, "epsilon": self.epsilon, "alpha_final": self.alpha_final,
                "epsilon_final": self.epsilon_final, "decay_games": self.decay_games,
                "tcl": self.tcl, "playable": self.playable}


def decayed(start: float, final: float, games: int, decay_games: int) -> float:
    """A value decaying geometrically from `start` at game 0 to `final` at game
    `decay_games` and after (`start` throughout while no decay is planned)."""
    if decay_games <= 0 or start == final:
        return start
    return start * float((final / start) ** min(1.0, games / decay_games))


def default_settings(cells: Cells, settings: Settings) -> Settings:
    """Settings not given, by the board's size: on a board of 30 cells or more (Connect
    Four's), Thill et al.'s 70 tuples of 8 cells and 10 % random moves; on a smaller
    one, 8 tuples of 6 and half the moves random (a small game has few positions, and
    a player graded on all of them must have seen them). No decay unless asked for:
    the one Connect Four run with a decay (to a tenth of alpha and 2 % random moves,
    docs/learning.md) learned less than the run with both constant."""
    big = cells.rows * cells.cols >= 30
    tuples = settings.tuples or (70 if big else 8)
    length = settings.length or (8 if big else 6)
    epsilon = settings.epsilon if settings.epsilon >= 0 else 0.1 if big else 0.5
    alpha_final = settings.alpha_final if settings.alpha_final >= 0 else settings.alpha
    epsilon_final = settings.epsilon_final if settings.epsilon_final >= 0 else epsilon
    if (alpha_final == 0) != (settings.alpha == 0) or (epsilon_final == 0) != (epsilon == 0):
        raise InputError("a final alpha or epsilon of 0 from a start above 0 (or the other "
                         "way): the decay is geometric, give a small number instead")
    if settings.playable:
        check_drops(cells)
    return Settings(tuples, min(length, cells.rows * cells.cols), settings.alpha,
                    settings.lam, epsilon, alpha_final, epsilon_final, settings.decay_games,
                    bool(settings.tcl), bool(settings.playable))


def check_drops(cells: Cells) -> None:
    """InputError unless the game's pieces drop (its cells declare InARow(drop=True)):
    only there is an empty cell playable next or not yet."""
    if cells.in_a_row is None or not cells.in_a_row.drop:
        raise InputError("the playable view (four states a cell) needs a game whose pieces "
                         "drop into columns, as Connect Four's: this game's do not")


def playable_view(board: Sequence[int], cells: Cells) -> list[int]:
    """`board` as the playable view reads it: the lowest empty cell of each column
    (row 0 is the top) marked `cells.kinds`, playable next; other empty cells stay 0."""
    seen = list(board)
    for col in range(cells.cols):
        for row in range(cells.rows - 1, -1, -1):
            cell = row * cells.cols + col
            if board[cell] == 0:
                seen[cell] = cells.kinds
                break
    return seen


def random_walk(cells: Cells, length: int, rng: random.Random) -> tuple[int, ...]:
    """`length` distinct cells, each a neighbour (of the 8 around) of one before it."""
    rows, cols = cells.rows, cells.cols
    walk = [rng.randrange(rows * cols)]
    while len(walk) < length:
        r, c = divmod(rng.choice(walk), cols)
        dr, dc = rng.choice([(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if a or b])
        if 0 <= r + dr < rows and 0 <= c + dc < cols:
            cell = (r + dr) * cols + c + dc
            if cell not in walk:
                walk.append(cell)
    return tuple(walk)


def check_game(spec: GameSpec, game: AnyGame) -> Cells:
    """The game's cells; InputError for a game that declares none or keeps scores."""
    if spec.cells is None:
        raise InputError(f"{spec.name} declares no cell view (GameSpec.cells): an n-tuple "
                         "network cannot read its board")
    if game.values.kind != "outcome":
        raise InputError(f"{spec.name} keeps a score: an n-tuple network learns won, "
                         "drawn and lost games only")
    return spec.cells(game)


class NTupleNet:
    """The network: its tuples, their weights, value and learning (see the module).

    `value` and `update` have a compiled twin (_ntuple.c, zerosum.native): the same
    additions in the same order, so the same values and weights to the last bit."""

    def __init__(self, cells: Cells, tuples: Sequence[tuple[int, ...]],
                 weights: array | None = None,  # type: ignore[type-arg]
                 native: bool | None = None,
                 coherence: tuple[array, array] | None = None,  # type: ignore[type-arg]
                 playable: bool = False) -> None:
        self.cells = cells
        if playable:
            check_drops(cells)
        self.playable = playable
        # The states a cell is read in: the game's, and with the playable view one more.
        self.kinds = cells.kinds + 1 if playable else cells.kinds
        self.tuples = [tuple(t) for t in tuples]
        if len({len(t) for t in self.tuples}) > 1:
            raise InputError("n-tuples of different lengths")
        self.length = len(self.tuples[0]) if self.tuples else 0
        self.features: list[tuple[int, tuple[int, ...]]] = []
        offset = 0
        for t in self.tuples:
            for p in cells.symmetries:
                self.features.append((offset, tuple(p[c] for c in t)))
            offset += self.kinds ** len(t)
        self.half = offset  # the weights of positions with Max to move, then Min's
        self.weights = array("d", bytes(16 * offset)) if weights is None else weights
        if len(self.weights) != 2 * offset:
            raise InputError(f"{len(self.weights)} weights for tuples that need {2 * offset}")
        # TCL's sums for each weight (N, A), or None without TCL.
        self.coherence = coherence
        if coherence is not None and any(len(x) != 2 * offset for x in coherence):
            raise InputError("temporal coherence sums not one a weight")
        # The compiled twin reads the features as one flat list: offset, then the cells.
        self.plan = array("i", [x for off, cs in self.features for x in (off, *cs)])
        self.twin = native_kernels.twin("ntuple", native)

    def seen(self, board: Sequence[int]) -> Sequence[int]:
        """The board as the tuples read it: with the playable view, its playable cells
        marked (playable_view)."""
        return playable_view(board, self.cells) if self.playable else board

    def active(self, board: Sequence[int], side: int) -> list[int]:
        """The weight each tuple and symmetry indexes on `board` (as `seen` gives it)
        with `side` to move."""
        kinds = self.kinds
        base = side * self.half
        out = []
        for offset, cells in self.features:
            index = 0
            for c in cells:
                index = index * kinds + board[c]
            out.append(base + offset + index)
        return out

    def total(self, active: list[int]) -> float:
        # One addition after another (not sum(), which rounds differently since
        # Python 3.12): what the compiled twin does.
        w = self.weights
        total = 0.0
        for i in active:
            total += w[i]
        return total

    def value(self, board: Sequence[int], side: int) -> float:
        """V(board) from Max's side, in (-1, 1), with `side` (0 Max, 1 Min) to move."""
        board = self.seen(board)
        if self.twin is not None:
            return float(self.twin.value(self.weights, self.plan, self.length,
                                         self.kinds, bytes(board), side * self.half))
        return math.tanh(self.total(self.active(board, side)))

    def update(self, board: Sequence[int], side: int, step: float) -> None:
        """Move V(board) by `step` (times its gradient, 1 - V^2, shared among the
        active weights)."""
        board = self.seen(board)
        if self.twin is not None:
            self.twin.update(self.weights, self.plan, self.length, self.kinds,
                             bytes(board), side * self.half, step, *(self.coherence or ()))
            return
        active = self.active(board, side)
        v = math.tanh(self.total(active))
        change = step * (1 - v * v) / len(active)
        if self.coherence is None:
            for i in active:
                self.weights[i] += change
            return
        n, a = self.coherence
        for i in active:
            self.weights[i] += change * (abs(n[i]) / a[i] if a[i] else 1.0)
            n[i] += change
            a[i] += abs(change)

    def start_coherence(self) -> None:
        """TCL's sums, all 0 (every weight's first step in full)."""
        size = len(self.weights)
        self.coherence = (array("d", bytes(8 * size)), array("d", bytes(8 * size)))


class NTupleLearner:
    """The method as the trainer (zerosum.learn.train) uses it: a self-play move, what
    to learn from a finished game, the player it makes, and its weights file."""

    method = METHOD

    def __init__(self, spec: GameSpec, game: AnyGame, settings: Settings,
                 rng: random.Random, net: NTupleNet | None = None) -> None:
        self.spec, self.game = spec, game
        cells = check_game(spec, game)
        self.settings = default_settings(cells, settings)
        if net is None:
            s = self.settings
            net = NTupleNet(cells, [random_walk(cells, s.length, rng) for _ in range(s.tuples)],
                            playable=s.playable)
            if s.tcl:
                net.start_coherence()
        self.net = net
        self.alpha, self.epsilon = self.settings.alpha, self.settings.epsilon
        self.at_game(0)

    # -- the schedule --

    def at_game(self, games: int) -> None:
        """The step size and exploration of the game after `games` games of the run."""
        s = self.settings
        self.alpha = decayed(s.alpha, s.alpha_final, games, s.decay_games)
        self.epsilon = decayed(s.epsilon, s.epsilon_final, games, s.decay_games)

    def plan_games(self, games: int) -> None:
        """Decay over `games` games, unless the run's decay is planned already (a
        resumed run keeps its schedule)."""
        if self.settings.decay_games <= 0 < games:
            self.settings = replace(self.settings, decay_games=games)

    def snapshot(self) -> dict[str, Any]:
        """The schedule's values now, kept in the run's history at each checkpoint."""
        return {"alpha": self.alpha, "epsilon": self.epsilon}

    @classmethod
    def learns(cls, spec: GameSpec) -> bool:
        return spec.cells is not None

    # -- play --

    def afterstate_value(self, state: Any) -> float:
        """The value of a position after a move, from Max's side: exact at the end."""
        game = self.game
        if game.is_terminal(state):
            u = game.utility(state)
            return float((u > 0) - (u < 0))
        return self.net.value(self.net.cells.read(state), self.side(state))

    def side(self, state: Any) -> int:
        """0 with Max to move, 1 with Min."""
        return 0 if self.game.is_maxs_turn(state) else 1

    def move_values(self, state: Any) -> list[tuple[Any, float]]:
        """Each legal move with its afterstate's value for the side to move."""
        game = self.game
        side = 1 if game.is_maxs_turn(state) else -1
        return [(a, side * self.afterstate_value(game.result(state, a)))
                for a in game.actions(state)]

    def best(self, state: Any) -> tuple[Any, float]:
        """The move of highest value for the side to move (the first of equals, in the
        game's order) and that value."""
        moves = self.move_values(state)
        return max(moves, key=lambda m: m[1])

    def self_play_move(self, state: Any, rng: random.Random) -> tuple[Any, bool]:
        """(the move, whether it was a random one to explore)."""
        if rng.random() < self.epsilon:
            return rng.choice(list(self.game.actions(state))), True
        return self.best(state)[0], False

    # -- a whole game in the compiled twin --

    def whole_games(self) -> bool:
        """Whether the compiled twin plays and learns whole games of this game (a game
        of k in a row: its cells declare InARow)."""
        return self.net.twin is not None and self.net.cells.in_a_row is not None

    def _rules(self) -> tuple[Any, ...]:
        net, rules = self.net, self.net.cells.in_a_row
        assert rules is not None
        return (net.weights, net.plan, net.length, net.kinds, net.half,
                net.cells.rows, net.cells.cols, rules.k, rules.drop, net.playable)

    def play_self(self, rng: random.Random) -> tuple[list[Any], list[bool]] | None:
        """A whole game of self-play from the start, by the compiled twin: the moves and
        which were random, the same as zerosum.learn.train.play_self gives with
        self_play_move (the same draws from `rng`); None where whole_games() is not."""
        if not self.whole_games():
            return None
        assert self.net.twin is not None
        moves, explored = self.net.twin.play_self(*self._rules(), self.epsilon, rng)
        return moves, explored

    def learn_from(self, moves: Sequence[Any], explored: Sequence[bool]) -> bool:
        """Learn from a game of self-play given by its moves from the start, by the
        compiled twin: the same weights as `learn` on its positions. False (nothing
        done) where whole_games() is not."""
        if not self.whole_games():
            return False
        assert self.net.twin is not None
        self.net.twin.learn_from(*self._rules(), moves, explored, self.alpha,
                                 self.settings.lam, *(self.net.coherence or ()))
        return True

    # -- learning --

    def learn(self, states: Sequence[Any], explored: Sequence[bool]) -> None:
        """Learn from a finished game: `states` the positions after each move (the last
        the end), `explored[t]` whether the move into states[t] was random."""
        game, net, s = self.game, self.net, self.settings
        boards = [net.cells.read(x) for x in states]
        last = len(states) - 1
        if last < 0:
            return
        u = game.utility(states[last])
        sides = [self.side(x) for x in states]
        values = [net.value(b, side) for b, side in zip(boards[:last], sides, strict=False)]
        values.append(float((u > 0) - (u < 0)))
        target = [0.0] * last
        g = values[last]
        for t in range(last - 1, -1, -1):
            if explored[t + 1]:
                g = values[t]  # the line after a random move tells nothing of this one
                continue
            g = (1 - s.lam) * values[t + 1] + s.lam * g if t + 1 < last else values[last]
            target[t] = g
        for t in range(last):
            if not explored[t + 1]:
                net.update(boards[t], sides[t], self.alpha * (target[t] - values[t]))

    # -- what it weighs --

    def cell_weights(self) -> list[float]:
        """How much each cell weighs in the network, a number a cell: the mean absolute
        weight of each tuple's table (both halves), added to every cell the tuple reads
        under each symmetry (shared among the symmetries). A heat map of it shows where
        the tuples look and how much they have learned there."""
        net = self.net
        size = net.kinds ** net.length
        means = {}
        for offset, _ in net.features:
            if offset not in means:
                table = [abs(net.weights[offset + i]) for i in range(size)]
                table += [abs(net.weights[net.half + offset + i]) for i in range(size)]
                means[offset] = sum(table) / len(table)
        heat = [0.0] * (net.cells.rows * net.cells.cols)
        shares = len(net.cells.symmetries)
        for offset, cells in net.features:
            for c in cells:
                heat[c] += means[offset] / shares
        return heat

    # -- the file --

    def save(self, header: dict[str, Any]) -> Weights:
        arrays = {"weights": self.net.weights}
        if self.net.coherence is not None:
            arrays["coherence_n"], arrays["coherence_a"] = self.net.coherence
        return Weights({**header, "method": METHOD, "settings": self.settings.as_dict(),
                        "tuples": [list(t) for t in self.net.tuples],
                        "kinds": self.net.kinds,
                        "board": [self.net.cells.rows, self.net.cells.cols]}, arrays)

    @classmethod
    def new(cls, spec: GameSpec, game: AnyGame, rng: random.Random,
            settings: dict[str, Any]) -> NTupleLearner:
        """A fresh learner, its tuples drawn from `rng`; `settings` by Settings' names."""
        unknown = set(settings) - set(Settings().as_dict())
        if unknown:
            raise InputError(f"ntuple has no setting {sorted(unknown)[0]!r}; its settings: "
                             f"{', '.join(Settings().as_dict())}")
        return cls(spec, game, Settings(**settings), rng)

    @classmethod
    def load(cls, spec: GameSpec, game: AnyGame, weights: Weights,
             name: str) -> NTupleLearner:
        cells = check_game(spec, game)
        try:
            saved = dict(weights.header["settings"])
            # A file from before the schedule kept its alpha and epsilon throughout.
            saved.setdefault("alpha_final", saved.get("alpha"))
            saved.setdefault("epsilon_final", saved.get("epsilon"))
            settings = Settings(**saved)
            tuples = [tuple(int(c) for c in t) for t in weights.header["tuples"]]
        except (KeyError, TypeError, ValueError):
            raise InputError(f"weights file {name}: no n-tuple settings or tuples in its "
                             "header") from None
        board = weights.header.get("board")
        if board != [cells.rows, cells.cols]:
            shape = f"{board[0]}x{board[1]}" if isinstance(board, list) and len(board) == 2 \
                else "another"
            raise InputError(f"weights file {name} is for a {shape} board (rows x columns), "
                             f"not {cells.rows}x{cells.cols}")
        kinds = cells.kinds + 1 if settings.playable else cells.kinds
        if weights.header.get("kinds") != kinds:
            view = " with the playable view" if settings.playable else ""
            raise InputError(f"weights file {name}: its cells are read in "
                             f"{shown(str(weights.header.get('kinds')))} states, not the "
                             f"{kinds} of this game's{view}")
        if any(not 0 <= c < cells.rows * cells.cols for t in tuples for c in t):
            raise InputError(f"weights file {name}: its tuples do not fit this board")
        sums = (weights.arrays.get("coherence_n"), weights.arrays.get("coherence_a"))
        if settings.tcl and (sums[0] is None or sums[1] is None):
            raise InputError(f"weights file {name}: trained with temporal coherence, but "
                             "without its sums")
        try:
            net = NTupleNet(cells, tuples, weights.arrays.get("weights"),
                            coherence=(sums[0], sums[1]) if settings.tcl
                            and sums[0] is not None and sums[1] is not None else None,
                            playable=settings.playable)
        except InputError as e:
            raise InputError(f"weights file {name}: {e}") from None
        return cls(spec, game, settings, random.Random(0), net)
