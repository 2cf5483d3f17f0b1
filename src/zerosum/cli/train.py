"""`zerosum train GAME --method ntuple [--games N | --minutes M] [--seed S] [--out FILE]
[--resume] [--workers N] [--backend ray --address HOST:PORT]`: learn a player by
self-play (zerosum.learn.train), graded against perfect play and gated against the best
checkpoint so far at each checkpoint."""

from __future__ import annotations

import argparse
from typing import Any

from zerosum.convert import float_arg, int_arg
from zerosum.game import InputError
from zerosum.games.registry import add_options, all_games, get_game

# What each method is, in the help of the games it learns (only those are listed).
METHOD_HELP = {
    "ntuple": "TD n-tuple networks",
    "samuel": "Samuel's way: the checkers engine's evaluation weights by TD-Leaf",
    "texel": "the engine's evaluation fitted to solver labels, at once",
    "alphazero": "a policy-value network guiding PUCT search",
}


def register(sub: Any) -> None:
    from zerosum.learn.gate import GATE_GAMES
    from zerosum.learn.methods import METHODS

    p = sub.add_parser(
        "train", help="learn a player by self-play, graded against perfect play",
        description="Train a learning method by self-play. Prints a progress line (games, "
        "games per second, the latest mistake rates, time left), saves a checkpoint every "
        "few minutes (graded against perfect play) and at the end; --resume continues a "
        "checkpoint, the same run as if never stopped. Play the result with "
        "--opponent learned:FILE.")
    games = p.add_subparsers(title="games", metavar="GAME", dest="game", required=True)
    for spec in all_games():
        methods = [name for name, learner in METHODS.items() if learner.learns(spec)]
        if not methods:
            continue  # no method here learns this game
        g = games.add_parser(spec.name, help=spec.title, description=spec.summary or spec.title)
        g.add_argument("--method", default=methods[0], choices=methods,
                       help="the learning method (default: %(default)s; " + ", ".join(
                           f"{name}: {METHOD_HELP[name]}" for name in methods) + ")")
        length = g.add_mutually_exclusive_group()
        length.add_argument("--games", type=int_arg(1, None), metavar="N",
                            help="train until N games have been played in all")
        length.add_argument("--minutes", type=float_arg(0, 1e6, lo_open=True), metavar="M",
                            help="train for M minutes")
        g.add_argument("--seed", type=int_arg(0, None), default=0,
                       help="the seed of every random choice (default: %(default)s)")
        g.add_argument("--out", metavar="FILE", help=f"the weights file (default: "
                       f"{spec.name}.zsnet)")
        g.add_argument("--plot", metavar="FILE.png", help="draw the learning curve (mistake "
                       "rates at each checkpoint) when done (needs the plot extra)")
        g.add_argument("--resume", action="store_true",
                       help="continue the run saved in --out")
        g.add_argument("--workers", type=int_arg(1, 64), default=1,
                       help="self-play processes (default: %(default)s; more play in "
                       "rounds, see docs/learning.md)")
        g.add_argument("--backend", choices=("local", "ray"), default="local",
                       help="where self-play rounds and gates are played: worker "
                       "processes of this machine, or a Ray cluster (default: %(default)s)")
        g.add_argument("--address", metavar="HOST:PORT", help="the Ray cluster's head node "
                       "(with --backend ray; default: Ray's own choice)")
        g.add_argument("--checkpoint-minutes", type=float_arg(0, 1e6, lo_open=True),
                       default=3.0, help="minutes between checkpoints (default: %(default)s)")
        g.add_argument("--checkpoint-games", type=int_arg(1, None), metavar="N",
                       help="a checkpoint every N games instead (the same checkpoints on "
                       "any machine)")
        g.add_argument("--gate-games", type=int_arg(0, 100_000), default=GATE_GAMES,
                       metavar="N", help="games at most of each checkpoint's SPRT against "
                       "the best so far (default: %(default)s; 0: no gate)")
        # Each method's own settings, offered only where that method learns the game.
        if "ntuple" in methods:
            g.add_argument("--tuples", type=int_arg(1, 10_000), help="ntuple: n-tuples "
                           "(default: 70 on a board of 30 cells or more, else 8)")
            g.add_argument("--length", type=int_arg(1, 12), help="ntuple: cells of each n-tuple "
                           "(default: 8 on a board of 30 cells or more, else 6)")
            g.add_argument("--alpha", type=float_arg(0, 100, lo_open=True), help="ntuple: the "
                           "step size (default: 0.5)")
            g.add_argument("--lam", type=float_arg(0, 1), help="ntuple: TD lambda "
                           "(default: 0.5)")
            g.add_argument("--epsilon", type=float_arg(0, 1), help="ntuple: the share of "
                           "random moves in self-play (default: 0.1 on a board of 30 cells or "
                           "more, else 0.5)")
            g.add_argument("--alpha-final", type=float_arg(0, 100, lo_open=True),
                           help="ntuple: the step size alpha decays to, geometrically, over "
                           "--decay-games (default: alpha, no decay)")
            g.add_argument("--epsilon-final", type=float_arg(0, 1), help="ntuple: the share of "
                           "random moves epsilon decays to (default: epsilon, no decay; not 0: "
                           "greedy self-play would repeat one game)")
            g.add_argument("--decay-games", type=int_arg(1, None), metavar="N",
                           help="ntuple: the games over which alpha and epsilon decay (default: "
                           "--games, or the games --minutes has time for at the rate of its "
                           "first minute: off where the rate moves, with the machine's load "
                           "or the games' length)")
            g.add_argument("--tcl", action="store_true", default=None, help="ntuple: temporal "
                           "coherence learning, each weight's step scaled by how consistently "
                           "it is pushed one way (Beal and Smith)")
            g.add_argument("--playable", action="store_true", default=None, help="ntuple: "
                           "read each cell in four states, an empty cell playable next apart "
                           "from one above it (games whose pieces drop, as Connect Four's; "
                           "tables of 4^length weights instead of 3^length)")
        if "samuel" in methods:
            g.add_argument("--depth", type=int_arg(1, 20), help="samuel: the depth of the "
                           "engine's search of each self-play move (default: 4)")
            g.add_argument("--pull", type=float_arg(0, 1e9), metavar="N",
                           help="samuel: a prior toward the hand-written weights, worth this "
                           "many leaves in each game's fit (default: 0, none; see "
                           "docs/learning.md)")
            g.add_argument("--average", type=int_arg(0, None), metavar="N", help="samuel: "
                           "play the weights averaged over about the last N games "
                           "(default: 0, the last game's)")
        if "alphazero" in methods:
            g.add_argument("--simulations", type=int_arg(1, 100_000), help="alphazero: the "
                           "simulations of a full search (default: 100 on a board of 30 cells "
                           "or more, else 32)")
        add_options(g, spec.options)
        g.set_defaults(defaults={name: g.get_default(name) for name in SELF_PLAY_ONLY})
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from zerosum.learn.methods import METHODS
    from zerosum.learn.train import train

    if getattr(METHODS[args.method], "fitted_not_played", False):
        return run_fit(args)
    if args.games is None and args.minutes is None:
        raise InputError("say how long to train: --games N or --minutes M")
    spec = get_game(args.game)
    options = {o.name: getattr(args, o.name) for o in spec.options}
    game = spec.create(**options)
    settings = {k: getattr(args, k) for k in METHOD_SETTINGS
                if getattr(args, k, None) is not None}
    out = args.out or f"{spec.name}.zsnet"
    if args.backend != "ray" and args.address is not None:
        raise InputError("--address goes with --backend ray")
    if getattr(METHODS[args.method], "one_worker", False) and args.backend == "ray":
        raise InputError(f"{args.method} plays its self-play in this process (its policy "
                         "targets are its own searches' visits): no --backend ray")
    if args.plot is not None:
        from zerosum.ratingplot import check_plot

        check_plot(args.plot)
    pool, gatekeeper = None, None
    if args.backend == "ray":
        from zerosum.tournament.raycluster import RayBackend, RayPool

        backend: Any = RayBackend(args.address, args.workers)
    elif args.workers > 1:
        from zerosum.tournament.backends import LocalBackend

        backend = LocalBackend(args.workers)
    else:
        from zerosum.tournament.backends import InProcessBackend

        backend = InProcessBackend()
    if args.gate_games > 0:
        from zerosum.tournament.gate import CheckpointGate

        gatekeeper = CheckpointGate(spec, game, options, args.seed, backend,
                                    args.gate_games)
    if args.backend == "ray":
        pool = RayPool(args.address, args.workers if args.workers > 1 else None)
    weights = train(spec, game, options, args.method, out, games=args.games,
                    minutes=args.minutes, seed=args.seed, resume=args.resume,
                    settings=settings, checkpoint_seconds=60 * args.checkpoint_minutes,
                    report=lambda p: print(p.line(), flush=True), workers=args.workers,
                    checkpoint_games=args.checkpoint_games, gatekeeper=gatekeeper,
                    pool=pool)
    run = weights.header["run"]
    print(f"saved {out}: {run['games']} games")
    if run.get("ratings"):
        from zerosum.learn.gate import ratings_table

        print(ratings_table(run["ratings"], run.get("best")))
    if args.plot is not None:
        from zerosum.learn.curve import plot_curve

        plot_curve(run["history"], args.plot,
                   f"{spec.title}, {args.method}: mistakes against perfect play",
                   run.get("ratings", []))
        print(f"learning curve: {args.plot}")
    return 0


