"""AlphaZero, small: PUCT Monte Carlo tree search guided by a policy-value network,
learned by self-play (Silver et al. 2017, 2018), with the cheap tricks that matter on a
CPU: playout-cap randomisation (Wu 2019, KataGo) and a small residual network.

The network reads the board as cells (GameSpec.cells) from the mover's side: two
planes, the mover's pieces and the opponent's. A residual MLP (a first layer, `blocks`
blocks of two layers with a skip connection, ReLU) feeds two heads: the policy, a
logit per cell (a move is the cell it fills: the games it learns place one piece a
move), softmaxed over the legal moves; and the value, tanh of one unit, the mover's
expected result in [-1, 1]. The loss is AlphaZero's: (z - v)^2 + cross-entropy of the
policy against the search's visit counts + a little L2; Adam steps. The network is
numpy and its backpropagation is written out here (see docs/learning.md for why not
PyTorch: here it would be a 555 MB CUDA build).

The search (PUCT): from the root, descend by the move maximising

    Q(s, a) + c_puct * P(s, a) * sqrt(N(s)) / (1 + N(s, a))

(Q the mean value of the move's simulations for the mover, an unvisited move valued
as the position itself); expand the leaf reached with the network's priors and value
(a finished game: its exact result) and back the value up, negated at each level.

Self-play: each move searches. With probability `full_share` a full search of
`simulations`, with Dirichlet noise on the root's priors, whose visit counts become a
policy target; otherwise a fast search of `fast` simulations, no noise, not recorded
(playout-cap randomisation: many cheap moves make the games, few expensive ones the
targets). The first `temperature_plies` moves are drawn in proportion to the visits,
the rest the most visited. At the game's end each recorded position gets the result z
from its mover's side; it and its symmetric copies (the board's symmetries) go into a
replay buffer of the last `replay` samples, and the network takes `reuse` x (new
samples) / `batch` Adam steps on minibatches drawn from it.

Every random choice comes from the learner's own generator (seeded from the trainer's)
and the file keeps it, the buffer and Adam's moments: a resumed run is the same run.
"""

from __future__ import annotations

import math
import random
from array import array
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from zerosum.game import AnyGame, InputError
from zerosum.games.registry import Cells, GameSpec
from zerosum.learn.weights import Weights
from zerosum.result import MoveStats
from zerosum.search.mcts import Selection, Simulation, SimulationTracer, Update
from zerosum.stop import Stop

METHOD = "alphazero"


def numpy() -> Any:
    """numpy, the `learn` extra's one dependency; InputError in one line without it."""
    try:
        import numpy as np
    except ImportError:
        from zerosum.extras import install_hint

        raise InputError("the alphazero method needs numpy (the learn extra): "
                         + install_hint("learn")) from None
    return np


@dataclass(frozen=True)
class Settings:
    """The method's settings, saved with the weights; 0 (or below 0) chosen by the
    board's size (see `sized`)."""

    hidden: int = 0  # units of each hidden layer
    blocks: int = 0  # residual blocks
    simulations: int = 0  # of a full search
    fast: int = 0  # of a fast search (playout-cap randomisation)
    full_share: float = -1.0  # the share of moves searched in full (and learned from)
    c_puct: float = 0.0  # the weight of the priors against the values in PUCT
    dirichlet: float = 0.0  # the noise's alpha; 0: 10 / cells
    noise: float = -1.0  # its share of the root's priors
    temperature_plies: int = -1  # the first moves drawn by visit counts
    leaves: int = 0  # simulations whose leaves go through the network in one batch
    lr: float = 0.0  # Adam's step size
    batch: int = 64
    replay: int = 0  # samples kept
    reuse: float = 4.0  # how often a sample is trained on, on average
    l2: float = 1e-4

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def sized(cells: Cells, s: Settings) -> Settings:
    """Settings not given, by the board's size: a board of 30 cells or more (Connect
    Four's) gets a bigger net and search than a small one (tic-tac-toe's). A small game
    is graded on every position, most of them never reached by good play: there every
    move is searched in full and drawn by its visits, with more noise and exploration,
    so that self-play wanders into them (measured: 2.4 % mistakes after 45 s against
    3.0 % with Connect Four's choices)."""
    n = cells.rows * cells.cols
    big = n >= 30
    return replace(
        s, hidden=s.hidden or (128 if big else 64), blocks=s.blocks or (2 if big else 1),
        simulations=s.simulations or (100 if big else 32), fast=s.fast or (20 if big else 8),
        full_share=s.full_share if s.full_share >= 0 else 0.25 if big else 1.0,
        c_puct=s.c_puct or (1.5 if big else 2.5), dirichlet=s.dirichlet or 10 / n,
        noise=s.noise if s.noise >= 0 else 0.25 if big else 0.5,
        temperature_plies=s.temperature_plies if s.temperature_plies >= 0 else
        (8 if big else n),
        lr=s.lr or (0.001 if big else 0.003), replay=s.replay or (20000 if big else 5000),
        leaves=s.leaves or (8 if big else 1))


