"""Checkers: rules on hand-made positions, perft against the published counts, notation,
draw rules, the exact 4x4 solution, the engine, and the zerosum commands."""

from __future__ import annotations

import io
import random
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import replace

import pytest

from zerosum.cli import main as zerosum_main
from zerosum.game import InputError
from zerosum.games.checkers import Checkers, State
from zerosum.games.checkers import notation as nt
from zerosum.games.checkers.board import board, generate, zobrist_hash
from zerosum.games.checkers.engine import WIN, CheckersKernel, Memory
from zerosum.games.checkers.evaluation import score
from zerosum.games.checkers.solve import best_moves, solve
from zerosum.games.registry import get_game, kernel_of
from zerosum.kernel import ALL, Enhancements, Verdict
from zerosum.players.agents import EngineAgent
from zerosum.players.spec import agent_from_spec
from zerosum.result import Limit, SearchResult
from zerosum.search import TranspositionTable, alphabeta_search
from zerosum.search.driver import analyse_with, deepen, stop_for
from zerosum.stop import Stop

# Published English-checkers perft from the 8x8 start (paths counted separately).
ENGLISH_PERFT = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564]
# Derived with this generator under the maximum-capture rule (equal to English up to 5).
MAX_PERFT = [7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860875, 17762771]


def engine(game: Checkers, state: State, limit: Limit,
           enhancements: Enhancements = ALL, stop: Stop | None = None) -> SearchResult:
    """The engine with a memory of its own (a fresh table), as the driver runs it."""
    stop = stop_for(limit, stop)
    kernel = CheckersKernel(game, state, stop, enhancements, Memory())
    return deepen(kernel, limit, stop, enhancements=enhancements)


def position(game: Checkers, black: str, white: str, black_to_move: bool = True) -> State:
    """A state from course square names; `K` before a square makes it a king."""
    b = game.board

    def side(text: str) -> list[str]:
        out = []
        for item in text.split():
            king = item.upper().startswith("K")
            sq = nt.parse_square(b, item[1:] if king else item)
            out.append(("K" if king else "") + str(b.number[sq]))
        return out

    fen = f"{'B' if black_to_move else 'W'}:W{','.join(side(white))}:B{','.join(side(black))}"
    return game.from_fen(fen)


def moves(game: Checkers, state: State) -> list[str]:
    return [game.format_move(a) for a in game.actions(state)]


# --- the rules on hand-made positions -------------------------------------------------


