"""Max-Connect4: the file format, scoring, the evaluation, the engine and the program."""

from __future__ import annotations

import io
import math
import random
import re
from pathlib import Path

import pytest

from zerosum.frontends.uta_maxconnect4 import main, outcome
from zerosum.game import InputError
from zerosum.games.maxconnect4 import (
    BOARD,
    CELLS,
    EVEN_ROWS,
    ODD_ROWS,
    OPEN_ONE,
    OPEN_TWO,
    QUADRUPLES,
    THREAT_NOW,
    THREAT_OTHER_ROW,
    THREAT_OWN_ROW,
    MaxConnect4,
    Position,
    count_points,
    format_board,
    framed,
    parse_board,
    play,
    playable_cells,
    potential,
)
from zerosum.games.maxconnect4.engine import MaxConnect4Kernel
from zerosum.games.registry import get_game, kernel_of
from zerosum.kernel import ALL, Enhancements, bound_memory, kept_entries
from zerosum.result import Limit, SearchResult
from zerosum.search import minimax_search
from zerosum.search.driver import analyse_with
from zerosum.stop import Stop

GAME = MaxConnect4()
EMPTY_ROW = "0000000"


def board(*rows: str, next_player: int = 1) -> Position:
    """A position from its lowest rows, given top first as in the file (above: empty)."""
    lines = [EMPTY_ROW] * (6 - len(rows)) + list(rows)
    return parse_board("\n".join([*lines, str(next_player)]), counts=False)


def search(pos: Position, depth: int, game: MaxConnect4 | None = None,
           enhancements: Enhancements = ALL) -> SearchResult:
    """The engine's fixed-depth search (the assignment's), with a fresh table unless
    `game`, a game object, keeps one (kernel.memory_of)."""
    return analyse_with(kernel_of("maxconnect4"), game or MaxConnect4(), pos,
                        Limit(depth=depth), enhancements=enhancements)


def random_position(rng: random.Random, pieces: int) -> Position:
    pos = GAME.initial_state()
    for _ in range(pieces):
        pos = GAME.result(pos, rng.choice(GAME.actions(pos)))
    return pos


# ------------------------------------------------------------- file format

SAMPLE = "0000000\n0000000\n0000000\n0002000\n0021100\n1212120\n2\n"


@pytest.mark.parametrize(
    "text",
    [
        SAMPLE,
        SAMPLE.replace("\n", "\r\n"),
        SAMPLE.rstrip("\n"),
        SAMPLE.replace("\n", "\r\n").rstrip("\r\n"),
        SAMPLE.replace("\n", "\r"),
        SAMPLE + "\n\r\n",
    ],
    ids=["LF", "CRLF", "LF-no-final", "CRLF-no-final", "CR", "trailing-blank-lines"],
)
def test_file_round_trip(text: str) -> None:
    pos = parse_board(text)
    assert format_board(pos) == SAMPLE
    assert pos.next_player == 2
    assert pos.pieces == 10
    assert parse_board(format_board(pos)) == pos