# -- the network ----------------------------------------------------------------------------


class Net:
    """The policy-value network: `params` by name, numpy arrays of doubles."""

    def __init__(self, inputs: int, outputs: int, hidden: int, blocks: int,
                 params: dict[str, Any]) -> None:
        self.inputs, self.outputs, self.hidden, self.blocks = inputs, outputs, hidden, blocks
        self.params = params

    @staticmethod
    def shapes(inputs: int, outputs: int, hidden: int, blocks: int
               ) -> dict[str, tuple[int, ...]]:
        out: dict[str, tuple[int, ...]] = {"w0": (inputs, hidden), "b0": (hidden,)}
        for k in range(blocks):
            out |= {f"w1_{k}": (hidden, hidden), f"b1_{k}": (hidden,),
                    f"w2_{k}": (hidden, hidden), f"b2_{k}": (hidden,)}
        return out | {"wp": (hidden, outputs), "bp": (outputs,), "wv": (hidden, 1),
                      "bv": (1,)}

    @classmethod
    def fresh(cls, inputs: int, outputs: int, hidden: int, blocks: int,
              rng: random.Random) -> Net:
        """He-initialised weights drawn from `rng`; a block's second layer small, so
        each block starts near the identity; biases 0."""
        np = numpy()
        params = {}
        for name, shape in cls.shapes(inputs, outputs, hidden, blocks).items():
            if name.startswith("b"):
                params[name] = np.zeros(shape)
                continue
            scale = math.sqrt(2 / shape[0]) * (0.1 if name.startswith("w2") else 1.0)
            params[name] = np.array([rng.gauss(0, scale) for _ in range(shape[0] * shape[1])]
                                    ).reshape(shape)
        return cls(inputs, outputs, hidden, blocks, params)

    def size(self) -> int:
        return sum(int(p.size) for p in self.params.values())

    def forward(self, x: Any, legal: Any) -> tuple[Any, Any, list[Any]]:
        """Policies (softmax over the legal cells) and values of a batch of inputs, and
        what the backward pass needs."""
        np, p = numpy(), self.params
        a0 = x @ p["w0"] + p["b0"]
        h = np.maximum(a0, 0)
        cache: list[Any] = [x, a0]
        for k in range(self.blocks):
            u_pre = h @ p[f"w1_{k}"] + p[f"b1_{k}"]
            u = np.maximum(u_pre, 0)
            r_pre = h + u @ p[f"w2_{k}"] + p[f"b2_{k}"]
            cache.append((h, u_pre, u, r_pre))
            h = np.maximum(r_pre, 0)
        logits = np.where(legal, h @ p["wp"] + p["bp"], -1e30)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits) * legal
        policy = e / e.sum(axis=1, keepdims=True)
        value = np.tanh(h @ p["wv"] + p["bv"])[:, 0]
        cache.append(h)
        return policy, value, cache

    def gradients(self, x: Any, legal: Any, target_policy: Any, z: Any, l2: float
                  ) -> tuple[dict[str, Any], float, float]:
        """The loss's gradient by parameter, and its two parts (value, policy), over a
        batch."""
        np, p = numpy(), self.params
        policy, value, cache = self.forward(x, legal)
        n = x.shape[0]
        value_loss = float(np.mean((value - z) ** 2))
        policy_loss = float(-np.sum(target_policy * np.log(policy + 1e-12)) / n)
        h = cache[-1]
        d_logits = (policy - target_policy) / n
        d_v = (2 * (value - z) / n * (1 - value ** 2))[:, None]
        g = {"wp": h.T @ d_logits, "bp": d_logits.sum(axis=0),
             "wv": h.T @ d_v, "bv": d_v.sum(axis=0)}
        dh = d_logits @ p["wp"].T + d_v @ p["wv"].T
        for k in range(self.blocks - 1, -1, -1):
            h_in, u_pre, u, r_pre = cache[2 + k]
            dr = dh * (r_pre > 0)
            g[f"w2_{k}"], g[f"b2_{k}"] = u.T @ dr, dr.sum(axis=0)
            du = (dr @ p[f"w2_{k}"].T) * (u_pre > 0)
            g[f"w1_{k}"], g[f"b1_{k}"] = h_in.T @ du, du.sum(axis=0)
            dh = dr + du @ p[f"w1_{k}"].T
        da0 = dh * (cache[1] > 0)
        g["w0"], g["b0"] = cache[0].T @ da0, da0.sum(axis=0)
        for name in g:
            if name.startswith("w"):
                g[name] = g[name] + l2 * p[name]
        return g, value_loss, policy_loss


