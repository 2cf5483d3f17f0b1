"""A tournament's database: SQLite, one row per finished game, committed as it ends.

Killing the tournament at any moment (kill -9 included) loses at most the games being
played: a game is either committed whole or absent (SQLite's transactions), and a
rerun of the same command finds the finished ones and plays only the others. The
settings are stored too, so a rerun with other settings is refused rather than mixed in
(more games of the same tournament extend it).

Whatever goes wrong with the file is an InputError naming it and the cause: another
program holding a lock, a read-only file or folder, a full disk, a file that is not a
tournament's database (another program's, or a tournament's damaged by hand).
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

from zerosum.game import InputError
from zerosum.tournament.jobs import Damaged, GameJob, GameResult
from zerosum.tournament.schedule import Settings

SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    number INTEGER PRIMARY KEY,
    job TEXT NOT NULL,      -- the GameJob, as JSON
    result TEXT NOT NULL,   -- the GameResult, as JSON
    first TEXT NOT NULL,    -- the agent playing first
    second TEXT NOT NULL,
    score REAL NOT NULL,    -- the first agent's: 1, 0.5 or 0
    reason TEXT NOT NULL,
    finished REAL NOT NULL  -- Unix time
);
"""
TABLES = {"settings": ["id", "json"],
          "games": ["number", "job", "result", "first", "second", "score", "reason",
                    "finished"]}
LOCK_SECONDS = 5.0  # how long a write waits for another program's lock on the file


def failure(path: str, e: sqlite3.Error) -> str:
    """What went wrong with the file, from SQLite's message, said so that a person can
    do something about it."""
    text = str(e)
    if "locked" in text or "busy" in text:
        return f"tournament database {path} is locked by another program ({text})"
    if "readonly" in text or "read-only" in text:
        return f"tournament database {path} cannot be written: the file or its folder " \
            f"is read-only ({text})"
    if "full" in text:
        return f"tournament database {path} cannot be written: the disk is full ({text})"
    if "unable to open" in text:
        return f"tournament database {path} cannot be opened, or its journal cannot be " \
            f"made beside it ({text})"
    if "not a database" in text or "malformed" in text or "no such" in text:
        return f"{path} is not a tournament database ({text})"
    return f"tournament database {path}: {text}"


class Store:
    """The games of one tournament in the file `path`, created if missing."""

    def __init__(self, path: str, settings_json: str, create: bool = True) -> None:
        self.path = path
        if not create and not Path(path).is_file():
            raise InputError(f"no tournament database {path}")
        if Path(path).is_dir():
            raise InputError(f"tournament database {path} is a directory")
        if create and not Path(path).parent.is_dir():
            raise InputError(f"tournament database {path}: no directory "
                             f"{Path(path).parent}")
        existed = Path(path).exists()
        try:
            # Read-write even to only read: a journal left by a killed run is rolled back
            # (read-only, such a file cannot be read at all). Nothing is written unless
            # the file is, or becomes, a tournament's.
            mode = "rwc" if create else "rw"
            uri = f"{Path(path).resolve().as_uri()}?mode={mode}"
            self.db = sqlite3.connect(uri, uri=True, isolation_level=None,
                                      timeout=LOCK_SECONDS)  # each add commits
        except sqlite3.Error as e:
            raise InputError(failure(path, e)) from None
        try:
            self.settings_json = self.open(settings_json, create)
        except BaseException:
            self.db.close()
            if create and not existed:
                with contextlib.suppress(OSError):
                    Path(path).unlink()
            raise

    def open(self, settings_json: str, create: bool) -> str:
        """Check the file holds a tournament (creating one in an empty file if `create`)
        with these settings, or settings this tournament extends; the settings kept."""
        with self.guard():
            tables = {name: [c[1] for c in self.db.execute(f"PRAGMA table_info({name})")]
                      for (name,) in self.db.execute(
                          "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables and not create:
            raise InputError(f"{self.path} is not a tournament database (it is empty)")
        if tables and tables != TABLES:
            other = sorted(set(tables) - set(TABLES))
            missing = sorted(set(TABLES) - set(tables))
            why = f"it holds other tables: {', '.join(other)}" if other \
                else f"it has no {missing[0]} table" if missing \
                else f"its {next(t for t in TABLES if tables[t] != TABLES[t])} table has " \
                "other columns"
            raise InputError(f"{self.path} is not a tournament database ({why}); give "
                             "another --db")
        with self.guard():
            if not tables:
                self.db.executescript(SCHEMA)
            row = self.db.execute("SELECT json FROM settings").fetchone()
        if row is None:
            if not create:
                raise InputError(f"{self.path} is not a tournament database (it has no "
                                 "settings)")
            with self.guard():
                self.db.execute("INSERT INTO settings VALUES (1, ?)", (settings_json,))
            return settings_json
        stored = row[0]
        if not create or stored == settings_json:
            return str(stored)
        self.settings_json = stored
        old, new = self.settings(), Settings.from_json(settings_json)
        if new.extends(old):  # more games of the same tournament
            with self.guard():
                self.db.execute("UPDATE settings SET json = ? WHERE id = 1",
                                (settings_json,))
            return settings_json
        fewer = old.games is not None and new.games is not None and new.games < old.games \
            and old.extends(new)
        why = f" with {old.games} games a pairing: give --games {old.games} or more" \
            if fewer else " (other settings): give another --db, or delete the file to " \
            "start this one afresh"
        raise InputError(f"{self.path} holds another tournament{why}")

    @contextlib.contextmanager
    def guard(self) -> Iterator[None]:
        """SQLite's errors as one line naming the file and the cause."""
        try:
            yield
        except sqlite3.Error as e:
            raise InputError(failure(self.path, e)) from None

    @classmethod
    def existing(cls, path: str) -> Store:
        """An existing database, read as it is (`zerosum results`)."""
        return cls(path, "", create=False)

    def settings(self) -> Settings:
        try:
            return Settings.from_json(self.settings_json)
        except Damaged as e:
            raise InputError(f"{self.path}: the tournament's settings are damaged: "
                             f"{e}") from None

    def rows(self, column: str) -> Iterator[tuple[int, object]]:
        with self.guard():
            rows = self.db.execute(f"SELECT number, {column} FROM games ORDER BY number"
                                   ).fetchall()
        yield from rows

    def results(self) -> dict[int, GameResult]:
        return {n: self.checked(n, GameResult.from_json, text)
                for n, text in self.rows("result")}

    def jobs(self) -> dict[int, GameJob]:
        return {n: self.checked(n, GameJob.from_json, text) for n, text in self.rows("job")}

    def checked(self, number: int, read: Callable[[str], GameJob | GameResult],
                text: object) -> Any:
        try:
            item = read(text)  # type: ignore[arg-type]  # checked by read
        except Damaged as e:
            raise InputError(f"{self.path}: game {number} is damaged: {e}") from None
        if item.number != number:
            raise InputError(f"{self.path}: game {number} is damaged: its "
                             f"{'job' if isinstance(item, GameJob) else 'result'} "
                             f"says game {item.number}")
        return item

    def add(self, job: GameJob, result: GameResult) -> None:
        """Commit one finished game (at once: a kill after this keeps it)."""
        with self.guard():
            self.db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                            (job.number, job.to_json(), result.to_json(), job.agents[0],
                             job.agents[1], result.score, result.reason, time.time()))

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
