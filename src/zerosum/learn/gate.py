"""Checkpoints against each other: each new checkpoint of a run plays the run's best so
far in an SPRT, and becomes the best when the test accepts that it is stronger; every
checkpoint is rated by Bradley-Terry over all those games. The games, the test and the
ratings are the tournament's (zerosum.tournament.gate, a two-agent tournament of
`learned:` players, given to the trainer as its `gatekeeper`: the tournament stands
above the players, and the players above zerosum.learn). Here: where a run keeps its
checkpoints and progress, and what a gate tells the trainer.

A run keeps this beside its weights file FILE, in the folder FILE.run: a copy of each
checkpoint (`games-N.zsnet`), a tournament database for each gate (`gate-games-N.sqlite`)
and the latest progress line (`progress.json`, read by the /train page). A checkpoint
that loses its gate is deleted once the gate is recorded (its games, in the database,
keep rating it); the best stays, so the best and the newest can always be played.

The gate changes nothing of the training: the learner goes on from its own weights
whatever the gate says, so a seeded run learns the same weights with or without gates.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from zerosum.fileio import write_atomic
from zerosum.game import AnyGame, InputError
from zerosum.learn import weights as weights_file
from zerosum.learn.weights import Weights

GATE_GAMES = 200  # games of a gate at most (colour-swapped pairs): then no decision
PROGRESS = "progress.json"


def run_folder(out: str | os.PathLike[str]) -> Path:
    """The folder of a run's checkpoints, gates and progress: FILE.run beside FILE."""
    return Path(f"{os.fspath(out)}.run")


def checkpoint_name(games: int) -> str:
    return f"games-{games}"


def checkpoint_path(folder: Path, name: str) -> Path:
    return folder / f"{name}.zsnet"


def opening_plies(game: AnyGame) -> int:
    """Random plies before each gate game: the players are one-ply and deterministic,
    so the openings make the games differ. Two where they give 64 openings or more
    (tic-tac-toe's 72), else four (Connect Four: 49 of two plies, 2,401 of four)."""
    state = game.initial_state()
    return 2 if len(list(game.actions(state))) ** 2 >= 64 else 4


@dataclass(frozen=True)
class Gate:
    """A gate's outcome: the checkpoint `new` against `best` (None: the first, best at
    once), the games played, the test's LLR and decision ("H1": `new` is the new best)."""

    new: str
    best: str | None
    games: int
    llr: float
    decision: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"checkpoint": self.new, "against": self.best, "games": self.games,
                "llr": round(self.llr, 4), "decision": self.decision}


def describe(gate: dict[str, Any]) -> str:
    """A gate (Gate.as_dict) in words, for the progress line."""
    if gate.get("against") is None:
        return f"{gate['checkpoint']} is the first best"
    verdict = {"H1": "the new best", "H0": "not stronger"}.get(str(gate.get("decision")),
                                                              "no decision")
    return (f"{gate['checkpoint']} against {gate['against']}: {gate['games']} games, "
            f"LLR {gate['llr']:+.2f}, {verdict}")


def ratings_table(rows: list[dict[str, Any]], best: str | None) -> str:
    """The checkpoints' ratings as the tournament's standings show them."""
    from zerosum.ratings import format_elo

    width = max(len("checkpoint"), *(len(r["checkpoint"]) for r in rows))
    lines = ["Checkpoints: Bradley-Terry ratings in Elo (mean 0), 95 % intervals",
             f"  {'checkpoint':<{width}}  games  points   Elo   interval"]
    for r in rows:
        mark = "  best" if r["checkpoint"] == best else ""
        lines.append(f"  {r['checkpoint']:<{width}}  {r['games']:>5}  {r['points']:>6g}  "
                     f"{format_elo(r['elo']):>4}  [{format_elo(r['low'])}, "
                     f"{format_elo(r['high'])}]{mark}")
    return "\n".join(lines)


class Gatekeeper(Protocol):
    """What gates a run's checkpoints (zerosum.tournament.gate.CheckpointGate)."""

    def gate(self, folder: Path, new: str, best: str | None) -> Gate:
        """Checkpoint `new` (saved in `folder`) against the best so far."""
        ...

    def ratings(self, folder: Path, gates: list[str]) -> list[dict[str, Any]]:
        """The ratings of the checkpoints, from the games of the gates named."""
        ...


def save_checkpoint(folder: Path, name: str, weights: Weights) -> None:
    folder.mkdir(exist_ok=True)
    weights_file.write(checkpoint_path(folder, name), weights)


def forget(folder: Path, name: str) -> None:
    """Delete a checkpoint's copy (its gate's games stay to rate it)."""
    with contextlib.suppress(FileNotFoundError):
        checkpoint_path(folder, name).unlink()


def write_progress(folder: Path, progress: dict[str, Any]) -> None:
    """The latest progress, for a page watching the run (written whole)."""
    folder.mkdir(exist_ok=True)
    write_atomic(folder / PROGRESS, json.dumps(progress, sort_keys=True) + "\n",
                 what="progress file")


def read_progress(folder: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((folder / PROGRESS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def check_folder(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{folder} is in the way of the run's folder (it is not a folder)")


def start_afresh(folder: Path) -> None:
    """A new run into the same file: the old run's checkpoints and gates go (a gate's
    database would otherwise be resumed with the old run's games)."""
    if folder.is_dir():
        for old in [*folder.glob("games-*.zsnet"), *folder.glob("gate-games-*.sqlite")]:
            with contextlib.suppress(FileNotFoundError):
                old.unlink()
