"""What a tournament's results say: standings with ratings, a cross-table, each
pairing's match figures, and the forfeits; as text.

Ratings are Bradley-Terry (zerosum.ratings.bradley_terry) over every game, in Elo,
centred on the field's mean, with 95 % intervals. A pairing's figures are pentanomial
(zerosum.ratings) when all its pairs of games are complete.
"""

from __future__ import annotations

import math
import os
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from zerosum.ratings import MatchStats, Rating, Tally, bradley_terry, format_elo
from zerosum.tournament.jobs import GameJob, GameResult

PRIOR_DRAWS = 1.0  # virtual draws per pairing: keeps a player who won every game finite


@dataclass(frozen=True)
class Played:
    job: GameJob
    result: GameResult

    def score_of(self, agent: str) -> float:
        return self.result.score if self.job.agents[0] == agent else 1.0 - self.result.score


def pair_tally(played: Sequence[Played], a: str, b: str) -> Tally:
    """a's scores against b, pair by pair."""
    tally = Tally()
    for p in played:
        if set(p.job.agents) == {a, b}:
            tally.add(p.job.pair, p.score_of(a))
    return tally


def pair_stats(played: Sequence[Played], a: str, b: str) -> MatchStats:
    """a's figures against b, pair by pair."""
    return pair_tally(played, a, b).stats()


def ratings(played: Sequence[Played]) -> list[Rating]:
    return bradley_terry([(p.job.agents[0], p.job.agents[1], p.result.score)
                          for p in played], prior_draws=PRIOR_DRAWS)


def standings(played: Sequence[Played]) -> str:
    try:
        rows = ratings(played)
    except ValueError as e:  # some agents not yet linked by games (an early stop)
        return f"Standings: no ratings yet: {e}"
    width = max(len("agent"), *(len(r.name) for r in rows))
    lines = ["Standings: Bradley-Terry ratings in Elo (mean 0), 95 % intervals",
             f"  #  {'agent':<{width}}  games  points  score   Elo   interval"]
    for rank, r in enumerate(rows, 1):
        share = 100 * r.points / r.games if r.games else math.nan
        lines.append(f"{rank:>3}  {r.name:<{width}}  {r.games:>5}  {r.points:>6g}  "
                     f"{share:>5.1f} %  {format_elo(r.elo):>4}  "
                     f"[{format_elo(r.low)}, {format_elo(r.high)}]")
    return "\n".join(lines)


def cross_table(played: Sequence[Played], agents: Sequence[str]) -> str:
    """Points of each row's agent against each column's, of the games they played."""
    points: dict[tuple[str, str], float] = defaultdict(float)
    games: dict[tuple[str, str], int] = defaultdict(int)
    for p in played:
        first, second = p.job.agents
        points[first, second] += p.result.score
        points[second, first] += 1.0 - p.result.score
        games[first, second] += 1
        games[second, first] += 1
    width = max(len(a) for a in agents)
    cells = {(a, b): "-" if a == b else f"{points[a, b]:g}/{games[a, b]}" if games[a, b]
             else "." for a in agents for b in agents}
    column = max(5, *(len(c) for c in cells.values()))
    lines = ["Cross-table: points of the row against the column / games",
             f"{'':>{width + 5}}" + "".join(f"{j:>{column + 2}}" for j in
                                            range(1, len(agents) + 1))]
    for i, a in enumerate(agents, 1):
        lines.append(f"{i:>3}  {a:<{width}}" + "".join(f"{cells[a, b]:>{column + 2}}"
                                                      for b in agents))
    return "\n".join(lines)


def pairings(played: Sequence[Played], agents: Sequence[str]) -> str:
    lines = ["Pairings: the first agent's figures (pairs: how many scored 0 ½ 1 1½ 2)"]
    for i, a in enumerate(agents):
        for b in agents[i + 1:]:
            if any(set(p.job.agents) == {a, b} for p in played):
                lines.append(f"  {a} vs {b}: {pair_stats(played, a, b).summary()}")
    return "\n".join(lines)


def forfeits(played: Sequence[Played]) -> str:
    """The games lost by a crash, an illegal move or the clock, and the moves lost (a
    late move, where the rules cost only the move), game by game."""
    lines = []
    for p in played:
        lines += [f"  game {p.result.number}: {p.job.agents[m.by]} lost move {ply}: "
                  f"{m.forfeit}" for ply, m in enumerate(p.result.moves, 1)
                  if m.forfeit and m.by in (0, 1)]
        if p.result.fault is not None:
            lines.append(f"  game {p.result.number}: {p.result.reason}")
    return "\n".join(["Forfeits:", *lines]) if lines else "Forfeits: none"


def labels(results: Iterable[GameResult], jobs: Mapping[int, GameJob]) -> dict[str, str]:
    """How each agent is shown: its spec, or for a person's agent file that names its
    agent, that name with the file's (`greedy (myagent.py:depth=2)`), as long as no two
    agents would look the same."""
    found: dict[str, str] = {}
    for r in results:
        for spec, name in zip(jobs[r.number].agents, r.names, strict=False):
            if name and name != spec:
                file, colon, settings = spec.partition(":")
                found[spec] = f"{name} ({os.path.basename(file)}{colon}{settings})"
    shown = Counter(found.values())
    return {spec: label for spec, label in found.items() if shown[label] == 1}


def ranked(played: Sequence[Played], agents: Sequence[str]) -> list[str]:
    """The agents in the standings' order (as given, until they can be rated)."""
    try:
        order = [r.name for r in ratings(played)]
    except ValueError:
        return list(agents)
    return order + [a for a in agents if a not in order]


def report(results: Mapping[int, GameResult], jobs: Mapping[int, GameJob],
           agents: Sequence[str]) -> str:
    shown = labels(results.values(), jobs)
    if set(shown.values()) & (set(agents) - set(shown)):
        shown = {}  # a label that is another agent's spec: specs it is

    def label(spec: str) -> str:
        return shown.get(spec, spec)

    played = [Played(replace(jobs[n], agents=(label(jobs[n].agents[0]),
                                              label(jobs[n].agents[1]))), results[n])
              for n in sorted(results)]
    if not played:
        return "No games played yet."
    agents = [label(a) for a in agents]
    return "\n\n".join([standings(played), cross_table(played, ranked(played, agents)),
                        pairings(played, agents), forfeits(played)]) + "\n"
