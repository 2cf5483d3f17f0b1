"""POST /api/explain and the /explain page through Starlette's test client."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from networks import learner_after, tiny_network
from starlette.testclient import TestClient
from test_web import bad

from zerosum.games.tree import MAX_DEPTH
from zerosum.web.app import create_app

FIG52 = (Path(__file__).parent.parent / "docs" / "examples" / "fig52.txt").read_text()


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def explain(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/explain", json=body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def test_figure_5_2_alphabeta(client: TestClient) -> None:
    data = explain(client, tree=FIG52)
    assert (data["algorithm"], data["value"], data["best"]) == ("alphabeta", "3", "B")
    # as `zerosum tree docs/examples/fig52.txt --algorithm alphabeta` reports
    assert data["counts"] == {"alphabeta": {"nodes": 11, "leaves": 7},
                              "minimax": {"nodes": 13, "leaves": 9}}
    nodes = data["nodes"]
    assert [n["label"] for n in nodes] == [
        "A", "B", "B.1", "B.2", "B.3", "C", "C.1", "C.2", "C.3", "D", "D.1", "D.2", "D.3"]
    assert nodes[0] == {"path": [], "label": "A", "role": "max", "value": None,
                        "children": [1, 5, 9]}
    assert nodes[5]["role"] == "min" and nodes[7]["value"] == "4"
    events = data["events"]
    # in the order the search went: each inner node entered with the window passed down,
    # each node returning; C's children after the first are never entered
    assert [(e["kind"], e["label"], e["alpha"], e["beta"], e["value"]) for e in events] == [
        ("enter", "A", "-inf", "+inf", None),
        ("enter", "B", "-inf", "+inf", None),
        ("exit", "B.1", "-inf", "+inf", "3"),
        ("exit", "B.2", "-inf", "3", "12"),
        ("exit", "B.3", "-inf", "3", "8"),
        ("exit", "B", "-inf", "3", "3"),
        ("enter", "C", "3", "+inf", None),
        ("exit", "C.1", "3", "+inf", "2"),
        ("exit", "C", "3", "+inf", "2"),
        ("enter", "D", "3", "+inf", None),
        ("exit", "D.1", "3", "+inf", "14"),
        ("exit", "D.2", "3", "14", "5"),
        ("exit", "D.3", "3", "5", "2"),
        ("exit", "D", "3", "5", "2"),
        ("exit", "A", "3", "+inf", "3"),
    ]
    by_label = {e["label"]: e for e in events if e["kind"] == "exit"}
    assert by_label["B"] == {"kind": "exit", "node": 1, "path": [0], "label": "B",
                             "value": "3", "alpha": "-inf", "beta": "3", "pruned": [],
                             "reason": None}
    c = by_label["C"]
    assert [nodes[i]["label"] for i in c["pruned"]] == ["C.2", "C.3"]
    assert c["reason"] == "value 2 <= alpha 3 at a Min node"
    assert by_label["D"]["pruned"] == [] and by_label["A"]["value"] == "3"


def test_minimax_examines_every_node_without_a_window(client: TestClient) -> None:
    data = explain(client, tree=FIG52, algorithm="minimax")
    assert data["value"] == "3" and len(data["events"]) == 13 + 4  # 4 inner nodes entered
    assert [e["label"] for e in data["events"] if e["kind"] == "enter"] == ["A", "B", "C", "D"]
    assert all(e["alpha"] is None and e["pruned"] == [] for e in data["events"])


def test_min_first_and_a_cut_at_a_max_node(client: TestClient) -> None:
    data = explain(client, tree="R[X[5 9 1] Y[7 2]]", min_first=True)
    # Min at R: X = 9, Y = 7 (no cut: 7 < beta 9), R = 7
    assert data["value"] == "7"
    data = explain(client, tree="R[X[5 9] Y[10 1]]", min_first=True)
    y = next(e for e in data["events"] if e["label"] == "Y" and e["kind"] == "exit")
    assert y["reason"] == "value 10 >= beta 9 at a Max node"
    assert [data["nodes"][i]["label"] for i in y["pruned"]] == ["Y.2"]


def test_bad_trees_get_one_line(client: TestClient) -> None:
    assert "missing ']'" in bad(client.post("/api/explain", json={"tree": "A[B[3 12"}))
    assert "unexpected character" in bad(client.post("/api/explain", json={"tree": "A[3 ?]"}))
    assert "give the tree" in bad(client.post("/api/explain", json={}))
    assert "algorithm" in bad(client.post("/api/explain",
                                          json={"tree": FIG52, "algorithm": "negamax"}))
    assert "min_first" in bad(client.post("/api/explain", json={"tree": FIG52, "min_first": 1}))
    deep = "[" * (MAX_DEPTH + 1) + "1" + "]" * (MAX_DEPTH + 1)
    assert f"more than {MAX_DEPTH} deep" in bad(client.post("/api/explain", json={"tree": deep}))
    wide = "[" + " ".join(["1"] * 2500) + "]"
    assert "at most 2,000" in bad(client.post("/api/explain", json={"tree": wide}))
    huge = "[" + " 1" * 40_000 + "]"
    assert "over 65,536 bytes" in bad(client.post("/api/explain", json={"tree": huge}))


def test_the_page_is_served(client: TestClient) -> None:
    response = client.get("/explain")
    assert response.status_code == 200 and "explain.js" in response.text
    assert client.get("/static/explain.js").status_code == 200
    assert 'href="/explain"' in client.get("/").text


def test_a_tictactoe_position_at_depth_2(client: TestClient) -> None:
    """The trace of a real position counts the nodes the search itself counts."""
    from zerosum.games.registry import get_game
    from zerosum.search import alphabeta_search, minimax_search

    game = get_game("tictactoe").create()
    state = game.initial_state()
    for move in ("1", "5"):
        state = game.result(state, game.parse_move(state, move))
    own = {"alphabeta": alphabeta_search(game, state, 2).stats,
           "minimax": minimax_search(game, state, 2).stats}
    for algorithm in ("alphabeta", "minimax"):
        data = explain(client, game="tictactoe", moves="1 5", depth=2, algorithm=algorithm)
        assert data["counts"] == {
            name: {"nodes": s.nodes, "leaves": s.evaluated, "table_hits": 0}
            for name, s in own.items()}
        assert data["counts"]["alphabeta"]["nodes"] == 29
        assert data["counts"]["minimax"]["nodes"] == 50 == len(data["nodes"])
        # the value in the game's own words and number format (three decimals)
        assert (data["value"], data["best"]) == ("-0.111 (estimate, good for O)", "3")
        # one exit per node examined, the root's last; an entry per inner node
        exits = [e for e in data["events"] if e["kind"] == "exit"]
        assert len(exits) == data["counts"][algorithm]["nodes"]
        assert data["events"][0]["kind"] == "enter" and data["events"][0]["node"] == 0
        assert data["events"][-1]["node"] == 0 and data["events"][-1]["value"] == "-0.111"
        nodes = data["nodes"]
        assert nodes[0]["label"] == "start" and nodes[0]["role"] == "max"
        assert [nodes[i]["label"] for i in nodes[0]["children"]] == [
            "2", "3", "4", "6", "7", "8", "9"]
        assert nodes[nodes[0]["children"][0]]["role"] == "min"
    assert not any(e["pruned"] for e in data["events"])  # the last run: minimax prunes nothing
    data = explain(client, game="tictactoe", moves="1 5", depth=2)
    cut = next(e for e in data["events"] if e["pruned"])
    assert cut["label"] == "4"
    assert [data["nodes"][i]["label"] for i in cut["pruned"]] == ["4 3", "4 6", "4 7", "4 8", "4 9"]
    assert cut["reason"] == "value -0.111 <= alpha -0.111 at a Min node"
    # entered with the window passed down: alpha is the first move's value already
    entered = next(e for e in data["events"] if e["kind"] == "enter" and e["label"] == "4")
    assert (entered["alpha"], entered["beta"]) == ("-0.111", "+inf")


def test_a_transposition_table_marks_its_hits(client: TestClient) -> None:
    data = explain(client, game="tictactoe", moves="1 5", depth=4, table=True)
    hits = data["counts"]["alphabeta"]["table_hits"]
    assert hits == 16 and data["counts"]["alphabeta"]["nodes"] == 144
    effects = Counter(e["table"]["effect"] for e in data["events"] if e["table"])
    assert effects == {"cut": 13, "exact": 3}  # every hit: one per probe that found an entry
    assert explain(client, game="tictactoe", moves="1 5", depth=4)["value"] == data["value"]
    assert data["table_note"] is None
    assert explain(client, game="tictactoe", moves="1 5", depth=4)["table_note"] is None


def test_no_table_hits_are_explained(client: TestClient) -> None:
    why = ("No table hits: within {} plies from here no inner node is reached twice by "
           "different move orders (the same position comes back 3 plies down at the "
           "soonest, one side's two moves played the other way round, and leaves are not "
           "looked up: 4 plies at least)")
    for depth in (2, 3):  # at depth 3 the transposed positions are leaves
        data = explain(client, game="tictactoe", moves="1 5", depth=depth, table=True)
        assert data["counts"]["alphabeta"]["table_hits"] == 0
        assert data["table_note"] == why.format(depth) + (
            ". At depth 4 this position has 16: try it.")
    data = explain(client, game="tictactoe", moves="1 5 9 3 7 4 6", depth=2, table=True)
    assert data["table_note"] == why.format(2) + (
        ", nor within any depth this page searches from this position. Try a position "
        "with more moves left, or a game whose moves can be played in another order.")


def test_table_hits_that_only_narrow_the_window(client: TestClient) -> None:
    """Connect Four after 4 4 at depth 4: of the 35 hits, 13 bounds narrow a window
    without closing it (the node is still searched), 14 close it and 8 exact values
    settle their node; the search's own trace agrees with the replayed windows."""
    data = explain(client, game="connect4", moves="4 4", depth=4, table=True)
    assert data["counts"]["alphabeta"] == {"nodes": 768, "leaves": 562, "table_hits": 35}
    hits = [e for e in data["events"] if e["table"]]
    assert Counter(e["table"]["effect"] for e in hits) == {
        "narrowed": 13, "cut": 14, "exact": 8}
    nodes = data["nodes"]
    for e in hits:
        t = e["table"]
        searched = bool(nodes[e["node"]]["children"])
        assert searched == (t["effect"] == "narrowed"), e
        if t["effect"] == "cut":  # the search traces a settled node with its narrowed window
            assert [e["alpha"], e["beta"]] == t["narrowed"]
    by_label = {e["label"]: e for e in hits}
    assert by_label["2 5 1"]["table"] == {
        "bound": "lower", "value": "-0.006", "effect": "narrowed",
        "window": ["-0.01", "-0.005"], "narrowed": ["-0.006", "-0.005"]}
    assert by_label["2 3 1"]["table"] == {
        "bound": "upper", "value": "-0.014", "effect": "cut",
        "window": ["-0.01", "-0.005"], "narrowed": ["-0.01", "-0.014"]}
    assert by_label["2 4 1"]["table"]["effect"] == "exact"
    # a bound outside the window is a hit that changes nothing
    data = explain(client, game="connect4", moves="4", depth=4, table=True)
    effects = Counter(e["table"]["effect"] for e in data["events"] if e["table"])
    assert effects == {"exact": 11, "narrowed": 9, "cut": 26, "none": 4}
    assert sum(effects.values()) == data["counts"]["alphabeta"]["table_hits"]


