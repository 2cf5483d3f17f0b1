"""One side of bench/versus_git.py: a game's engine from a given source tree, playing
over stdin/stdout. Started as `python -I bench/engine_child.py SRC GAME [NAME=VALUE ...]`
(the game's options, e.g. draw=tournament), it puts SRC
first on sys.path, so the zerosum it imports is that tree's (an old commit's or the
current one), and uses only the game's "engine" player: `agents.engines_of(spec)["engine"]`
(the game's kernel under the one driver) called `(game, state, Limit(seconds=S))` in a
tree that has them, else the registry's entry `get_game(GAME).engines["engine"]` called
`(game, state, S)` (the trees before the iterative-deepening driver).

The protocol, one line each way, moves in the game's written form (format_move):
    -> ready PATH-OF-ZEROSUM           once, at start-up
    <- new                             a fresh game object, at the initial state
    <- move M                          play M (either side's move)
    <- go S                            think S seconds on the position reached
    -> bestmove M DEPTH NODES          (DEPTH 0 when the search reached the end)
    <- quit                            (or end of input)
Anything unexpected ends the child with a traceback on stderr, which the parent shows.
"""

import sys


def main() -> None:
    src, name, settings = sys.argv[1], sys.argv[2], sys.argv[3:]
    sys.path.insert(0, src)
    import zerosum
    from zerosum.games.registry import get_game

    try:
        from zerosum.result import Limit as limit
    except ImportError:  # a tree before the driver: the engine takes seconds
        limit = None
    spec = get_game(name)
    try:  # a tree with the one driver: the engine is the game's kernel under it
        from zerosum.players.agents import engines_of
        engine = engines_of(spec)["engine"]
    except ImportError:
        engine = spec.engines["engine"]
    types = {o.name: o.type for o in spec.options}
    options = {k: types[k](v) for k, _, v in (s.partition("=") for s in settings)}
    game = spec.create(**options)
    state = game.initial_state()
    print("ready", zerosum.__file__, flush=True)
    for line in sys.stdin:
        command, _, rest = line.strip().partition(" ")
        if command == "new":
            game = spec.create(**options)
            state = game.initial_state()
        elif command == "move":
            state = game.result(state, game.parse_move(state, rest))
        elif command == "go":
            seconds = float(rest)
            if limit is not None:
                r = engine(game, state, limit(seconds=seconds))
            else:
                r = engine(game, state, seconds)
            print(f"bestmove {game.format_move(r.action)} {r.depth or 0} {r.stats.nodes}",
                  flush=True)
        elif command == "quit":
            return
        else:
            raise SystemExit(f"engine_child: unknown command {line.strip()!r}")


if __name__ == "__main__":
    main()