def test_start_positions() -> None:
    g4 = Checkers(4)
    s = g4.initial_state()
    assert g4.to_fen(s) == "B:W7,8:B1,2"
    assert [g4.piece_at(s, g4.board.bit(*rc)) for rc in ((0, 1), (0, 3), (3, 0), (3, 2))] == [
        "b", "b", "w", "w"]
    assert moves(g4, s) == ["A2-B1", "A4-B3", "A2-B3"]
    g8 = Checkers(8)
    s8 = g8.initial_state()
    assert g8.to_fen(s8) == "B:W" + ",".join(map(str, range(21, 33))) + ":B" + ",".join(
        map(str, range(1, 13)))
    assert sorted(g8.format_pdn(a) for a in g8.actions(s8)) == [
        "10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]


def test_long_jump_beside_short_one() -> None:
    for rule, expected in (("english", ["B3xD5xF7", "B3xD1"]), ("max", ["B3xD5xF7"])):
        g = Checkers(8, rule)
        s = position(g, "B3", "C2 C4 E6")
        assert sorted(moves(g, s)) == sorted(expected)


def test_king_loop_counts_each_order_and_max_rule_drops_short_capture() -> None:
    loop = ["D3xB5xD7xF5xD3", "D3xF5xD7xB5xD3"]
    g = Checkers(8, "english")
    s = position(g, "KD3 E8", "C4 C6 E4 E6 F7")
    assert sorted(moves(g, s)) == sorted([*loop, "E8xG6"])
    gm = Checkers(8, "max")
    assert sorted(moves(gm, position(gm, "KD3 E8", "C4 C6 E4 E6 F7"))) == loop
    after = g.result(s, next(a for a in g.actions(s) if g.format_move(a) == loop[0]))
    assert [g.piece_at(after, nt.parse_square(g.board, sq)) for sq in
            ("D3", "E8", "C4", "C6", "E4", "E6", "F7")] == ["B", "b", "", "", "", "", "w"]


def test_crowning_ends_the_move() -> None:
    for rule in ("english", "max"):
        g = Checkers(8, rule)
        s = position(g, "F3", "G4 G6 B1")
        assert moves(g, s) == ["F3xH5"]  # as a king it could go on over G6: it may not
        after = g.result(s, g.actions(s)[0])
        assert g.piece_at(after, nt.parse_square(g.board, "H5")) == "B"
        assert g.piece_at(after, nt.parse_square(g.board, "G6")) == "w"


def test_white_men_move_up_kings_both_ways_and_captures_are_mandatory() -> None:
    g = Checkers(8)
    s = position(g, "A2", "F3 KD5", black_to_move=False)
    assert sorted(moves(g, s)) == sorted(["F3-E2", "F3-E4", "D5-C4", "D5-C6", "D5-E4",
                                          "D5-E6"])
    assert moves(g, position(g, "E4 A2", "KD5 H1", black_to_move=False)) == ["D5xF3"]
    assert moves(g, position(g, "E4 A2", "F5 H1", black_to_move=False)) == ["F5xD3"]
    # A man does not capture backwards.
    assert sorted(moves(g, position(g, "G4 A2", "F5 H1", black_to_move=False))) == [
        "F5-E4", "F5-E6", "H1-G2"]


def test_side_without_moves_loses() -> None:
    g = Checkers(8)
    s = position(g, "A2", "B1 B3 C4", black_to_move=True)  # A2 blocked, no capture
    assert g.is_terminal(s) and g.utility(s) == -1.0 and g.winner(s) == "White"
    s = position(g, "A2", "", black_to_move=False)
    assert g.is_terminal(s) and g.utility(s) == 1.0


# --- perft -------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", range(1, 8))
def test_perft_english_matches_published(depth: int) -> None:
    g = Checkers(8, "english")
    assert g.perft(g.initial_state(), depth) == ENGLISH_PERFT[depth - 1]


@pytest.mark.parametrize("depth", range(1, 8))
def test_perft_max_rule(depth: int) -> None:
    g = Checkers(8, "max")
    assert g.perft(g.initial_state(), depth) == MAX_PERFT[depth - 1]


@pytest.mark.slow
def test_perft_depth_8_and_9() -> None:
    g = Checkers(8, "english")
    assert g.perft(g.initial_state(), 8) == ENGLISH_PERFT[7]
    assert g.perft(g.initial_state(), 9) == ENGLISH_PERFT[8]
    assert Checkers(8, "max").perft(Checkers(8).initial_state(), 8) == MAX_PERFT[7]


def test_perft_command_output() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        status = zerosum_main(["perft", "checkers", "--depth", "6", "--capture", "max"])
    assert status == 0
    counts = [int(line.split()[1].replace(",", "")) for line in out.getvalue().splitlines()[2:]]
    assert counts == MAX_PERFT[:6]
    out = io.StringIO()
    with redirect_stdout(out):
        zerosum_main(["perft", "checkers", "--depth", "3", "--fen", "B:W21-32:B1-12",
                      "--divide"])
    text = out.getvalue()
    assert "    3            302" in text and "  C2-D1 " in text


def test_perft_command_through_the_protocol_for_other_games() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        zerosum_main(["perft", "tictactoe", "--depth", "3"])
    assert [line.split()[1] for line in out.getvalue().splitlines()[2:]] == ["9", "72", "504"]


@pytest.mark.parametrize("fen, message", [
    ("B:W21,22:B1,99", "no square 99"),
    ("X:W21:B1", "not a PDN FEN"),
    ("B:W21,21:B1", "given twice"),
    ("B:W1:B2", "crowning row"),
])
def test_perft_command_bad_position(fen: str, message: str) -> None:
    err = io.StringIO()
    with redirect_stderr(err):
        status = zerosum_main(["perft", "checkers", "--depth", "1", "--fen", fen])
    assert status == 2
    assert message in err.getvalue() and err.getvalue().count("\n") == 1


# --- notation ---------------------------------------------------------------------------


def test_pdn_squares_are_the_course_squares() -> None:
    b = board(8)
    names = {n: nt.square_name(b, b.squares[n - 1]) for n in (1, 4, 5, 9, 29, 32)}
    assert names == {1: "A2", 4: "A8", 5: "B1", 9: "C2", 29: "H1", 32: "H7"}
    for n in range(1, 33):
        assert b.number[nt.parse_square(b, nt.square_name(b, b.squares[n - 1]))] == n


def test_fen_round_trip_and_ranges() -> None:
    g = Checkers(8)
    s = g.from_fen("B:W21,22,K30:B1,2,K3")
    assert g.to_fen(s) == "B:W21,22,K30:B1,2,K3"
    assert g.from_fen('"B:W21-32:B1-12."') == g.initial_state()
    rng = random.Random(3)
    for _ in range(20):  # random games: every position survives writing and reading
        s = g.initial_state()
        for _ in range(rng.randrange(40)):
            if g.is_terminal(s):
                break
            s = g.result(s, rng.choice(g.actions(s)))
        back = g.from_fen(g.to_fen(s))
        assert back[:4] == s[:4]


def test_move_input_both_notations() -> None:
    g = Checkers(8)
    s = g.initial_state()
    assert g.parse_move(s, "c2-d1") == g.parse_move(s, "9-13") == g.parse_move(s, "b:C2-D1")
    assert g.format_pdn(g.parse_move(s, " 11 - 15 ")) == "11-15"
    assert g.describe_move(s, g.parse_move(s, "9-14")) == "b:C2-D3"
    for text, message in (("c2-d5", "not a legal move"), ("c1-d2", "light square"),
                          ("z9-a1", "not a square"), ("hello", "not a move"),
                          ("40-44", "no square 40")):
        with pytest.raises(InputError, match=message):
            g.parse_move(s, text)


def test_capture_by_first_and_last_square_and_ambiguity() -> None:
    g = Checkers(8)
    s = position(g, "KD3 E8", "C4 C6 E4 E6 F7")
    with pytest.raises(InputError, match="ambiguous"):
        g.parse_move(s, "D3xD3")
    assert g.format_move(g.parse_move(s, "d3xf5xd7xb5xd3")) == "D3xF5xD7xB5xD3"
    assert g.describe_move(s, g.parse_move(s, "e8xg6")) == "b:E8xG6"
    assert g.describe_move(s, g.parse_move(s, "D3xF5xD7xB5xD3")) == "B:D3xF5xD7xB5xD3"


def test_render() -> None:
    g = Checkers(4)
    assert g.render(g.initial_state()) == "\n".join([
        "     1   2   3   4",
        "   +---+---+---+---+",
        " A |   | b |   | b |",
        "   +---+---+---+---+",
        " B |   |   |   |   |",
        "   +---+---+---+---+",
        " C |   |   |   |   |",
        "   +---+---+---+---+",
        " D | w |   | w |   |",
        "   +---+---+---+---+",
        "Next to play: BLACK",
    ])


# --- draw rules ------------------------------------------------------------------------


def play(g: Checkers, s: State, *texts: str) -> State:
    for t in texts:
        s = g.result(s, g.parse_move(s, t))
    return s


def test_course_move_limit() -> None:
    g = Checkers(4, moves=2)
    s = g.initial_state()
    for _ in range(3):
        s = g.result(s, g.actions(s)[0])
    assert not g.is_terminal(s) and g.draw_reason(s) is None
    s = g.result(s, g.actions(s)[0])
    assert s.ply == 4 and g.is_terminal(s) and g.utility(s) == 0.0
    assert g.draw_reason(s) == "2 moves by each side without a winner"
    assert Checkers(4, moves=0).ply_limit == 0


def test_tournament_repetition_and_forty_moves() -> None:
    g = Checkers(8, draw="tournament")
    s = position(g, "KA8", "KH1")
    shuffle = ("A8-B7", "H1-G2", "B7-A8", "G2-H1")
    s = play(g, s, *shuffle)
    assert g.draw_reason(s) is None  # second occurrence
    s = play(g, s, *shuffle)
    assert g.draw_reason(s) == "the same position occurred three times"
    assert g.is_terminal(s) and g.utility(s) == 0.0
    # Course rule: repetition is no draw.
    c = Checkers(8)
    assert c.draw_reason(play(c, position(c, "KA8", "KH1"), *shuffle, *shuffle)) is None
    # 40 moves each without capture or man move.
    s = State(*position(g, "KA8", "KH1")[:4], quiet=79, history=(1,))
    assert g.draw_reason(s) is None
    s = g.result(s, g.parse_move(s, "A8-B7"))
    assert g.draw_reason(s) == "40 moves by each side without a capture or a man move"


# --- the exact 4x4 solution --------------------------------------------------------------


FIRST_MOVES_4X4 = {"A2-B1": -1.0, "A4-B3": 0.0, "A2-B3": 0.0}


@pytest.mark.parametrize("rule", ["english", "max"])
def test_4x4_value_of_every_first_move(rule: str) -> None:
    """Full-depth alpha-beta with a table (the draw counter in the key) and the
    retrograde solver agree: a draw; A2-B1 loses (White wins in 5 more plies)."""
    g = Checkers(4, rule)
    s = g.initial_state()
    table = TranspositionTable()
    values = {g.format_move(a): alphabeta_search(g, g.result(s, a), None, table=table,
                                                 order=True).value for a in g.actions(s)}
    assert values == FIRST_MOVES_4X4
    assert alphabeta_search(g, s, None, table=table).value == 0.0
    root = (s.black, s.white, s.kings, True)
    sol = solve(g.board, root, g.max_capture)
    assert len(sol.table) == 2409
    assert sol.table[root] == (0, 0)
    exact = {g.format_move(p): float(v) for p, v in best_moves(sol, root, g.ply_limit)}
    assert exact == FIRST_MOVES_4X4
    assert sol.distance(dict(sol.moves[root])[g.parse_move(s, "A2-B1")]) == 5


def test_4x4_engine_plays_perfectly() -> None:
    g = Checkers(4, "max")
    s = g.initial_state()
    r = analyse_with(kernel_of("checkers"), g, s, Limit(seconds=0.1))
    assert r.value == 0.0 and r.decided and r.plies is None and r.depth is None
    assert g.format_move(r.action) != "A2-B1" and r.stats.nodes == 2409
    out = io.StringIO()
    with redirect_stdout(out):  # the engine against itself: perfect play draws
        zerosum_main(["play", "checkers", "--size", "4", "--opponent", "engine", "--side",
                      "none", "--capture", "max"])
    assert "Game over. Draw: 50 moves by each side without a winner." in out.getvalue()
    # A lost position: the slowest loss, and the plies to it.
    r = analyse_with(kernel_of("checkers"), g, g.result(g.initial_state(), g.parse_move(
        g.initial_state(), "A2-B1")), Limit(seconds=0.1))
    assert (r.value, r.decided, r.plies) == (-1.0, True, 5)


SEARCHING = replace(ALL, solution=False)


def test_4x4_engine_searches_with_the_solution_off() -> None:
    """`off=solution`: the engine searches 4x4 as any board, by its evaluation (what a
    grade of its weights needs): a depth-3 search prefers A2-B3, not the solution's
    A4-B3 (both draw), and proves the loss after A2-B1 only by searching."""
    g = Checkers(4, "max")
    s = g.initial_state()
    found = {}
    for depth in (1, 2, 3):
        r = analyse_with(kernel_of("checkers"), g, s, Limit(depth=depth),
                         enhancements=SEARCHING)
        found[depth] = (g.format_move(r.action), round(r.value, 6), r.decided, r.depth,
                        r.stats.nodes)
    assert found == {1: ("A4-B3", -0.002991, False, 1, 5),
                     2: ("A4-B3", 0.001996, False, 2, 19),
                     3: ("A2-B3", -0.005964, False, 3, 54)}
    lost = g.result(s, g.parse_move(s, "A2-B1"))
    r = analyse_with(kernel_of("checkers"), g, lost, Limit(depth=3), enhancements=SEARCHING)
    assert (g.format_move(r.action), r.value, r.decided, r.depth, r.stats.nodes) == \
        ("D1-C2", -1.0, True, 2, 18)
    player = agent_from_spec(get_game("checkers"), "engine:depth=2,off=solution")
    assert isinstance(player, EngineAgent)
    fresh = Checkers(4, "max")  # the engine keeps its table per game object
    r = player.analyse(fresh, fresh.initial_state())
    assert (g.format_move(r.action), r.decided, r.stats.nodes) == ("A4-B3", False, 19)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err), pytest.raises(SystemExit) as exit:
        zerosum_main(["analyse", "checkers", "--size", "4", "--player", "engine", "--depth",
                      "2", "--off", "exact"])
    assert exit.value.code == 2
    assert "no enhancement 'exact'" in err.getvalue() and "solution" in err.getvalue()


