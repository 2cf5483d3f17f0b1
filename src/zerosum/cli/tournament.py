"""`zerosum tournament GAME --agent SPEC ...`, `zerosum sprt GAME --agent A --agent B` and
`zerosum results DB`: which agent is stronger, measured (see zerosum.tournament)."""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import sys
from collections.abc import Callable
from typing import Any

from zerosum.convert import float_arg, int_arg, seed_arg
from zerosum.fileio import check_writable, read_text, write_atomic
from zerosum.game import AnyGame, InputError
from zerosum.gamefile import GAME_FILE_HELP, NO_CHECK_HELP, blame, load_checked
from zerosum.games.registry import GameSpec, add_options, all_games, get_game
from zerosum.match import Agent, MoveTimeout, time_limit
from zerosum.players.programs import move_timeout_of, sandbox_note
from zerosum.players.spec import agent_from_spec, spec_help
from zerosum.ratingplot import check_plot, plot_ratings
from zerosum.ratings import Sprt
from zerosum.result import Limit
from zerosum.tournament.backends import Backend, LocalBackend
from zerosum.tournament.export import export
from zerosum.tournament.jobs import FORFEITS, GameJob, GameResult
from zerosum.tournament.report import Played, labels, ratings, report
from zerosum.tournament.run import play
from zerosum.tournament.schedule import (
    FORMATS,
    UNTIMED_TIMEOUT,
    Settings,
    check_agents,
    move_timeout,
    read_openings,
)
from zerosum.tournament.sprt import SprtState, sequential_test
from zerosum.tournament.store import Store

MAX_GAMES = 1_000_000
PLOT_HELP = "also draw the ratings with their intervals as a PNG (needs matplotlib)"


def register(sub: Any) -> None:
    games_command(
        sub, "tournament", "play agents against each other and rate them",
        "Play every pairing of agents (or the first against each other) in colour-swapped "
        "pairs of games from shared openings, and show standings with Bradley-Terry "
        "ratings and 95 % intervals, a cross-table and each pairing's figures. Each game "
        "is committed to a SQLite database as it ends: run the same command again to "
        "resume.", tournament_arguments, run_tournament)
    games_command(
        sub, "sprt", "match two agents until one is shown stronger (or not)",
        "Play two agents in colour-swapped pairs of games until the sequential probability "
        "ratio test accepts 'the first is stronger by ELO1 Elo' or 'by no more than ELO0' "
        "(or --max-games is reached). Resumable like `zerosum tournament`.",
        sprt_arguments, run_sprt)
    r = sub.add_parser("results", help="show (or export) a tournament's results again",
                       description="Show the standings, cross-table and pairings of a "
                       "tournament database without playing.")
    r.add_argument("db", metavar="DB", help="the tournament's database file")
    r.add_argument("--plot", metavar="FILE.png", help=PLOT_HELP)
    r.add_argument("--export", metavar="FILE",
                   help="write every game in the game's notation (checkers: PDN), with each "
                   "searching agent's value, depth, nodes and time per move")
    r.set_defaults(func=run_results)


def sprt_arguments(g: argparse.ArgumentParser) -> None:
    g.add_argument("--elo0", type=float_arg(-1000, 1000, name="Elo"), default=0.0,
                   help="the null hypothesis: stronger by at most this (default: %(default)g)")
    g.add_argument("--elo1", type=float_arg(-1000, 1000, name="Elo"), default=50.0,
                   help="the alternative: stronger by this (default: %(default)g)")
    g.add_argument("--alpha", type=float_arg(0, 0.5, lo_open=True, name="probability"),
                   default=0.05, help="false positive rate (default: %(default)g)")
    g.add_argument("--beta", type=float_arg(0, 0.5, lo_open=True, name="probability"),
                   default=0.05, help="false negative rate (default: %(default)g)")
    g.add_argument("--max-games", type=int_arg(2, MAX_GAMES, "games"), default=2000,
                   help="stop undecided after this many games (default: %(default)s)")


