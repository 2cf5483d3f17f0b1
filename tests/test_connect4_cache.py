"""The cache of solved Connect Four positions (games/connect4/cache.py): what it keeps,
that the solver starts from it, its bound, two processes writing at once, a damaged file,
and the parallel --all-moves that writes to it (games/connect4/parallel.py)."""

from __future__ import annotations

import multiprocessing
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from zerosum.games.connect4.analysis import solve_rows
from zerosum.games.connect4.bitboard import geometry
from zerosum.games.connect4.book import mirror, positions
from zerosum.games.connect4.cache import CacheError, SolvedCache, default_path, user_cache
from zerosum.games.connect4.game import Connect4
from zerosum.games.connect4.solver import Solver
from zerosum.stop import SearchStopped

GEO = geometry()
# Pons's Test_L2_R1 first line: 20 stones, score -2 (see test_connect4.py).
LATE = "2252576253462244111563365343671351441"


def position(moves: str) -> tuple[int, int]:
    state = Connect4().initial_state()
    game = Connect4()
    for ch in moves:
        state = game.result(state, int(ch) - 1)
    return state.current, state.mask


def test_default_path_follows_the_environment(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    monkeypatch.delenv("ZEROSUM_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_path() == tmp_path / "zerosum" / "connect4.sqlite"
    monkeypatch.setenv("ZEROSUM_CACHE", str(tmp_path / "mine.db"))
    assert default_path() == tmp_path / "mine.db"
    monkeypatch.setenv("ZEROSUM_CACHE", "off")
    assert default_path() is None and user_cache() is None
    assert user_cache("off") is None


def test_bounds_merge_and_a_mirror_image_shares_the_row(tmp_path: Path) -> None:
    cache = SolvedCache(tmp_path / "c.sqlite")
    current, mask = position("1123")
    assert cache.bounds(GEO, current, mask) is None
    cache.store(GEO, current, mask, -3, 10)
    cache.store(GEO, current, mask, 0, 12)  # only narrows
    assert cache.bounds(GEO, current, mask) == (0, 10)
    flipped = (mirror(GEO, current), mirror(GEO, mask))
    assert cache.bounds(GEO, *flipped) == (0, 10) and cache.score(GEO, *flipped) is None
    cache.store(GEO, *flipped, 4, 4)
    assert cache.score(GEO, current, mask) == 4 and len(cache) == 1
    cache.close()
    assert SolvedCache(tmp_path / "c.sqlite").score(GEO, current, mask) == 4  # persists


def test_a_solver_with_a_cache_never_solves_twice(tmp_path: Path) -> None:
    cache = SolvedCache(tmp_path / "c.sqlite")
    current, mask = position(LATE)
    first = Solver(cache=cache)
    assert first.solve(current, mask) == -1 and first.nodes > 0
    assert cache.score(GEO, current, mask) == -1
    again = Solver(cache=cache)
    assert again.solve(current, mask) == -1 and again.nodes == 0
    assert again.solve(current, mask, weak=True) == -1 and again.nodes == 0
    # Each move's score, read off the children: solved by --all-moves.
    rows = dict(solve_rows(LATE, all_scores=True, cache=str(tmp_path / "c.sqlite"),
                           threads=1))
    assert cache.move_scores(GEO, current, mask) == {5: -1, 6: -2}
    assert rows["move 6"] == "-1 (Red wins in 4 plies)" \
        and rows["move 7"] == "-2 (Red wins in 2 plies)"
    rows = dict(solve_rows(LATE, all_scores=True, cache=str(tmp_path / "c.sqlite"),
                           threads=1))
    assert rows["nodes"] == "0"  # score, best moves, every move and the line: all known


def test_a_stopped_solve_leaves_what_it_proved(tmp_path: Path) -> None:
    cache = SolvedCache(tmp_path / "c.sqlite")
    current, mask = position("4444443")  # score -1 (see test_connect4_native.py)
    plain = Solver(book=False)  # the book holds it: the search is what is stopped here
    assert plain.solve(current, mask) == -1
    stopped = Solver(cache=cache, book=False)
    stopped.limit(nodes=plain.nodes // 2)
    with pytest.raises(SearchStopped):
        stopped.solve(current, mask)
    lo, hi = cache.bounds(GEO, current, mask) or (None, None)
    assert lo is not None and hi is not None and lo <= -1 <= hi and (lo, hi) != (-17, 18)
    resumed = Solver(cache=cache, book=False)
    assert resumed.solve(current, mask) == -1
    assert cache.score(GEO, current, mask) == -1


def test_the_cache_is_bounded(tmp_path: Path) -> None:
    cache = SolvedCache(tmp_path / "c.sqlite", max_entries=100)
    keys = list(positions(GEO, 5).values())[:1000]
    for i, (current, mask) in enumerate(keys):
        cache.store(GEO, current, mask, i % 5, i % 5)
    assert 90 <= len(cache) <= 110
    assert cache.score(GEO, *keys[-1]) == (len(keys) - 1) % 5  # the newest stays
    assert cache.bounds(GEO, *keys[0]) is None  # the oldest went


def _writer(path: str, start: int, count: int) -> None:
    cache = SolvedCache(path)
    for current, mask in list(positions(GEO, 5).values())[start:start + count]:
        # The overlapping half gets different bounds from the two writers.
        cache.store(GEO, current, mask, -10 + start // 100, 10 - start // 100)
    cache.close()


def test_two_processes_writing_at_once(tmp_path: Path) -> None:
    path = str(tmp_path / "c.sqlite")
    SolvedCache(path).close()  # the schema first, as a server's start does
    ctx = multiprocessing.get_context("spawn")
    writers = [ctx.Process(target=_writer, args=(path, start, 400)) for start in (0, 200)]
    for w in writers:
        w.start()
    for w in writers:
        w.join(120)
        assert w.exitcode == 0
    cache = SolvedCache(path)
    assert len(cache) == 600
    keys = list(positions(GEO, 5).values())
    assert cache.bounds(GEO, *keys[0]) == (-10, 10)
    assert cache.bounds(GEO, *keys[300]) == (-8, 8)  # both wrote it: the intersection
    assert cache.bounds(GEO, *keys[500]) == (-8, 8)
    assert cache.db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert cache.db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_damaged_file_is_refused_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"not a database at all" * 100)
    with pytest.raises(CacheError, match=r"bad\.sqlite: file is not a database"):
        SolvedCache(bad)
    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("INSERT INTO meta VALUES ('schema', '99')")
    db.commit()
    db.close()
    with pytest.raises(CacheError, match="schema 99, not 1"):
        SolvedCache(other)
    done = subprocess.run([sys.executable, "-m", "zerosum", "solve", "connect4", "4455",
                           "--cache", str(bad)], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "file is not a database" in done.stderr
    assert bad.read_bytes() == b"not a database at all" * 100  # left as it was


def test_all_moves_in_two_processes_gives_the_same_rows(tmp_path: Path) -> None:
    rows = {}
    for threads in (1, 2):
        done = subprocess.run([sys.executable, "-m", "zerosum", "solve", "connect4",
                               "4444443566", "--all-moves", "--no-pv", "--threads",
                               str(threads), "--cache", "off"],
                              capture_output=True, text=True, timeout=300, check=True)
        rows[threads] = [line for line in done.stdout.splitlines()
                         if not line.startswith(("nodes", "CPU"))]
    assert rows[1] == rows[2]
    assert rows[1][1].startswith("score:               -2:")
    assert "move 6:              -14 (Yellow wins in 6 plies)" in rows[1]
