"""The /explain page in headless Debian Chromium (Playwright): AIMA figure 5.2 stepped
through alpha-beta, as a person uses it. Screenshots go to build/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest
from browser import screenshot
from networks import learner_after, tiny_network

pytest.importorskip("starlette")


def labels(page: Any, selector: str) -> list[str]:
    return [str(g.get_attribute("data-label")) for g in page.query_selector_all(selector)]


def test_its_buttons_wait_for_the_page_to_be_ready(page: Any, url: str) -> None:
    """A click made before the page's module has run would be lost (no listener yet):
    the page's buttons stay disabled until it has run, so a click waits for it."""
    held: list[Any] = []
    page.route("**/static/explain.js", lambda route: held.append(route))  # held back
    page.goto(url + "/explain", wait_until="commit")
    page.wait_for_selector("#example", state="attached")
    for _ in range(500):
        if held:
            break
        page.wait_for_timeout(10)
    assert held and page.is_disabled("#example") and page.is_disabled("#explain")
    held[0].continue_()
    page.click("#example")
    page.wait_for_selector("#drawing svg")
    assert page.inner_text("#step") == "step 0 of 15"


def test_figure_5_2_played_through(page: Any, url: str) -> None:
    page.goto(url + "/")
    page.click("a[href='/explain']")
    page.click("#example")
    page.wait_for_selector("#drawing svg")
    assert page.inner_text("#step") == "step 0 of 15"  # 11 nodes return, 4 are entered
    assert page.inner_text("#counts tbody").split() == [
        "alpha-beta", "(shown)", "11", "7", "minimax", "13", "9"]
    page.click("#next")
    page.click("#next")
    assert page.inner_text("#step") == "step 2 of 15"
    assert labels(page, "g.node.current") == ["B"]
    assert labels(page, "g.node.entered") == ["A", "B"]
    assert page.inner_text("#summary") == "alpha-beta: B (min) entered with window (-inf, +inf)"
    page.click("#back")
    assert labels(page, "g.node.current") == ["A"]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert labels(page, "g.node.current") == ["B.1"]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#step") == "step 1 of 15"
    for _ in range(6):
        page.click("#next")
    assert labels(page, "g.node.current") == ["C"]  # entered with B's value as alpha
    assert page.inner_text("#summary") == "alpha-beta: C (min) entered with window (3, +inf)"
    assert page.text_content("g.node[data-label='C'] text.window") == "(3, +inf)"
    page.click("#next")
    page.click("#next")
    assert labels(page, "g.node.current") == ["C"]  # C has just cut off C.2 and C.3
    assert page.inner_text("#summary") == ("alpha-beta: C (min) returns 2, window (3, +inf); "
                                           "pruned C.2, C.3: value 2 <= alpha 3 at a Min node")
    assert labels(page, "g.node.done") == ["B", "B.1", "B.2", "B.3", "C", "C.1"]
    assert labels(page, "g.node.entered") == ["A"]
    screenshot(page, "explain-fig52-step9")
    page.select_option("#speed", "150")
    page.click("#play")
    page.wait_for_function("document.querySelector('#step').textContent === 'step 15 of 15'")
    assert page.inner_text("#play") == "Play"  # it stopped at the end
    assert page.inner_text("#summary") == (
        "alpha-beta: the value of A is 3, best move B; 11 nodes examined.")
    assert labels(page, "g.node.pruned") == ["C.2", "C.3"]
    assert labels(page, "g.node.entered") == []
    assert page.text_content("g.node[data-label='C.2'] > title") == (
        "C.2 (leaf) pruned: value 2 <= alpha 3 at a Min node")
    log = page.inner_text("#log").splitlines()
    assert len(log) == 15
    assert log[:2] == ["A (max) entered with window (-inf, +inf)",
                       "B (min) entered with window (-inf, +inf)"]
    assert log[8] == ("C (min) returns 2, window (3, +inf); "
                      "pruned C.2, C.3: value 2 <= alpha 3 at a Min node")
    assert log[9] == "D (min) entered with window (3, +inf)"
    assert log[14] == "A (max) returns 3, window (3, +inf)"
    assert page.text_content("g.node[data-label='A'] text.value") == "3"
    screenshot(page, "explain-fig52")


def test_a_bad_tree_shows_one_line(page: Any, url: str) -> None:
    page.goto(url + "/explain")
    page.fill("#tree-text", "A[B[3 12")
    page.click("button[type=submit]")
    page.wait_for_function("document.querySelector('#error').textContent !== ''")
    assert page.inner_text("#error") == "tree: line 1: missing ']' for node B"
    assert page.is_hidden("#search")


