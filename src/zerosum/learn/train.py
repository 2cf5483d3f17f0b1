"""The one trainer: self-play games of a method's learner against itself, each played by
match.play_match (the project's one game loop) and learned from when it ends; a grade
against perfect play (zerosum.learn.grade) and a checkpoint every few minutes; resumable.

A run is reproducible: every random choice (the method's initial weights or tuples,
each exploring move) is drawn from one generator seeded by `seed`, whose state is saved
in each checkpoint with the weights and the games played. Resuming a checkpoint (after
a kill -9 too: the file is written whole or not at all) therefore continues the same
run: training 200 games gives the same weights as training 100 and resuming to 200.

Each checkpoint also plays the run's best checkpoint so far in an SPRT and is rated
against the others (zerosum.learn.gate); that changes nothing of the weights.

A method with a schedule (its step size and exploration decaying over the run: the
n-tuple network's; Samuel's average counts its games by it too) is told before each
game how many the run has played (`at_game`), and once how many it plans
(`plan_games`): the games asked for, or, for a run of some
minutes, the games this session has time for at the rate measured over its first
WARM_UP seconds (its first tenth if shorter; its grades and gates not counted). The
plan is saved with the weights, so a resumed run continues the same schedule.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from zerosum import __version__
from zerosum.fileio import check_writable
from zerosum.game import AnyGame, InputError, shown
from zerosum.games.registry import GameSpec
from zerosum.learn import gate as gating
from zerosum.learn import grade as grading
from zerosum.learn import weights as weights_file
from zerosum.learn.methods import METHODS, Learner, learner_of, new_learner
from zerosum.learn.weights import Weights
from zerosum.match import Move, play_match

CHECKPOINT_SECONDS = 180.0
ROUND = 200  # games a worker plays with one copy of the weights (several workers)
GRADE_POSITIONS = 100  # positions of each set graded at a checkpoint (all of a small game)
WARM_UP = 60.0  # seconds of self-play over which a run of some minutes measures its rate


class SelfPlayer:
    """The learner as a player of play_match, both sides at once, remembering which of
    its moves were random."""

    name = "self-play"

    def __init__(self, learner: Learner, rng: random.Random) -> None:
        self.learner, self.rng = learner, rng
        self.explored: list[bool] = []

    def choose(self, game: AnyGame, state: Any) -> Move:
        action, explored = self.learner.self_play_move(state, self.rng)
        self.explored.append(explored)
        return Move(action)


Game = tuple[list[Any], list[bool]]  # a self-play game: its moves, which were random


def play_self(game: AnyGame, learner: Learner, rng: random.Random) -> Game:
    """One game of self-play: its moves and which of them were random. A learner with
    a compiled twin of this (`play_self(rng)`, the n-tuple network's on a game of k in
    a row) plays the same game there, the Python's loop around each evaluation being
    most of a game's time."""
    compiled = getattr(learner, "play_self", None)
    played: Game | None = compiled(rng) if compiled is not None else None
    if played is not None:
        return played
    player = SelfPlayer(learner, rng)
    record = play_match(game, [player, player])
    return [move.action for move in record.moves], player.explored


def learn_from(game: AnyGame, learner: Learner, played: Game) -> None:
    """The learner learns from a game of self-play (in its compiled twin of this,
    `learn_from(moves, explored)`, where it has one that can)."""
    moves, explored = played
    compiled = getattr(learner, "learn_from", None)
    if compiled is not None and compiled(moves, explored):
        return
    states, state = [], game.initial_state()
    for action in moves:
        state = game.result(state, action)
        states.append(state)
    learner.learn(states, explored)


def self_play(game: AnyGame, learner: Learner, rng: random.Random) -> None:
    """One game of self-play, then the learner learns from it."""
    learn_from(game, learner, play_self(game, learner, rng))


def at_game(learner: Learner, games: int) -> None:
    """Tell a learner with a schedule that `games` games of the run are played."""
    schedule = getattr(learner, "at_game", None)
    if schedule is not None:
        schedule(games)