# --- the engine -------------------------------------------------------------------------


def test_incremental_hash_matches_full_hash() -> None:
    from zerosum.games.checkers.board import apply, hash_after

    b = board(8)
    rng = random.Random(7)
    for _ in range(10):
        black, white, kings, btm = b.black_start, b.white_start, 0, True
        h = zobrist_hash(b, black, white, kings, btm)
        for _ in range(80):
            ms = generate(b, black, white, kings, btm, False)
            if not ms:
                break
            m = rng.choice(ms)
            nb, nw, nk = apply(b, black, white, kings, btm, m)
            h = hash_after(b, h, black, white, kings, btm, m, nk)
            black, white, kings, btm = nb, nw, nk, not btm
            assert h == zobrist_hash(b, black, white, kings, btm)


def test_evaluation_is_antisymmetric() -> None:
    """Turning the board round and swapping colours negates the score."""
    b = board(8)
    g = Checkers(8)

    def flip(x: int) -> int:
        out = 0
        for sq in b.squares:
            if x >> sq & 1:
                r, c = b.row_col(sq)
                out |= 1 << b.bit(7 - r, 7 - c)
        return out

    assert score(b, b.black_start, b.white_start, 0) == 0
    rng = random.Random(11)
    s = g.initial_state()
    for _ in range(60):
        if g.is_terminal(s):
            break
        s = g.result(s, rng.choice(g.actions(s)))
        assert score(b, s.black, s.white, s.kings) == -score(b, flip(s.white), flip(s.black),
                                                              flip(s.kings))