def test_a_connect_four_position_explained(page: Any, url: str) -> None:
    """Connect Four after 4 4 at depth 2: the tree opens node by node as the steps reach
    it, and the value at the end is the search's own."""
    from zerosum.game import format_number, format_value
    from zerosum.games.registry import get_game
    from zerosum.search import alphabeta_search

    game = get_game("connect4").create()
    state = game.initial_state()
    for move in ("4", "4"):
        state = game.result(state, game.parse_move(state, move))
    events: list[Any] = []
    result = alphabeta_search(game, state, 2, tracer=events.append, trace_entries=True)
    assert sum(e.kind == "enter" for e in events) == 8  # the root and its seven moves

    page.goto(url + "/explain")
    page.select_option("#kind", "game")
    page.wait_for_selector("#game option[value='connect4']", state="attached")
    page.select_option("#game", "connect4")
    page.fill("#moves", "4 4")
    page.select_option("#depth", "2")
    page.click("button[type=submit]")
    page.wait_for_selector("#drawing svg")
    total = len(events)
    assert page.inner_text("#step") == f"step 0 of {total}"
    assert page.inner_text("#counts tbody").split()[:4] == [
        "alpha-beta", "(shown)", str(result.stats.nodes), str(result.stats.evaluated)]
    # lazily: the root and its seven columns, nothing deeper yet
    assert labels(page, "g.node") == ["start", "1", "2", "3", "4", "5", "6", "7"]
    page.click("#next")  # the root entered, then column 1
    page.click("#next")
    assert labels(page, "g.node.entered") == ["start", "1"]
    page.click("#next")  # the first leaf returns: its parent opens to show it
    assert labels(page, "g.node.current") == ["1 1"]
    assert len(labels(page, "g.node")) == 8 + 7
    page.click("g.node[data-label='1']")  # a click closes it again
    assert len(labels(page, "g.node")) == 8
    page.click("g.node[data-label='7']")  # and opens another
    assert labels(page, "g.node")[-7:] == ["7 1", "7 2", "7 3", "7 4", "7 5", "7 6", "7 7"]
    page.click("#end")
    assert page.inner_text("#step") == f"step {total} of {total}"
    assert page.inner_text("#summary") == (
        f"alpha-beta: the value of the position is {format_value(game, result.value)}, "
        f"best move {game.format_move(result.action)}; {result.stats.nodes} nodes examined.")
    assert page.text_content("g.node[data-label='start'] text.value") == format_number(
        result.value)
    page.click("g.node[data-label='4']")
    screenshot(page, "explain-connect4")


def explain_position(page: Any, url: str, moves: str, depth: int, table: bool = False) -> None:
    page.goto(url + "/explain")
    page.select_option("#kind", "game")
    page.wait_for_selector("#game option[value='connect4']", state="attached")
    page.select_option("#game", "connect4")
    page.fill("#moves", moves)
    page.select_option("#depth", str(depth))
    if table:
        page.check("#table")
    page.click("button[type=submit]")
    page.wait_for_selector("#drawing svg")


# The drawn nodes whose boxes (shape, value, label and window together) overlap.
OVERLAPS = """() => {
  const boxes = [...document.querySelectorAll('g.node')].map(
    (g) => [g.dataset.label, g.getBoundingClientRect()]);
  const hits = [];
  for (const [i, [a, p]] of boxes.entries()) {
    for (const [b, q] of boxes.slice(i + 1)) {
      if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom) {
        hits.push(a + ' / ' + b);
      }
    }
  }
  return hits;
}"""


def test_a_wide_tree_keeps_its_nodes_apart(page: Any, url: str) -> None:
    """Connect Four at depth 3 (seven children a node) opened three levels down: no two
    nodes' texts overlap; the drawing scrolls sideways instead of squeezing them."""
    explain_position(page, url, "4 4", 3)
    page.keyboard.press("End")
    for label in ("1", "1 1", "1 4", "2", "2 2"):
        page.click(f"g.node[data-label='{label}']")
    drawn = labels(page, "g.node")
    assert len(drawn) == 1 + 7 + 7 + 7 + 7 + 7 + 7
    assert page.evaluate(OVERLAPS) == []
    assert page.evaluate("(() => { const d = document.querySelector('#drawing');"
                         " return d.scrollWidth > d.clientWidth; })()")
    # a leaf's box is as wide as its value: "-0.001" stays inside
    assert page.evaluate("""(() => {
      const g = document.querySelector("g.node[data-label='1 1 7']");
      const box = g.querySelector('rect').getBBox(), text = g.querySelector('text.value');
      return box.width >= text.getBBox().width;
    })()""")
    screenshot(page, "explain-connect4-depth3")