def test_connect_four_and_bad_positions(client: TestClient) -> None:
    data = explain(client, game="connect4", moves="4 4", depth=2)
    assert data["counts"]["minimax"]["nodes"] == 57 and data["best"] == "4"

    def refused(**body: Any) -> str:
        return bad(client.post("/api/explain", json=body))

    assert refused(game="connect4", moves="4 4", depth=5) == (
        "depth must be a whole number from 1 to 4, not 5")
    assert refused(game="checkers", depth=4) == (
        "checkers at depth 4 has over 3,000 nodes from this position; choose a smaller depth")
    assert refused(game="tictactoe", moves="1 5 5", depth=2) == (
        "move 3 (5): cell 5 is not free")
    assert refused(game="connect4", moves="4 x").startswith("move 2 (x): ")
    assert refused(game="tictactoe", moves="1 4 2 5 3 6", depth=2) == (
        "move 6 (6): the game is already over")
    assert refused(game="tictactoe", depth=2, table=1) == "table must be true or false"
    assert "unknown game 'go'" in refused(game="go", depth=2)


def test_mcts_on_figure_5_2_simulation_by_simulation(client: TestClient) -> None:
    """MCTS on AIMA figure 5.2, seed 1 (the simulations of test_mcts, worked by hand):
    the tree it grew, each simulation's four steps, the root proven 3 after 10."""
    data = explain(client, tree=FIG52, algorithm="mcts", seed=1)
    assert (data["algorithm"], data["value"], data["best"], data["seed"]) == (
        "mcts", "3", "B", 1)
    assert data["counts"] == {"mcts": {"simulations": 10, "tree_nodes": 11, "tree_depth": 2}}
    nodes = data["nodes"]
    # pre-order, each node with the simulation that added it
    assert [(n["label"], n["role"], n["added"]) for n in nodes] == [
        ("A", "max", 0), ("B", "min", 1), ("B.1", "leaf", 7), ("B.2", "leaf", 9),
        ("B.3", "leaf", 10), ("C", "min", 2), ("C.1", "leaf", 6), ("D", "min", 3),
        ("D.1", "leaf", 4), ("D.2", "leaf", 5), ("D.3", "leaf", 8)]
    events = data["events"]
    assert len(events) == 10 and [e["number"] for e in events] == list(range(1, 11))
    label = {i: n["label"] for i, n in enumerate(nodes)}
    first = events[0]
    assert first["selection"] == [] and label[first["expanded"]] == "B"
    assert (first["playout"], first["result"], first["reward"]) == (["B.1"], "3", "0.083")
    assert [(label[u["node"]], u["visits"], u["reward"], u["proven"])
            for u in first["updates"]] == [("B", 1, "0.0833333", None), ("A", 1, "0.916667", None)]
    fourth = events[3]
    [level] = fourth["selection"]
    assert [(o["move"], o["visits"], o["exploit"], o["explore"], o["score"])
            for o in level["options"]] == [("B", 1, "0.083", "1.478", "1.561"),
                                           ("C", 1, "0.333", "1.478", "1.811"),
                                           ("D", 1, "1.000", "1.478", "2.478")]
    assert label[level["chosen"]] == "D" and label[fourth["expanded"]] == "D.1"
    assert [label[i] for i in fourth["path"]] == ["A", "D", "D.1"]
    assert fourth["playout"] == [] and fourth["result"] == "14"  # a leaf: nothing to play out
    assert fourth["updates"][0]["proven"] == "14"
    last = events[-1]
    assert [(label[u["node"]], u["proven"]) for u in last["updates"]] == [
        ("B.3", "8"), ("B", "3"), ("A", "3")]
    assert [(m["move"], m["visits"], m["proven"]) for m in last["root_moves"]] == [
        ("B", 4, "3"), ("C", 2, "2"), ("D", 4, "2")]
    assert data["summary"] == {
        "effort": "10 simulations",
        "trace": "a tree of 11 nodes 2 deep, 11 proven by the solver; the root proven; "
                 "B visited 4 times of 10"}


