"""A sequential probability ratio test between two agents (`zerosum sprt`): pairs of games
are played until the test accepts H1 ("the first is stronger by elo1") or H0 ("by no
more than elo0"), or the settings' games run out. Resumable: the games already in the
store count first."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from zerosum.game import AnyGame
from zerosum.ratings import Sprt, Tally
from zerosum.tournament.backends import Backend
from zerosum.tournament.jobs import GameJob, GameResult
from zerosum.tournament.report import Played, pair_tally
from zerosum.tournament.run import play
from zerosum.tournament.schedule import Settings
from zerosum.tournament.store import Store


@dataclass
class SprtState:
    """Where the test stands: the first agent's tally, the log-likelihood ratio over
    complete pairs, the decision ("H0", "H1" or None) and the games counted."""

    tally: Tally
    llr: float
    decision: str | None
    games: int


def sprt_state(sprt: Sprt, results: dict[int, GameResult], jobs: dict[int, GameJob],
               agents: tuple[str, ...]) -> SprtState:
    tally = pair_tally([Played(jobs[n], r) for n, r in results.items()], *agents)
    llr = sprt.llr_pentanomial(tally.complete_pairs())
    return SprtState(tally, llr, sprt.decision(llr), len(results))


def sequential_test(sprt: Sprt, settings: Settings, game: AnyGame, store: Store, backend: Backend,
             on_game: Callable[[GameJob, GameResult, SprtState], None]) -> SprtState:
    """Play until the test decides (or the settings' games are played); `on_game` sees
    each game with the test's state after it. KeyboardInterrupt passes through, every
    game before it committed."""
    results, jobs = store.results(), store.jobs()
    state = sprt_state(sprt, results, jobs, settings.agents)

    def counted(job: GameJob, result: GameResult) -> bool:
        nonlocal state
        results[job.number], jobs[job.number] = result, job
        state = sprt_state(sprt, results, jobs, settings.agents)
        on_game(job, result, state)
        return state.decision is not None

    if state.decision is None:
        play(settings, game, store, backend, counted)
    return state