def test_table_hits_that_narrow_are_marked_apart_from_cuts(page: Any, url: str) -> None:
    explain_position(page, url, "4 4", 4, table=True)
    assert page.inner_text("#counts tbody").split()[2:5] == ["768", "562", "35"]
    page.keyboard.press("End")
    for label in ("2", "2 3", "2 5"):
        page.click(f"g.node[data-label='{label}']")
    assert labels(page, "g.node.table-narrowed") == ["2 5 1"]
    assert "2 3 1" in labels(page, "g.node.table")  # settled by the table's bound
    assert page.text_content("g.node[data-label='2 5 1'] > title") == (
        "2 5 1 (min): value -0.006, window (-0.006, -0.005); the table's lower bound -0.006 "
        "narrowed its window (-0.01, -0.005) to (-0.006, -0.005); click to show its children")
    assert page.text_content("g.node[data-label='2 3 1'] > title") == (
        "2 3 1 (min): value -0.014, window (-0.01, -0.014); the table's upper bound -0.014 "
        "closes its window (-0.01, -0.005): cut by the table, unsearched")
    log = page.inner_text("#log").splitlines()
    assert any(line.startswith("2 5 1 (min) returns -0.006, window (-0.006, -0.005); the "
                               "table's lower bound -0.006 narrowed its window") for line in log)
    page.click("g.node[data-label='2 5 1']")
    screenshot(page, "explain-connect4-table")


def test_a_tree_read_from_a_file_and_a_large_one_opened_lazily(page: Any, url: str) -> None:
    """A tree file chosen in the page is read there and explained (AIMA figure 5.2 from
    docs/examples); a pasted tree over 200 nodes opens node by node like a game's."""
    from pathlib import Path

    page.goto(url + "/explain")
    page.set_input_files("#tree-file", str(Path(__file__).parent.parent / "docs" / "examples"
                                           / "fig52.txt"))
    page.wait_for_selector("#drawing svg")
    page.keyboard.press("End")
    assert page.inner_text("#summary") == (
        "alpha-beta: the value of A is 3, best move B; 11 nodes examined.")
    assert len(labels(page, "g.node")) == 13  # small: drawn whole

    def tree(depth: int, seed: int) -> str:  # branching 3: 364 nodes at depth 5
        if depth == 0:
            return str(seed * 7 % 10)
        return "[" + " ".join(tree(depth - 1, seed * 3 + k) for k in range(3)) + "]"

    page.fill("#tree-text", tree(5, 1))
    page.click("button[type=submit]")
    page.wait_for_function("document.querySelector('#step').textContent.startsWith('step 0')")
    assert len(labels(page, "g.node")) == 4  # the root and its three children
    for _ in range(6):  # five nodes entered, each opening, then the first leaf returns
        page.click("#next")
    assert len(labels(page, "g.node")) == 1 + 3 * 5
    assert labels(page, "g.node.current") == ["root.1.1.1.1.1"]


def test_minimax_and_alphabeta_side_by_side(page: Any, url: str) -> None:
    """AIMA figure 5.2 with both searches drawn next to each other and stepped together:
    alpha-beta is done after 15 steps (11 nodes returning, 4 entered) while minimax goes
    on to 17, pruning nothing."""
    page.goto(url + "/explain")
    page.select_option("#compare", "minimax")
    page.click("#example")
    page.wait_for_selector("#drawing2 svg")
    assert page.inner_text("#step") == "step 0 of 17"
    assert len(labels(page, "#drawing g.node")) == len(labels(page, "#drawing2 g.node")) == 13
    for _ in range(9):
        page.click("#next")
    assert labels(page, "#drawing g.node.current") == ["C"]
    assert labels(page, "#drawing2 g.node.current") == ["C.2"]  # minimax looks at C.2
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    assert page.inner_text("#caption1") == (
        "alpha-beta: the value of A is 3, best move B; 11 nodes examined.")
    assert page.inner_text("#caption2") == "minimax: D.3 (leaf) returns 2"
    page.click("#end")
    assert page.inner_text("#step") == "step 17 of 17"
    assert page.inner_text("#caption2") == (
        "minimax: the value of A is 3, best move B; 13 nodes examined.")
    assert labels(page, "#drawing g.node.pruned") == ["C.2", "C.3"]
    assert labels(page, "#drawing2 g.node.pruned") == []
    assert len(page.inner_text("#log").splitlines()) == 15  # the log is the first search's
    screenshot(page, "explain-side-by-side")
    page.select_option("#compare", "")
    page.click("button[type=submit]")
    page.wait_for_function("document.querySelector('#pane2').hidden")
    assert page.inner_text("#step") == "step 0 of 15"