def test_rows_read_top_first() -> None:
    pos = board("1000002")
    assert GAME.actions(pos) == [0, 1, 2, 3, 4, 5, 6]
    assert play(pos, 0) == board("1000000", "1000002", next_player=2)
    assert play(play(pos, 6), 6) == board("0000002", "0000001", "1000002", next_player=1)
    assert format_board(play(pos, 6)).splitlines()[4] == "0000001"


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "board: empty"),
        ("\r\n\n", "board: empty"),
        ("0000000\n0000000\n1\n", "board: only 3 lines"),
        ("0000000\n" * 6, "board: only 6 lines"),
        ("0000000\n" * 6 + "1\n0000000\n", "board, line 8: unexpected text"),
        ("0000000\n" * 5 + "000000\n1\n", "board, line 6: expected 7 digits, found 6"),
        ("0000000\n" * 5 + "00000000\n1\n", "board, line 6: expected 7 digits, found 8"),
        ("0000000 \n" + "0000000\n" * 5 + "1\n", "board, line 1: expected 7 digits, found 8"),
        ("0000000\n" * 5 + "0030000\n1\n", "board, line 6, column 3: '3' is not 0, 1 or 2"),
        ("0000000\n" * 4 + "00x0000\n0010000\n1\n", "line 5, column 3: 'x' is not 0, 1 or 2"),
        ("0000000\n" * 4 + "0000001\n0000000\n1\n", "line 5, column 7: a piece floats"),
        ("1000000\n" + "0000000\n" * 4 + "1000000\n2\n", "line 1, column 1: a piece floats"),
        ("0000000\n" * 6 + "3\n", "board, line 7: the next player must be 1 or 2, not '3'"),
        ("0000000\n" * 6 + "12\n", "line 7: the next player must be 1 or 2, not '12'"),
        ("0000000\n" * 6 + " \n", "board: only 6 lines"),
    ],
)
def test_file_errors(text: str, message: str) -> None:
    with pytest.raises(InputError, match=re.escape(message)):
        parse_board(text)


def test_error_names_the_file() -> None:
    with pytest.raises(InputError, match=r"^in\.txt, line 7: the next player"):
        parse_board("0000000\n" * 6 + "0\n", "in.txt")


# ----------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    "rows, score1, score2",
    [
        (("1111000",), 1, 0),
        (("1111100",), 2, 0),
        (("1111111",), 4, 0),
        (("1110111",), 0, 0),
        (("1000000",) * 4, 1, 0),
        (("2000000",) * 6, 0, 3),  # a column of six holds three quadruples
        (("1222000", "2122000", "2212000", "1221000"), 1, 0),  # a falling diagonal
        (("0001112", "0001121", "0001211", "0002112"), 0, 1),  # mirrored: a rising one
        (("1111222",), 1, 0),
        (("1111222", "2222111"), 1, 1),
        (("1212121",) * 6, 12, 9),  # columns alternate: three verticals in each
    ],
)
def test_scores_of_hand_made_boards(rows: tuple[str, ...], score1: int, score2: int) -> None:
    pos = board(*rows)
    assert (pos.score1, pos.score2) == (score1, score2)


def test_full_board_of_one_player_has_every_quadruple() -> None:
    assert len(QUADRUPLES) == 69
    assert count_points(BOARD) == 69


def test_column_stripes_score_verticals_and_nothing_else() -> None:
    pos = board(*["1122112"] * 6)
    # columns 1, 2, 5, 6 are player 1's, 3, 4, 7 player 2's (three verticals each);
    # no row holds four alike, and every diagonal crosses both players' columns.
    assert (pos.score1, pos.score2) == (12, 9)
    assert GAME.is_terminal(pos)
    assert GAME.utility(pos) == 3


def test_incremental_score_equals_recount() -> None:
    rng = random.Random(5)
    for _ in range(30):
        pos = GAME.initial_state()
        while not GAME.is_terminal(pos):
            pos = GAME.result(pos, rng.choice(GAME.actions(pos)))
            assert pos.score1 == count_points(pos.p1)
            assert pos.score2 == count_points(pos.p2)
        assert GAME.utility(pos) == pos.score1 - pos.score2


def test_moves() -> None:
    pos = board("1000000", "1000000", "2000000", "1000000", "2000000", "1000000")
    assert GAME.actions(pos) == [1, 2, 3, 4, 5, 6]
    with pytest.raises(InputError, match="column 1 is full"):
        GAME.parse_move(pos, "1")
    with pytest.raises(InputError, match="column number 1-7"):
        GAME.parse_move(pos, "8")
    assert GAME.parse_move(pos, " 7 ") == 6
    assert GAME.order(pos, GAME.actions(pos)) == [3, 2, 4, 1, 5, 6]


# -------------------------------------------------------------- evaluation


