"""A synthetic game tree for benchmarks: no game logic to speak of, only search."""

from __future__ import annotations

import hashlib

from zerosum.game import GameBase

Path = tuple[int, ...]


class UniformTree(GameBase[Path, int]):
    """Branching b, depth d; leaf values pseudo-random but fixed (from the path)."""

    def __init__(self, branching: int, depth: int) -> None:
        self.b, self.d = branching, depth

    def initial_state(self) -> Path:
        return ()

    def actions(self, state: Path) -> range:
        return range(self.b) if len(state) < self.d else range(0)

    def result(self, state: Path, action: int) -> Path:
        return (*state, action)

    def is_terminal(self, state: Path) -> bool:
        return len(state) >= self.d

    def utility(self, state: Path) -> float:
        h = hashlib.blake2b(bytes(state), digest_size=2).digest()
        return float(int.from_bytes(h, "big") % 201 - 100)

    def is_maxs_turn(self, state: Path) -> bool:
        return len(state) % 2 == 0