# The old engine (before the one driver) examined 639, 916, 1097, 1012, 1201, 1240: it
# counted the root in each of the four passes (3 more each), and had no aspiration
# windows (which save 10 nodes in the fourth position).
NODES_DEPTH_4 = [636, 913, 1094, 999, 1198, 1237]


def test_engine_plays_a_win_in_one_at_once() -> None:
    g = Checkers(8)
    r = engine(g, position(g, "C4", "D3"), Limit(depth=4))
    assert g.format_move(r.action) == "C4xE2" and r.stats.nodes == 1
    assert (r.value, r.decided, r.plies, r.depth) == (1.0, True, 1, None)
    # F1-G2 shuts the white king in its corner: G2 is guarded by the king on F3.
    r = engine(g, position(g, "KF1 KF3", "KH1"), Limit(depth=4))
    assert g.format_move(r.action) == "F1-G2" and (r.value, r.plies) == (1.0, 1)


def test_engine_plays_a_single_legal_move_after_a_short_look() -> None:
    g = Checkers(8)
    r = engine(g, position(g, "C4 A2", "D3 H7"), Limit(seconds=60.0))  # the capture is forced
    # An estimate from a look 4 plies deep: depth 4, never "depth end" (to the end).
    assert g.format_move(r.action) == "C4xE2" and r.depth == 4 and r.stats.nodes == 46
    assert not r.decided and r.value == pytest.approx(0.1568296796, abs=1e-10)