def test_mcts_on_a_game_position(client: TestClient) -> None:
    """Tic-tac-toe after 1 5 9 3, seed 1: the moves in the game's notation, the playouts'
    ends in its words, the same visits as the search's own (test_mcts)."""
    data = explain(client, game="tictactoe", moves="1 5 9 3", algorithm="mcts", seed=1,
                   simulations=100)
    assert (data["value"], data["best"]) == ("+1 (X wins, proven)", "7")
    assert data["counts"]["mcts"]["simulations"] == 30
    first = data["events"][0]
    assert (first["playout"], first["result"]) == (["6", "8", "4"],
                                                   "-1 (O wins: three in a row)")
    nodes = data["nodes"]
    assert nodes[0]["label"] == "start"
    assert [nodes[i]["label"] for i in nodes[0]["children"]] == ["2", "4", "6", "7", "8"]
    assert {m["move"]: m["visits"] for m in data["events"][-1]["root_moves"]} == {
        "2": 4, "4": 4, "6": 4, "7": 13, "8": 5}
    again = explain(client, game="tictactoe", moves="1 5 9 3", algorithm="mcts", seed=1,
                    simulations=100)
    assert again == data  # from a seed: the same search, step for step
    other = explain(client, game="tictactoe", moves="1 5 9 3", algorithm="mcts", seed=2,
                    simulations=100)
    assert other["events"] != data["events"]

    def refused(**body: Any) -> str:
        return bad(client.post("/api/explain", json={"algorithm": "mcts", **body}))

    assert refused(game="tictactoe", simulations=0) == (
        "simulations must be a whole number from 1 to 300, not 0")
    assert refused(game="tictactoe", seed=-1) == (
        "seed must be a whole number from 0 to 2,147,483,647, not -1")
    assert refused(game="tictactoe", moves="1 4 2 5 3") == (
        "the game is already over in this position: nothing to search")
    assert refused(game="tictactoe", seed=True).startswith("seed must be")


