"""A solved position as a person reads it (what `zerosum solve connect4` prints), and
the solver as a player."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from zerosum.convert import parse_int
from zerosum.fileio import read_text
from zerosum.game import InputError, plies_text
from zerosum.games.connect4.bitboard import Geometry, geometry
from zerosum.games.connect4.cache import SolvedCache, user_cache
from zerosum.games.connect4.game import Connect4, Position, ordinal, plies_to_win
from zerosum.games.connect4.notation import format_moves, parse_position
from zerosum.games.connect4.parallel import default_threads, move_scores
from zerosum.games.connect4.solver import Progress, Solver, plies_to_end
from zerosum.kernel import Lender
from zerosum.result import Clock, Info, InfoSink, Limit, SearchResult, SearchStats
from zerosum.stop import SearchStopped, Stop


def describe_score(score: int, stones_played: int, cells: int) -> str:
    """'+18: the player to move wins with their 4th stone (in 5 plies)' and the like."""
    if score == 0:
        return "0: a draw with best play"
    stone = cells // 2 + 1 - abs(score)
    if score > 0:  # the mover has played n // 2 stones (red moves first)
        n = plies_to_win(stone, stones_played // 2, True)
        return f"{score:+d}: the player to move wins with their {ordinal(stone)} stone " \
               f"(in {plies_text(n)})"
    n = plies_to_win(stone, (stones_played + 1) // 2, False)
    return f"{score:+d}: the player to move loses; the opponent wins with their " \
           f"{ordinal(stone)} stone (in {plies_text(n)})"


def move_words(score: int, stones_played: int, cells: int, red_to_move: bool) -> str:
    """A move's score, from its mover's side like every value shown (docs/search.md),
    and whose win it is: '-17 (Red wins in 2 plies)', '0 (draw)'. The plies count from
    the position the move is played in, as describe_score's do."""
    if score == 0:
        return "0 (draw)"
    stone = cells // 2 + 1 - abs(score)
    mover, other = ("Red", "Yellow") if red_to_move else ("Yellow", "Red")
    if score > 0:
        n = plies_to_win(stone, stones_played // 2, True)
        return f"{score:+d} ({mover} wins in {plies_text(n)})"
    n = plies_to_win(stone, (stones_played + 1) // 2, False)
    return f"{score:+d} ({other} wins in {plies_text(n)})"


def interval_words(lo: int, hi: int, nodes: int) -> str:
    """An interrupted solve's proven interval of the score (Pons's, from the side to
    move), and what it already tells: '[+1, +18] so far, interrupted after 1,234 nodes:
    the player to move wins'."""
    if lo > 0:
        tells = "the player to move wins"
    elif hi < 0:
        tells = "the player to move loses"
    elif lo == 0 == hi:
        tells = "a draw"
    elif lo == 0:
        tells = "the player to move does not lose"
    elif hi == 0:
        tells = "the player to move does not win"
    else:
        tells = "win, draw or loss still open"
    return f"[{lo:+d}, {hi:+d}] so far, interrupted after {nodes:,} nodes: {tells}"


def solve_rows(text: str, width: int = 7, height: int = 6, weak: bool = False,
               pv: bool = True, all_scores: bool = False,
               progress: Callable[[str], None] | None = None, threads: int | None = None,
               cache: str | None = None) -> Iterator[tuple[str, str]]:
    """Parse a position (any notation) and check it now; the rows describing the answer,
    (label, text), come from the returned iterator, each as soon as it is proven, so a
    display can show them as they come (with `all_scores`, one row per move, centre first:
    parallel.py). `threads` (default: the cores): the search threads of each solve (the
    native solver's split nodes); the pure solver's worker processes for `all_scores`.
    `progress` gets a line now and then during long searches (see `Watcher`). `cache`:
    the file of solved positions (see cache.py: None, the user's; "off", none)."""
    geo = _geometry(width, height)
    current, mask, red_to_move = _to_solve(text, geo)
    memory = user_cache(cache)  # opened now: a damaged file is refused before any row
    return _report(geo, current, mask, red_to_move, weak, pv, all_scores, progress,
                   default_threads() if threads is None else threads, memory)


def _geometry(width: int, height: int) -> Geometry:
    try:
        return geometry(width, height)
    except ValueError as e:
        raise InputError(str(e)) from None


def _to_solve(text: str, geo: Geometry) -> tuple[int, int, bool]:
    """The position `text` names, (current, mask, red to move), if there is something
    to solve in it; InputError saying what is wrong otherwise."""
    stones = parse_position(text, geo)
    red_n, yellow_n = stones.red.bit_count(), stones.yellow.bit_count()
    if red_n not in (yellow_n, yellow_n + 1):
        raise InputError(f"position has {red_n} red and {yellow_n} yellow stones: red moves "
                         "first, so red has as many as yellow or one more")
    if geo.has_four(stones.red) or geo.has_four(stones.yellow):
        raise InputError("position is already won: there is nothing to solve")
    mask = stones.red | stones.yellow
    if mask == geo.board:
        raise InputError("the board is full: the game is over (a draw)")
    red_to_move = red_n == yellow_n
    return (stones.red if red_to_move else stones.yellow), mask, red_to_move


FILE_LIMIT = 16 * 1024 * 1024  # bytes of a file of positions: some 400,000 of them


def solve_file_rows(path: str, width: int = 7, height: int = 6,
                    progress: Callable[[str], None] | None = None,
                    threads: int | None = None) -> Iterator[tuple[str, str]]:
    """Each position of a file, one a line, `POSITION [SCORE]` (Pons's sets' format; '-'
    reads standard input; blank lines and lines from '#' are skipped): its score, each
    position solved from a cleared table (Solver.solve_each), `threads` (default: the
    cores) at a time. A score given in the file is checked: a row that differs says so.
    The whole file is read and checked before anything is solved."""
    geo = _geometry(width, height)
    name = "<stdin>" if path == "-" else path
    todo = []
    for number, line in enumerate(read_text(path, "file of positions", FILE_LIMIT)
                                  .splitlines(), start=1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        where = f"{name}, line {number}"
        if len(fields) > 2:
            raise InputError(f"{where}: a line holds a position and at most its score "
                             f"(moves without spaces), not {len(fields)} fields")
        try:
            current, mask, _ = _to_solve(fields[0], geo)
            given = None if len(fields) == 1 else parse_int(fields[1], "the score")
        except InputError as e:
            raise InputError(f"{where}: {e}") from None
        todo.append((fields[0], current, mask, given))
    if not todo:
        raise InputError(f"{name}: no position in it")
    return _solve_file(geo, todo, progress, default_threads() if threads is None else threads)


def _solve_file(geo: Geometry, todo: list[tuple[str, int, int, int | None]],
                progress: Callable[[str], None] | None, threads: int
                ) -> Iterator[tuple[str, str]]:
    solver = Solver(geo.width, geo.height, threads=threads)
    if progress is not None:
        last = [time.perf_counter()]

        def report(_: Progress) -> None:
            now = time.perf_counter()
            if now - last[0] >= 2.0:
                last[0] = now
                progress(f"{solver.solved:,} of {len(todo):,} positions solved")

        solver.watch(report, every=1 << 18)
    t0 = time.perf_counter()
    answers = solver.solve_each([(current, mask) for _, current, mask, _ in todo])
    seconds = time.perf_counter() - t0
    differ = 0
    for (text, _, _, given), (score, _) in zip(todo, answers, strict=True):
        if given is not None and given != score:
            differ += 1
            yield text, f"{score} (the file says {given})"
        else:
            yield text, f"{score}"
    checked = sum(given is not None for *_, given in todo)
    yield "positions", (f"{len(todo):,} solved in {seconds:.2f} s with {threads} "
                        f"thread(s), {solver.nodes:,} nodes")
    if checked:
        yield "checked", f"{checked - differ:,} of {checked:,} scores as the file says"


# The command's table, twice the default (64 MB natively, each worker process too): on
# hard positions a bigger table saves some nodes (Pons's L1_R3, its first 6 positions:
# 131.8M nodes with 2M entries, 126.0M with 8M).
COMMAND_CAPACITY = (1 << 22) - 2


class Watcher:
    """A solver's progress (`Solver.watch`) as lines for `show`: each null window's answer
    with the score's interval proven so far, and between them, every `every` seconds,
    the nodes and nodes/s; `phase` names what the solver is doing."""

    def __init__(self, show: Callable[[str], None], every: float = 2.0) -> None:
        self.show, self.every = show, every
        self.phase = "score"
        self.cpu0 = time.process_time()
        self.last = -every

    def __call__(self, p: Progress) -> None:
        cpu = time.process_time() - self.cpu0
        # Between the score's windows only every `every` seconds (a move's windows,
        # dozens a second, would flood the display).
        if (not p.answered or self.phase != "score") and cpu - self.last < self.every:
            return
        self.last = cpu
        rate = f"{p.nodes:,} nodes, {p.nodes / max(cpu, 1e-9) / 1e6:.2f}M nodes/s"
        if self.phase != "score":
            self.show(f"{self.phase}: {rate}")
        elif p.answered:
            answer = "yes" if p.lo > p.window else "no"
            self.show(f"score > {p.window:+d}? {answer}: the score is in "
                      f"[{p.lo:+d}, {p.hi:+d}]; {rate}")
        else:
            self.show(f"score > {p.window:+d}? searching; the score is in "
                      f"[{p.lo:+d}, {p.hi:+d}]; {rate}")


def _report(geo: Geometry, current: int, mask: int, red_to_move: bool, weak: bool,
            pv: bool, all_scores: bool, progress: Callable[[str], None] | None,
            threads: int, cache: SolvedCache | None) -> Iterator[tuple[str, str]]:
    n = mask.bit_count()
    solver = Solver(geo.width, geo.height, capacity=COMMAND_CAPACITY, cache=cache,
                    threads=threads)
    watcher = None if progress is None else Watcher(progress)
    # The score's interval as the null windows narrow it: kept for an interrupted solve.
    proven = [-((geo.cells - n) // 2), (geo.cells + 1 - n) // 2]

    def record(p: Progress) -> None:
        if p.answered:
            proven[:] = [p.lo, p.hi]
        if watcher is not None:
            watcher(p)

    solver.watch(record, every=1 << 18)
    side = "red (X)" if red_to_move else "yellow (O)"
    yield "position", f"{n} stones, {side} to move"
    if weak:
        result = solver.solve(current, mask, weak=True)
        word = {1: "the player to move wins", 0: "a draw", -1: "the player to move loses"}
        yield "result", word[result]
        yield "nodes", f"{solver.nodes:,}"
        return
    visited = 0  # nodes of worker processes
    if all_scores:
        # The score is the best of the moves' scores: no search of its own.
        if watcher is not None:
            watcher.phase = "every move"
        scores = {}
        try:
            for c, s, nodes in move_scores(solver, current, mask, threads):
                scores[c] = s
                visited += nodes
        except KeyboardInterrupt:
            # Ctrl-C: the position scores at least its best move proven so far.
            # (`proven` is of no use here: the searches were the moves', not its own.)
            lowest, highest = -((geo.cells - n) // 2), (geo.cells + 1 - n) // 2
            lo = max(scores.values(), default=lowest)
            yield "score", interval_words(lo, highest, solver.nodes + visited)
            for c in geo.centre_order:
                if c in scores:
                    yield f"move {format_moves([c])}", move_words(scores[c], n, geo.cells,
                                                                 red_to_move)
            raise
        score = max(scores.values())
        best = [c for c in scores if scores[c] == score]
    else:
        try:
            score = solver.solve(current, mask)
        except KeyboardInterrupt:
            # Ctrl-C: what the finished null windows proved is still true; say it, stop.
            yield "score", interval_words(proven[0], proven[1], solver.nodes)
            raise
    yield "score", describe_score(score, n, geo.cells)
    if not all_scores:
        if watcher is not None:
            watcher.phase = "best moves"
        best = solver.best_moves(current, mask, score)
    yield "best moves", " ".join(format_moves([c]) for c in sorted(best))
    if all_scores:
        for c in geo.centre_order:
            if c in scores:
                yield f"move {format_moves([c])}", move_words(scores[c], n, geo.cells,
                                                             red_to_move)
    if pv:
        if watcher is not None:
            watcher.phase = "principal variation"
        yield "principal variation", format_moves(solver.principal_variation(
            current, mask, score)) or "-"
    yield "nodes", f"{solver.nodes + visited:,}"



_PLAYING: dict[tuple[int, int], Lender[Solver]] = {}
_PLAYING_LOCK = threading.Lock()


@contextmanager
def playing_solver(geo: Geometry) -> Iterator[Solver]:
    """The solver the "solver" player keeps from move to move (its table holds proven
    bounds, true in any later search), with the user's cache (cache.py), lent for one
    search: `zerosum review` values positions with it, and a server's sessions and value
    graphs search at once, each with a solver of its own."""
    key = (geo.width, geo.height)
    with _PLAYING_LOCK:
        if key not in _PLAYING:
            _PLAYING[key] = Lender()
    with _PLAYING[key].lend(lambda: Solver(geo.width, geo.height)) as solver:
        solver.cache = user_cache()  # ZEROSUM_CACHE may have changed
        yield solver


def solver_analyser(game: Connect4, state: Position, limit: Limit,
                    on_info: InfoSink | None = None, stop: Stop | None = None) -> SearchResult:
    """The perfect solver as a player (an Analyser): within the limit (its time and node
    budget) a best move, most central when tied, and the exact value. When the solver
    cannot finish, the engine's first choice without a search (a block, never a move
    letting the opponent win at once, most threats created, centre first) with the
    evaluation's estimate: the value is then not decided."""
    from zerosum.games.connect4.engine import SCALE, Connect4Kernel, heuristic

    clock = Clock()
    geo, current, mask = game.geo, state.current, state.mask
    with playing_solver(geo) as solver:
        solver.clock, solver.stop = time.perf_counter if stop is None else stop.clock, stop
        nodes0 = solver.nodes
        solver.limit(seconds=limit.seconds, nodes=limit.nodes)
        sign = 1 if state.red_to_move else -1
        try:
            score = solver.solve(current, mask)
            column = solver.best_move(current, mask, score)
            value, decided = float(sign * score), True
            plies = plies_to_end(geo, mask.bit_count(), score)
        except SearchStopped:
            kernel = Connect4Kernel(game, state, Stop())
            column = kernel.action(kernel.start_pass(1)[0])
            estimate = heuristic(geo, current, mask, state.red_to_move) / SCALE
            value, decided, plies = sign * estimate, False, None
        finally:
            solver.limit()
            solver.stop = None
        nodes = solver.nodes - nodes0
    stats = SearchStats(nodes=nodes)
    clock.stamp(stats)
    if on_info is not None:
        on_info(Info(None if decided else 0, value, (column,), stats.nodes, stats.wall_time,
                     decided, plies))
    # Stopped: the evaluation's estimate without a search, depth 0, never "depth end".
    return SearchResult(value, column, [column], stats, depth=None if decided else 0,
                        complete=decided,
                        decided=decided, algorithm="connect4 solver", plies=plies)
