"""No code asks which game or which kind of player it has by its name: what a game or a
kind can do is declared where it registers (GameSpec's capabilities, PlayerKind's
fields), and code reads the declaration. A comparison like `spec.name == "checkers"` or
`kind in ("alphabeta", "minimax")` anywhere in src/zerosum fails here."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import zerosum
from zerosum.games.registry import all_games
from zerosum.players.catalogue import known

SRC = Path(zerosum.__file__).parent


def named(node: ast.expr) -> str | None:
    """The identifier of `name`, `x.name`, `kind`, `o.kind`, ... when it says a name or a
    kind (the words a check by name uses), else None."""
    word = node.id if isinstance(node, ast.Name) else \
        node.attr if isinstance(node, ast.Attribute) else None
    return word if word is not None and word.endswith(("name", "kind")) else None


def strings(node: ast.expr) -> list[str]:
    """The string constants of `"x"` or of a tuple, list or set of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for e in node.elts for s in strings(e)]
    return []


def name_checks(tree: ast.AST, names: set[str]) -> Iterator[tuple[int, str]]:
    """(line, text) of each comparison of a name or a kind with one of `names`."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for a, b in pairwise(sides):
            for word, other in ((named(a), b), (named(b), a)):
                hits = [s for s in strings(other) if s in names]
                if word is not None and hits:
                    yield node.lineno, f"{word} compared with {hits[0]!r}"


def registered_names() -> set[str]:
    return {spec.name for spec in all_games()} | set(known())


def test_the_check_finds_a_check_by_name() -> None:
    names = {"checkers", "alphabeta"}
    code = ('if spec.name == "checkers": pass\n'
            'ok = o.kind in ("alphabeta", "other")\n'
            'fine = values.kind == "outcome" and algorithm == "alphabeta"\n')
    assert list(name_checks(ast.parse(code), names)) == [
        (1, "name compared with 'checkers'"), (2, "kind compared with 'alphabeta'")]


def test_no_game_or_player_kind_is_asked_for_by_its_name() -> None:
    names = registered_names()
    assert {"connect4", "checkers", "alphabeta", "random", "engine", "solver"} <= names
    found = [f"{path.relative_to(SRC.parent)}:{line}: {text}"
             for path in sorted(SRC.rglob("*.py"))
             for line, text in name_checks(ast.parse(path.read_text(encoding="utf-8")), names)]
    assert found == []