def test_the_search_itself_scores_a_win_in_one_highest() -> None:
    g = Checkers(8)
    s = position(g, "KF1 KF3", "KH1")
    kernel = CheckersKernel(g, s, Stop(), ALL, Memory())
    values = {g.format_move(kernel.action(m)): kernel.search_move(m, 4, -WIN, WIN)
              for m in kernel.start_pass(4)}
    assert values["F1-G2"] == WIN - 1 and max(values.values()) == WIN - 1
    assert sorted(values.values())[-2] < WIN - 1
    assert kernel.verdict(WIN - 1) == Verdict(1.0, True, 1)
    assert kernel.verdict(-(WIN - 6)) == Verdict(-1.0, True, 6)


def test_engine_never_delays_a_forced_win() -> None:
    """Three kings against one: Black wins in 7 plies; each side's engine (the winner
    hurrying, the loser delaying) plays it out in exactly that many."""
    g = Checkers(8)
    s = position(g, "KE2 KC4", "KA6")
    expected = [(1.0, 7), (1.0, 6), (1.0, 5), (1.0, 4), (1.0, 3), (1.0, 2), (1.0, 1)]
    seen = []
    while not g.is_terminal(s):
        r = engine(g, s, Limit(depth=10))
        seen.append((r.value, r.plies))
        assert r.decided
        s = g.result(s, r.action)
    assert seen == expected and g.utility(s) == 1.0