def play_batch(game_name: str, options: dict[str, Any], data: bytes, played: int,
               seeds: list[int]) -> list[Game]:
    """A worker's share of a round (see train): a game of self-play for each seed, by
    the learner saved in `data`, which learns nothing meanwhile (and explores as at
    game `played`, the round's first)."""
    from zerosum.games.registry import get_game

    spec = get_game(game_name)
    game = spec.create(**options)
    learner = learner_of(weights_file.decode(data, "a round's weights"), spec, game, "")
    at_game(learner, played)
    return [play_self(game, learner, random.Random(seed)) for seed in seeds]


class Pool(Protocol):
    """Where the games of a round are played (see train): `map` gives
    [function(*shared, share) for share in shares], in order."""

    workers: int

    def map(self, function: Any, shared: tuple[Any, ...], shares: list[Any]) -> list[Any]:
        ...

    def close(self) -> None: ...


class LocalPool:
    """Worker processes of this machine (started by spawn, as the tournament's)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.executor = ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn"))

    def map(self, function: Any, shared: tuple[Any, ...], shares: list[Any]) -> list[Any]:
        n = len(shares)
        return list(self.executor.map(function, *([x] * n for x in shared), shares))

    def close(self) -> None:
        self.executor.shutdown(cancel_futures=True)


@dataclass
class Progress:
    """What a run reports as it goes: games played, their rate, the time left (None:
    no time limit) and the latest grades."""

    games: int
    per_second: float
    seconds_left: float | None
    grades: list[grading.Grade] = field(default_factory=list)
    note: str = ""  # what a checkpoint's gate decided, said once

    def line(self) -> str:
        grade = ", ".join(f"{g.set} {100 * g.mistake_rate:.1f} %" for g in self.grades)
        left = "" if self.seconds_left is None else f", {self.seconds_left:.0f} s left"
        note = f"; {self.note}" if self.note else ""
        return (f"{self.games} games, {self.per_second:.1f} games/s, mistakes: "
                f"{grade or 'not graded yet'}{left}{note}")

    def as_dict(self) -> dict[str, Any]:
        """For the progress file a page watches."""
        return {"games": self.games, "per_second": round(self.per_second, 2),
                "seconds_left": None if self.seconds_left is None
                else round(self.seconds_left, 1),
                "mistakes": {g.set: round(g.mistake_rate, 6) for g in self.grades},
                "line": self.line()}


def grade_sample(spec: GameSpec, game: AnyGame, positions: int | None = GRADE_POSITIONS
                 ) -> list[tuple[str, list[grading.Labelled]]]:
    """The positions each checkpoint is graded on: of each of the game's sets, a sample
    of `positions` (every position of a small game); none for a game too big to solve
    and without labels (it then trains ungraded)."""
    sets = grading.set_names(spec, game)
    small = sets == [grading.ALL]
    try:
        return [(name, grading.labelled(spec, game, name, None if small else positions))
                for name in sets]
    except InputError:
        return []


def grade_learner(game: AnyGame, learner: Learner,
                  sample: list[tuple[str, list[grading.Labelled]]]) -> list[grading.Grade]:
    """The learner's one-ply grade on each set of `sample`."""
    return [grading.grade(game, name, rows, lambda g, s: learner.best(s)[0])
            for name, rows in sample]


def learner_snapshot(learner: Learner) -> dict[str, Any]:
    """What a method shows of itself at each checkpoint, kept in the run's history (a
    learner's optional `snapshot()`: Samuel's feature weights, to plot their history)."""
    snapshot = getattr(learner, "snapshot", None)
    return dict(snapshot()) if snapshot is not None else {}


def _rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _set_rng(rng: random.Random, saved: Any, name: str) -> None:
    try:
        rng.setstate((int(saved[0]), tuple(int(x) for x in saved[1]), saved[2]))
    except (TypeError, ValueError, IndexError):
        raise InputError(f"weights file {shown(name, 60)}: no random state to resume "
                         "from") from None


