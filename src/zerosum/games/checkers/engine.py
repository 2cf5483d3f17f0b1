"""A strong checkers engine: its own search on the bitboards, for serious play.

- Negamax alpha-beta with principal-variation search (null windows after the first
  move) and a transposition table keyed by a Zobrist hash updated incrementally.
- Iterative deepening under a time limit; the deepest finished pass is the answer.
- Quiescence: at the depth limit a side that must capture keeps capturing (captures are
  forced, so a position in the middle of an exchange is never evaluated); a position
  with a single legal move does not use up depth either.
- Move ordering: the table's move, then longer captures, killer moves, the history
  heuristic.
- Draws inside the search: repetition of a position on the current line (since the last
  irreversible move), the course move limit, the tournament 40-move rule.
- Evaluation: `evaluation.score` (material, advancement, back row, centre, mobility).

On boards small enough to solve (4x4) it plays from the exact solution instead, which
is perfect play (`solve.py`).

The value it reports is on the game's scale, from Black's side: +1/-1 for a forced
win/loss, otherwise the evaluation mapped into (-1, 1).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from zerosum.games.checkers.board import (
    Board,
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
from zerosum.games.checkers.evaluation import score, to_utility_scale
from zerosum.games.checkers.rules import TOURNAMENT_QUIET_PLIES, Checkers, State
from zerosum.games.checkers.solve import Position, Solution, best_moves, solve
from zerosum.result import SearchResult, SearchStats
from zerosum.stop import Stop

WIN = 1_000_000
WIN_BOUND = WIN - 10_000  # scores beyond this are forced wins (minus plies to get there)
EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 120


class TimeUp(Exception):
    pass


@dataclass(slots=True)
class Entry:
    depth: int
    value: int
    bound: int
    move: Path | None


class Engine:
    """One engine per game (it keeps its table between moves)."""

    def __init__(self, game: Checkers, table_size: int = 1_000_000,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        """`clock` measures the time per move: wall time by default, or e.g.
        time.process_time for benchmarks on a machine shared with other jobs."""
        self.clock = clock
        self.game = game
        self.b: Board = game.board
        self.max_capture = game.max_capture
        self.table: dict[int, Entry] = {}
        self.table_size = table_size
        self.history: dict[tuple[int, int], int] = {}
        self.killers: list[list[Path | None]] = [[None, None] for _ in range(MAX_PLY + 64)]
        self.nodes = 0
        self.evaluated = 0
        self.seldepth = 0
        self.deadline = 0.0
        self.solutions: dict[tuple[Position, bool], Solution] = {}
        self.root_best: tuple[int, Path] | None = None  # best finished root move this pass
        self.stop: Stop | None = None  # a stop from outside, and where progress is shown

    # --- the public entry point ----------------------------------------------------

    def search(self, state: State, seconds: float, max_depth: int = 64,
               stop: Stop | None = None) -> SearchResult:
        """`stop`, if given, can end the search early from another thread (the best
        move so far is played) and receives the progress: nodes, depth done, best move."""
        t_cpu, t_wall = time.process_time(), time.perf_counter()
        self.nodes = self.evaluated = self.seldepth = 0
        self.stop = stop
        try:
            result = self._search(state, seconds, max_depth)
        finally:
            self.stop = None
        stats = result.stats
        stats.nodes, stats.evaluated, stats.max_depth = self.nodes, self.evaluated, self.seldepth
        stats.cpu_time = time.process_time() - t_cpu
        stats.wall_time = time.perf_counter() - t_wall
        return result

    def _search(self, state: State, seconds: float, max_depth: int) -> SearchResult:
        game = self.game
        moves = game.actions(state)
        if not moves:
            return SearchResult(game.utility(state), None, [], SearchStats(), 0, True, True,
                                "checkers-engine")
        if self.b.n == 4:
            return self._play_solved(state)
        if len(moves) == 1:  # forced: a short look ahead, only to report a value
            max_depth = min(max_depth, 4)
        if len(self.table) > self.table_size:
            self.table.clear()
        self.history.clear()
        start = self.clock()
        self.deadline = start + seconds
        h = zobrist_hash(self.b, state.black, state.white, state.kings, state.black_to_move)
        line = list(state.history) if game.draw == "tournament" else [h]
        best: tuple[int, Path, int] | None = None
        for depth in range(1, max_depth + 1):
            self.root_best = None
            try:
                value = self._root(state, h, depth, line)
            except TimeUp:
                # An unfinished pass still counts for the root moves it finished: they were
                # searched first-best-first, so its best so far is the better informed one.
                if self.root_best is not None and best is not None:
                    best = (self.root_best[0], self.root_best[1], best[2])
                break
            entry = self.table.get(h)
            move = entry.move if entry is not None and entry.move is not None else moves[0]
            best = (value, move, depth)
            if self.stop is not None:
                self.stop.depth, self.stop.best = depth, move
            if abs(value) >= WIN_BOUND:
                break  # a forced result: deeper search cannot change it
            elapsed = self.clock() - start
            if elapsed > 0.6 * seconds:  # the next pass would get too little of the way
                break
        if best is None:
            return SearchResult(0.0, moves[0], [moves[0]], SearchStats(), 0, False, False,
                                "checkers-engine")
        value, move, depth = best
        sign = 1 if state.black_to_move else -1
        pv = self._pv(state, h)
        if abs(value) >= WIN_BOUND:
            game_value = float(sign if value > 0 else -sign)
        else:
            game_value = to_utility_scale(sign * value)
        return SearchResult(game_value, move, pv or [move], SearchStats(), depth, True,
                            abs(value) >= WIN_BOUND, "checkers-engine")

    def _play_solved(self, state: State) -> SearchResult:
        pos = (state.black, state.white, state.kings, state.black_to_move)
        key = (pos, self.max_capture)
        sol = self.solutions.get(key)
        if sol is None or pos not in sol.table:
            sol = solve(self.b, pos, self.max_capture)
            self.solutions[key] = sol
        left = self.game.ply_limit - state.ply if self.game.ply_limit else None
        ranked = best_moves(sol, pos, left)
        move, v = ranked[0]
        self.nodes = len(sol.table)
        sign = 1 if state.black_to_move else -1
        return SearchResult(float(sign * v), move, [move], SearchStats(), None, True, True,
                            "checkers-solved")

    def _pv(self, state: State, h: int) -> list[Path]:
        """The principal variation, read from the table."""
        pv: list[Path] = []
        black, white, kings, btm = state.black, state.white, state.kings, state.black_to_move
        seen = {h}
        for _ in range(32):
            entry = self.table.get(h)
            if entry is None or entry.move is None:
                break
            moves = generate(self.b, black, white, kings, btm, self.max_capture)
            move = next((m for m in moves if m[0] == entry.move), None)
            if move is None:
                break
            pv.append(move[0])
            nb, nw, nk = apply(self.b, black, white, kings, btm, move)
            h = hash_after(self.b, h, black, white, kings, btm, move, nk)
            black, white, kings, btm = nb, nw, nk, not btm
            if h in seen:
                break
            seen.add(h)
        return pv

    # --- search ----------------------------------------------------------------------

    def _root(self, state: State, h: int, depth: int, line: list[int]) -> int:
        return self._negamax(state.black, state.white, state.kings, state.black_to_move, h,
                             depth, -WIN, WIN, 0, state.ply, state.quiet, line, 0)

    def out_of_time(self) -> bool:
        """Asked every 1024 nodes: is the deadline past or a stop requested? (It also
        shows the node count to whoever watches the stop.)"""
        if self.stop is not None and self.stop.observe(self.nodes):
            return True
        return self.clock() > self.deadline

    def _eval(self, black: int, white: int, kings: int, btm: bool) -> int:
        s = score(self.b, black, white, kings)
        return s if btm else -s

    def _negamax(self, black: int, white: int, kings: int, btm: bool, h: int, depth: int,
                 alpha: int, beta: int, ply: int, game_ply: int, quiet: int,
                 line: list[int], since: int) -> int:
        """Value for the side to move, from `line` (hashes from the game's start of the
        reversible stretch to here; `since` is where the current stretch began)."""
        self.nodes += 1
        if self.nodes & 1023 == 0 and self.out_of_time():
            raise TimeUp
        if ply > self.seldepth:
            self.seldepth = ply
        b = self.b
        moves = generate_captures(b, black, white, kings, btm)
        if moves:
            if self.max_capture:
                most = max(len(m[0]) for m in moves)
                moves = [m for m in moves if len(m[0]) == most]
        elif depth <= 0 or ply >= MAX_PLY:  # a quiet leaf: only ask whether a move exists
            if not count_steps(b, black if btm else white, kings, b.valid & ~(black | white),
                               btm):
                return -(WIN - ply)
            if ply > 0 and self._drawn(h, game_ply, quiet, line, since):
                return 0
            self.evaluated += 1
            return self._eval(black, white, kings, btm)
        else:
            moves = generate_steps(b, black, white, kings, btm)
            if not moves:
                return -(WIN - ply)
        if ply > 0 and self._drawn(h, game_ply, quiet, line, since):
            return 0
        if ply >= MAX_PLY:
            self.evaluated += 1
            return self._eval(black, white, kings, btm)
        if len(moves) == 1:
            depth += 1  # a forced move costs no depth

        entry = self.table.get(h)
        tt_move = None
        if entry is not None:
            tt_move = entry.move
            if entry.depth >= depth and ply > 0:
                v = _from_table(entry.value, ply)
                if entry.bound == EXACT:
                    return v
                if entry.bound == LOWER and v >= beta:
                    return v
                if entry.bound == UPPER and v <= alpha:
                    return v

        ordered = self._order(moves, tt_move, ply, btm)
        a0 = alpha
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
                if i == 0:
                    v = -self._negamax(*args, -beta, -alpha, *rest)
                else:  # principal-variation search: prove it is worse with a null window
                    v = -self._negamax(*args, -alpha - 1, -alpha, *rest)
                    if alpha < v < beta:
                        v = -self._negamax(*args, -beta, -v, *rest)
            finally:
                line.pop()
            if v > best_value:
                best_value, best_move = v, move[0]
                if ply == 0:
                    self.root_best = (v, best_move)
            if v > alpha:
                alpha = v
            if alpha >= beta:
                if not move[3]:
                    self._remember_cutoff(move, ply, depth, btm)
                break

        bound = UPPER if best_value <= a0 else LOWER if best_value >= beta else EXACT
        self.table[h] = Entry(depth, _to_table(best_value, ply), bound, best_move)
        return best_value

    def _drawn(self, h: int, game_ply: int, quiet: int, line: list[int], since: int) -> bool:
        game = self.game
        if game.ply_limit and game_ply >= game.ply_limit:
            return True
        if game.draw == "tournament" and quiet >= TOURNAMENT_QUIET_PLIES:
            return True
        # Any repetition since the last irreversible move counts as a draw inside the
        # search: the side that repeated could repeat again, and it stops circling.
        return h in line[since:-1]

    def _order(self, moves: list[Move], tt_move: Path | None, ply: int, btm: bool) -> list[Move]:
        if moves[0][3]:  # captures: the longest first
            ranked = sorted(moves, key=lambda m: -len(m[0]))
        else:
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
        if tt_move is not None:
            for i, m in enumerate(ranked):
                if m[0] == tt_move:
                    if i:
                        ranked.insert(0, ranked.pop(i))
                    break
        return ranked

    def _remember_cutoff(self, move: Move, ply: int, depth: int, btm: bool) -> None:
        killers = self.killers[ply]
        if killers[0] != move[0]:
            killers[1] = killers[0]
            killers[0] = move[0]
        key = (0 if btm else 1, move[0][0] * 256 + move[0][1])
        self.history[key] = self.history.get(key, 0) + depth * depth


def _to_table(v: int, ply: int) -> int:
    """Win scores count plies from the root; the table stores them from this node."""
    if v >= WIN_BOUND:
        return v + ply
    if v <= -WIN_BOUND:
        return v - ply
    return v


def _from_table(v: int, ply: int) -> int:
    if v >= WIN_BOUND:
        return v - ply
    if v <= -WIN_BOUND:
        return v + ply
    return v


_ENGINES: dict[int, Engine] = {}


def engine_move(game: Checkers, state: State, seconds: float,
                stop: Stop | None = None) -> SearchResult:
    """The registry's engine entry point: (game, state, seconds) -> SearchResult.
    Keeps one engine (and its table) per game object."""
    engine = _ENGINES.get(id(game))
    if engine is None or engine.game is not game:
        engine = Engine(game)
        _ENGINES.clear()  # one game at a time: free the old tables
        _ENGINES[id(game)] = engine
    return engine.search(state, seconds, stop=stop)
