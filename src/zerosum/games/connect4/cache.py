"""A memory of what the solver proved: for each position met at the top of a solve, the
interval [lo, hi] its score is known to lie in (exact when lo == hi), kept in a SQLite
file so that `zerosum solve`, the analysis board, `zerosum review` and anything else
using the solver never prove the same thing twice, across runs and processes.

Only the positions a solve is asked about (and the children whose scores `--all-moves`
or a best move needs) are kept, not the search's inner nodes: a few rows a question.
A move's score is its child's, so "each move's score" is read off the children's rows
(`move_scores`). Bounds are kept, not only exact scores: a solve stopped by a deadline
leaves what it proved ("draw or better", [0, 18]) and the next one starts from there.

A position and its mirror image have the same score: one row for both, under the
smaller key (book.canonical), so a row serves either orientation.

Where: $ZEROSUM_CACHE if set (a file path; "off" or empty: no cache), else
$XDG_CACHE_HOME/zerosum/connect4.sqlite, else ~/.cache/zerosum/connect4.sqlite.
Bounded: past `max_entries` rows the least recently stored tenth goes. Safe with
several processes at once: SQLite's write-ahead log (readers never wait, writers queue
behind a busy timeout) and every update a merge of intervals (lo = max, hi = min), so
two writers' answers combine in either order. A file that is not a usable cache (not
SQLite, damaged, unwritable) is refused with one line (`CacheError`, an InputError:
exit status 2 at the command line), never moved or deleted: it may be a person's file.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path

from zerosum.game import InputError
from zerosum.games.connect4.bitboard import Geometry
from zerosum.games.connect4.book import canonical

ENV = "ZEROSUM_CACHE"
DEFAULT_MAX_ENTRIES = 1_000_000  # rows (about 60 bytes each on disk)
BUSY_SECONDS = 30.0  # how long a writer waits for another process's write to end
EVICT_CHECK = 256  # stores between two counts of the rows
SCHEMA = 1


class CacheError(InputError):
    """The cache file cannot be used (damaged, not SQLite, unwritable): one line."""


OFF = ("", "off", "0", "none")


def default_path() -> Path | None:
    """Where the cache lives (see the module doc); None when it is turned off."""
    value = os.environ.get(ENV)
    if value is not None:
        return None if value.strip().lower() in OFF else Path(value)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "zerosum" / "connect4.sqlite"


class SolvedCache:
    """The cache file at `path` (created if missing). Usable from several threads."""

    def __init__(self, path: str | os.PathLike[str],
                 max_entries: int = DEFAULT_MAX_ENTRIES) -> None:
        self.path = Path(path)
        self.max_entries = max_entries
        self.lock = threading.Lock()
        self.stores = 0
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None,
                                      check_same_thread=False)
        except (OSError, sqlite3.Error) as e:
            raise self._refuse(e) from None
        with self._guard():
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # WAL: durable at checkpoints
            self.db.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, "
                            "value TEXT NOT NULL)")
            self.db.execute("CREATE TABLE IF NOT EXISTS bounds (board TEXT NOT NULL, "
                            "key TEXT NOT NULL, lo INTEGER NOT NULL, hi INTEGER NOT NULL, "
                            "stored REAL NOT NULL, PRIMARY KEY (board, key))")
            self.db.execute("CREATE INDEX IF NOT EXISTS bounds_age ON bounds (stored)")
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
            row = self.db.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone()
            if row is None or row[0] != str(SCHEMA):
                raise sqlite3.DatabaseError(f"schema {row and row[0]}, not {SCHEMA}")

    def _refuse(self, e: BaseException) -> CacheError:
        return CacheError(f"solver cache {self.path}: {e} (delete the file, or set "
                          f"{ENV}=off to solve without a cache)")

    def _guard(self) -> _Guard:
        return _Guard(self)

    def close(self) -> None:
        with self.lock:
            self.db.close()

    # -- one position --------------------------------------------------------------------

    @staticmethod
    def _key(geo: Geometry, current: int, mask: int) -> tuple[str, str]:
        return f"{geo.width}x{geo.height}", f"{canonical(geo, current, mask):x}"

    def bounds(self, geo: Geometry, current: int, mask: int) -> tuple[int, int] | None:
        """[lo, hi] known for the position's score (from the mover's side), or None."""
        with self._guard():
            row = self.db.execute("SELECT lo, hi FROM bounds WHERE board = ? AND key = ?",
                                  self._key(geo, current, mask)).fetchone()
        return None if row is None else (int(row[0]), int(row[1]))

    def score(self, geo: Geometry, current: int, mask: int) -> int | None:
        """The position's exact score if it is known."""
        known = self.bounds(geo, current, mask)
        return known[0] if known is not None and known[0] == known[1] else None

    def store(self, geo: Geometry, current: int, mask: int, lo: int, hi: int) -> None:
        """Remember that the position's score lies in [lo, hi] (merged with what is
        known: the interval only narrows)."""
        board, key = self._key(geo, current, mask)
        with self._guard():
            self.db.execute(
                "INSERT INTO bounds VALUES (?, ?, ?, ?, ?) ON CONFLICT (board, key) DO "
                "UPDATE SET lo = max(lo, excluded.lo), hi = min(hi, excluded.hi), "
                "stored = excluded.stored", (board, key, lo, hi, time.time()))
            self.stores += 1
            # Counted at a process's first store and then every so often, so that the
            # file holds at most a tenth more than its bound.
            if (self.stores - 1) % max(1, min(EVICT_CHECK, self.max_entries // 10)) == 0:
                self._evict()

    def _evict(self) -> None:
        """Down to nine tenths of the bound, the oldest rows first, when over it."""
        (count,) = self.db.execute("SELECT count(*) FROM bounds").fetchone()
        if count > self.max_entries:
            self.db.execute("DELETE FROM bounds WHERE rowid IN (SELECT rowid FROM bounds "
                            "ORDER BY stored LIMIT ?)", (count - self.max_entries * 9 // 10,))

    def __len__(self) -> int:
        with self._guard():
            (count,) = self.db.execute("SELECT count(*) FROM bounds").fetchone()
        return int(count)

    # -- a position's moves --------------------------------------------------------------

    def move_scores(self, geo: Geometry, current: int, mask: int) -> dict[int, int]:
        """The exact score (from the mover's side) of each playable column known: a
        four at once, or minus the child's known score."""
        moves = mask.bit_count()
        scores = {}
        for c in geo.centre_order:
            if not geo.playable(mask, c):
                continue
            move = geo.move_bit(mask, c)
            if geo.has_four(current | move):
                scores[c] = (geo.cells + 1 - moves) // 2
            elif moves + 1 == geo.cells:
                scores[c] = 0
            elif self._wins_at_once(geo, current ^ mask, mask | move):
                scores[c] = -((geo.cells - moves) // 2)  # not stored: no search
            else:
                child = self.score(geo, current ^ mask, mask | move)
                if child is not None:
                    scores[c] = -child
        return scores


    @staticmethod
    def _wins_at_once(geo: Geometry, current: int, mask: int) -> bool:
        return any(geo.playable(mask, c) and geo.has_four(current | geo.move_bit(mask, c))
                   for c in range(geo.width))


class _Guard:
    """The lock, and a SQLite error turned into one line naming the file."""

    def __init__(self, cache: SolvedCache) -> None:
        self.cache = cache

    def __enter__(self) -> None:
        self.cache.lock.acquire()

    def __exit__(self, kind: object, error: BaseException | None, tb: object) -> None:
        self.cache.lock.release()
        if isinstance(error, sqlite3.Error):
            raise self.cache._refuse(error) from None


_OPEN: dict[Path, SolvedCache] = {}
_OPEN_LOCK = threading.Lock()


def user_cache(path: str | os.PathLike[str] | None = None) -> SolvedCache | None:
    """The cache at `path` (default: `default_path()`; "off": none), opened once a
    process."""
    if path is not None and str(path).strip().lower() in OFF:
        return None
    path = default_path() if path is None else Path(path)
    if path is None:
        return None
    with _OPEN_LOCK:
        if path not in _OPEN:
            _OPEN[path] = SolvedCache(path)
        return _OPEN[path]
