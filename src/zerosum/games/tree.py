"""Explicit game trees, for checking textbook exercises by hand.

The text format: a leaf is a number, optionally labelled (`b1=3`); an inner node is a
bracketed list of children, optionally labelled (`B[3 12 8]`). Commas and white space
separate children; `#` starts a comment. AIMA figure 5.2:

    A[B[3 12 8] C[2 4 6] D[14 5 2]]

Unlabelled nodes are named after their parent and position: the root `root`, its
second child `root.2`, a child of `B` `B.1`. Max moves at the root unless told otherwise.
A state is the path of child indices from the root (a tuple), so it is hashable.

Limits, each refused with a message: a file of at most FILE_LIMIT bytes; nesting at most
MAX_DEPTH deep (the searches recurse once per level); leaf values ASCII numbers of size at
most MAX_VALUE, or `+inf`/`-inf` written out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from zerosum.convert import shown
from zerosum.game import GameBase, InputError, Values


@dataclass
class Node:
    label: str
    value: float | None = None  # leaves only
    children: list[Node] = field(default_factory=list)

    @property
    def is_leaf(self) -> bool:
        return self.value is not None


def leaf_values(root: Node) -> list[float]:
    """The values of a tree's leaves, without recursion (trees may be deep)."""
    values, todo = [], [root]
    while todo:
        node = todo.pop()
        if node.value is not None:
            values.append(node.value)
        todo.extend(node.children)
    return values


# ASCII digits only, as everywhere in the project (zerosum.convert); `inf` may be written.
_TOKEN = re.compile(
    r"\s+|,|#[^\n]*|(?P<open>\[)|(?P<close>\])|(?P<label>[A-Za-z_][\w.']*)\s*(?P<eq>=)?"
    r"|(?P<num>[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[-+]?inf)",
    re.ASCII,
)

FILE_LIMIT = 1024 * 1024  # bytes of a tree file: some 200,000 leaves, seconds of search
MAX_DEPTH = 300  # nesting; the searches recurse once per level (Python's stack is ~1,000)
MAX_VALUE = 1e15  # leaves beyond this (other than written inf) are surely a typo


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            line = text.count("\n", 0, pos) + 1
            raise InputError(f"tree: line {line}: unexpected character {text[pos]!r}")
        if m.group("num") is not None:
            out.append(("num", m.group("num"), pos))
        elif m.group("label") is not None:
            out.append(("label=" if m.group("eq") else "label", m.group("label"), pos))
        elif m.group("open"):
            out.append(("[", "[", pos))
        elif m.group("close"):
            out.append(("]", "]", pos))
        pos = m.end()
    return out


def _leaf_value(text: str, where: str) -> float:
    value = float(text)
    if "inf" not in text and not abs(value) <= MAX_VALUE:
        raise InputError(f"tree: {where}: {text[:30]!r} is too large for a leaf value "
                         f"(at most {MAX_VALUE:g} in size, or inf)")
    return value


def named(text: str) -> str:
    """A node's label for a message: as written, or cut short (quoted) when long."""
    return text if len(text) <= 24 else shown(text)


def parse_tree(text: str) -> Node:
    """Parse the bracket format; raises InputError naming the line of the problem.
    Iterative (an explicit stack of open nodes), so deep nesting is refused cleanly."""
    toks = _tokens(text)
    i = 0

    def where(k: int) -> str:
        pos = toks[k][2] if k < len(toks) else len(text)
        return f"line {text.count(chr(10), 0, pos) + 1}"

    root: Node | None = None
    stack: list[Node] = []  # the open inner nodes, the innermost last
    while True:
        if stack and i < len(toks) and toks[i][0] == "]":
            done = stack.pop()
            i += 1
            if not done.children:
                raise InputError(f"tree: {where(i - 1)}: node {named(done.label)} has no children")
            if not stack:
                break
            continue
        if stack and i >= len(toks):
            raise InputError(f"tree: {where(i)}: missing ']' for node {named(stack[-1].label)}")
        if i >= len(toks):
            raise InputError(f"tree: {where(i)}: the tree ends too early")
        parent = stack[-1] if stack else None
        label = f"{parent.label}.{len(parent.children) + 1}" if parent else "root"
        kind, val, _ = toks[i]
        if kind == "label=":
            label = val
            i += 1
            if i >= len(toks) or toks[i][0] != "num":
                raise InputError(f"tree: {where(i)}: a number must follow {named(val)}=")
            kind, val, _ = toks[i]
        elif kind == "label":
            label = val
            i += 1
            if i >= len(toks) or toks[i][0] != "[":
                raise InputError(f"tree: {where(i)}: '[' must follow the label {named(val)}")
            kind, val, _ = toks[i]
        if kind == "num":
            n = Node(label, _leaf_value(val, where(i)))
        elif kind == "[":
            n = Node(label)
            if len(stack) >= MAX_DEPTH:
                raise InputError(f"tree: {where(i)}: nested more than {MAX_DEPTH} deep, "
                                 "the most this program searches")
        else:
            raise InputError(f"tree: {where(i)}: expected a number or '[', found {shown(val)}")
        i += 1
        if parent is None:
            root = n
        else:
            parent.children.append(n)
        if kind == "[":
            stack.append(n)
        elif parent is None:
            break
    assert root is not None
    if i != len(toks):
        raise InputError(f"tree: {where(i)}: text after the end of the tree")
    return root


Path = tuple[int, ...]


class TreeGame(GameBase[Path, int]):
    """The game whose positions are the nodes of a given tree; actions are child indices."""

    name = "tree"

    def __init__(self, root: Node, max_first: bool = True) -> None:
        self.root = root
        self.max_first = max_first
        leaves = leaf_values(root)
        self.values = Values("score", 1.0, min(leaves), max(leaves))

    @classmethod
    def from_text(cls, text: str, max_first: bool = True) -> TreeGame:
        return cls(parse_tree(text), max_first)

    def node(self, state: Path) -> Node:
        n = self.root
        for i in state:
            n = n.children[i]
        return n

    def initial_state(self) -> Path:
        return ()

    def actions(self, state: Path) -> list[int]:
        return list(range(len(self.node(state).children)))

    def result(self, state: Path, action: int) -> Path:
        return (*state, action)

    def is_terminal(self, state: Path) -> bool:
        return self.node(state).is_leaf

    def utility(self, state: Path) -> float:
        value = self.node(state).value
        assert value is not None
        return value

    def outcome(self, state: Path) -> str:
        return f"Leaf reached: value {self.utility(state):g}"

    def is_maxs_turn(self, state: Path) -> bool:
        return (len(state) % 2 == 0) == self.max_first

    def evaluate(self, state: Path) -> float:
        return 0.0

    def format_move(self, action: int) -> str:
        return str(action + 1)

    def label(self, state: Path) -> str:
        return self.node(state).label

    def paths(self) -> list[Path]:
        """Every node's path, in pre-order (a node before its children, left to right)."""
        out: list[Path] = []
        todo: list[tuple[Path, Node]] = [((), self.root)]
        while todo:
            path, n = todo.pop()
            out.append(path)
            todo.extend(((*path, i), c) for i, c in reversed(list(enumerate(n.children))))
        return out
