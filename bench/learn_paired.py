"""Two players graded on the same positions, compared position by position.

    python bench/learn_paired.py PLAYER_A PLAYER_B [GAME] [--positions N]

Both players move in every position of each set a game grades on (zerosum.learn.grade);
a position where only one of them errs tells them apart, one where both or neither err
does not. For each set, and for all sets together, it prints each player's mistakes,
the positions where only A errs and where only B errs, the difference of the mistake
rates (B's minus A's) with its 95 % interval for paired proportions (the normal
approximation), and McNemar's exact two-sided p-value (the split of the discordant
positions against an even one). Paired, the comparison is sharper than the two grades'
own intervals side by side.
"""

from __future__ import annotations

import argparse
import math

from zerosum.games.registry import get_game
from zerosum.learn import grade
from zerosum.players.spec import agent_from_spec


def mcnemar(only_a: int, only_b: int) -> float:
    """The exact two-sided p-value of `only_a` against `only_b` discordant positions."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(only_a, only_b) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def row(name: str, a: list[bool], b: list[bool]) -> str:
    n = len(a)
    only_a = sum(x and not y for x, y in zip(a, b, strict=True))
    only_b = sum(y and not x for x, y in zip(a, b, strict=True))
    diff = (only_b - only_a) / n
    half = 1.959963984540054 * math.sqrt(only_a + only_b - (only_b - only_a) ** 2 / n) / n
    return (f"| {name} | {n} | {sum(a)} | {sum(b)} | {only_a} | {only_b} | "
            f"{100 * diff:+.1f} ({100 * (diff - half):+.1f} to {100 * (diff + half):+.1f}) | "
            f"{mcnemar(only_a, only_b):.3f} |")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("game", nargs="?", default="connect4")
    p.add_argument("--positions", type=int, default=None)
    args = p.parse_args()
    spec = get_game(args.game)
    game = spec.create()
    players = [agent_from_spec(spec, text, default_seed=0) for text in (args.a, args.b)]
    print(f"A: {args.a}\nB: {args.b}")
    print("| set | positions | A's mistakes | B's mistakes | only A errs | only B errs | "
          "B - A, points (95 %) | McNemar p |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
    every: list[list[bool]] = [[], []]
    for name in grade.set_names(spec, game):
        rows = grade.labelled(spec, game, name, args.positions)
        verdicts = [[m for m, _ in grade.judged(game, rows,
                                                lambda g, s, x=x: x.choose(g, s).action)]
                    for x in players]
        print(row(grade.PONS_SETS.get(name, name), *verdicts), flush=True)
        for kept, new in zip(every, verdicts, strict=True):
            kept.extend(new)
    print(row("all", *every))


if __name__ == "__main__":
    main()