def train(spec: GameSpec, game: AnyGame, options: dict[str, Any], method: str,
          out: str | os.PathLike[str], *, games: int | None = None,
          minutes: float | None = None, seed: int = 0, resume: bool = False,
          settings: dict[str, Any] | None = None,
          checkpoint_seconds: float = CHECKPOINT_SECONDS,
          grade_positions: int | None = GRADE_POSITIONS,
          report: Callable[[Progress], None] | None = None,
          report_seconds: float = 2.0, workers: int = 1,
          checkpoint_games: int | None = None,
          gatekeeper: gating.Gatekeeper | None = None,
          pool: Pool | None = None) -> Weights:
    """Train `method` on `game` by self-play until `games` games in all (counting those
    of a resumed run) or `minutes` of this session; save to `out` at each checkpoint
    (every `checkpoint_seconds`, or every `checkpoint_games` games when given) and at
    the end. `report` is given the progress every `report_seconds` and after each
    grade; the progress is also written to the run's folder (zerosum.learn.gate).

    Each checkpoint is graded, then, given a `gatekeeper` (zerosum.tournament.gate),
    gated: it plays the best checkpoint so far in an SPRT and all are rated; the
    ratings are kept in the file with the grades.

    With `workers` above 1 (or a `pool`: zerosum.tournament.raycluster.RayPool), self-
    play goes in rounds: each of the pool's workers (processes, or Ray tasks) plays
    ROUND games with the weights as they were at the round's start (each game seeded
    from the run's generator), then the learner learns from them all in order. A run
    stays reproducible for the same number of workers, local or on Ray alike, but it is
    another run than with one worker, whose every game is played with the weights of
    the one before. (A round's games explore as its first; each is learned from with
    the step size of its own number.)"""
    if games is None and minutes is None:
        raise InputError("say how long to train: --games N or --minutes M")
    if method not in METHODS:
        raise InputError(f"no learning method {shown(method)}; choose from "
                         f"{', '.join(METHODS)}")
    if (workers > 1 or pool is not None) and getattr(METHODS[method], "one_worker", False):
        raise InputError(f"{method} self-plays in one process only (its searches' visit "
                         "counts stay with the player): --workers 1")
    name = os.fspath(out)
    folder = gating.run_folder(name)
    gating.check_folder(folder)
    rng = random.Random(seed)
    history: list[dict[str, Any]] = []
    played, seconds_before = 0, 0.0
    best: str | None = None
    if resume:
        saved = weights_file.read(name, spec.name, options)
        if saved.method != method:
            raise InputError(f"{shown(name, 60)} was trained by {saved.method}, not {method}")
        run = saved.header.get("run", {})
        learner = learner_of(saved, spec, game, name)
        _set_rng(rng, run.get("rng"), name)
        played, seed = int(run.get("games", 0)), int(run.get("seed", seed))
        seconds_before = float(run.get("seconds", 0.0))
        history = list(run.get("history", []))
        best = run.get("best") if isinstance(run.get("best"), str) else None
        if best is not None and not gating.checkpoint_path(folder, best).is_file():
            best = None  # its copy deleted by hand: the next checkpoint is the best
    else:
        check_writable(name, "weights file")
        learner = new_learner(method, spec, game, rng, settings)
        gating.start_afresh(folder)
    start = time.perf_counter()
    deadline = None if minutes is None else start + 60 * minutes
    last_save = last_report = start
    played_at_start = played
    saved_at = played
    latest: list[grading.Grade] = []
    sample: list[tuple[str, list[grading.Labelled]]] | None = None

    def elapsed() -> float:
        return time.perf_counter() - start

    def header() -> dict[str, Any]:
        return {"game": spec.name, "options": options, "zerosum": __version__,
                "grade": [{"set": g.set, "positions": g.positions,
                           "mistakes": g.mistakes, "kept": g.kept} for g in latest],
                "run": {"seed": seed, "games": played, "rng": _rng_state(rng),
                        "seconds": round(seconds_before + elapsed(), 3),
                        "history": history, "best": best,
                        "ratings": [] if gatekeeper is None
                        else gatekeeper.ratings(folder, gated())}}

    def gated() -> list[str]:
        return [str(h["gate"]["checkpoint"]) for h in history
                if h.get("gate", {}).get("games")]

    def checkpoint() -> Weights:
        nonlocal latest, sample, best
        if sample is None:
            sample = grade_sample(spec, game, grade_positions)
        latest = grade_learner(game, learner, sample)
        at_game(learner, played)  # its snapshot then shows the schedule's values now
        point: dict[str, Any] = {
            "games": played, "seconds": round(seconds_before + elapsed(), 3),
            "per_second": round(progress().per_second, 2),
            "mistakes": {g.set: round(g.mistake_rate, 6) for g in latest},
            **learner_snapshot(learner)}
        loser = None
        if gatekeeper is not None:
            new = gating.checkpoint_name(played)
            gating.save_checkpoint(folder, new, learner.save(header()))
            if new != best:
                outcome = gatekeeper.gate(folder, new, best)
                point["gate"] = outcome.as_dict()
                if outcome.decision == "H1":
                    loser, best = best, new
                else:
                    loser = new
        history.append(point)
        saved = learner.save(header())
        weights_file.write(name, saved)
        if loser is not None:
            gating.forget(folder, loser)
        return saved

    def progress(note: str = "") -> Progress:
        rate = (played - played_at_start) / max(elapsed(), 1e-9)
        left = None if deadline is None else max(0.0, deadline - time.perf_counter())
        return Progress(played, rate, left, latest, note)

    def gated_note() -> str:
        last = history[-1].get("gate") if history else None
        return "" if last is None else gating.describe(last)

    def tell(note: str = "") -> None:
        now = progress(note)
        gating.write_progress(folder, {**now.as_dict(), "file": name, "game": spec.name,
                                       "method": method, "time": time.time()})
        if report is not None:
            report(now)

    plan = getattr(learner, "plan_games", None)
    if plan is not None and games is not None:
        plan(games)
    warm_up = None if plan is None or minutes is None else min(WARM_UP, 6 * minutes)
    busy = 0.0  # seconds spent grading and gating this session

    def plan_by_rate() -> None:
        """Plan the games this session has time for, at the rate measured so far."""
        assert plan is not None and deadline is not None
        rate = (played - played_at_start) / max(elapsed() - busy, 1e-9)
        plan(played + round(rate * max(0.0, deadline - time.perf_counter())))

    if pool is None and workers > 1:
        pool = LocalPool(workers)
    try:
        while (games is None or played < games) and \
                (deadline is None or time.perf_counter() < deadline):
            if warm_up is not None and elapsed() - busy >= warm_up:
                plan_by_rate()
                warm_up = None
            if pool is None:
                at_game(learner, played)
                self_play(game, learner, rng)
                played += 1
            else:
                size = ROUND * pool.workers if games is None else \
                    min(ROUND * pool.workers, games - played)
                if checkpoint_games is not None:
                    size = min(size, saved_at + checkpoint_games - played)
                seeds = [rng.randrange(2**63) for _ in range(size)]
                at_game(learner, played)
                data = weights_file.encode(learner.save({"game": spec.name}))
                shares = [seeds[i::pool.workers] for i in range(pool.workers)]
                for batch in pool.map(play_batch, (spec.name, options, data, played), shares):
                    for one in batch:
                        at_game(learner, played)
                        learn_from(game, learner, one)
                        played += 1
            now = time.perf_counter()
            due = now - last_save >= checkpoint_seconds if checkpoint_games is None \
                else played - saved_at >= checkpoint_games
            if due and (games is None or played < games):
                began = time.perf_counter()
                checkpoint()
                busy += time.perf_counter() - began
                last_save, saved_at = time.perf_counter(), played
                now = last_report = last_save
                tell(gated_note())
            if now - last_report >= report_seconds:
                tell()
                last_report = now
    finally:
        if pool is not None:
            pool.close()
    # The last round may have ended on a checkpoint (or a finished run was resumed): it
    # is saved, graded and gated already, and its gate games are counted once.
    done = bool(history) and history[-1]["games"] == played
    final = learner.save(header()) if done else checkpoint()
    tell(gated_note())
    return final