def tournament_arguments(g: argparse.ArgumentParser) -> None:
    g.add_argument("--games", type=int_arg(2, MAX_GAMES, "games"), default=10,
                   help="games per pairing, an even number (default: %(default)s)")
    g.add_argument("--format", choices=FORMATS, default="round-robin",
                   help="round-robin: every two agents meet; gauntlet: the first agent "
                   "against each other (default: %(default)s)")
    g.add_argument("--plot", metavar="FILE.png", help=PLOT_HELP)


def games_command(sub: Any, name: str, summary: str, description: str,
                  arguments: Callable[[argparse.ArgumentParser], None],
                  run: Callable[[argparse.Namespace], int]) -> None:
    """`zerosum NAME GAME ...` for every registered game, and `zerosum NAME game-file
    FILE ...` for a person's own (a Python file defining GAME)."""
    p = sub.add_parser(name, help=summary, description=description)
    games = p.add_subparsers(title="games", metavar="GAME", dest="game")
    for spec in all_games():
        g = games.add_parser(spec.name, help=spec.title, description=spec.summary or spec.title)
        arguments(g)
        common(g, spec, name)
    g = games.add_parser("game-file", help="your own game, from a Python file",
                         description="Your own game, from a Python file defining GAME "
                         "(see docs/examples/mygame.py).")
    g.add_argument("game_file", metavar="FILE", help=GAME_FILE_HELP)
    g.add_argument("--no-check", action="store_true", help=NO_CHECK_HELP)
    arguments(g)
    common(g, None, name)
    p.set_defaults(func=run)


def common(g: argparse.ArgumentParser, spec: GameSpec | None, kind: str) -> None:
    """The arguments of every game's tournament or SPRT; `spec` None: a game file's."""
    g.add_argument("--agent", action="append", default=[], metavar="SPEC",
                   help=spec_help(spec).replace("%", "%%"))
    g.add_argument("--seed", type=seed_arg, default=1,
                   help="seed of the openings and the agents (default: %(default)s)")
    g.add_argument("--opening-plies", type=int_arg(0, 40, "plies"), default=2,
                   help="random moves of each opening, drawn again where a solver finds "
                   "they change the game's value (default: %(default)s)")
    g.add_argument("--random-openings", action="store_true",
                   help="keep every random opening, even one that hands a side the game")
    g.add_argument("--openings", metavar="FILE",
                   help="openings from a file, one per line in the game's notation")
    g.add_argument("--max-plies", type=int_arg(1, 100_000, "plies"), default=400,
                   help="a game this long is a draw (default: %(default)s)")
    g.add_argument("--no-adjudication", action="store_true",
                   help="play every game to its end (Connect Four's solver otherwise ends a "
                   "decided game once 12 cells are empty)")
    g.add_argument("--move-timeout", type=float_arg(0, 86_400, lo_open=True, name="seconds"),
                   help="seconds a move may take before its agent loses (default: 3 times "
                   "the agent's time plus 2 s, or 60 s for agents without a time limit)")
    g.add_argument("--late", choices=FORFEITS, default="game",
                   help="what a move past its timeout costs: the game, or only the move "
                   "(its side passes its turn, COMP3608's rule; in a game that cannot pass, "
                   "the game) (default: %(default)s)")
    g.add_argument("--strict", action="store_true",
                   help="refuse to run programs (course:, ugi:) where this system's sandbox "
                   "cannot contain them fully, rather than say what it does not enforce")
    g.add_argument("--workers", type=int_arg(1, 256, "workers"),
                   help="games played at once (default: the number of cores; never more "
                   "than games to play, nor, on this machine, than 4 a core)")
    g.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local worker processes, or a Ray cluster (default: %(default)s)")
    g.add_argument("--address", help="with --backend ray: the cluster's address, HOST:PORT")
    g.add_argument("--db", default=f"{'game' if spec is None else spec.name}-{kind}.sqlite",
                   help="the database of results (default: %(default)s)")
    add_options(g, () if spec is None else spec.options)


