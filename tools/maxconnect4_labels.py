"""Label Max-Connect4 positions just before the engine's exact horizon with their exact
values, once, for `zerosum train maxconnect4 --method texel` (src/zerosum/learn/texel.py).

    nice -n 19 python tools/maxconnect4_labels.py [--positions N] [--seed S]

Max-Connect4 has no solver of the whole game, but its engine searches to the end
exactly from 16 empty cells (EXACT_EMPTIES) and, a few cells further back, within a
second. Each position is taken from a game of its own: 6 random plies, then the engine
at depth 2 with a random move a fifth of the time (play that is neither perfect nor
aimless), until 17 to 20 cells are empty (drawn evenly); there the engine searches to
the end of the game: the exact final score difference under perfect play. These are
the positions where the evaluation counts most (a search from 24-26 empty cells at
depth 6-8 judges its leaves there) and the closest to them whose values are exact.

Each line is appended to `<labels>.partial` as soon as it is known, so a killed run
resumes where it was; at the end the labels are written whole (fileio.write_atomic) as
src/zerosum/learn/labels/maxconnect4_endgames.txt, with the SHA-256 of the label
lines in its header (texel.py checks it on every load).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time
from pathlib import Path

from zerosum.fileio import write_atomic
from zerosum.games.registry import get_game
from zerosum.players.agents import engines_of
from zerosum.result import Limit

OUT = Path(__file__).resolve().parent.parent / "src/zerosum/learn/labels/maxconnect4_endgames.txt"
RANDOM_PLIES = 6
EPSILON = 0.2  # the share of random moves after the opening
EMPTIES = (17, 18, 19, 20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    spec = get_game("maxconnect4")
    game = spec.create()
    engine = engines_of(spec)["engine"]
    partial = OUT.with_suffix(".partial")
    done = partial.read_text(encoding="utf-8").splitlines() if partial.exists() else []
    rng = random.Random(args.seed)
    started = time.process_time()
    with partial.open("a", encoding="utf-8") as out:
        for k in range(args.positions):
            # every game draws the same numbers whether or not it was done before
            games_rng = random.Random(rng.randrange(2**63))
            empties = games_rng.choice(EMPTIES)
            state, moves = game.initial_state(), []
            while 42 - len(moves) > empties:
                actions = game.actions(state)
                if len(moves) < RANDOM_PLIES or games_rng.random() < EPSILON:
                    move = games_rng.choice(actions)
                else:
                    move = engine(game, state, Limit(depth=2)).action
                moves.append(move)
                state = game.result(state, move)
            if k < len(done):
                continue
            value = engine(game, state, Limit(depth=empties)).value
            line = f"{''.join(str(m + 1) for m in moves)} {round(value):+d}"
            out.write(line + "\n")
            out.flush()
            done.append(line)
            if (k + 1) % 50 == 0:
                print(f"{k + 1} positions, {time.process_time() - started:.0f} s of CPU",
                      flush=True)
    digest = hashlib.sha256("\n".join(done).encode()).hexdigest()
    header = [
        f"# Max-Connect4: {len(done)} positions with 17 to 20 empty cells, each from a game "
        f"of its own (seed {args.seed})",
        f"# played: {RANDOM_PLIES} random plies, then the engine at depth 2 with "
        f"{EPSILON:.0%} random moves; tools/maxconnect4_labels.py",
        "# a line: MOVES VALUE, the columns played from the start (1-7) and the exact "
        "final score difference (player 1 minus player 2) under perfect play from there",
        f"# labels sha256 {digest}",
    ]
    write_atomic(OUT, "\n".join([*header, *done]) + "\n")
    partial.unlink()
    print(f"wrote {OUT}: {len(done)} positions, {time.process_time() - started:.0f} s of CPU")


if __name__ == "__main__":
    main()