def test_engine_depth_limited_is_deterministic_and_legal() -> None:
    g = Checkers(8)
    s = g.initial_state()
    nodes = []
    for _ in range(6):
        r1 = engine(g, s, Limit(depth=4))
        r2 = engine(g, s, Limit(depth=4))
        assert r1.action == r2.action and r1.stats.nodes == r2.stats.nodes > 0
        assert r1.action in g.actions(s) and r1.depth == 4 and not r1.decided
        nodes.append(r1.stats.nodes)
        s = g.result(s, r1.action)
    assert nodes == NODES_DEPTH_4


def test_generic_search_on_8x8_uses_capture_aware_cutoff() -> None:
    g = Checkers(8)
    s = position(g, "C4", "D3 F3", black_to_move=True)  # black must take D3
    assert g.cutoff_test(s, 3, 3) is False  # a capture is pending: search goes on
    s2 = g.initial_state()
    assert g.cutoff_test(s2, 3, 3) is True
    r = alphabeta_search(g, s2, 3, order=True)
    assert r.action in g.actions(s2) and r.complete and not r.decided


def test_registry_options() -> None:
    from zerosum.games.registry import get_game

    spec = get_game("checkers")
    game = spec.create(size=4, capture="max")
    assert isinstance(game, Checkers) and game.board.n == 4 and game.max_capture
    assert spec.kernel is not None and spec.solver is None
    with pytest.raises(InputError, match="capture rule"):
        Checkers(8, "russian")