def settings_of(args: argparse.Namespace, games: int | None, format_: str
                ) -> tuple[Settings, AnyGame]:
    """The tournament's settings from the arguments, every agent made once to check it."""
    options: tuple[tuple[str, Any], ...] = ()
    if args.game == "game-file":
        spec, game = load_checked(args.game_file, check=not args.no_check)
        name = os.path.abspath(args.game_file)
    else:
        spec = get_game(args.game)
        options = tuple((o.name, getattr(args, o.name)) for o in spec.options)
        game, name = spec.create(**dict(options)), spec.name
    agents = tuple(a.strip() for a in args.agent)
    check_agents(agents, format_)
    made = [checked_agent(spec, a, args) for a in agents]
    if (note := sandbox_note(made, game)) is not None:  # programs: what is not enforced
        if args.strict:
            raise InputError(note.replace("note: ", "--strict: ", 1) + ": not run")
        sys.stderr.write(note + "\n")
    timeouts = tuple(args.move_timeout or move_timeout_of(m)
                     or move_timeout(getattr(m, "limit", Limit()).seconds) for m in made)
    if games is not None and games % 2:
        raise InputError(f"games come in colour-swapped pairs: give an even --games, not {games}")
    openings = None
    if args.openings is not None:
        openings = read_openings(read_text(args.openings, "openings file"), args.openings, game)
    if args.backend != "ray" and args.address is not None:
        raise InputError("--address goes with --backend ray")
    return Settings(name, agents, games, format_, args.seed, args.opening_plies,
                    openings, args.max_plies, not args.no_adjudication, timeouts,
                    options, args.late, balanced=not args.random_openings), game


def checked_agent(spec: GameSpec, text: str, args: argparse.Namespace) -> Agent:
    """The agent `text` makes, made here once before any game so that a broken one is
    found before the database is made; one that takes longer than a move may is broken."""
    seconds = args.move_timeout or UNTIMED_TIMEOUT
    try:
        with time_limit(seconds):
            return agent_from_spec(spec, text)
    except MoveTimeout:
        raise InputError(f"agent {text}: not made within {seconds:g} s") from None


def backend_of(args: argparse.Namespace) -> Backend:
    if args.backend == "ray":
        from zerosum.tournament.raycluster import RayBackend

        return RayBackend(args.address, args.workers)
    return LocalBackend(args.workers)


def game_line(job: GameJob, result: GameResult, count: int, total: int | None) -> str:
    score = {1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}[result.score]
    plies = len(result.moves)  # the opening's too: the game's length
    of = "" if total is None else f"/{total}"
    shown = labels([result], {job.number: job})
    first, second = (shown.get(a, a) for a in job.agents)
    opening = f" after {' '.join(job.opening)}" if job.opening else ""
    return (f"game {job.number:>4}  [{count}{of}]  {first} - {second}{opening}: "
            f"{score}  {result.reason} ({plies} plies, {result.seconds:.1f} s)")


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def interrupted(store: Store) -> int:
    n = len(store.results())
    sys.stderr.write(f"Stopped: {n} games are in {store.path}; run the same command again "
                     "to play the rest.\n")
    return 130


def need_game(args: argparse.Namespace, command: str) -> None:
    if args.game is None:
        raise InputError(f"name a game, e.g. zerosum {command} connect4 --agent engine "
                         "--agent random")


def own_game(args: argparse.Namespace) -> contextlib.AbstractContextManager[None]:
    """A person's game file's errors as one line naming it (gamefile.blame)."""
    return blame(args.game_file) if args.game == "game-file" else contextlib.nullcontext()


def run_tournament(args: argparse.Namespace) -> int:
    need_game(args, "tournament")
    with own_game(args):
        return play_tournament(args)


