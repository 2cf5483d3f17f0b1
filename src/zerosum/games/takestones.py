"""Take-Stones (the CS540 "Take Stones" / "PNT" game), with the assignment's evaluation.

Stones 1..n lie on the table. Max moves first; players alternate taking one stone. The
first move must take an odd stone strictly less than n/2; every later move must take a
stone, not yet taken, that is a multiple or a factor of the last stone taken. Whoever
cannot take a stone loses.

A state is `Stones(taken, last, n_taken)`: `taken` a bitmask (bit s set = stone s taken),
`last` the last stone taken (0 before the first move) and `n_taken` how many are taken, so
Max is to move when `n_taken` is even. All of a game's arithmetic is precomputed per stone
(the mask of its multiples and factors, its largest prime factor), so that legal moves
are one AND and evaluation one popcount.

The evaluation is the assignment's, on one of two scales (the two classic output formats):

| scale | end state | stone 1 free | last = 1 | last prime | last composite | Min to move |
| --- | --- | --- | --- | --- | --- | --- |
| `TRACE` (default) | +-100 | 0 | +-5 | +-7 | +-6 | as is |
| `SUMMARY` | +-1.0 | 0 | +-0.5 | +-0.7 | +-0.6 | negated |

End states are from Max's side on both scales. The heuristic's sign is + when the count
it rests on is odd (see `evaluate`). The trace format's statement fixes that sign from
Max's side whoever is to move. The summary format's known outputs do not settle what
happens when Min is to move; we read its table as the side-to-move's view and negate it
for Min (`Scale.min_sign = -1`): the counts describe the choices of the player about to
move, so the same position with the other player to move should score the other way.
We believe (from memory; we could not check the text) that the later "PNT" version of
the assignment, which brought the summary format, says the same.
`TakeStones(n, "summary")` gives exactly the summary format's evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from zerosum.convert import int_arg, parse_int, shown
from zerosum.game import GameBase, InputError, Values
from zerosum.games.bits import bits
from zerosum.games.registry import GameSpec, Option, register

MAX_STONES = 10_000  # far beyond any searchable game; keeps the precomputation small


class Stones(NamedTuple):
    taken: int  # bitmask: bit s set when stone s is taken
    last: int  # the last stone taken; 0 before the first move
    n_taken: int  # stones taken so far; even = Max to move


@dataclass(frozen=True)
class Scale:
    """The values of the evaluation: a won end state, and the three heuristic steps."""

    win: float
    after_one: float  # last stone 1
    prime: float  # last stone prime
    composite: float  # last stone composite
    min_sign: int = 1  # multiplies the heuristic (not end states) when Min is to move


TRACE = Scale(100.0, 5.0, 7.0, 6.0, min_sign=1)
SUMMARY = Scale(1.0, 0.5, 0.7, 0.6, min_sign=-1)
SCALES = {"trace": TRACE, "summary": SUMMARY}




class TakeStones(GameBase[Stones, int]):
    name = "takestones"

    def __init__(self, stones: int = 7, scale: str | Scale = "trace") -> None:
        if not 1 <= stones <= MAX_STONES:
            raise InputError(f"the number of stones must be 1 to {MAX_STONES}, not {stones}")
        if isinstance(scale, str):
            if scale not in SCALES:
                raise InputError(f"unknown scale {shown(scale)}; choose from {', '.join(SCALES)}")
            scale = SCALES[scale]
        if scale.min_sign not in (1, -1):
            raise ValueError("Scale.min_sign must be 1 or -1")
        self.n = stones
        self.scale = scale
        self.values = Values("outcome", scale.win, -scale.win, scale.win, bounded=True)
        n = stones
        self.all = ((1 << (n + 1)) - 1) ^ 1  # bits 1..n
        # Legal first moves: odd s with s < n/2, i.e. 2s < n.
        self.first = sum(1 << s for s in range(1, n + 1, 2) if 2 * s < n)
        # multiples[s]: stones that are multiples of s (s included);
        # related[s]: multiples and factors of s, s excluded (it is taken once it is last).
        self.multiples = [0] * (n + 1)
        factors = [0] * (n + 1)
        for s in range(1, n + 1):
            for m in range(s, n + 1, s):
                self.multiples[s] |= 1 << m
                factors[m] |= 1 << s
        self.related = [(self.multiples[s] | factors[s]) & ~(1 << s) for s in range(n + 1)]
        # Largest prime factor (0 for 0 and 1); s is prime when it is its own.
        self.largest_prime = [0] * (n + 1)
        for p in range(2, n + 1):
            if self.largest_prime[p] == 0:  # no smaller prime divides p: p is prime
                for m in range(p, n + 1, p):
                    self.largest_prime[m] = p  # larger primes overwrite smaller ones

    # --- the protocol -------------------------------------------------------------------

    def initial_state(self) -> Stones:
        return Stones(0, 0, 0)

    def replay(self, stones: list[int]) -> Stones:
        """The state after taking `stones` in order, legal or not (the assignment's inputs
        need not be legal); only stone numbers and repetitions are checked."""
        state = self.initial_state()
        for s in stones:
            if not 1 <= s <= self.n:
                raise InputError(f"there is no stone {s}: stones are numbered 1 to {self.n}")
            if state.taken >> s & 1:
                raise InputError(f"stone {s} is taken twice")
            state = Stones(state.taken | 1 << s, s, state.n_taken + 1)
        return state

    def legal_mask(self, state: Stones) -> int:
        allowed = self.first if state.n_taken == 0 else self.related[state.last]
        return allowed & ~state.taken

    def actions(self, state: Stones) -> list[int]:
        return bits(self.legal_mask(state))

    def result(self, state: Stones, action: int) -> Stones:
        return Stones(state.taken | 1 << action, action, state.n_taken + 1)

    def is_terminal(self, state: Stones) -> bool:
        return self.legal_mask(state) == 0

    def utility(self, state: Stones) -> float:
        """The player to move has no stone: they lose."""
        return -self.scale.win if self.is_maxs_turn(state) else self.scale.win

    def is_maxs_turn(self, state: Stones) -> bool:
        return state.n_taken % 2 == 0

    def evaluate(self, state: Stones) -> float:
        """The assignment's heuristic: a parity of the moves left near the last stone.

        Stone 1 still free: 0 (it keeps every line open). Otherwise count legal next
        moves: all of them after 1; after a prime p, the multiples of p; after a
        composite, the multiples of its largest prime factor p (p itself among them
        while it is free). An odd count is worth +step, an even one -step.
        """
        if not state.taken >> 1 & 1:
            return 0.0
        legal = self.legal_mask(state)
        last, scale = state.last, self.scale
        if last == 1:
            count, step = legal.bit_count(), scale.after_one
        else:
            p = self.largest_prime[last]
            count = (legal & self.multiples[p]).bit_count()
            step = scale.prime if p == last else scale.composite
        value = step if count % 2 == 1 else -step
        return value if self.is_maxs_turn(state) else scale.min_sign * value

    # --- people -------------------------------------------------------------------------

    def available(self, state: Stones) -> list[int]:
        """Stones not yet taken, increasing."""
        return bits(self.all & ~state.taken)

    def render(self, state: Stones) -> str:
        left = " ".join(map(str, self.available(state))) or "none"
        taken = f"last taken: {state.last}" if state.n_taken else "no stone taken yet"
        legal = " ".join(map(str, self.actions(state))) or "none"
        player = self.players[0] if self.is_maxs_turn(state) else self.players[1]
        if self.is_terminal(state):
            return f"stones left: {left}\n{taken}"
        return f"stones left: {left}\n{taken}\n{player} to move; may take: {legal}"

    def outcome(self, state: Stones) -> str:
        loser, winner = self.players if self.is_maxs_turn(state) else self.players[::-1]
        return f"{loser} has no stone to take: {winner} wins"

    def parse_move(self, state: Stones, text: str) -> int:
        text = text.strip()
        try:
            stone = parse_int(text, lo=1, hi=self.n)
        except InputError:
            raise InputError(f"a move is a stone number 1-{self.n}, not {shown(text)}") from None
        if stone not in self.actions(state):
            legal = " ".join(map(str, self.actions(state)))
            raise InputError(f"stone {stone} cannot be taken now; legal: {legal}")
        return stone

    def move_help(self) -> str:
        return ("Type the number of a stone to take. The first move takes an odd stone "
                "below n/2; later moves a multiple or factor of the last stone taken.")


register(
    GameSpec(
        "takestones",
        "Take-Stones",
        TakeStones,
        options=(
            Option("stones", int_arg(1, MAX_STONES), 7,
                   "number of stones on the table (numbered 1 to N)"),
            Option("scale", str, "trace", "scale of the computer's scores: trace or summary",
                   choices=tuple(SCALES),
                   explain="How the computer scores positions, as the course's two output "
                   "formats do: trace (a win is 100, estimates 5 to 7) or summary (a win is "
                   "1, estimates 0.5 to 0.7). It changes the numbers shown, not how the "
                   "computer plays."),
        ),
        default_depth=6,
        summary="take a multiple or factor of the last stone; who cannot move loses",
    )
)
