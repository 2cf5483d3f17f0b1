"""Running a tournament: the jobs not yet in the database go to a backend, and each
result is committed as it comes, then shown."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from zerosum.game import AnyGame, InputError
from zerosum.tournament.backends import Backend
from zerosum.tournament.jobs import GameJob, GameResult
from zerosum.tournament.schedule import Settings, jobs
from zerosum.tournament.store import Store

GameSink = Callable[[GameJob, GameResult], bool | None]


def play(settings: Settings, game: AnyGame, store: Store, backend: Backend,
         on_game: GameSink) -> None:
    """Play the tournament's unfinished games; `on_game` sees each after it is committed
    and may end the tournament early by returning True."""
    done = set(store.results())
    issued: dict[int, GameJob] = {}

    def todo() -> Iterator[GameJob]:
        for job in jobs(settings, game):
            if job.number not in done:
                issued[job.number] = job
                yield job

    stopped = False

    def finished(result: GameResult) -> bool | None:
        nonlocal stopped
        job = issued.pop(result.number)
        store.add(job, result)
        stopped = bool(on_game(job, result))
        return stopped

    pending = todo()
    backend.run(pending, finished)
    if not stopped:  # those not even handed out are counted too
        for _ in pending if settings.games is not None else ():
            pass
        next(pending, None)
    if issued and not stopped:  # a backend's fault: never end as if all were played
        raise InputError(f"{len(issued)} games were not played (game "
                         f"{min(issued)} the first); run the same command again to play "
                         "them")