def reference_potential(mine: int, theirs: int, mask: int) -> int:
    """potential() written the slow, obvious way: quadruple by quadruple."""
    empty = BOARD & ~mask
    my_rows = ODD_ROWS if mask.bit_count() % 2 == 0 else EVEN_ROWS
    playable = playable_cells(mask)
    value = 0
    threats = {True: 0, False: 0}
    for q in QUADRUPLES:
        for own, other, sign in ((mine, theirs, 1), (theirs, mine, -1)):
            if q & other:
                continue
            held = (q & own).bit_count()
            value += sign * {1: OPEN_ONE, 2: OPEN_TWO}.get(held, 0)
            if held == 3:
                threats[sign == 1] |= q & empty
    for cell in range(64):
        bit = 1 << cell
        if threats[True] & bit:
            if playable & bit:
                value += THREAT_NOW
            else:
                value += THREAT_OWN_ROW if my_rows & bit else THREAT_OTHER_ROW
        if threats[False] & bit and not playable & bit:
            value -= THREAT_OTHER_ROW if my_rows & bit else THREAT_OWN_ROW
    return value


def test_potential_equals_reference() -> None:
    rng = random.Random(11)
    for _ in range(300):
        pos = random_position(rng, rng.randrange(0, 40))
        mask = pos.p1 | pos.p2
        assert potential(pos.p1, pos.p2, mask) == reference_potential(pos.p1, pos.p2, mask)
        assert potential(pos.p2, pos.p1, mask) == reference_potential(pos.p2, pos.p1, mask)


def test_evaluation_by_hand() -> None:
    # One piece of player 1 in the bottom centre cell: it lies in 7 quadruples
    # (4 across, 1 up, 2 diagonal), all open, each holding one piece.
    assert OPEN_ONE == 12 and OPEN_TWO == 40 and THREAT_NOW == 90
    assert GAME.evaluate(board("0001000", next_player=2)) == 7 * 12 / 100
    # Three in the bottom row, the fourth cell playable. Open for player 1 and holding
    # one piece: across from column 3 (1), up in columns 1-3 (3), diagonally up-right
    # from columns 1-3 (3) = 7; holding two: across from column 2 = 1.
    base = 7 * OPEN_ONE + 1 * OPEN_TWO
    # Player 2 to move blocks the threat: worth nothing.
    assert GAME.evaluate(board("1110000", next_player=2)) == base / 100
    # Player 1 to move completes it now.
    assert GAME.evaluate(board("1110000", next_player=1)) == (base + THREAT_NOW) / 100
    # A threat not playable yet: player 1's cell in row 2 of column 4, above an empty
    # cell. Six pieces: the mover owns rows 1, 3, 5, the other player rows 2, 4, 6.
    p1_moves = board("1110000", "2120000", next_player=1)
    p2_moves = board("1110000", "2120000", next_player=2)
    mask = p1_moves.p1 | p1_moves.p2
    from_p1_side_when_p1_moves = potential(p1_moves.p1, p1_moves.p2, mask)
    from_p1_side_when_p2_moves = -potential(p2_moves.p2, p2_moves.p1, mask)
    assert from_p1_side_when_p2_moves - from_p1_side_when_p1_moves == (
        THREAT_OWN_ROW - THREAT_OTHER_ROW
    )


# ------------------------------------------------------------------ engine


def test_engine_agrees_with_plain_depth_limited_minimax() -> None:
    rng = random.Random(3)
    for pieces, depth in ((0, 3), (7, 3), (12, 2), (20, 3), (25, 2)):
        pos = random_position(rng, pieces)
        mm = minimax_search(GAME, pos, depth)
        result = search(pos, depth)
        assert result.value == mm.value
        assert result.depth == depth and not result.decided
        after = GAME.result(pos, result.action)
        assert minimax_search(GAME, after, depth - 1).value == mm.value