# The self-play methods' own settings, passed on to the method as given (the options
# register() declares for the methods that learn the game).
METHOD_SETTINGS = ("tuples", "length", "alpha", "lam", "epsilon", "alpha_final",
                   "epsilon_final", "decay_games", "tcl", "playable", "depth", "pull",
                   "average", "simulations")
# What only self-play uses: a fitted method takes none of it (each given if not its default).
SELF_PLAY_ONLY = ("games", "minutes", "resume", "seed", "plot", "workers", "backend",
                  "address", "checkpoint_minutes", "checkpoint_games",
                  "gate_games", *METHOD_SETTINGS)


def run_fit(args: argparse.Namespace) -> int:
    """A method fitted to solver labels at once (texel): fit, save, show the weights
    before and after."""
    from zerosum.fileio import check_writable
    from zerosum.learn import weights as weights_file
    from zerosum.learn.texel import fit_file

    given = [f"--{name.replace('_', '-')}" for name in SELF_PLAY_ONLY
             if getattr(args, name, None) != args.defaults[name]]
    if given:
        raise InputError(f"{args.method} is fitted at once to solver labels, with no "
                         f"self-play: no {', '.join(given)}")
    spec = get_game(args.game)
    options = {o.name: getattr(args, o.name) for o in spec.options}
    game = spec.create(**options)
    out = args.out or f"{spec.name}.zsnet"
    check_writable(out, "weights file")
    weights, fit = fit_file(spec, game, options, report=lambda s: print(s, flush=True))
    weights_file.write(out, weights)
    print(fit.table())
    print(f"saved {out}: play it as learned,depth=N:{out} (the engine with these weights)")
    return 0