class Adam:
    """Adam (Kingma and Ba 2015) over the net's parameters: its moments and step count."""

    def __init__(self, net: Net, lr: float, moments: dict[str, Any] | None = None,
                 steps: int = 0) -> None:
        np = numpy()
        self.net, self.lr, self.steps = net, lr, steps
        self.moments = moments or {f"{m}:{n}": np.zeros_like(a) for n, a in net.params.items()
                                   for m in ("m", "v")}

    def step(self, grads: dict[str, Any], b1: float = 0.9, b2: float = 0.999) -> None:
        np = numpy()
        self.steps += 1
        t = self.steps
        rate = self.lr * math.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        for name, g in grads.items():
            m, v = self.moments[f"m:{name}"], self.moments[f"v:{name}"]
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            self.net.params[name] -= rate * m / (np.sqrt(v) + 1e-8)


# -- the search -----------------------------------------------------------------------------


class Node:
    """A position of the search tree: its legal moves, the cells they fill, the
    network's priors, each move's visits, total value (for this node's mover) and
    simulations in flight (descended, not yet backed up: a batch's virtual losses), its
    children (None until visited) and the position's own value for its mover."""

    __slots__ = (
        "actions",
        "cells",
        "children",
        "pending",
        "priors",
        "state",
        "terminal",
        "totals",
        "value",
        "visits",
    )

    def __init__(self, state: Any, actions: list[Any], cells: list[int], priors: list[float],
                 value: float, terminal: bool) -> None:
        self.state, self.actions, self.cells, self.priors = state, actions, cells, priors
        self.value, self.terminal = value, terminal
        self.visits = [0] * len(actions)
        self.totals = [0.0] * len(actions)
        self.pending = [0] * len(actions)
        self.children: list[Node | None] = [None] * len(actions)