def test_mcts_stepped_simulation_by_simulation(page: Any, url: str) -> None:
    """AIMA figure 5.2 under MCTS, seed 1 (worked by hand in test_mcts): the tree grows a
    node a simulation; each step shows the path UCB1 selected, the node added, the
    playout, the back-propagated statistics and the root's moves with their UCT terms."""
    page.goto(url + "/explain")
    page.select_option("#algorithm", "mcts")
    assert page.is_visible("#mcts-fields")
    page.fill("#seed", "1")
    page.click("#example")
    page.wait_for_selector("#drawing svg")
    assert page.inner_text("#step") == "step 0 of 10"
    assert page.inner_text("#counts tbody").split() == ["MCTS", "(shown)", "10", "11", "2"]
    assert labels(page, "g.node") == ["A"]
    page.click("#next")
    assert labels(page, "g.node") == ["A", "B"]
    assert page.inner_text("#summary") == (
        "MCTS: simulation 1: the root has untried moves; expands B; plays out B.1: 3; "
        "back-propagates reward 0.083 for Max up 2 nodes")
    assert page.text_content("g.node[data-label='B'] text.value") == "0.1/1"
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.inner_text("#sim-title") == "Simulation 4 of 10"
    steps = page.inner_text("#simulation").splitlines()
    assert steps == [
        "Selection by UCB1: at A, B 0.083 + 1.478 = 1.561, C 0.333 + 1.478 = 1.811, "
        "D 1.000 + 1.478 = 2.478 chosen.",
        "Expansion: D.1 is added to the tree.",
        "Playout: none; its value 14 counts.",
        "Back-propagation of reward 1.000 (Max's; Min's is 1 minus it): D.1 0/1 proven 14, "
        "D 2/2, A 1.6/4."]
    assert labels(page, "g.node.path") == ["A", "D", "D.1"]
    assert labels(page, "g.node.new") == ["D.1"]
    assert page.inner_text("#root-moves tbody").splitlines()[2].split() == [
        "D", "2", "14", "1.000", "1.174", "2.174"]  # 1.41 sqrt(ln 4 / 2)
    screenshot(page, "explain-mcts-step4")
    page.click("#end")
    assert page.inner_text("#summary") == (
        "MCTS: the value of A is 3, best move B; 10 simulations.")
    assert len(labels(page, "g.node.proven")) == 11
    assert page.text_content("g.node[data-label='A'] text.proof") == "= 3"
    assert len(page.inner_text("#log").splitlines()) == 10
    screenshot(page, "explain-mcts-end")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: nothing overflows
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "explain-mcts-phone")


def test_alphabeta_and_mcts_compared_on_a_position(page: Any, url: str) -> None:
    """Tic-tac-toe after 1 5 9 3: alpha-beta to depth 4 and MCTS (seed 1) side by side,
    the table comparing their moves, values and effort."""
    page.goto(url + "/explain")
    page.select_option("#kind", "game")
    page.wait_for_selector("#game option[value='tictactoe']", state="attached")
    page.select_option("#game", "tictactoe")
    page.fill("#moves", "1 5 9 3")
    page.select_option("#depth", "4")
    page.select_option("#compare", "mcts")
    page.fill("#simulations", "100")
    page.click("button[type=submit]")
    page.wait_for_selector("#drawing2 svg")
    rows = [r.split("\t") for r in page.inner_text("#compare-table tbody").splitlines()]
    assert [r[:4] for r in rows] == [
        ["alpha-beta", "7", "+1 (X wins, proven)", "70 nodes examined"],
        ["MCTS", "7", "+1 (X wins, proven)", "30 simulations"]]
    assert rows[1][4].startswith("a tree of 31 nodes 3 deep")
    page.keyboard.press("End")
    assert page.inner_text("#caption2") == (
        "MCTS: the value of the position is +1 (X wins, proven), best move 7; 30 simulations.")
    screenshot(page, "explain-alphabeta-vs-mcts")


