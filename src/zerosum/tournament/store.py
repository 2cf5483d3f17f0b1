"""A tournament's database: SQLite, one row per finished game, committed as it ends.

Killing the tournament at any moment (kill -9 included) loses at most the games being
played: a game is either committed whole or absent (SQLite's transactions), and a
rerun of the same command finds the finished ones and plays only the others. The
settings are stored too, so a rerun with other settings is refused rather than mixed in.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from types import TracebackType

from zerosum.game import InputError
from zerosum.tournament.jobs import GameJob, GameResult

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
        try:
            if create:
                self.db = sqlite3.connect(path, isolation_level=None)  # each add commits
                self.db.executescript(SCHEMA)
            else:  # read only: a file that is some other database stays as it is
                uri = f"{Path(path).resolve().as_uri()}?mode=ro"
                self.db = sqlite3.connect(uri, uri=True, isolation_level=None)
            row = self.db.execute("SELECT json FROM settings").fetchone()
        except sqlite3.DatabaseError as e:
            raise InputError(f"{path} is not a tournament database ({e})") from None
        if row is None:
            if not create:
                raise InputError(f"{path} is not a tournament database (it has no settings)")
            self.db.execute("INSERT INTO settings VALUES (1, ?)", (settings_json,))
        elif create and row[0] != settings_json:
            self.db.close()
            raise InputError(f"{path} holds another tournament (other settings): give "
                             "another --db, or delete the file to start this one afresh")
        self.settings_json = settings_json if row is None else row[0]

    @classmethod
    def existing(cls, path: str) -> Store:
        """An existing database, read as it is (`zerosum results`)."""
        return cls(path, "", create=False)

    def results(self) -> dict[int, GameResult]:
        rows = self.db.execute("SELECT result FROM games ORDER BY number")
        return {r.number: r for r in (GameResult.from_json(text) for (text,) in rows)}

    def jobs(self) -> dict[int, GameJob]:
        rows = self.db.execute("SELECT job FROM games ORDER BY number")
        return {j.number: j for j in (GameJob.from_json(text) for (text,) in rows)}

    def add(self, job: GameJob, result: GameResult) -> None:
        """Commit one finished game (at once: a kill after this keeps it)."""
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