class AlphaZeroLearner:
    """The method as the trainer uses it (zerosum.learn.methods.Learner)."""

    method = METHOD
    one_worker = True  # the policy targets are the visit counts of the player's searches

    def __init__(self, spec: GameSpec, game: AnyGame, settings: Settings, net: Net,
                 rng: random.Random, adam: Adam | None = None) -> None:
        np = numpy()
        self.spec, self.game = spec, game
        self.cells = check_game(spec, game)
        self.settings = sized(self.cells, settings)
        self.net, self.rng = net, rng
        self.adam = adam or Adam(net, self.settings.lr)
        n = self.cells.rows * self.cells.cols
        r = self.settings.replay
        self.buffer = {"x": np.zeros((r, 2 * n)), "legal": np.zeros((r, n), dtype=bool),
                       "policy": np.zeros((r, n)), "z": np.zeros(r)}
        self.filled = self.next = 0
        self.records: list[tuple[Any, list[int], list[float], int]] = []  # this game's
        self.losses = (0.0, 0.0)
        self._ply = 0  # moves of the game being played

    @classmethod
    def learns(cls, spec: GameSpec) -> bool:
        from zerosum.games.checkers.rules import Checkers

        # A game of cells whose every move places a piece: checkers moves its pieces.
        return spec.cells is not None and spec.make is not Checkers

    # -- the board as the network reads it --

    def mover(self, state: Any) -> int:
        """The mover's piece in the cell view: 1 for Max, 2 for Min."""
        return 1 if self.game.is_maxs_turn(state) else 2

    def encode(self, board: Sequence[int], mover: int) -> Any:
        np = numpy()
        b = np.asarray(board)
        return np.concatenate([b == mover, b == 3 - mover]).astype(float)

    def expand(self, state: Any) -> Node:
        """The node of `state`: the network's priors and value (a finished game's value
        exact)."""
        return self.expand_all([state])[0]

    def expand_all(self, states: Sequence[Any]) -> list[Node]:
        """The nodes of `states`, their positions through the network in one batch."""
        np, game = numpy(), self.game
        nodes: list[Node | None] = []
        waiting, inputs, masks = [], [], []
        for state in states:
            if game.is_terminal(state):
                u = game.utility(state)
                red = (u > 0) - (u < 0)
                nodes.append(Node(state, [], [], [],
                                  float(red if self.mover(state) == 1 else -red), True))
                continue
            board = np.asarray(self.cells.read(state))
            actions = list(game.actions(state))
            filled = [placed(board, np.asarray(self.cells.read(game.result(state, a))))
                      for a in actions]
            legal = np.zeros(board.size, dtype=bool)
            legal[filled] = True
            waiting.append((len(nodes), state, actions, filled))
            inputs.append(self.encode(board, self.mover(state)))
            masks.append(legal)
            nodes.append(None)
        if waiting:
            policy, value, _ = self.net.forward(np.array(inputs), np.array(masks))
            for row, (k, state, actions, filled) in enumerate(waiting):
                nodes[k] = Node(state, actions, filled, [float(policy[row, c]) for c in filled],
                                float(value[row]), False)
        return [n for n in nodes if n is not None]

    def search(self, state: Any, simulations: int, noise: bool, stop: Stop | None = None,
               tracer: SimulationTracer | None = None) -> Node:
        """The root after `simulations` PUCT simulations from `state` (Dirichlet noise on
        its priors if `noise`), fewer if `stop` expires first: it is read before each
        simulation, whose count it keeps in its nodes_used (a node budget on it counts
        simulations, as MCTS's does).

        Batched: `leaves` simulations descend one after the other, each leaving a
        virtual loss on its path (the move counted as visited and lost: `pending`) so
        that the next tends to take another; their new leaves go through the network at
        once; then each path in turn takes back its virtual losses and backs up its true
        value. `tracer` receives each simulation as it is backed up (see `traced`)."""
        s, game = self.settings, self.game
        root = self.expand(state)
        if root.terminal:
            return root
        if noise:
            draws = [self.rng.gammavariate(s.dirichlet, 1.0) for _ in root.priors]
            total = sum(draws) or 1.0
            root.priors = [(1 - s.noise) * p + s.noise * d / total
                           for p, d in zip(root.priors, draws, strict=True)]
        done = 0
        while done < simulations and not (stop is not None and stop.expired()):
            paths: list[list[tuple[Node, int]]] = []
            ends: list[Node | None] = []  # the finished game a path ended on, if it did
            seen: list[tuple[Selection, ...]] = []  # each path's choices, as weighed
            for _ in range(min(s.leaves, simulations - done)):
                if paths and stop is not None and stop.expired():
                    break
                node, path, weighed = root, [], []
                while not node.terminal:
                    i = select(node, s.c_puct)
                    if tracer is not None:
                        weighed.append(Selection(self.move_stats(node), node.actions[i]))
                    path.append((node, i))
                    node.pending[i] += 1
                    child = node.children[i]
                    if child is None:
                        break
                    node = child
                paths.append(path)
                ends.append(node if node.terminal else None)
                seen.append(tuple(weighed))
                if stop is not None:
                    stop.nodes_used += 1
            new = {(id(path[-1][0]), path[-1][1]): path[-1] for path, end in
                   zip(paths, ends, strict=True) if end is None}
            expanded = self.expand_all([game.result(n.state, n.actions[i])
                                        for n, i in new.values()])
            for (n, i), child in zip(new.values(), expanded, strict=True):
                n.children[i] = child
            added = set(new)
            for k, (path, end) in enumerate(zip(paths, ends, strict=True)):
                last, i = path[-1]
                leaf = end or last.children[i]
                assert leaf is not None
                value = leaf.value
                for parent, j in reversed(path):
                    value = -value  # the child's mover is the parent's opponent
                    parent.pending[j] -= 1
                    parent.visits[j] += 1
                    parent.totals[j] += value
                if tracer is not None:
                    first = (id(last), i) in added
                    added.discard((id(last), i))
                    tracer(self.traced(root, path, leaf, seen[k], first, done + k + 1))
            done += len(paths)
        return root

    def move_stats(self, node: Node, in_flight: bool = True) -> tuple[MoveStats, ...]:
        """Each move of `node` as PUCT weighs it now (zerosum.result.MoveStats): its
        visits, Q for the mover as the exploitation term, the exploration
        c * P * sqrt(N) / (1 + n), the prior P; `mean` is Q from Max's side; a finished
        game's move is `proven` with its result (Max's side). The simulations in flight
        count as visited and lost, unless `in_flight` is False: the figures backed up."""
        c_puct, maxs = self.settings.c_puct, self.mover(node.state) == 1
        c = exploration(node, c_puct, in_flight)
        out = []
        for i, a in enumerate(node.actions):
            q, u = terms(node, i, c, in_flight)
            child = node.children[i]
            proven = None if child is None or not child.terminal else (
                -child.value if maxs else child.value)
            n = node.visits[i] + (node.pending[i] if in_flight else 0)
            out.append(MoveStats(a, n, q if maxs else -q, q, u, proven, node.priors[i]))
        return tuple(out)

    def traced(self, root: Node, path: list[tuple[Node, int]], leaf: Node,
               weighed: tuple[Selection, ...], first: bool, number: int) -> Simulation:
        """A simulation just backed up, in MCTS's terms (zerosum.search.mcts.Simulation)
        so that one view shows both: the moves PUCT selected (`selected`, as weighed),
        the node it `expanded` (None when its path ended on a finished game already in
        the tree, or on a leaf another simulation of its batch added), no playout: its
        `utility` is the leaf's value from Max's side (the network's; a finished game's
        result), its `reward` Max's reward (1 + value) / 2 as MCTS scores a win 1 and a
        draw 1/2; `updates` each node on the path from the leaf up, its reward the
        summed (1 + value) / 2 of the player who moved into it; `root_moves` as backed
        up so far (the simulations of its batch still in flight left out)."""
        moves = tuple(n.actions[i] for n, i in path)
        leaf_max = leaf.value if self.mover(leaf.state) == 1 else -leaf.value
        updates = []
        for depth in range(len(path), -1, -1):
            if depth:
                n, i = path[depth - 1]
                visits, total = n.visits[i], n.totals[i]
            else:
                visits, total = sum(root.visits), -sum(root.totals)
            proven = None
            if depth == len(path) and leaf.terminal:
                proven = leaf_max
            updates.append(Update(moves[:depth], visits, (visits + total) / 2, proven))
        return Simulation(number, weighed, moves if first else None, (), leaf_max,
                          (1 + leaf_max) / 2, tuple(updates), self.move_stats(root, False))

    # -- play --

    def afterstate_value(self, state: Any) -> float:
        """The network's value of a position, from Max's side (exact at the end)."""
        v = self.expand(state).value
        return v if self.mover(state) == 1 else -v

    def best(self, state: Any) -> tuple[Any, float]:
        """The network alone: the move of highest prior, and the position's value for the
        side to move."""
        node = self.expand(state)
        i = max(range(len(node.actions)), key=lambda k: node.priors[k])
        return node.actions[i], node.value

    def puct(self, state: Any, simulations: int, stop: Stop | None = None,
             tracer: SimulationTracer | None = None) -> tuple[Any, float, Node]:
        """The network inside PUCT search: the most visited move (of equals, the higher
        prior: stopped before any simulation, the network's own choice), its mean value
        for the side to move, the root (its visits and priors)."""
        root = self.search(state, simulations, noise=False, stop=stop, tracer=tracer)
        i = max(range(len(root.actions)), key=lambda k: (root.visits[k], root.priors[k]))
        q = root.totals[i] / root.visits[i] if root.visits[i] else root.value
        return root.actions[i], q, root

    def self_play_move(self, state: Any, rng: random.Random) -> tuple[Any, bool]:
        s = self.settings
        ply = self._ply
        full = self.rng.random() < s.full_share
        root = self.search(state, s.simulations if full else s.fast, noise=full)
        total: int = sum(root.visits)
        if full and total:
            self.records.append((state, root.cells, [v / total for v in root.visits],
                                 self.mover(state)))
        self._ply = ply + 1
        if ply < s.temperature_plies and total:
            i = self.rng.choices(range(len(root.actions)), weights=root.visits)[0]
            return root.actions[i], True
        i = max(range(len(root.actions)), key=lambda k: root.visits[k])
        return root.actions[i], False

    # -- learning --

    def learn(self, states: Sequence[Any], explored: Sequence[bool]) -> None:
        """The recorded positions of the game just played, with its result, into the
        buffer (with their symmetric copies); then Adam steps on minibatches of it."""
        np, s = numpy(), self.settings
        records, self.records, self._ply = self.records, [], 0
        if not states or not records:
            return
        u = self.game.utility(states[-1])
        red = (u > 0) - (u < 0)
        added = 0
        for state, filled, pi, mover in records:
            board = self.cells.read(state)
            for perm in self.cells.symmetries:
                moved = [0] * len(board)
                for i, c in enumerate(board):
                    moved[perm[i]] = c
                policy = np.zeros(len(board))
                legal = np.zeros(len(board), dtype=bool)
                for c, p in zip(filled, pi, strict=True):
                    policy[perm[c]], legal[perm[c]] = p, True
                k = self.next
                self.buffer["x"][k] = self.encode(moved, mover)
                self.buffer["legal"][k], self.buffer["policy"][k] = legal, policy
                self.buffer["z"][k] = red if mover == 1 else -red
                self.next = (k + 1) % s.replay
                self.filled = min(self.filled + 1, s.replay)
                added += 1
        for _ in range(max(1, round(s.reuse * added / s.batch))):
            rows = [self.rng.randrange(self.filled) for _ in range(min(s.batch, self.filled))]
            b = self.buffer
            grads, lv, lp = self.net.gradients(b["x"][rows], b["legal"][rows],
                                               b["policy"][rows], b["z"][rows], s.l2)
            self.adam.step(grads)
            self.losses = (lv, lp)

    # -- the file --

    def save(self, header: dict[str, Any]) -> Weights:
        """The weights; with them, to resume, the learner's random state, Adam's moments
        and the replay buffer (a `learned:` player reads the net only)."""
        net = self.net
        arrays = {f"net:{n}": array("d", a.ravel().tolist()) for n, a in net.params.items()}
        arrays |= {f"adam:{n}": array("d", a.ravel().tolist())
                   for n, a in self.adam.moments.items()}
        f = self.filled
        arrays |= {f"replay:{n}": array("d", a[:f].astype(float).ravel().tolist())
                   for n, a in self.buffer.items()}
        version, internal, gauss = self.rng.getstate()
        return Weights({**header, "method": METHOD, "settings": self.settings.as_dict(),
                        "net": {"inputs": net.inputs, "outputs": net.outputs,
                                "hidden": net.hidden, "blocks": net.blocks,
                                "parameters": net.size()},
                        "board": [self.cells.rows, self.cells.cols],
                        "learner": {"rng": [version, list(internal), gauss],
                                    "adam_steps": self.adam.steps, "filled": f,
                                    "next": self.next, "losses": list(self.losses)}},
                       arrays)

    @classmethod
    def new(cls, spec: GameSpec, game: AnyGame, rng: random.Random,
            settings: dict[str, Any]) -> AlphaZeroLearner:
        names = {f.name for f in fields(Settings)}
        unknown = set(settings) - names
        if unknown:
            raise InputError(f"alphazero has no setting {sorted(unknown)[0]!r}; its "
                             f"settings: {', '.join(sorted(names))}")
        cells = check_game(spec, game)
        s = sized(cells, Settings(**settings))
        n = cells.rows * cells.cols
        own = random.Random(rng.randrange(2**63))
        net = Net.fresh(2 * n, n, s.hidden, s.blocks, own)
        return cls(spec, game, s, net, own)

    @classmethod
    def load(cls, spec: GameSpec, game: AnyGame, weights: Weights,
             name: str) -> AlphaZeroLearner:
        np = numpy()
        cells = check_game(spec, game)
        h = weights.header
        n = cells.rows * cells.cols
        try:
            settings = Settings(**h["settings"])
            shape = h["net"]
            hidden, blocks = int(shape["hidden"]), int(shape["blocks"])
        except (KeyError, TypeError, ValueError):
            raise InputError(f"weights file {name}: no alphazero settings or network shape "
                             "in its header") from None
        if h.get("board") != [cells.rows, cells.cols]:
            raise InputError(f"weights file {name} is for a {h.get('board')} board (rows, "
                             f"columns), not {cells.rows}x{cells.cols}")
        params = {}
        for key, dims in Net.shapes(2 * n, n, hidden, blocks).items():
            values = weights.arrays.get(f"net:{key}")
            if values is None or len(values) != math.prod(dims):
                raise InputError(f"weights file {name}: its network lacks {key} of shape "
                                 f"{'x'.join(map(str, dims))}")
            params[key] = np.array(values, dtype=float).reshape(dims)
        net = Net(2 * n, n, hidden, blocks, params)
        rng = random.Random(0)
        learner_state = h.get("learner", {})
        saved_rng = learner_state.get("rng")
        try:
            if saved_rng is not None:
                rng.setstate((int(saved_rng[0]), tuple(int(x) for x in saved_rng[1]),
                              saved_rng[2]))
        except (TypeError, ValueError, IndexError):
            raise InputError(f"weights file {name}: a garbled random state") from None
        moments = None
        if all(f"adam:{m}:{k}" in weights.arrays for k in params for m in ("m", "v")):
            moments = {f"{m}:{k}": np.array(weights.arrays[f"adam:{m}:{k}"]).reshape(a.shape)
                       for k, a in params.items() for m in ("m", "v")}
        s = sized(cells, settings)
        learner = cls(spec, game, settings, net, rng,
                      Adam(net, s.lr, moments, int(learner_state.get("adam_steps", 0))))
        filled = int(learner_state.get("filled", 0))
        if 0 < filled <= s.replay and all(f"replay:{k}" in weights.arrays
                                          for k in learner.buffer):
            for k, a in learner.buffer.items():
                saved = np.array(weights.arrays[f"replay:{k}"])
                a[:filled] = saved.reshape((filled, *a.shape[1:])).astype(a.dtype)
            learner.filled = filled
            learner.next = int(learner_state.get("next", 0)) % s.replay
        return learner


