"""`zerosum class tournament`: every submission of a folder that builds plays every other,
as its course's player, beside zerosum's reference players, in a tournament of
zerosum.tournament (its schedule, database, workers and report; nothing of its own).

Each submission is built (zerosum.classes.build) into DB.builds/KEY, a folder kept beside
the database for as long as the tournament is played: its player is
`course:comp3608,dir=DB.builds/KEY:COMMAND` (or course:maxconnect4), each call in a
fresh copy of that folder in the sandbox. A student is shown by KEY, the folder's name
made safe (classes.names.entrant_label gives it back from the spec).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from zerosum.classes.build import build, program_stem, remove_tree, submissions
from zerosum.classes.names import builds_folder, entrant_label, labelled
from zerosum.game import InputError
from zerosum.games.registry import GameSpec, get_game
from zerosum.marker.cases import MARKINGS
from zerosum.players.programs import move_timeout_of
from zerosum.players.spec import agent_from_spec
from zerosum.result import Limit
from zerosum.tournament.backends import LocalBackend
from zerosum.tournament.jobs import GameJob, GameResult
from zerosum.tournament.report import report
from zerosum.tournament.run import play
from zerosum.tournament.schedule import Settings, check_agents, move_timeout
from zerosum.tournament.store import Store

# game -> (the assignment whose programs play it, their player kind, what a late move costs)
COURSES = {"connect4": ("comp3608", "course:comp3608", "move"),
           "maxconnect4": ("uta-maxconnect4", "course:maxconnect4", "game")}
ENGINES = ("random", "alphabeta:depth=4")


Say = Callable[[str], None]


def entrants(game: str, root: Path, builds: Path, say: Say,
             move_time: float | None = None) -> list[str]:
    """Build every submission into `builds`; the specs of those that build, in order."""
    if game not in COURSES:
        raise InputError(f"no course's programs play {game!r}; a class tournament plays "
                         f"{', '.join(COURSES)}")
    assignment, kind, _ = COURSES[game]
    marking = MARKINGS[assignment]
    stem = program_stem(marking.program, marking.placeholder)
    found = submissions(root, [builds])
    inside = [s for s in found if builds.is_relative_to(s.folder.resolve())]
    if inside:
        raise InputError(f"{builds} is inside the submission {inside[0].key}: give a --db "
                         "outside every student's folder")
    if any(c in str(builds) for c in ",:"):
        raise InputError(f"{builds}: a player's folder cannot hold ',' or ':'; give a --db "
                         "in another folder")
    builds.mkdir(exist_ok=True)
    specs = []
    for number, s in enumerate(found, 1):
        into = builds / s.key
        remove_tree(into)
        built = build(s, stem, marking.placeholder, into)
        if built.failure:
            remove_tree(into)
            say(f"built {number}/{len(found)}: {s.key}: not entered: {built.failure[:120]}")
            continue
        time = "" if move_time is None else f"time={move_time:g},"
        specs.append(f"{kind},{time}dir={into}:{shlex.join(built.command)}")
        say(f"built {number}/{len(found)}: {s.key}: entered ({built.how})")
    return specs


def class_tournament(game: str, root: Path, games: int, db: str, engines: tuple[str, ...],
                     seed: int, workers: int | None, built: Say, played: Say,
                     move_time: float | None = None, format_: str = "round-robin") -> str:
    """Build, then play (or go on playing) the class's tournament; its report. A
    round robin plays every two players; a gauntlet, the first reference player against
    every student and the other reference players (a class's size in games, not its
    square)."""
    spec = get_game(game)
    builds = builds_folder(db)
    first, *others = engines or ENGINES
    check_agents((first, *others, "(the students)"), format_)
    timeouts = {text: agent_timeout(spec, text) for text in engines or ENGINES}  # before
    students = entrants(game, root, builds, built, move_time)  # the builds, which take long
    agents = (first, *students, *others) if format_ == "gauntlet" \
        else (*students, first, *others)
    check_agents(agents, format_)
    timeouts.update((text, agent_timeout(spec, text)) for text in students)
    options = tuple((o.name, o.default) for o in spec.options)
    settings = Settings(spec.name, agents, games, format_, seed,
                        move_timeouts=tuple(timeouts[a] for a in agents), options=options,
                        late=COURSES[game][2])
    with Store(db, settings.to_json()) as store:
        total = settings.total()
        count = len(store.results())
        played(f"{total} games, {len(students)} students and {len(agents) - len(students)} "
               f"reference players, results in {db}" + (f" ({count} played before)"
                                                        if count else ""))

        def shown(job: GameJob, result: GameResult) -> None:
            nonlocal count
            count += 1
            first, second = map(entrant_label, job.agents)
            reason = labelled(result.reason, job.agents)
            played(f"game {job.number} [{count}/{total}] {first} - {second}: "
                   f"{result.score:g} {reason}")

        play(settings, spec.create(**dict(options)), store, LocalBackend(workers), shown)
        return standings(store)


def agent_timeout(spec: GameSpec, text: str) -> float:
    """How long the referee lets the agent `text` take a move (InputError for a spec
    that makes no agent): a program's own rule, else the tournament's."""
    agent = agent_from_spec(spec, text)
    return move_timeout_of(agent) or move_timeout(getattr(agent, "limit", Limit()).seconds)


def standings(store: Store) -> str:
    """The tournament's report, each student shown by their key."""
    results, jobs = store.results(), store.jobs()
    named = {n: replace(j, agents=(entrant_label(j.agents[0]), entrant_label(j.agents[1])))
             for n, j in jobs.items()}
    specs = store.settings().agents
    return labelled(report(results, named, tuple(map(entrant_label, specs))), specs)