def interleavings(pos: Position) -> int:
    """Leaves of the full game tree below pos: orders of filling the empty cells."""
    mask = pos.p1 | pos.p2
    counts = [6 - ((mask >> (7 * c)) & 0x3F).bit_count() for c in range(7)]
    n = math.factorial(sum(counts))
    for k in counts:
        n //= math.factorial(k)
    return n


def positions_with_empties(
    seed: int, empties: int, max_leaves: int, count: int, min_leaves: int = 0
) -> list[Position]:
    """Positions from random play with `empties` empty cells and game trees of
    `min_leaves` to `max_leaves` leaves."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        pos = GAME.initial_state()
        while CELLS - pos.pieces > empties:
            # Favouring the fullest columns keeps the trees below small.
            options = GAME.actions(pos)
            mask = pos.p1 | pos.p2
            weights = [1 + ((mask >> (7 * c)) & 0x3F).bit_count() for c in options]
            pos = GAME.result(pos, rng.choices(options, weights)[0])
        if min_leaves <= interleavings(pos) <= max_leaves:
            found.append(pos)
    return found


@pytest.mark.parametrize("seed", range(4))
def test_exact_with_10_empty_cells_against_full_minimax(seed: int) -> None:
    for pos in positions_with_empties(seed, 10, 20000, 3, min_leaves=2000):
        mm = minimax_search(GAME, pos)  # to the end of the game: the true value
        result = search(pos, 1)  # depth 1 asked; 10 empty cells: to the end
        assert result.decided and result.plies == 10
        assert result.value == mm.value
        assert mm.value == int(mm.value)
        after = GAME.result(pos, result.action)
        assert minimax_search(GAME, after).value == mm.value  # the move is perfect


@pytest.mark.slow
def test_exact_with_10_empty_cells_more() -> None:
    for pos in positions_with_empties(99, 10, 200000, 10, min_leaves=20000):
        mm = minimax_search(GAME, pos)
        result = search(pos, 3)
        assert result.value == mm.value
        assert minimax_search(GAME, GAME.result(pos, result.action)).value == mm.value


def test_exact_from_16_empty_cells_gives_the_value_the_table_free_search_gives() -> None:
    pos = positions_with_empties(7, 16, 10**9, 1)[0]
    result = search(pos, 2)
    assert result.decided and result.plies == 16
    assert result.depth == 2  # one pass, to the end, known to the driver by the depth asked
    # A search without a table agrees.
    assert search(pos, 2, enhancements=Enhancements(table=False)).value == result.value
    # So does one whose table fills up and makes room many times within the pass.
    small = MaxConnect4()
    bound_memory(small, 500)
    assert search(pos, 2, small).value == result.value
    assert 0 < kept_entries(small) <= 500
    # 17 empty cells at depth 2: a depth-limited search, not exact.
    pos17 = positions_with_empties(7, 17, 10**9, 1)[0]
    assert not search(pos17, 2).decided


def test_each_enhancement_off_keeps_the_value() -> None:
    """Each enhancement off (and all of them) changes the work, not the value, of these
    fixed-depth searches from scratch. (It could: a table entry from a deeper pass may
    settle a node with a deeper value; that is allowed, and not the case here.)"""
    for pieces, depth in ((4, 4), (15, 5), (31, 1)):  # 11 empty cells: to the end
        pos = random_position(random.Random(pieces), pieces)
        values, nodes = set(), []
        for name in ("table", "ordering", "pvs", "aspiration"):
            off = Enhancements(**{name: False})
            result = search(pos, depth, enhancements=off)
            values.add(result.value)
            nodes.append(result.stats.nodes)
        values.add(search(pos, depth, enhancements=Enhancements.none()).value)
        assert len(values) == 1, (pieces, values)
        assert len(set(nodes)) > 1


def test_a_pass_to_the_end_ignores_the_deadline_but_not_a_request() -> None:
    pos = positions_with_empties(3, 14, 10**9, 1)[0]
    expected = search(pos, 1)
    late = Stop(clock=iter(range(0, 10**6, 1000)).__next__)  # every look: 1000 s later
    late.deadline = 1.0
    result = analyse_with(kernel_of("maxconnect4"), MaxConnect4(), pos, Limit(), stop=late)
    assert (result.action, result.value, result.decided) == (
        expected.action, expected.value, True)
    asked = Stop()
    asked.request()
    stopped = analyse_with(kernel_of("maxconnect4"), MaxConnect4(), pos, Limit(), stop=asked)
    assert not stopped.complete and stopped.action in GAME.actions(pos)
    assert stopped.stats.nodes <= 1024


def test_a_depth_to_the_end_from_far_back_obeys_the_deadline() -> None:
    """Depth 42 from the empty board is a solve of the whole game: the deadline must end
    it (it once ran on for minutes, until the node budget, ignoring the clock)."""
    late = Stop(clock=iter(range(0, 10**6, 1000)).__next__, nodes=300_000)
    late.deadline = 1.0  # every look at the clock: 1000 s later
    result = analyse_with(kernel_of("maxconnect4"), MaxConnect4(), GAME.initial_state(),
                          Limit(depth=42), stop=late)
    assert result.stats.nodes <= 2 * 1024 and result.action in GAME.actions(GAME.initial_state())
    # Without a clock the passes deepen to the end: 17 empty cells, solved exactly.
    pos = positions_with_empties(11, 17, 10**9, 1)[0]
    exact = analyse_with(kernel_of("maxconnect4"), MaxConnect4(), pos, Limit(depth=42))
    assert exact.decided and exact.depth == 17
    children = [search(GAME.result(pos, a), 1).value for a in GAME.actions(pos)]  # exact
    assert exact.value == (max if pos.p1_to_move else min)(children)


def test_values_are_player_1_points_and_decided_at_the_end() -> None:
    """Inside, hundredths from the mover's side; outside, points from player 1's side."""
    for pos in positions_with_empties(5, 1, 1, 3):  # player 2 moves last
        assert not pos.p1_to_move
        result = search(pos, 4)
        after = GAME.result(pos, result.action)
        assert (result.value, result.decided, result.plies) == (GAME.utility(after), True, 1)
        kernel = MaxConnect4Kernel(GAME, pos, Stop())
        assert kernel.verdict(-250).value == 2.5


def test_beats_random_player_every_time() -> None:
    """50 seeded games at depth 2, the engine taking each colour in turn: all won."""
    margins = []
    for seed in range(50):
        rng = random.Random(seed)
        engine_is_p1 = seed % 2 == 0
        kept = MaxConnect4()  # one table for the game
        pos = GAME.initial_state()
        while not GAME.is_terminal(pos):
            if pos.p1_to_move == engine_is_p1:
                action = search(pos, 2, kept).action
            else:
                action = rng.choice(GAME.actions(pos))
            pos = GAME.result(pos, action)
        margin = GAME.utility(pos) * (1 if engine_is_p1 else -1)
        margins.append(margin)
    assert min(margins) > 0, margins


def test_the_registered_kernel() -> None:
    spec = get_game("maxconnect4")
    assert spec.kernel is not None and spec.solver is None
    game = spec.create()
    pos = board("1200000")
    result = analyse_with(spec.kernel, game, pos, Limit(depth=3))
    assert result.action in game.actions(pos)
    assert result.depth == 3 and result.algorithm == "engine"


# ------------------------------------------------------------- the program

INPUT = "0000000\r\n0000000\r\n0000000\r\n0000000\r\n0010000\r\n0122100\r\n2\r\n"

ONE_MOVE_OUT = """
MaxConnect-4 game