@pytest.mark.parametrize("size, men, first_moves", [(4, 2, 3), (6, 6, 5), (10, 20, 9),
                                                    (12, 30, 11)])
def test_other_board_sizes(size: int, men: int, first_moves: int) -> None:
    g = Checkers(size)
    s = g.initial_state()
    assert s.black.bit_count() == s.white.bit_count() == men
    assert len(g.actions(s)) == first_moves
    # The two sides are mirror images, so white's replies to any first move number as
    # black's first moves (nothing touches yet on these boards, except on 4x4).
    if size > 4:
        assert all(len(g.actions(g.result(s, a))) == first_moves for a in g.actions(s))
    corner = nt.square_name(g.board, g.board.squares[-1])
    assert corner == f"{nt.ROWS[size - 1]}{size - 1}"
    assert g.from_fen(g.to_fen(s)) == s
    with pytest.raises(InputError, match="board size"):
        Checkers(7)


class PlainCutoff(Checkers):
    """Checkers whose generic search stops at the depth limit even with a capture
    pending: what the engine does with quiescence off."""

    def cutoff_test(self, state: State, depth: int, limit: int) -> bool:
        return depth >= limit


MIDDLE_GAME = "W:W21,22,23,25,26,30,31,32:B1,2,3,4,5,10,11,15,28"


@pytest.mark.parametrize("switch", [n for n in Enhancements.names() if n != "solution"])
def test_each_enhancement_switches_off_on_its_own(switch: str) -> None:
    """Off, each one changes the work (but `solution`, read on 4x4 only); the ones that
    only speed alpha-beta up (without the table, whose deeper entries may change a
    value) leave its value as it is."""
    g = Checkers(8)
    s = g.from_fen(MIDDLE_GAME)
    off = Enhancements(**{switch: False})
    r_on, r_off = engine(g, s, Limit(depth=5)), engine(g, s, Limit(depth=5), off)
    assert r_off.stats.nodes != r_on.stats.nodes and r_off.action in g.actions(s)
    if switch not in ("table", "quiescence"):
        without = Enhancements(table=False)
        assert engine(g, s, Limit(depth=5), replace(off, table=False)).value \
            == engine(g, s, Limit(depth=5), without).value


class OnePass(CheckersKernel):
    """The engine's kernel searching only the last pass (no iterative deepening)."""

    last = 1

    def depths(self) -> list[int]:
        return [self.last]


def test_engine_with_nothing_on_is_plain_alpha_beta() -> None:
    """All enhancements off, one pass of the engine is the textbook alpha-beta (stopping
    at the depth limit even with a capture pending): the same nodes, the same value."""
    g, plain = Checkers(8), PlainCutoff(8)
    s = g.from_fen(MIDDLE_GAME)
    none = Enhancements.none()
    for depth, nodes in zip(range(1, 6), [8, 36, 163, 777, 2575], strict=True):
        limit = Limit(depth=depth)
        stop = stop_for(limit)
        kernel = OnePass(g, s, stop, none, Memory())
        kernel.last = depth
        bare = deepen(kernel, limit, stop, enhancements=none)
        generic = alphabeta_search(plain, s, depth)
        assert bare.stats.nodes == generic.stats.nodes == nodes
        assert bare.value == pytest.approx(generic.value, abs=1e-12) and not bare.decided


def test_engine_time_is_measured_by_its_stops_clock() -> None:
    # Each reading of this clock is a second later: when the first pass ends, the 0.5 s
    # are over, and no other pass starts.
    g = Checkers(8)
    readings = iter(range(10**6))
    stop = Stop(clock=lambda: float(next(readings)))
    r = analyse_with(kernel_of("checkers"), g, g.initial_state(), Limit(seconds=0.5), stop=stop)
    assert r.depth == 1 and r.action in g.actions(g.initial_state())