def test_no_table_hits_are_explained_on_the_page(page: Any, url: str) -> None:
    page.goto(url + "/explain")
    page.select_option("#kind", "game")
    page.wait_for_selector("#game option[value='tictactoe']", state="attached")
    page.select_option("#game", "tictactoe")
    page.fill("#moves", "1 5")
    page.select_option("#depth", "2")
    page.check("#table")
    page.click("button[type=submit]")
    page.wait_for_selector("#drawing svg")
    assert page.is_visible("#table-note")
    assert page.inner_text("#table-note").startswith(
        "No table hits: within 2 plies from here no inner node is reached twice")
    assert page.inner_text("#table-note").endswith("At depth 4 this position has 16: try it.")
    page.select_option("#depth", "4")
    page.click("button[type=submit]")
    page.wait_for_function("document.querySelector('#table-note').hidden")


@pytest.fixture(scope="module")
def network(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A tic-tac-toe AlphaZero network (two games of a tiny run) watched by the server,
    which offers it as a player; the server's URL and the network's path."""
    pytest.importorskip("numpy")
    from browser import live_server

    from zerosum.web.app import create_app

    out = tiny_network(tmp_path_factory.mktemp("net"))
    with live_server(create_app(train=str(out))) as base:
        yield base, out


def test_a_learned_networks_puct_stepped_in_the_mcts_view(page: Any, network: Any) -> None:
    """Tic-tac-toe after 1 4 2 5 (X wins at 3), 30 simulations of the network's PUCT: the
    tree and the root's moves as the learner's own search traced them, each node with its
    visits inside and the prior of the move into it and its Q above."""
    from zerosum.search.mcts import Simulation

    base, path = network
    learner, game, state = learner_after(path, ("1", "4", "2", "5"))
    sims: list[Simulation] = []
    root = learner.search(state, 30, noise=False, tracer=sims.append)

    page.goto(base + "/explain")
    assert not page.is_visible("#guide-field")  # a textbook tree: no network to guide it
    page.select_option("#kind", "game")
    page.wait_for_selector("#game option[value='tictactoe']", state="attached")
    page.select_option("#game", "tictactoe")
    page.fill("#moves", "1 4 2 5")
    page.select_option("#algorithm", "mcts")
    assert page.is_visible("#guide-field")
    page.select_option("#guide", f"learned:{path}")
    page.fill("#simulations", "30")
    page.click("button[type=submit]")
    page.wait_for_selector("#drawing svg")
    assert page.inner_text("#step") == "step 0 of 30"
    assert page.inner_text("#counts tbody").split()[:3] == ["PUCT", "(shown)", "30"]
    assert page.is_visible("#puct-panel-legend") and not page.is_visible("#mcts-panel-legend")
    page.click("#next")
    first = sims[0]
    chosen = next(o for o in first.selected[0].options if o.action == first.selected[0].chosen)
    move = game.format_move(chosen.action)
    assert page.inner_text("#summary").startswith(
        f"PUCT: simulation 1: selects {move} (P {chosen.prior:.3f}, "
        f"{chosen.uct_exploit + chosen.uct_explore:.3f}); expands {move}; ")
    assert labels(page, "g.node") == ["start", move]
    assert page.text_content(f"g.node[data-label='{move}'] text.value") == "1"
    q = 2 * first.updates[0].reward - 1
    prior = f"{chosen.prior:.2f}".lstrip("0")
    assert page.text_content(f"g.node[data-label='{move}'] text.prior") == (
        f"P {prior} Q {'+' if q >= 0 else ''}{q:.2f}".replace("0.", ".", 1))
    steps = page.inner_text("#simulation").splitlines()
    assert steps[0].startswith("Selection by PUCT: at start, 3 ")
    assert steps[2].startswith("Evaluation (no playout): ")
    page.click("#end")
    assert page.text_content("g.node[data-label='start'] text.value") == "30"
    rows = [r.split("\t") for r in page.inner_text("#root-moves tbody").splitlines()]
    assert [(r[0], r[1], int(r[2])) for r in rows] == [
        (game.format_move(a), f"{p:.3f}", n)
        for a, p, n in zip(root.actions, root.priors, root.visits, strict=True)]
    assert rows[0][0] == "3" and rows[0][7] == "+1"  # X wins there: the game's end
    assert page.text_content("g.node[data-label='3'] text.prior").endswith("Q +1.00")
    screenshot(page, "explain-puct-end")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: nothing overflows
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "explain-puct-phone")
