"""The strong checkers engine: a Kernel (zerosum.kernel) on the bitboards, which the one
iterative-deepening driver (zerosum.search.driver) runs under a time limit.

- Negamax alpha-beta with principal-variation search (null windows after the first
  move) and a transposition table (zerosum.table) keyed by a Zobrist hash updated
  incrementally; the table is kept per game object from move to move.
- Quiescence: at the depth limit a side that must capture keeps capturing (captures are
  forced, so a position in the middle of an exchange is never evaluated); a position
  with a single legal move does not use up depth either.
- Move ordering: the table's move, then longer captures, killer moves, the history
  heuristic.
- Draws inside the search: repetition of a position on the current line (since the last
  irreversible move), the course move limit, the tournament 40-move rule.
- Evaluation: `evaluation.score` (material, advancement, back row, centre, mobility),
  by the game's `evaluation_weights` if it carries them (Samuel's learned weights,
  zerosum.learn.samuel), else the hand-written WEIGHTS.

Before any search (`prepare`): on boards small enough to solve (4x4) it plays from the
exact solution (`solve.py`), which is perfect play (unless the enhancement `solution`
is off: `engine:off=solution` searches there too, to grade its evaluation); a win in
one is played at once, and a single legal move after a short look (only to report a value).

Values inside are points for the side to move (a man is 100); a forced win is worth
`WIN - plies`, so a faster win scores higher and a slower loss less. `verdict` gives the
game's scale from Black's side: +1/-1 for a forced win/loss (with its plies), otherwise
the evaluation mapped into (-1, 1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any, cast

from zerosum.games.checkers.board import (
    Move,
    Path,
    apply,
    count_steps,
    generate,
    generate_captures,
    generate_steps,
    hash_after,
    zobrist_hash,
)
from zerosum.games.checkers.evaluation import score, to_utility_scale, weights_of
from zerosum.games.checkers.rules import TOURNAMENT_QUIET_PLIES, Checkers, State
from zerosum.games.checkers.solve import Placement, Solution, best_moves, solve
from zerosum.kernel import ALL, Enhancements, Verdict, capacity_for
from zerosum.native import twin
from zerosum.result import Limit
from zerosum.stop import SearchStopped, Stop
from zerosum.table import Bound, TranspositionTable

WIN = 1_000_000
WIN_BOUND = WIN - 10_000  # scores beyond this are forced wins (minus plies to get there)
EXACT, LOWER, UPPER = int(Bound.EXACT), int(Bound.LOWER), int(Bound.UPPER)
MAX_PLY = 120  # the deepest ply searched (extensions included)
MAX_DEPTH = 64  # the deepest pass
FORCED_LOOK = 4  # the depth of the look at a single legal move, to report its value
TABLE_SIZE = 1_000_000


class Memory:
    """What the engine keeps for one game object from move to move: its table (sized by
    `kernel.capacity_for`) and the 4x4 solutions it has made."""

    def __init__(self, game: Checkers | None = None) -> None:
        capacity = TABLE_SIZE if game is None else capacity_for(game, TABLE_SIZE)
        self.table = TranspositionTable(capacity, same_depth=False)
        self.solutions: dict[tuple[Placement, bool], Solution] = {}


class CheckersKernel:
    """The engine's search from one root position (see the module doc); moves are the
    board's generated moves (path, from bits, to bits, captured bits)."""

    grain: float | None = 1  # integer points
    uses = frozenset(Enhancements.names())  # every one
    aspiration: float = 50  # half a man

    def __init__(self, game: Checkers, state: State, stop: Stop,
                 enhancements: Enhancements = ALL, memory: Memory | None = None,
                 native: bool = True) -> None:
        self.game, self.state, self.stop = game, state, stop
        self.b = game.board
        self.memory = memory if memory is not None else Memory(game)
        self.table = self.memory.table
        # This engine's entries: (depth, bound, points, path), keyed by the Zobrist hash.
        entries = cast("dict[int, tuple[int, int, int, Path | None]]", self.table.entries)
        self.entries = entries if enhancements.table else None
        self.ordering = enhancements.ordering
        self.pvs = enhancements.pvs
        self.killing = enhancements.killers
        self.quiescence = enhancements.quiescence
        self.exact = enhancements.solution  # 4x4: play from the solution, not a search
        self.history: dict[tuple[int, int], int] = {}
        self.killers: list[list[Path | None]] = [[None, None] for _ in range(MAX_PLY + 64)]
        self.nodes = 1  # the root, examined once for all passes
        self.seldepth = 0
        self.hits = 0
        self.sign = 1 if state.black_to_move else -1
        self.weights = weights_of(game)  # WEIGHTS, or learned ones the game carries
        b = self.b
        self.h = zobrist_hash(b, state.black, state.white, state.kings, state.black_to_move)
        self.line = list(state.history) if game.draw == "tournament" else [self.h]
        over = game.draw_reason(state) is not None
        self.moves: list[Move] = [] if over else generate(
            b, state.black, state.white, state.kings, state.black_to_move, game.max_capture)
        # The node function: `negamax`, or its compiled twin (compiled.py; native=False
        # asks for this one), which keeps the killers and the history on its side.
        self.compiled: Any = None
        module = twin("checkers", native)
        if module is not None:
            self.compiled = module.Search(
                b.n, b.zobrist, b.zobrist_black, game.max_capture, game.ply_limit,
                game.draw == "tournament", self.ordering, self.pvs, self.killing,
                self.quiescence, self.entries, self.weights, SearchStopped)

    # --- the Kernel protocol -----------------------------------------------------------

    def prepare(self, limit: Limit) -> tuple[Move | None, Verdict] | None:
        if not self.moves:  # the game is over
            return None, Verdict(self.game.utility(self.state), True, 0)
        if self.b.n == 4 and self.exact:
            return self.solved()
        for move in self.moves:
            if self.wins_at_once(move):
                return move, Verdict(float(self.sign), True, 1)
        if len(self.moves) == 1:
            return self.moves[0], self.look(self.moves[0])
        return None

    def depths(self) -> Iterable[int]:
        return range(1, MAX_DEPTH + 1)

    def start_pass(self, depth: int) -> Sequence[Move]:
        if not self.moves:
            return []
        if self.compiled is not None:  # the history the compiled search gathered
            self.history = self.compiled.history()
        entry = None if self.entries is None else self.entries.get(self.h)
        return self.order(self.moves, None if entry is None else entry[3], 0,
                          self.state.black_to_move)

    def search_move(self, move: Move, depth: int, alpha: float, beta: float) -> float:
        s, line = self.state, self.line
        btm = s.black_to_move
        nb, nw, nk = apply(self.b, s.black, s.white, s.kings, btm, move)
        nh = hash_after(self.b, self.h, s.black, s.white, s.kings, btm, move, nk)
        irreversible = bool(move[3]) or not s.kings & move[1]
        line.append(nh)
        # Chosen here rather than kept as an attribute: a node function bound to this
        # kernel, kept in it, would make a cycle only the collector frees.
        node = self.negamax if self.compiled is None else self.compiled_negamax
        try:
            return -node(nb, nw, nk, not btm, nh, depth - 1,
                         -int(min(beta, WIN)), -int(max(alpha, -WIN)), 1, s.ply + 1,
                         0 if irreversible else s.quiet + 1, line,
                         len(line) - 1 if irreversible else 0)
        finally:
            line.pop()

    def action(self, move: Move | None) -> Path | None:
        return None if move is None else move[0]

    def principal_variation(self, move: Move | None, depth: int) -> list[Path]:
        """`move`, then the table's best moves (at most `depth` in all, at least one)."""
        if move is None:
            return []
        b, s = self.b, self.state
        black, white, kings, btm = s.black, s.white, s.kings, s.black_to_move
        h, pv, seen = self.h, [], {self.h}
        while True:
            pv.append(move[0])
            nb, nw, nk = apply(b, black, white, kings, btm, move)
            h = hash_after(b, h, black, white, kings, btm, move, nk)
            black, white, kings, btm = nb, nw, nk, not btm
            entry = None if self.entries is None else self.entries.get(h)
            if len(pv) >= depth or h in seen or entry is None or entry[3] is None:
                return pv
            seen.add(h)
            legal = generate(b, black, white, kings, btm, self.game.max_capture)
            found = next((m for m in legal if m[0] == entry[3]), None)
            if found is None:
                return pv
            move = found

    def verdict(self, value: float) -> Verdict:
        if abs(value) >= WIN_BOUND:
            plies = int(WIN - abs(value))
            return Verdict(float(self.sign if value > 0 else -self.sign), True, plies)
        return Verdict(to_utility_scale(self.sign * value), False, None)

    # --- decisions before the search -----------------------------------------------------

    def solved(self) -> tuple[Move, Verdict]:
        """Perfect play from the exact solution (4x4); its states count as the nodes."""
        s, game = self.state, self.game
        pos = (s.black, s.white, s.kings, s.black_to_move)
        key = (pos, game.max_capture)
        solutions = self.memory.solutions
        sol = solutions.get(key)
        if sol is None:
            sol = next((x for x in solutions.values() if pos in x.table), None)
        if sol is None:
            sol = solutions[key] = solve(self.b, pos, game.max_capture)
        left = game.ply_limit - s.ply if game.ply_limit else None
        path, v = best_moves(sol, pos, left)[0]
        self.nodes = len(sol.table)
        plies = sol.distance(dict(sol.moves[pos])[path]) + 1 if v else None
        move = next(m for m in self.moves if m[0] == path)
        return move, Verdict(float(self.sign * v), True, plies)

    def wins_at_once(self, move: Move) -> bool:
        """Does `move` leave the other side without a move (no piece or all blocked)?"""
        b, s = self.b, self.state
        nb, nw, nk = apply(b, s.black, s.white, s.kings, s.black_to_move, move)
        other = not s.black_to_move
        if generate_captures(b, nb, nw, nk, other):
            return False
        return not count_steps(b, nw if s.black_to_move else nb, nk, b.valid & ~(nb | nw),
                               other)

    def look(self, move: Move) -> Verdict:
        """The value of a forced move, from a short search (the static value if stopped)."""
        try:
            return replace(self.verdict(self.search_move(move, FORCED_LOOK, -WIN, WIN)),
                           depth=FORCED_LOOK)
        except SearchStopped:
            s = self.state
            nb, nw, nk = apply(self.b, s.black, s.white, s.kings, s.black_to_move, move)
            return Verdict(to_utility_scale(score(self.b, nb, nw, nk, self.weights)), False,
                           None)

    # --- the search -----------------------------------------------------------------------

    def check(self) -> None:
        """Every 1,024 nodes: stop when asked (the stop also shows the node count), and
        keep the table within its size."""
        if self.stop.observe(self.nodes):
            raise SearchStopped
        if len(self.table) >= self.table.capacity:
            self.table.make_room()

    def observe(self, nodes: int) -> bool:
        """The compiled search's call every 1,024 nodes (`compiled_negamax`): `check` at
        its count (which raises SearchStopped itself)."""
        self.nodes = nodes
        self.check()
        return False

    def evaluate(self, black: int, white: int, kings: int, btm: bool) -> int:
        s = score(self.b, black, white, kings, self.weights)
        return s if btm else -s

    def negamax(self, black: int, white: int, kings: int, btm: bool, h: int, depth: int,
                alpha: int, beta: int, ply: int, game_ply: int, quiet: int,
                line: list[int], since: int) -> int:
        """Value for the side to move, from `line` (hashes from the game's start of the
        reversible stretch to here; `since` is where the current stretch began)."""
        self.nodes += 1
        if self.nodes & 1023 == 0:
            self.check()
        if ply > self.seldepth:
            self.seldepth = ply
        b = self.b
        moves = generate_captures(b, black, white, kings, btm)
        if (depth <= 0 and not (moves and self.quiescence)) or ply >= MAX_PLY:
            # A leaf: only ask whether a move exists.
            if not moves and not count_steps(b, black if btm else white, kings,
                                             b.valid & ~(black | white), btm):
                return -(WIN - ply)
            if self.drawn(h, game_ply, quiet, line, since):
                return 0
            return self.evaluate(black, white, kings, btm)
        if moves:
            if self.game.max_capture:
                most = max(len(m[0]) for m in moves)
                moves = [m for m in moves if len(m[0]) == most]
        else:
            moves = generate_steps(b, black, white, kings, btm)
            if not moves:
                return -(WIN - ply)
        if self.drawn(h, game_ply, quiet, line, since):
            return 0
        if len(moves) == 1 and self.quiescence:
            depth += 1  # a forced move costs no depth

        entries = self.entries
        tt_move = None
        if entries is not None:
            entry = entries.get(h)
            if entry is not None:
                self.hits += 1
                tt_move = entry[3]
                if entry[0] >= depth:
                    v = from_table(entry[2], ply)
                    bound = entry[1]
                    if bound == EXACT:
                        return v
                    if bound == LOWER and v >= beta:
                        return v
                    if bound == UPPER and v <= alpha:
                        return v

        ordered = self.order(moves, tt_move, ply, btm)
        a0, pvs = alpha, self.pvs
        best_value, best_move = -WIN, ordered[0][0]
        for i, move in enumerate(ordered):
            nb, nw, nk = apply(b, black, white, kings, btm, move)
            nh = hash_after(b, h, black, white, kings, btm, move, nk)
            irreversible = bool(move[3]) or not kings & move[1]
            line.append(nh)
            child_since = len(line) - 1 if irreversible else since
            child_quiet = 0 if irreversible else quiet + 1
            args = (nb, nw, nk, not btm, nh, depth - 1)
            rest = (ply + 1, game_ply + 1, child_quiet, line, child_since)
            try:
                if i == 0 or not pvs:
                    v = -self.negamax(*args, -beta, -alpha, *rest)
                else:  # principal-variation search: prove it is worse with a null window
                    v = -self.negamax(*args, -alpha - 1, -alpha, *rest)
                    if alpha < v < beta:
                        v = -self.negamax(*args, -beta, -v, *rest)
            finally:
                line.pop()
            if v > best_value:
                best_value, best_move = v, move[0]
            if v > alpha:
                alpha = v
            if alpha >= beta:
                if not move[3] and self.killing:
                    self.remember_cutoff(move, ply, depth, btm)
                break

        if entries is not None:
            bound = UPPER if best_value <= a0 else LOWER if best_value >= beta else EXACT
            entries[h] = (depth, bound, to_table(best_value, ply), best_move)
        return best_value

    def compiled_negamax(self, black: int, white: int, kings: int, btm: bool, h: int,
                         depth: int, alpha: int, beta: int, ply: int, game_ply: int,
                         quiet: int, line: list[int], since: int) -> int:
        """`negamax` in C (native/search.c), counting on in this kernel's nodes, hits and
        seldepth; it calls `check` every 1,024 nodes, as `negamax` does."""
        value: int = self.compiled.negamax(self, black, white, kings, btm, h, depth, alpha,
                                           beta, ply, game_ply, quiet, line, since)
        return value

    def drawn(self, h: int, game_ply: int, quiet: int, line: list[int], since: int) -> bool:
        game = self.game
        if game.ply_limit and game_ply >= game.ply_limit:
            return True
        if game.draw == "tournament" and quiet >= TOURNAMENT_QUIET_PLIES:
            return True
        # Any repetition since the last irreversible move counts as a draw inside the
        # search: the side that repeated could repeat again, and it stops circling.
        return h in line[since:-1]

    def order(self, moves: list[Move], tt_move: Path | None, ply: int,
              btm: bool) -> list[Move]:
        """The table's move, then (ordering) the longest captures or (killers) the killer
        moves and the steps with the most history."""
        if moves[0][3]:
            ranked = sorted(moves, key=lambda m: -len(m[0])) if self.ordering else moves
        elif self.killing:
            killers = self.killers[ply]
            history = self.history
            side = 0 if btm else 1

            def rank(m: Move) -> int:
                path = m[0]
                if path == killers[0]:
                    return -1_000_000
                if path == killers[1]:
                    return -999_999
                return -history.get((side, path[0] * 256 + path[1]), 0)

            ranked = sorted(moves, key=rank)
        else:
            ranked = moves
        if tt_move is not None:
            for i, m in enumerate(ranked):
                if m[0] == tt_move:
                    if i:
                        ranked = [m, *ranked[:i], *ranked[i + 1:]]
                    break
        return ranked

    def remember_cutoff(self, move: Move, ply: int, depth: int, btm: bool) -> None:
        killers = self.killers[ply]
        if killers[0] != move[0]:
            killers[1] = killers[0]
            killers[0] = move[0]
        key = (0 if btm else 1, move[0][0] * 256 + move[0][1])
        self.history[key] = self.history.get(key, 0) + depth * depth


def to_table(v: int, ply: int) -> int:
    """Win scores count plies from the root; the table stores them from this node."""
    if v >= WIN_BOUND:
        return v + ply
    if v <= -WIN_BOUND:
        return v - ply
    return v


def from_table(v: int, ply: int) -> int:
    if v >= WIN_BOUND:
        return v - ply
    if v <= -WIN_BOUND:
        return v + ply
    return v
