"""Explicit trees: the parser, and node counts and pruning worked out by hand."""

import re

import pytest

from zerosum.explain import explain_tree, trace_tree
from zerosum.game import InputError
from zerosum.games.tree import TreeGame, parse_tree
from zerosum.search import alphabeta_search, minimax_search

AIMA_5_2 = "A[B[3 12 8] C[2 4 6] D[14 5 2]]"


def test_parse_labels_and_defaults() -> None:
    root = parse_tree("A[B[b1=3 12] [ -1.5, 2e1 ]]  # comment")
    assert root.label == "A"
    assert [c.label for c in root.children] == ["B", "A.2"]
    assert [c.label for c in root.children[0].children] == ["b1", "B.2"]
    assert [c.value for c in root.children[1].children] == [-1.5, 20.0]


@pytest.mark.parametrize(
    "text, message",
    [
        ("A[3 4", "missing ']'"),
        ("[]", "has no children"),
        ("[1 2] 3", "after the end"),
        ("[1 ? 2]", "unexpected character"),
        ("A 3", "'[' must follow"),
        ("a=[1]", "a number must follow"),
        ("", "ends too early"),
    ],
)
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(InputError, match=re.escape(message)):
        parse_tree(text)


def test_aima_figure_5_2() -> None:
    game = TreeGame.from_text(AIMA_5_2)
    mm = minimax_search(game, ())
    ab = alphabeta_search(game, ())
    assert (mm.value, mm.action) == (3, 0)
    assert (ab.value, ab.action) == (3, 0)
    assert mm.stats.nodes == 13 and mm.stats.evaluated == 9
    # Alpha-beta skips C's 4 and 6 (2 <= alpha = 3): 13 - 2 nodes.
    assert ab.stats.nodes == 11 and ab.stats.evaluated == 7
    assert ab.pv == [0, 0]


def test_aima_trace_alpha_beta() -> None:
    game = TreeGame.from_text(AIMA_5_2)
    _, events = trace_tree(game, "alphabeta")
    inner = {game.label(p): (e.alpha, e.beta, e.value) for p, e in events.items() if p and
             len(p) == 1}
    inf = float("inf")
    assert inner == {"B": (-inf, 3, 3), "C": (3, inf, 2), "D": (3, 5, 2)}
    assert events[()].alpha == 3 and events[(1,)].pruned


def test_hand_worked_deeper_tree() -> None:
    # Max root; Min at depth 1; Max at depth 2. Worked by hand:
    # L1 = Max(3, 5) = 5, so L's beta = 5; L2's first leaf 6 >= beta: 9 is pruned; L = 5.
    # R1 = Max(1, 2) = 2 <= alpha 5 at R: R's second child is pruned.
    # Nodes: root, L, L1, 3, 5, L2, 6, R, R1, 1, 2 = 11 of 15; leaves 3, 5, 6, 1, 2.
    game = TreeGame.from_text("[L[[3 5] [6 9]] R[[1 2] [0 -1]]]")
    ab = alphabeta_search(game, ())
    mm = minimax_search(game, ())
    assert ab.value == mm.value == 5
    assert mm.stats.nodes == 15
    assert (ab.stats.nodes, ab.stats.evaluated) == (11, 5)
    assert ab.pv == [0, 0, 1]


def test_min_first_and_ties_go_first() -> None:
    game = TreeGame.from_text("[4 7 7 4]", max_first=False)
    assert minimax_search(game, ()).action == 0
    game = TreeGame.from_text("[4 7 7 4]")
    assert minimax_search(game, ()).action == 1
    assert alphabeta_search(game, ()).action == 1


def test_explain_report() -> None:
    text = explain_tree(TreeGame.from_text(AIMA_5_2), "alphabeta")
    assert "value: 3\n" in text
    assert "  C [min] value 2  alpha 3 beta +inf  pruned: C.2, C.3" in text
    assert "branches pruned: 2" in text