def play_tournament(args: argparse.Namespace) -> int:
    settings, game = settings_of(args, args.games, args.format)
    if args.plot is not None:
        check_plot(args.plot)
    backend = backend_of(args)
    with Store(args.db, settings.to_json()) as store:
        count = len(store.results())
        store.jobs()  # damaged rows are found before any game is played
        total = settings.total()
        if count:
            say(f"Resuming: {count} of {total} games are already in {args.db}.")
        else:
            pairings = len(settings.pairings())
            say(f"{total} games, {len(settings.agents)} agents, {pairings} "
                f"pairing{'s' if pairings > 1 else ''}, results in {args.db}.")

        def shown(job: GameJob, result: GameResult) -> None:
            nonlocal count
            count += 1
            say(game_line(job, result, count, total))

        try:
            play(settings, game, store, backend, shown)
        except KeyboardInterrupt:
            return interrupted(store)
        say("")
        show(store, settings, args.plot)
    return 0


def show(store: Store, settings: Settings, plot: str | None) -> None:
    """The tables of the games in `store`; the plot of the ratings if asked."""
    results, jobs = store.results(), store.jobs()
    say(report(results, jobs, settings.agents).rstrip("\n"))
    if plot is not None and results:
        played = [Played(jobs[n], results[n]) for n in sorted(results)]
        plot_ratings(ratings(played), plot, f"{settings.game}: {len(results)} games")
        say(f"Plot of the ratings: {plot}")


def run_sprt(args: argparse.Namespace) -> int:
    need_game(args, "sprt")
    with own_game(args):
        return play_sprt(args)


def play_sprt(args: argparse.Namespace) -> int:
    settings, game = settings_of(args, args.max_games + args.max_games % 2, "round-robin")
    if len(settings.agents) != 2:
        raise InputError(f"an SPRT matches two agents (--agent twice), not "
                         f"{len(settings.agents)}")
    try:
        sprt = Sprt(args.elo0, args.elo1, args.alpha, args.beta)
    except ValueError as e:
        raise InputError(str(e)) from None
    first = settings.agents[0]
    backend = backend_of(args)
    with Store(args.db, settings.to_json()) as store:
        say(f"SPRT: is {first} stronger than {settings.agents[1]} by {args.elo1:g} Elo "
            f"(H1) or by at most {args.elo0:g} (H0)? LLR bounds [{sprt.lower:+.3f}, "
            f"{sprt.upper:+.3f}], results in {args.db}.")

        def shown(job: GameJob, result: GameResult, state: SprtState) -> None:
            say(f"{game_line(job, result, state.games, settings.games)}  LLR {state.llr:+.3f}")

        try:
            state = sequential_test(sprt, settings, game, store, backend, shown)
        except KeyboardInterrupt:
            return interrupted(store)
        tally, llr, decision = state.tally, state.llr, state.decision
        say("")
        say(f"{first} vs {settings.agents[1]}: {tally.stats().summary()}")
        verdict = {"H1": f"H1 accepted: {first} is stronger by about {args.elo1:g} Elo or more",
                   "H0": f"H0 accepted: {first} is not stronger by {args.elo1:g} Elo",
                   None: "no decision within --max-games"}[decision]
        say(f"LLR {llr:+.3f} in [{sprt.lower:+.3f}, {sprt.upper:+.3f}]: {verdict}")
    return 0


def run_results(args: argparse.Namespace) -> int:
    if args.plot is not None:
        check_plot(args.plot)
    with Store.existing(args.db) as store:
        if args.export is not None:
            check_writable(args.export, "export file")
            results, jobs = store.results(), store.jobs()
            try:
                text = export(jobs, results, datetime.date.today())
            except InputError as e:
                raise InputError(f"{args.db}: {e}") from None
            write_atomic(args.export, text, what="export file")
            say(f"{len(results)} games written to {args.export}")
            return 0
        show(store, store.settings(), args.plot)
    return 0