def terms(node: Node, i: int, c_sqrt_n: float, in_flight: bool = True
          ) -> tuple[float, float]:
    """PUCT's two terms for move i of `node`: Q, the mean value of its simulations for
    the mover (an unvisited move valued as the position itself; one in flight counted
    as visited and lost unless `in_flight` is False), and the exploration
    c_puct * P * sqrt(N) / (1 + n), given c_puct * sqrt(N) (`exploration`)."""
    pending = node.pending[i] if in_flight else 0
    n = node.visits[i] + pending
    q = (node.totals[i] - pending) / n if n else node.value
    return q, c_sqrt_n * node.priors[i] / (1 + n)


def exploration(node: Node, c_puct: float, in_flight: bool = True) -> float:
    """c_puct * sqrt(N), N the node's simulations (in flight included, unless
    `in_flight` is False) + 1, so that the priors count before the first visit."""
    return c_puct * math.sqrt(sum(node.visits) + (sum(node.pending) if in_flight else 0) + 1)


def select(node: Node, c_puct: float) -> int:
    """The move PUCT descends by (the first of equals)."""
    best, best_score = 0, -math.inf
    c = exploration(node, c_puct)
    for i in range(len(node.actions)):
        q, u = terms(node, i, c)
        if q + u > best_score:
            best, best_score = i, q + u
    return best


