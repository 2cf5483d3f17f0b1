"""The current engine against the engine of an older commit, at equal time per move.

    python bench/versus_git.py GAME [--rev 84018ae] [--games 20] [--time 0.1]
                               [--opening N] [--seed 1] [--workers 1|2]

GAME is connect4 (7x6), checkers (8x8, English captures, the tournament draw rule) or
maxconnect4.
The old code is checked out with `git worktree add --detach` into a temporary folder
(removed afterwards, on Ctrl-C too). Each engine runs in its own child process,
`python -I bench/engine_child.py SRC GAME`, SRC being the old checkout's `src` or this
tree's (with its uncommitted changes): both get the same kind of process and the same
`--time` seconds of wall time per move, through the registry's engine entry only.
This process is the referee, with the current tree's rules.

Openings: `--opening` random moves from a generator seeded with `--seed` (connect4 and
maxconnect4 2, checkers 4), each played twice, the new engine once on each side. Each
game starts a fresh game object in both children (the engines' tables live on). With
`--workers 2` two games run at once, each with its own pair of children: quicker, but
on a busy machine both engines get less done per second. Prints every game, then the
new engine's totals (zerosum.ratings: pentanomial over the pairs) and the mean depth
each side reached. Bad arguments or an unknown revision: one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import contextlib
import queue
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any

from matchlib import GameRecord, play_pairs, random_openings

from zerosum.game import AnyGame
from zerosum.games.registry import get_game

HERE = Path(__file__).resolve().parent
CHILD = HERE / "engine_child.py"
# The games and their options, as NAME=VALUE for the children too. Checkers: the
# tournament draw rule (threefold repetition, 40 moves each without a capture or a man
# move) and no move limit, so that a game is drawn for a reason on the board.
GAMES = {"connect4": [], "checkers": ["draw=tournament", "moves=0"], "maxconnect4": []}
OPENING = {"connect4": 2, "checkers": 4, "maxconnect4": 2}
DEFAULT_REV = "84018ae"  # the last commit before the engines' iterative-deepening driver


class EngineProcess:
    """A player whose engine runs in a child process from the source tree `src`."""

    def __init__(self, name: str, src: Path, game: str, seconds: float) -> None:
        """The engine of `game` (a key of GAMES) from the zerosum in `src`."""
        self.name, self.seconds = name, seconds
        self.depths: list[int] = []
        self.game: AnyGame | None = None  # the referee's game object of the game played
        self.sent: list[str] = []  # the moves the child has been told in it
        self.proc = subprocess.Popen(
            [sys.executable, "-I", str(CHILD), str(src), game, *GAMES[game]],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
            start_new_session=True)  # Ctrl-C reaches the referee only; it ends the child
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        try:
            ready = self._answer(60.0).split(" ", 1)
            if ready[0] != "ready" or not Path(ready[-1]).resolve().is_relative_to(src.resolve()):
                raise RuntimeError(f"{name}: imported zerosum from {ready[-1]}, not from {src}")
        except BaseException:
            self.close()
            raise

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put("")  # end of output: the child has stopped

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")

    def _answer(self, timeout: float) -> str:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise RuntimeError(f"{self.name}: no answer in {timeout:g} s") from None
        if not line:
            raise RuntimeError(f"{self.name}: the engine process stopped (see above)")
        return line

    def choose(self, game: AnyGame, state: Any, moves: Sequence[Any]) -> Any:
        written = [game.format_move(m) for m in moves]
        if game is not self.game:  # a new game: a fresh game object in the child too
            self._send("new")
            self.game, self.sent = game, []
        if written[:len(self.sent)] != self.sent:
            raise RuntimeError(f"{self.name}: the game's moves are not the ones sent")
        for text in written[len(self.sent):]:
            self._send(f"move {text}")
        self.sent = written
        self._send(f"go {self.seconds!r}")
        answer = self._answer(20 * self.seconds + 60)
        head, depth, _nodes = answer.rsplit(" ", 2) if answer.count(" ") >= 3 else ("", "", "")
        word, _, move = head.partition(" ")
        if word != "bestmove":
            raise RuntimeError(f"{self.name}: answered {answer!r}, not bestmove M DEPTH NODES")
        self.depths.append(int(depth))
        return game.parse_move(state, move)

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                self._send("quit")
                assert self.proc.stdin is not None
                self.proc.stdin.close()
            try:
                self.proc.wait(2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise ValueError(done.stderr.strip().splitlines()[-1] if done.stderr.strip()
                         else f"git {' '.join(args)} failed")
    return done.stdout.strip()


@contextlib.contextmanager
def checkout(root: Path, rev: str) -> Iterator[Path]:
    """A detached worktree of `rev` in a temporary folder, removed on the way out."""
    folder = Path(tempfile.mkdtemp(prefix="zerosum-versus-"))
    tree = folder / "tree"
    try:
        git(root, "worktree", "add", "--quiet", "--detach", str(tree), rev)
        yield tree
    finally:
        with contextlib.suppress(ValueError):
            git(root, "worktree", "remove", "--force", str(tree))
        shutil.rmtree(folder, ignore_errors=True)
        with contextlib.suppress(ValueError):
            git(root, "worktree", "prune")


def depths(side: list[EngineProcess]) -> str:
    """The mean depth of one side's searches, and how many went to the end of the game
    (depth 0 in the protocol), which the mean leaves out."""
    every = [d for p in side for d in p.depths]
    limited = [d for d in every if d > 0]
    mean = f"mean {sum(limited) / len(limited):.1f}" if limited else "no depth limit"
    return f"{mean} over {len(every)} moves ({len(every) - len(limited)} to the end)"


def make_game(name: str) -> AnyGame:
    """A fresh game object of GAMES[name], as the children make theirs."""
    spec = get_game(name)
    types = {o.name: o.type for o in spec.options}
    return spec.create(**{k: types[k](v) for k, _, v in (s.partition("=") for s in GAMES[name])})


def run(args: argparse.Namespace, root: Path, commit: str) -> None:
    game = make_game(args.game)
    opening = OPENING[args.game] if args.opening is None else args.opening
    openings = random_openings(game, opening, (args.games + 1) // 2, random.Random(args.seed))
    players: list[EngineProcess] = []  # every child, to close
    news: list[EngineProcess] = []
    olds: list[EngineProcess] = []
    new_src = root / "src"
    print(f"{' '.join([args.game, *GAMES[args.game]])}: new engine ({new_src}) vs "
          f"{commit[:10]} ({args.rev}), {args.time:g} s wall per move, "
          f"{len(openings)} openings of {opening} moves, seed {args.seed}, "
          f"{args.workers} worker(s)", flush=True)
    t0 = time.perf_counter()
    with checkout(root, commit) as old_tree:
        def make_players() -> tuple[EngineProcess, EngineProcess]:
            new = EngineProcess("new", new_src, args.game, args.time)
            players.append(new)
            old = EngineProcess(commit[:10], old_tree / "src", args.game, args.time)
            players.append(old)
            news.append(new)
            olds.append(old)
            return new, old

        def report(r: GameRecord) -> None:
            side = getattr(game, "players", ("Max", "Min"))[0 if r.a_is_max else 1]
            print(f"game {r.number:3d}: new as {side}, opening "
                  f"{' '.join(game.format_move(m) for m in openings[r.pair])}: "
                  f"{r.result:4s} ({len(r.moves)} plies; {r.outcome})", flush=True)

        try:
            tally = play_pairs(lambda: make_game(args.game), make_players,
                               openings, report, args.workers)
        finally:
            for p in players:
                p.close()
    print(f"\nnew vs {commit[:10]}: {tally.summary()}")
    print(f"depth reached: new {depths(news)}, old {depths(olds)}; "
          f"wall {time.perf_counter() - t0:.0f} s", flush=True)


def interrupted(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # SIGTERM too: the checkout and the children go


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", choices=GAMES)
    p.add_argument("--rev", default=DEFAULT_REV, help="the old commit (default: %(default)s)")
    p.add_argument("--games", type=int, default=20, help="games (even: whole pairs)")
    p.add_argument("--time", type=float, default=0.1, help="seconds per move, both engines")
    p.add_argument("--opening", type=int, help="random moves before play (default: "
                   + ", ".join(f"{k} {v}" for k, v in OPENING.items()) + ")")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, choices=(1, 2), default=1)
    args = p.parse_args()
    if args.games < 1 or args.time <= 0 or (args.opening or 0) < 0:
        p.error("--games must be 1 or more, --time above 0, --opening 0 or more")
    signal.signal(signal.SIGTERM, interrupted)
    signal.signal(signal.SIGINT, interrupted)  # even if started with SIGINT ignored
    try:
        root = Path(git(HERE, "rev-parse", "--show-toplevel"))
    except ValueError as e:
        print(f"versus_git: needs the git repository of the project ({e})", file=sys.stderr)
        return 2
    try:
        commit = git(root, "rev-parse", "--verify", "--quiet", f"{args.rev}^{{commit}}")
    except ValueError:
        print(f"versus_git: {args.rev!r} is no commit of this repository", file=sys.stderr)
        return 2
    try:
        run(args, root, commit)
    except KeyboardInterrupt:
        print("\nversus_git: interrupted; the checkout and the engines are gone",
              file=sys.stderr)
        return 130
    except RuntimeError as e:
        print(f"versus_git: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
