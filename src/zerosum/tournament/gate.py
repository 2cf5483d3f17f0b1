"""A training run's checkpoints as a tournament's agents (zerosum.learn.gate says what a
run keeps and why): each new checkpoint plays the best so far in an SPRT
(zerosum.tournament.sprt) of `learned:` players, in a database of its own beside the
run's weights; the checkpoints are rated by Bradley-Terry over all those games
(zerosum.ratings, with the tournament report's prior). No game loop or rating code of
its own: the games are the tournament's jobs on one of its backends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from zerosum.game import AnyGame
from zerosum.games.registry import GameSpec
from zerosum.learn.gate import GATE_GAMES, Gate, checkpoint_path, opening_plies
from zerosum.ratings import Sprt, bradley_terry
from zerosum.tournament.backends import Backend
from zerosum.tournament.report import PRIOR_DRAWS, Played
from zerosum.tournament.schedule import UNTIMED_TIMEOUT, Settings
from zerosum.tournament.sprt import sequential_test
from zerosum.tournament.store import Store

# Is the new checkpoint stronger by 50 Elo (H1) or by none (H0)? 5 % errors each way.
GATE = Sprt(elo0=0.0, elo1=50.0, alpha=0.05, beta=0.05)


def database(folder: Path, new: str) -> Path:
    return folder / f"gate-{new}.sqlite"


def checkpoint_of(agent: str) -> str:
    """The checkpoint an agent of a gate plays: `learned:/x/FILE.run/games-N.zsnet`."""
    return Path(agent.partition(":")[2]).stem


class CheckpointGate:
    """The gatekeeper of a run of `spec`'s game with `options` (zerosum.learn.gate's
    protocol): gates of at most `games` games on `backend`, their openings drawn from
    `seed` (the same for every gate of the run)."""

    def __init__(self, spec: GameSpec, game: AnyGame, options: dict[str, Any], seed: int,
                 backend: Backend, games: int = GATE_GAMES) -> None:
        self.spec, self.game, self.options = spec, game, options
        self.seed, self.backend, self.games = seed, backend, games

    def gate(self, folder: Path, new: str, best: str | None) -> Gate:
        """Play checkpoint `new` against `best` until GATE decides or the games run
        out; a database a killed run left is resumed (the same settings)."""
        if best is None:
            return Gate(new, None, 0, 0.0, "H1")
        agents = (f"learned:{checkpoint_path(folder, new).resolve()}",
                  f"learned:{checkpoint_path(folder, best).resolve()}")
        settings = Settings(self.spec.name, agents, self.games + self.games % 2,
                            seed=self.seed, opening_plies=opening_plies(self.game),
                            adjudicate=False,
                            move_timeouts=(UNTIMED_TIMEOUT, UNTIMED_TIMEOUT),
                            options=tuple(sorted(self.options.items())), balanced=False)
        with Store(str(database(folder, new)), settings.to_json()) as store:
            state = sequential_test(GATE, settings, self.game, store, self.backend,
                                    lambda job, result, state: None)
        return Gate(new, best, state.games, state.llr, state.decision)

    def ratings(self, folder: Path, gates: list[str]) -> list[dict[str, Any]]:
        """The Bradley-Terry rating of every checkpoint that played in the gates named
        (the run's history names them: a gate a killed run left unrecorded is not
        counted), best first, in Elo around their mean."""
        rated = [(checkpoint_of(p.job.agents[0]), checkpoint_of(p.job.agents[1]),
                  p.result.score) for p in gate_games(folder, gates)]
        if not rated:
            return []
        try:
            rows = bradley_terry(rated, prior_draws=PRIOR_DRAWS)
        except ValueError:  # not linked by games (a gate's database deleted by hand)
            return []
        return [{"checkpoint": r.name, "elo": round(r.elo, 1), "low": round(r.low, 1),
                 "high": round(r.high, 1), "games": r.games, "points": r.points}
                for r in rows]


def gate_games(folder: Path, gates: list[str]) -> list[Played]:
    """The games of the gates named, in order."""
    played = []
    for new in gates:
        path = database(folder, new)
        if not path.is_file():
            continue
        with Store.existing(str(path)) as store:
            results, jobs = store.results(), store.jobs()
        played += [Played(jobs[n], results[n]) for n in sorted(results)]
    return played