Game state before move:
 -----------------
 | 0 0 0 0 0 0 0 |
 | 0 0 0 0 0 0 0 |
 | 0 0 0 0 0 0 0 |
 | 0 0 0 0 0 0 0 |
 | 0 0 1 0 0 0 0 |
 | 0 1 2 2 1 0 0 |
 -----------------
Score: Player 1 = 0, Player 2 = 0



move 6: Player 2, column 3

Game state after move:
 -----------------
 | 0 0 0 0 0 0 0 |
 | 0 0 0 0 0 0 0 |
 | 0 0 0 0 0 0 0 |
 | 0 0 2 0 0 0 0 |
 | 0 0 1 0 0 0 0 |
 | 0 1 2 2 1 0 0 |
 -----------------
Score: Player 1 = 0, Player 2 = 0

"""


def test_one_move_output_and_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "in.txt").write_bytes(INPUT.encode())
    out = tmp_path / "out.txt"
    assert main(["one-move", str(tmp_path / "in.txt"), str(out), "4"]) == 0
    captured = capsys.readouterr()
    assert captured.out == ONE_MOVE_OUT
    assert captured.err == ""
    assert out.read_bytes() == (
        b"0000000\r\n0000000\r\n0000000\r\n0020000\r\n0010000\r\n0122100\r\n1\r\n"
    )


def test_one_move_on_a_full_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "in.txt").write_text("2211221\n1122112\n" * 3 + "1")  # 21 pieces each
    out = tmp_path / "out.txt"
    assert main(["one-move", str(tmp_path / "in.txt"), str(out), "3"]) == 0
    text = capsys.readouterr().out
    assert text.endswith(
        " | 1 1 2 2 1 1 2 |\n -----------------\nScore: Player 1 = 0, Player 2 = 0\n\n"
        "BOARD FULL\n\nGame Over!\n\n"
    )
    assert not out.exists()


@pytest.mark.parametrize(
    "argv, message",
    [
        ([], "expected 4 arguments, got 0"),
        (["one-move", "a", "b"], "expected 4 arguments, got 3"),
        (["two-move", "a", "b", "1"], "unknown mode 'two-move': use one-move or interactive"),
        (["interactive", "a", "robot-next", "1"],
         "expected computer-next or human-next, not 'robot-next'"),
        (["one-move", "a", "b", "x"], "DEPTH must be a whole number from 1 to 42, not 'x'"),
        (["one-move", "a", "b", "0"], "DEPTH must be a whole number from 1 to 42, not '0'"),
        (["one-move", "a", "b", "-3"], "DEPTH must be a whole number from 1 to 42, not '-3'"),
        (["one-move", "a", "b", "²"], "DEPTH must be a whole number from 1 to 42, not '²'"),
        (["one-move", "a", "b", "9" * 3000],
         "DEPTH must be a whole number from 1 to 42, not '999999999999999999999999'... "
         "(3000 characters)"),
    ],
)
def test_usage_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"maxconnect4.py: {message} (usage: maxconnect4.py one-move INPUT OUTPUT DEPTH | "
        "interactive INPUT computer-next|human-next DEPTH)\n")


def test_bad_input_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("0000000\n" * 5 + "0000010\n3\n")
    out = tmp_path / "out.txt"
    assert main(["one-move", str(bad), str(out), "2"]) == 2
    assert capsys.readouterr().err == (
        f"maxconnect4.py: {bad}, line 7: the next player must be 1 or 2, not '3'\n"
    )
    # (A missing input file is the empty board, in both modes: tests/test_seed_texts.py.)
    assert main(["one-move", str(tmp_path), str(out), "2"]) == 2
    assert capsys.readouterr().err == f"maxconnect4.py: input file {tmp_path}: is a directory\n"
    assert main(["interactive", str(bad), "human-next", "2"]) == 2
    assert "line 7" in capsys.readouterr().err
    assert not out.exists()


def frame(*rows: str) -> str:
    """The framed board as the program prints it, written out independently."""
    dashes = " -----------------\n"
    return dashes + "".join(f" | {' '.join(row)} |\n" for row in rows) + dashes


LOWER = ("2112112", "1221221", "2112112", "1221221", "2112112")
TWO_LEFT = "\n".join(["2212100", *LOWER, "2"])  # two empty cells, player 2 next (20 each)
PROMPT2 = "Player 2, your move: a column 1-7: "

INTERACTIVE_OUT = (
    "\nMaxConnect-4 game\n\nGame state before move:\n"
    + frame("2212100", *LOWER)
    + "Score: Player 1 = 0, Player 2 = 0\n\n"
    + PROMPT2 + "Not a column number: 'five'. Type 1-7.\n"
    + PROMPT2 + "There is no column 0. Type 1-7.\n"
    + PROMPT2 + "Column 1 is full. Choose another.\n"
    + PROMPT2 + "\n\nmove 41: Player 2, column 6\n\nGame state after move:\n"
    + frame("2212120", *LOWER)
    + "Score: Player 1 = 0, Player 2 = 0\n\n"
    + "\n\nmove 42: Player 1, column 7\n\nGame state after move:\n"
    + frame("2212121", *LOWER)
    + "Score: Player 1 = 0, Player 2 = 0\n\n"
    + "BOARD FULL\n\nGame Over!\n\nFinal score 0-0: a draw.\n"
)


def test_interactive_session(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "start.txt").write_text(TWO_LEFT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("five\n0\n1\n6\n"))
    assert main(["interactive", "start.txt", "human-next", "3"]) == 0
    assert capsys.readouterr().out == INTERACTIVE_OUT
    lower = b"".join(row.encode() + b"\r\n" for row in LOWER)
    assert (tmp_path / "human.txt").read_bytes() == b"2212120\r\n" + lower + b"1\r\n"
    assert (tmp_path / "computer.txt").read_bytes() == b"2212121\r\n" + lower + b"2\r\n"


EMPTY_BOARD = frame(*["0000000"] * 6)
END_OF_INPUT_OUT = (
    "\nMaxConnect-4 game\n\nGame state before move:\n"
    + EMPTY_BOARD
    + "Score: Player 1 = 0, Player 2 = 0\n\n"
    + "Player 1, your move: a column 1-7: "
    + "\n\nmove 1: Player 1, column 4\n\nGame state after move:\n"
    + frame(*["0000000"] * 5, "0001000")
    + "Score: Player 1 = 0, Player 2 = 0\n\n"
    + "\n\nmove 2: Player 2, column 4\n\nGame state after move:\n"
    + frame(*["0000000"] * 4, "0002000", "0001000")
    + "Score: Player 1 = 0, Player 2 = 0\n\n"
    + "Player 1, your move: a column 1-7: \n\nEnd of input: the game stops here.\n"
)


def test_interactive_end_of_input_from_empty_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("4\n"))
    assert main(["interactive", "missing.txt", "human-next", "2"]) == 0
    assert capsys.readouterr().out == END_OF_INPUT_OUT
    assert (tmp_path / "human.txt").read_bytes() == b"0000000\r\n" * 5 + b"0001000\r\n2\r\n"
    assert (tmp_path / "computer.txt").read_bytes() == (
        b"0000000\r\n" * 4 + b"0002000\r\n0001000\r\n1\r\n"
    )
    assert not (tmp_path / "missing.txt").exists()


@pytest.mark.parametrize(
    "rows, expected",
    [
        (["1122112"] * 6, "Final score 12-9: Player 1 wins."),
        (["2211221"] * 6, "Final score 9-12: Player 2 wins."),
        (["1212121", *LOWER], "Final score 0-0: a draw."),
    ],
)
def test_outcome(rows: list[str], expected: str) -> None:
    assert outcome(parse_board("\n".join([*rows, "1"]), counts=False)) == expected


def test_framed_board() -> None:
    assert framed(board("1200000")).splitlines()[-2:] == [
        " | 1 2 0 0 0 0 0 |",
        " -----------------",
    ]