def test_a_search_summary_for_the_comparison(client: TestClient) -> None:
    data = explain(client, tree=FIG52)
    assert data["summary"] == {
        "effort": "11 nodes examined",
        "trace": "4 inner nodes entered, 11 nodes returned, 1 cut pruning 2 children"}
    data = explain(client, game="connect4", moves="4 4", depth=4, table=True)
    assert data["summary"]["trace"] == (
        "206 inner nodes entered, 768 nodes returned, 111 cuts pruning 521 children, "
        "35 table hits")


@pytest.fixture(scope="module")
def network(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tic-tac-toe AlphaZero network, two games of a tiny run (what it learned does not
    matter here: its search is checked against the learner's own)."""
    pytest.importorskip("numpy")
    return tiny_network(tmp_path_factory.mktemp("net"))


def test_a_learned_networks_puct_in_the_mcts_view(network: Path) -> None:
    """A training run the server watches offers its network as MCTS's guide: the search
    is the network's PUCT (the same visits as the learner's own search), each move with
    its prior P (summing to 1 over the legal moves) and Q, the root's visits summing to
    the simulations; a player the server does not offer is refused in one line."""

    player = f"learned:{network}"
    with TestClient(create_app(train=str(network))) as client:
        games = client.get("/api/games").json()["games"]
        assert player in next(g for g in games if g["name"] == "tictactoe")["players"]
        data = explain(client, game="tictactoe", moves="1 4 2 5", algorithm="mcts",
                       simulations=30, player=player)

        def refused(**body: Any) -> str:
            return bad(client.post("/api/explain", json={"algorithm": "mcts", **body}))

        assert refused(game="tictactoe", player="learned:/etc/passwd") == (
            "player 'learned:/etc/passwd' is not offered here for tictactoe "
            "(zerosum serve --train FILE offers a run's weights)")
        # (a long name is shortened in the message: the test's folder may be long)
        elsewhere = refused(game="connect4", player=player)
        assert elsewhere.startswith(f"player '{player[:20]}") and elsewhere.endswith(
            " is not offered here for connect4 (zerosum serve --train FILE offers a run's "
            "weights)")
        assert refused(tree=FIG52, player=player) == (
            "player: name a learned player offered for a game position")
        assert refused(game="tictactoe", player=3).startswith("player: name a learned")
    learner, game, state = learner_after(network, ("1", "4", "2", "5"))
    _, _, root = learner.puct(state, 30)
    assert data["guide"] == {"player": player, "name": player, "c_puct": 2.5, "leaves": 1}
    assert data["counts"]["mcts"]["simulations"] == 30
    last = data["events"][-1]
    assert len(data["events"]) == 30 and last["updates"][-1]["node"] == 0
    assert last["updates"][-1]["visits"] == 30  # the root: every simulation went through it
    moves = [m["move"] for m in last["root_moves"]]
    assert moves == ["3", "6", "7", "8", "9"]  # the legal moves
    assert [m["visits"] for m in last["root_moves"]] == root.visits
    assert sum(m["visits"] for m in last["root_moves"]) == 30
    assert sum(float(m["prior"]) for m in last["root_moves"]) == pytest.approx(1, abs=0.003)
    assert [float(m["prior"]) for m in last["root_moves"]] == [
        round(p, 3) for p in root.priors]
    nodes = data["nodes"]
    assert nodes[0]["prior"] is None
    for m in last["root_moves"]:  # each child drawn with its prior, as the root weighed it
        if m["node"] is not None:
            assert nodes[m["node"]]["prior"] == m["prior"]
    # X wins at 3: a finished game, its Q exact; a network's leaf is valued, not played out
    win = next(m for m in last["root_moves"] if m["move"] == "3")
    assert win["proven"] == "+1" and win["exploit"] == "1.000"
    assert all(e["playout"] == [] for e in data["events"])
    ends = [e for e in data["events"] if nodes[e["node"]]["label"] == "3"]
    assert ends and all(e["result"] == "X wins: three in a row" for e in ends)
    assert ends[0]["updates"][0] == {"node": win["node"], "visits": 1, "reward": "1",
                                     "mean": "1.000", "proven": "+1", "q": "+1.000"}
    assert data["best"] == game.format_move(learner.puct(state, 30)[0])
