"""Explicit trees: the parser, and node counts and pruning worked out by hand."""

import math
import re

import pytest

from zerosum.explain import explain_tree, trace_tree
from zerosum.game import InputError
from zerosum.games.tree import TreeGame, parse_tree
from zerosum.result import TraceEvent
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


def test_entries_and_exits_on_figure_5_2() -> None:
    """Every event of alpha-beta on AIMA figure 5.2 in order: an inner node is entered
    with the window passed down (its v starts at -inf at Max, +inf at Min), a node
    returns with its value and final window; C's 4 and 6 are never entered."""
    game = TreeGame.from_text(AIMA_5_2)
    events: list[TraceEvent] = []
    alphabeta_search(game, (), tracer=events.append, trace_entries=True)
    inf = math.inf
    assert [(e.kind, game.label(e.state), e.depth, e.alpha, e.beta, e.value, e.pruned)
            for e in events] == [
        ("enter", "A", 0, -inf, inf, -inf, False),
        ("enter", "B", 1, -inf, inf, inf, False),
        ("exit", "B.1", 2, -inf, inf, 3, False),
        ("exit", "B.2", 2, -inf, 3, 12, False),
        ("exit", "B.3", 2, -inf, 3, 8, False),
        ("exit", "B", 1, -inf, 3, 3, False),
        ("enter", "C", 1, 3, inf, inf, False),
        ("exit", "C.1", 2, 3, inf, 2, False),
        ("exit", "C", 1, 3, inf, 2, True),
        ("enter", "D", 1, 3, inf, inf, False),
        ("exit", "D.1", 2, 3, inf, 14, False),
        ("exit", "D.2", 2, 3, 14, 5, False),
        ("exit", "D.3", 2, 3, 5, 2, False),
        ("exit", "D", 1, 3, 5, 2, True),  # 2 <= alpha after the last child: nothing left
        ("exit", "A", 0, 3, inf, 3, False),
    ]
    assert [e.action for e in events if e.kind == "enter"] == [None, 0, 1, 2]
    # without trace_entries the tracer gets the exits alone, as before
    exits: list[TraceEvent] = []
    alphabeta_search(game, (), tracer=exits.append)
    assert exits == [e for e in events if e.kind == "exit"]
    # minimax enters the same inner nodes, with no window
    events = []
    minimax_search(game, (), tracer=events.append, trace_entries=True)
    assert [(game.label(e.state), e.alpha, e.beta) for e in events if e.kind == "enter"] == [
        ("A", -inf, inf), ("B", -inf, inf), ("C", -inf, inf), ("D", -inf, inf)]
    assert len(events) == 13 + 4


def test_entries_in_a_deeper_tree() -> None:
    """The hand-worked tree below: L2 is entered with beta 5 from L1 and cut at its
    first leaf; R1 is entered with alpha 5 from L."""
    game = TreeGame.from_text("[L[[3 5] [6 9]] R[[1 2] [0 -1]]]")
    events: list[TraceEvent] = []
    alphabeta_search(game, (), tracer=events.append, trace_entries=True)
    inf = math.inf
    entries = [(game.label(e.state), e.alpha, e.beta) for e in events if e.kind == "enter"]
    assert entries == [("root", -inf, inf), ("L", -inf, inf), ("L.1", -inf, inf),
                       ("L.2", -inf, 5), ("R", 5, inf), ("R.1", 5, inf)]


STEPS_5_2 = """\
algorithm: alphabeta
value: 3
best move: B
principal variation: B B.1
nodes examined: 11
leaves evaluated: 7

  1  A [max] enters  alpha -inf beta +inf
  2    B [min] enters  alpha -inf beta +inf
  3      B.1 [leaf] value 3
  4      B.2 [leaf] value 12
  5      B.3 [leaf] value 8
  6    B [min] returns 3  alpha -inf beta 3
  7    C [min] enters  alpha 3 beta +inf
  8      C.1 [leaf] value 2
  9    C [min] returns 2  alpha 3 beta +inf  pruned: C.2, C.3 (value 2 <= alpha 3 at a Min node)
 10    D [min] enters  alpha 3 beta +inf
 11      D.1 [leaf] value 14
 12      D.2 [leaf] value 5
 13      D.3 [leaf] value 2
 14    D [min] returns 2  alpha 3 beta 5
 15  A [max] returns 3  alpha 3 beta +inf
"""


def test_steps_report() -> None:
    game = TreeGame.from_text(AIMA_5_2)
    assert explain_tree(game, "alphabeta", steps=True) == STEPS_5_2
    minimax = explain_tree(game, "minimax", steps=True).splitlines()
    assert minimax[7:10] == ["  1  A [max] enters", "  2    B [min] enters",
                             "  3      B.1 [leaf] value 3"]
    assert minimax[-1] == " 17  A [max] returns 3"