def placed(before: Any, after: Any) -> int:
    """The one cell a move filled (the boards as numpy arrays); InputError for a game
    whose moves do otherwise."""
    changed = numpy().flatnonzero(before != after)
    if len(changed) != 1 or before[changed[0]] != 0:
        raise InputError("the alphazero method learns games whose every move places one "
                         "piece on an empty cell")
    return int(changed[0])


def check_game(spec: GameSpec, game: AnyGame) -> Cells:
    if spec.cells is None or not AlphaZeroLearner.learns(spec):
        raise InputError(f"the alphazero method learns games that place pieces on a board "
                         f"of cells, not {spec.name}")
    return spec.cells(game)


def explain(learner: AlphaZeroLearner, state: Any, simulations: int = 0,
            exact: dict[Any, int] | None = None) -> list[dict[str, Any]]:
    """The glass box on one position: for each legal move, the network's prior, the
    value of the position after it for the mover (the network's), with `simulations`
    the PUCT visits and mean value, and beside them `exact`, the solver's value of
    each move for the mover (+1/0/-1) when given."""
    root = learner.search(state, simulations, noise=False) if simulations else \
        learner.expand(state)
    rows = []
    for i, a in enumerate(root.actions):
        after = learner.expand(learner.game.result(state, a))
        row: dict[str, Any] = {"move": a, "prior": round(root.priors[i], 4),
                               "value": round(-after.value, 4)}
        if simulations:
            n = root.visits[i]
            row["visits"] = n
            row["q"] = round(root.totals[i] / n, 4) if n else None
        if exact is not None:
            row["exact"] = exact.get(a)
        rows.append(row)
    return rows


def glass_box(spec: GameSpec, learner: AlphaZeroLearner, state: Any, simulations: int = 0,
              seconds: float = 10.0) -> list[dict[str, Any]]:
    """`explain` beside the solver's exact values (grade.exact_outcomes): what a
    notebook or the page shows of the network on one position."""
    from zerosum.learn.grade import exact_outcomes

    return explain(learner, state, simulations,
                   exact_outcomes(spec, learner.game, state, seconds))
