"""The training page of `zerosum serve --train FILE`: a run of `zerosum train` watched as
it goes (the page asks again every few seconds): the mistake rate of each set at each
checkpoint, games per second, the checkpoints' ratings; on a position chosen on the
page's board, each move's learned value beside its exact value; for n-tuples, a heat
map of what the tuples weigh; and a link that opens the board with the run's newest
weights as the opponent (`learned:FILE`, offered for the run's game by the server).

Everything is read from the run's files (zerosum.learn.watch), afresh when they
change; nothing here writes, and the trainer never waits for the page.
"""

from __future__ import annotations

import os
import threading
from importlib.resources import files
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from zerosum.game import AnyGame, InputError, play_line
from zerosum.games.registry import GameSpec, get_game
from zerosum.learn import watch
from zerosum.learn.methods import Learner, learner_of
from zerosum.learn.weights import Weights
from zerosum.web.views import view_of

PAGE = files("zerosum.web") / "static" / "train.html"
MAX_MOVES = 200  # moves a position's line may have (a board game's longest is shorter)
MAX_POSITIONS = 1000  # positions whose exact values are kept


class Run:
    """The run in `path`, read again whenever its file changes."""

    def __init__(self, path: str) -> None:
        self.path = os.path.abspath(path)
        self.lock = threading.Lock()
        self.stamp: tuple[int, int] | None = None
        self.weights: Weights | None = None
        self.spec: GameSpec | None = None
        self.game: AnyGame | None = None
        self.learner: Learner | None = None
        self.heat: list[float] | None = None
        self.exact: dict[tuple[str, ...], dict[str, str | None]] = {}  # by line
        self.solving = threading.Lock()  # one position solved at a time, whatever asks

    def player(self) -> str:
        """The newest weights as a player of the page (and of its server)."""
        return f"learned:{self.path}"

    def fresh(self) -> tuple[Weights, GameSpec, AnyGame, Learner]:
        with self.lock:
            try:
                info = os.stat(self.path)
            except OSError as e:
                raise InputError(f"weights file {self.path}: {e.strerror}") from None
            stamp = (info.st_mtime_ns, info.st_size)
            if stamp != self.stamp or self.weights is None:
                weights = watch.check_run(self.path)
                spec = get_game(weights.game)
                game = spec.create(**weights.options)
                self.learner = learner_of(weights, spec, game, self.path)
                self.weights, self.spec, self.game = weights, spec, game
                self.heat = None
                self.stamp = stamp
            assert self.spec is not None and self.game is not None \
                and self.learner is not None
            return self.weights, self.spec, self.game, self.learner

    def status(self) -> dict[str, Any]:
        weights, spec, _, _ = self.fresh()
        return {**watch.status(self.path, weights), "title": spec.title,
                "player": self.player()}

    def position(self, moves: list[str]) -> dict[str, Any]:
        _, spec, game, learner = self.fresh()
        state, actions = play_line(game, game.initial_state(), moves)
        line = tuple(game.format_move(a) for a in actions)
        over = game.is_terminal(state)
        # The exact values do not change as the run learns: solved once a position.
        exact = self.exact.get(line)
        if exact is None and not over:
            with self.solving:
                exact = self.exact.get(line) or watch.exact_values(spec, game, state)
                if len(self.exact) >= MAX_POSITIONS:
                    self.exact.clear()
                self.exact[line] = exact
        return {"moves": moves, "view": view_of(spec, game, state,
                                                actions[-1] if actions else None),
                "over": over, "values": watch.move_values(spec, game, learner, state, exact)}

    def heat_map(self) -> dict[str, Any] | None:
        _, spec, game, learner = self.fresh()
        with self.lock:
            if self.heat is None:
                self.heat = watch.heat_map(learner)
        if self.heat is None or spec.cells is None:
            return None
        cells = spec.cells(game)
        return {"rows": cells.rows, "cols": cells.cols, "cells": self.heat}


def training_routes(run: Run) -> list[BaseRoute]:
    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE.read_text(encoding="utf-8"))

    async def state(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(run.status))

    async def position(request: Request) -> Response:
        text = request.query_params.get("moves", "")
        moves = text.split()
        if len(moves) > MAX_MOVES:
            raise InputError(f"a line of at most {MAX_MOVES} moves, not {len(moves)}")
        return JSONResponse(await run_in_threadpool(run.position, moves))

    async def heat(request: Request) -> Response:
        return JSONResponse({"heat": await run_in_threadpool(run.heat_map)})

    return [Route("/train", page), Route("/api/train", state),
            Route("/api/train/position", position), Route("/api/train/heat", heat)]
