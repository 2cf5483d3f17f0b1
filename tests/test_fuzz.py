"""Fuzzing every parser and every command's argument handling: bad input must end in the
project's InputError (parsers) or one line on stderr and exit status 2 (commands), never
another exception, a traceback or a second line.

Generated arguments mix nasty tokens (other scripts' digits, huge numbers, signs, NUL,
long strings, special files) with valid-looking ones kept small, so that most cases take
milliseconds. A valid case may still start a long search (that is not a bug): a per-case
alarm stops it after CASE_SECONDS and the case counts as `slow`. The everyday run is
bounded by max_examples; `pytest -m slow tests/test_fuzz.py` runs FACTOR times as many.
Run with `-s -p no:xdist` to see the number of cases per entry point.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zerosum import cli
from zerosum.convert import (
    int_range,
    nonneg_int,
    parse_float,
    parse_int,
    parse_range,
    positive_float,
    positive_int,
)
from zerosum.game import InputError
from zerosum.games.checkers import Checkers
from zerosum.games.connect4.bitboard import geometry
from zerosum.games.connect4.notation import parse_position
from zerosum.games.maxconnect4 import parse_board
from zerosum.games.registry import all_games
from zerosum.games.tree import TreeGame
from zerosum.localsearch.tsp import TSP, DistanceMatrix
from zerosum.logic import WUMPUS_SYMBOLS, parse

CASE_SECONDS = 0.2
pytestmark = pytest.mark.filterwarnings(  # a TooSlow raised inside a gc callback
    "ignore::pytest.PytestUnraisableExceptionWarning")
EVERYDAY = 40  # examples per entry point in the everyday run
FACTOR = 25  # the slow run: this many times as many

COUNTS: Counter[str] = Counter()
SLOW: Counter[str] = Counter()

NASTY = [
    "²", "𝟚", "٣", "١٢", "9" * 19, "9" * 5000, "-3", "-0", "", " ", "+2", "1e999", "1e-999",
    "nan", "inf", "-inf", "\x00", "a\x00b", "x" * 10_000, "-", "--", "0", "1", "2", "0.01",
    "1-1000000000", "3-1", "1,2", "0x10", "1_0", "\udcff", "é", "\n", "/dev/zero",
    "/nonexistent/x", ".", "..", "out/none.txt",
]


def tokens(*valid: str) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(NASTY), st.sampled_from(valid or ("x",)),
                     st.text(max_size=8))


def argv_of(*valid: str, size: int = 8) -> st.SearchStrategy[list[str]]:
    return st.lists(tokens(*valid), max_size=size)


def fuzz(n: int, fixed: bool) -> Callable[[Any], Any]:
    """`fixed`: the same examples on every run (the everyday run must not flake); the
    deeper run draws new ones each time."""
    return settings(max_examples=n, deadline=None, database=None, derandomize=fixed,
                    suppress_health_check=list(HealthCheck))


def everyday_and_deep(body: Callable[..., None], *strategies: Any, n: int = EVERYDAY,
                      **named: Any) -> tuple[Any, Any]:
    """Two tests of `body`: n examples, and a slow-marked one with FACTOR * n."""
    everyday = fuzz(n, True)(given(*strategies, **named)(body))
    deep = pytest.mark.slow(fuzz(n * FACTOR, False)(given(*strategies, **named)(body)))
    return everyday, deep


# --- the harness ------------------------------------------------------------------------


class TooSlow(BaseException):
    """The per-case alarm: a valid case started a long search."""


@contextlib.contextmanager
def alarm(seconds: float) -> Iterator[list[bool]]:
    """Raise TooSlow after `seconds`, and again every 50 ms (a raise inside a callback,
    e.g. of the garbage collector, is swallowed) until the block ends. Yields a flag
    that tells whether it rang at all."""
    active = [True]
    rang = [False]

    def ring(signum: int, frame: FrameType | None) -> None:
        if frame is not None and "hypothesis" in frame.f_code.co_filename:
            return  # never inside hypothesis's own code (its gc callback): next tick
        if active[0]:
            rang[0] = True
            raise TooSlow

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.05)
    try:
        yield rang
    finally:
        active[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder with one valid file of each format, the cwd of every command case."""
    d = tmp_path_factory.mktemp("fuzz")
    (d / "tree.txt").write_text("A[B[3 12 8] C[2 4 6] D[14 5 2]]\n")
    (d / "m.txt").write_text("A B C\n0 1 2\n1 0 3\n2 3 0\n")
    (d / "kb.txt").write_text("(or P_1_1 B_1_2)\n(not M_1_1)\n")
    (d / "s.txt").write_text("P_1_1\n")
    (d / "board.txt").write_text("0000000\n" * 5 + "1200000\n1\n")
    (d / "big.txt").write_bytes(b"0" * (2 * 1024 * 1024))
    (d / "rec.txt").write_text("1. 5\n2. 2\n3. 1\nunfinished\n")  # zerosum review's records
    (d / "rec.pdn").write_text('[Event "x"]\n\n1. 1-3 8-5 2. 3x8 *\n')
    (d / "game.py").write_text((Path(__file__).parents[1] / "docs" / "examples" / "mygame.py")
                               .read_text())
    yield d
    print("\nfuzz cases per entry point (slow: stopped by the per-case alarm):")
    for name in sorted(COUNTS):
        print(f"  {name:28} {COUNTS[name]:6} cases  {SLOW[name]:4} slow")


def run_command(name: str, main: Callable[[Sequence[str]], int], argv: Sequence[str],
                workdir: Path, stdin: str = "") -> None:
    """Run one command in-process; fail unless it ends with status 0, or 2 and one line
    on stderr, and without a traceback."""
    COUNTS[name] += 1
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    os.chdir(workdir)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                alarm(CASE_SECONDS) as rang:
            try:
                status: Any = main(list(argv))
            except SystemExit as e:
                status = e.code
    except TooSlow:
        SLOW[name] += 1
        return
    finally:
        sys.stdin = saved
        os.chdir(here)
    if rang[0]:  # the alarm went off but something swallowed it: slow, not judged
        SLOW[name] += 1
        return
    text = err.getvalue()
    assert "Traceback" not in text, (argv, text)
    assert status in (0, 2, None), (argv, status, text)
    if status == 2:
        assert text.count("\n") == 1 and text.endswith("\n"), (argv, text)
    leftovers = [p.name for p in workdir.iterdir() if p.name.endswith(".tmp")]
    assert not leftovers, (argv, leftovers)


def parser_case(name: str, parse_it: Callable[[], object]) -> object | None:
    """Run one parser call: its value, or None after an InputError; anything else fails."""
    COUNTS[name] += 1
    try:
        with alarm(CASE_SECONDS * 5):
            return parse_it()
    except InputError as e:
        assert "\n" not in str(e), str(e)
        return None
    except TooSlow:
        SLOW[name] += 1
        return None


# --- parsers ----------------------------------------------------------------------------

NUMBERS = st.one_of(tokens("12", "+7", "-7", "0.5", ".5", "2e3", "1-4", "1,3,5-7"),
                    st.text(alphabet="0123456789+-.,eE ²𝟚٣", max_size=24))


def _fuzz_convert(text: str) -> None:
    n = parser_case("convert.parse_int", lambda: parse_int(text, "n", lo=-50, hi=50))
    assert n is None or (isinstance(n, int) and -50 <= n <= 50)
    x = parser_case("convert.parse_float", lambda: parse_float(text, "x", lo=0, hi=1e6))
    assert x is None or (isinstance(x, float) and 0 <= x <= 1e6)
    r = parser_case("convert.parse_range", lambda: parse_range(text, "r", lo=1, hi=64))
    assert r is None or (isinstance(r, list) and all(1 <= v <= 64 for v in r))
    for convert in (nonneg_int, positive_int, positive_float, int_range):
        COUNTS["convert.argparse types"] += 1
        try:
            convert(text)  # type: ignore[operator]
        except Exception as e:
            assert type(e).__name__ == "ArgumentTypeError", (text, e)


test_fuzz_convert, test_fuzz_convert_deeper = everyday_and_deep(
    _fuzz_convert, NUMBERS, n=EVERYDAY * 3)


C4_TEXT = st.text(alphabet="ry.,XOxo 1234567890\n²𝟚٣", max_size=60)


def _fuzz_connect4_notation(text: str, size: tuple[int, int]) -> None:
    parser_case("connect4 notation", lambda: parse_position(text, geometry(*size)))


test_fuzz_connect4_notation, test_fuzz_connect4_notation_deeper = everyday_and_deep(
    _fuzz_connect4_notation, C4_TEXT, st.sampled_from([(7, 6), (4, 4), (12, 12), (5, 4)]),
    n=EVERYDAY)


FEN = st.one_of(
    st.text(alphabet="BWK:-,0123456789. \"x²٣", max_size=40),
    st.builds(lambda side, w, b: f"{side}:W{w}:B{b}", st.sampled_from("BWX"),
              st.text(alphabet="K0123456789,-", max_size=20),
              st.text(alphabet="K0123456789,-", max_size=20)),
)


def _fuzz_checkers_fen(text: str, size: int) -> None:
    game = Checkers(size)
    state = parser_case("checkers FEN", lambda: game.from_fen(text))
    if state is not None:  # what was read is written back the same
        assert game.from_fen(game.to_fen(state)) == state


test_fuzz_checkers_fen, test_fuzz_checkers_fen_deeper = everyday_and_deep(
    _fuzz_checkers_fen, FEN, st.sampled_from([4, 8, 10]), n=EVERYDAY)


TREE_TEXT = st.one_of(
    st.text(alphabet="[] ,=#\nAB.0123456789-+eEinf²٣", max_size=60),
    st.builds(lambda d, leaf: "[" * d + leaf + "]" * d, st.integers(0, 2000),
              st.sampled_from(["1", "1 2", "1e999", "", "x"])),
)


def _fuzz_tree_files(text: str) -> None:
    from zerosum.explain import explain_tree

    game = parser_case("tree files", lambda: TreeGame.from_text(text))
    if isinstance(game, TreeGame):
        for algorithm in ("minimax", "alphabeta"):
            assert explain_tree(game, algorithm, True).startswith("algorithm: ")


test_fuzz_tree_files, test_fuzz_tree_files_deeper = everyday_and_deep(
    _fuzz_tree_files, TREE_TEXT, n=EVERYDAY)


MATRIX_TEXT = st.one_of(
    st.text(alphabet="ABC 0123456789.,-e#\n\tnaif²٣+", max_size=60),
    st.builds(lambda a, b, c: f"A B C\n0 {a} {b}\n{a} 0 {c}\n{b} {c} 0\n",
              *[st.sampled_from(["1", "2.5", "1e999999999", "nan", "inf", "-1", "1e-9",
                                 "٣", "+3", "0", "1" * 40, "1E+2"])] * 3),
)


TOURS = st.sampled_from(["A-B-C-A", "A-C-B-A", "A-A", "", "B-²-A", "A-B-A"])


def _fuzz_tsp_matrices(text: str, tour: str) -> None:
    m = parser_case("TSP matrices", lambda: DistanceMatrix.parse(text))
    if isinstance(m, DistanceMatrix):
        tsp = parser_case("TSP tours", lambda: TSP(m))
        if isinstance(tsp, TSP):
            parser_case("TSP tours", lambda: tsp.parse_tour(tour))


test_fuzz_tsp_matrices, test_fuzz_tsp_matrices_deeper = everyday_and_deep(
    _fuzz_tsp_matrices, MATRIX_TEXT, TOURS, n=EVERYDAY)


LOGIC_TEXT = st.one_of(
    st.text(alphabet="() \tandornotifxfP_Q1\n#", max_size=60),
    st.builds(lambda d: "(not " * d + "P" + ")" * d, st.integers(0, 400)),
)


def _fuzz_logic_sentences(text: str) -> None:
    parser_case("logic sentences", lambda: parse(text, "kb"))
    parser_case("logic sentences", lambda: parse(text, "kb", WUMPUS_SYMBOLS))


test_fuzz_logic_sentences, test_fuzz_logic_sentences_deeper = everyday_and_deep(
    _fuzz_logic_sentences, LOGIC_TEXT, n=EVERYDAY)


BOARD_TEXT = st.one_of(
    st.text(alphabet="012\n\r 3²", max_size=70),
    st.builds(lambda rows, nxt: "\n".join([*rows, nxt]),
              st.lists(st.text(alphabet="0012", min_size=7, max_size=7), min_size=6,
                       max_size=6),
              st.sampled_from(["1", "2", "3", "²", ""])),
)


def _fuzz_maxconnect4_boards(text: str) -> None:
    parser_case("Max-Connect4 boards", lambda: parse_board(text))


test_fuzz_maxconnect4_boards, test_fuzz_maxconnect4_boards_deeper = everyday_and_deep(
    _fuzz_maxconnect4_boards, BOARD_TEXT, n=EVERYDAY)


GAMES = all_games()


MOVES = tokens("1", "4", "7", "9", "+3", "A2-B1", "11-15", "C3xE5", "X 3", "2 3", "x")


def _fuzz_parse_move(name: str, text: str) -> None:
    spec = next(g for g in GAMES if g.name == name)
    game = spec.create()
    state = game.initial_state()
    action = parser_case(f"parse_move {name}", lambda: game.parse_move(state, text))
    if action is not None:
        assert action in game.actions(state)


test_fuzz_parse_move, test_fuzz_parse_move_deeper = (
    pytest.mark.parametrize("name", [g.name for g in GAMES])(t)
    for t in everyday_and_deep(_fuzz_parse_move, text=MOVES, n=EVERYDAY))


# --- commands ---------------------------------------------------------------------------

SMALL = ("0", "1", "2", "+1", "0.01", "4", "1-3")


@pytest.fixture(scope="module")
def zerosum_main() -> Iterator[Callable[[Sequence[str]], int]]:
    """cli.main with its parser built once (building it takes ~25 ms, parsing ~0.1)."""
    parser = cli.build_parser()
    saved = cli.build_parser
    cli.build_parser = lambda: parser
    yield cli.main
    cli.build_parser = saved


PLAY_FLAGS = ("--opponent", "random", "minimax", "alphabeta", "depth-limited", "iterative",
              "engine", "--depth", "--time", "--side", "first", "second", "none", "--seed",
              "--size", "--variation", "1a", "2b", "--width", "--height", "--stones",
              "--capture", "max", "--draw", "tournament", "--moves", "--scale", "-h")
COMMANDS = {  # each subcommand gets its own examples; the words that may start its argv
    "play": [["play"], *[["play", g.name] for g in GAMES]],
    "table": [["table"], ["table", "nqueens"]],
    "tree": [["tree"]],
    "solve": [["solve"], ["solve", "connect4"]],
    "perft": [["perft"], *[["perft", g.name] for g in GAMES]],
    "review": [["review"], *[["review", g.name] for g in GAMES]],
    "logic": [["logic"], ["logic", "check"], ["logic", "rules"]],
    "hillclimb": [["hillclimb"], ["hillclimb", "tsp"]],
    "assignment": [["assignment"], ["assignment", "list"], ["assignment", "comp3608"],
                   ["assignment", "cs540"], ["assignment", "export"]],
    "game file": [["play", "--game-file"], ["perft", "--game-file"]],
    "(none)": [[]],
}
COMMAND_TOKENS = (*PLAY_FLAGS, *SMALL, "--sizes", "--format", "csv", "--algorithm",
                  "--table", "--order", "tree.txt", "--explain", "--min-first", "-",
                  "--weak", "--no-pv", "--all-moves", "4455", "--fen", "B:W21-32:B1-12",
                  "W:W21:B", "B:W21-19:B1", "--divide", "kb.txt", "-s", "P_1_1", "--wumpus",
                  "--method", "tt", "both", "--stats", "-f", "s.txt", "m.txt", "--start",
                  "--initial", "A-B-C-A", "--neighbours", "--max-steps", "big.txt",
                  "--version", "--help", "comp3608", "cs540", "cmpt317", "a4q1", "out",
                  "--zip", "game.py", "--no-check", "rec.txt", "rec.pdn", "--number",
                  "--budget")


STDIN = st.lists(tokens(*SMALL, "?", "q", "b", "w"), max_size=6)


def _fuzz_zerosum_command(zerosum_main: Callable[[Sequence[str]], int], workdir: Path,
                          group: str, data: st.DataObject) -> None:
    command = data.draw(st.sampled_from(COMMANDS[group]))
    argv = data.draw(argv_of(*COMMAND_TOKENS))
    lines = data.draw(STDIN)
    run_command(f"zerosum {group}", zerosum_main, [*command, *argv], workdir, "\n".join(lines))


test_fuzz_zerosum_command, test_fuzz_zerosum_command_deeper = (
    pytest.mark.parametrize("group", list(COMMANDS))(t)
    for t in everyday_and_deep(_fuzz_zerosum_command, data=st.data(), n=EVERYDAY))


def frontend_cases() -> list[tuple[str, Callable[[Sequence[str]], int], tuple[str, ...]]]:
    from zerosum.frontends import (
        connect4,
        cs540_takestones,
        csc242_checkers,
        nqueens_a4,
        uta_logic,
        uta_maxconnect4,
    )

    course = ".ryyrry,.rryry.,..y.r..,..y....,.......,......."
    return [
        ("ConnectFour.py", connect4.main, (course, "red", "yellow", "M", "A", "1", "2")),
        ("TakeStones", cs540_takestones.main, ("7", "3", "1", "4", "2", "0", "--format",
                                               "summary", "trace")),
        ("maxconnect4.py", uta_maxconnect4.main, ("one-move", "interactive", "board.txt",
                                                  "out.txt", "computer-next", "human-next",
                                                  "1", "2", "big.txt")),
        ("check_true_false.py", uta_logic.main, ("kb.txt", "s.txt", "--method", "dpll",
                                                 "tt", "big.txt")),
        ("checkers", csc242_checkers.main, ("--moves", "--seed", "--capture", "max", "1")),
        ("a4q1-a4q7", nqueens_a4.q5, ("--sizes", "1-4", "4", "--format", "csv", "--depth",
                                      "1")),
        ("a4q9", nqueens_a4.q9, ("--sizes", "4", "--cutoffs", "1,1", "2,1", "--variation",
                                 "1a", "--algorithms", "minimax", "--solve-up-to", "4")),
    ]


FRONTENDS = frontend_cases()


def _fuzz_frontends(workdir: Path, case: tuple[str, Callable[[Sequence[str]], int],
                                                   tuple[str, ...]], data: st.DataObject) -> None:
    name, main, valid = case
    argv = data.draw(argv_of(*valid, *SMALL, size=6))
    lines = data.draw(STDIN)
    run_command(name, main, argv, workdir, "\n".join(lines))


test_fuzz_frontends, test_fuzz_frontends_deeper = (
    pytest.mark.parametrize("case", FRONTENDS, ids=[c[0] for c in FRONTENDS])(t)
    for t in everyday_and_deep(_fuzz_frontends, data=st.data(), n=EVERYDAY))


# --- tournament databases ---------------------------------------------------------------

TOURNAMENT = ["tournament", "tictactoe", "--agent", "random", "--agent", "alphabeta:depth=1",
              "--games", "4", "--workers", "1", "--opening-plies", "1"]


@pytest.fixture(scope="module")
def tournament_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole tournament's database (4 games of tic-tac-toe), to be damaged in copies."""
    from zerosum.games.registry import get_game
    from zerosum.tournament.referee import play_game
    from zerosum.tournament.schedule import Settings, jobs
    from zerosum.tournament.store import Store

    path = tmp_path_factory.mktemp("tournament") / "t.sqlite"
    # the settings TOURNAMENT makes, its games played here (no worker to start)
    settings = Settings("tictactoe", ("random", "alphabeta:depth=1"), 4, opening_plies=1,
                        move_timeouts=(60.0, 60.0))
    with Store(str(path), settings.to_json()) as store:
        for job in jobs(settings, get_game("tictactoe").create()):
            store.add(job, play_game(job))
    with contextlib.redirect_stdout(io.StringIO()):  # TOURNAMENT takes it as its own
        assert cli.main([*TOURNAMENT, "--db", str(path)]) == 0
    return path


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 2**70), st.floats(),
              st.sampled_from(["", "x", "1", "0.5", "random", "tictactoe", "checkers", "5",
                               "\x00", "9" * 400, "/nonexistent/x.py", "alphabeta:depth=1"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(["move", "by", "x", "score"]),
                                            inner, max_size=3)),
    max_leaves=6)
SQL_VALUES = st.one_of(st.none(), st.integers(-2, 2**62), st.floats(allow_nan=False),
                       st.text(max_size=12), st.binary(max_size=12),
                       st.sampled_from(["{}", "[]", "null", '{"number": 1}', "[" * 3000]))
SCHEMA_DAMAGE = [
    "DROP TABLE games", "DROP TABLE settings", "ALTER TABLE games ADD COLUMN x TEXT",
    "ALTER TABLE games RENAME TO old", "CREATE TABLE notes (text TEXT)",
    "DELETE FROM settings", "UPDATE settings SET id = 1, json = json || 'x'",
    "ALTER TABLE settings RENAME COLUMN json TO text",
    "UPDATE games SET number = number + 10",
]


def damage(data: st.DataObject, path: Path) -> str:
    """One damage done to the database at `path`, drawn by `data`; what it was."""
    import json
    import sqlite3

    kind = data.draw(st.sampled_from(["json", "column", "schema", "bytes"]))
    if kind == "bytes":
        raw = bytearray(path.read_bytes())
        at = data.draw(st.integers(0, len(raw) - 1))
        if data.draw(st.booleans()):
            del raw[at:]
        else:
            raw[at] = data.draw(st.integers(0, 255))
        path.write_bytes(bytes(raw))
        return f"bytes at {at}"
    con = sqlite3.connect(path, isolation_level=None)
    try:
        if kind == "schema":
            statement = data.draw(st.sampled_from(SCHEMA_DAMAGE))
            con.execute(statement)
            return statement
        table, column = data.draw(st.sampled_from(
            [("games", "job"), ("games", "result"), ("settings", "json")]))
        number = data.draw(st.integers(1, 4))
        where = "id = 1" if table == "settings" else f"number = {number}"
        if kind == "column":
            value = data.draw(SQL_VALUES)
            with contextlib.suppress(sqlite3.IntegrityError):  # NULL in a NOT NULL column
                con.execute(f"UPDATE {table} SET {column} = ? WHERE {where}", (value,))
            return f"{table}.{column} = {value!r}"
        (text,) = con.execute(f"SELECT {column} FROM {table} WHERE {where}").fetchone()
        document = json.loads(text)
        target = document
        if column == "result" and document["moves"] and data.draw(st.booleans()):
            target = data.draw(st.sampled_from(document["moves"]))  # one move's record
        key = data.draw(st.sampled_from(sorted(target)))
        if data.draw(st.integers(0, 4)) == 0:
            del target[key]
        else:
            target[key] = data.draw(JSON_VALUES)
        con.execute(f"UPDATE {table} SET {column} = ? WHERE {where}",
                    (json.dumps(document),))
        return f"{table}.{column}[{key}]"
    finally:
        con.close()


def _fuzz_tournament_databases(zerosum_main: Callable[[Sequence[str]], int], workdir: Path,
                               tournament_db: Path, data: st.DataObject) -> None:
    path = workdir / "fuzzed.sqlite"
    path.write_bytes(tournament_db.read_bytes())
    for extra in (Path(f"{path}-journal"), workdir / "games.txt"):
        extra.unlink(missing_ok=True)
    damage(data, path)
    for argv in (["results", path.name], ["results", path.name, "--export", "games.txt"],
                 [*TOURNAMENT, "--db", path.name],
                 ["sprt", *TOURNAMENT[1:6], "--max-games", "4", "--workers", "1",
                  "--opening-plies", "1", "--db", path.name]):
        run_command("tournament databases", zerosum_main, argv, workdir)


test_fuzz_tournament_databases, test_fuzz_tournament_databases_deeper = everyday_and_deep(
    _fuzz_tournament_databases, data=st.data(), n=EVERYDAY)


# --- the web API ------------------------------------------------------------------------
# Every HTTP body and socket message a client may send: JSON of every type where each
# field belongs (and where it does not), nesting thousands deep, bytes that are not
# UTF-8, binary frames. The app runs in-process (Starlette's test client re-raises any
# exception of the server, so a crash fails the case); searches are bounded small.

WEB_FIELDS = ("game", "options", "position", "move", "plies", "player", "seconds", "depth",
              "type", "tree", "algorithm", "min_first", "moves", "table", "width")
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
    st.sampled_from([*NASTY, "9" * 5000, "tictactoe", "connect4", "maxconnect4", "checkers",
                     "engine", "random", "mcts", "solver", "think", "stop", "analyse", "4",
                     "minimax", "[1 2]", "A[B[3 12 8] C[2 4 6]]"]),
    st.sampled_from([1, 2, 1.0, 0, 64, 65, 0.01, -1, 10**400 // 10**380]))
JSON_VALUES = st.recursive(
    SCALARS, lambda kids: st.one_of(st.lists(kids, max_size=3),
                                    st.dictionaries(st.text(max_size=6), kids, max_size=3)),
    max_leaves=8)
OBJECTS = st.dictionaries(st.sampled_from(WEB_FIELDS), JSON_VALUES, max_size=4)


def nested(depth: int, opener: str) -> str:
    closer = {"[": "]", '{"a": ': "}"}[opener]
    return opener * depth + "1" + closer * depth


RAW = st.one_of(
    OBJECTS.map(lambda o: json.dumps(o).encode()),
    JSON_VALUES.map(lambda v: json.dumps(v).encode()),
    st.builds(lambda d, o, closed: (nested(d, o) if closed else o * d).encode(),
              st.integers(0, 3000), st.sampled_from(["[", '{"a": ']), st.booleans()),
    st.binary(max_size=40),
    st.sampled_from([b"", b"{", b'{"game": "connect4"', b"\xff\xfe", b"NaN", b"[]" * 5000]),
)


@pytest.fixture(scope="module")
def web() -> Iterator[Any]:
    from starlette.testclient import TestClient

    from zerosum.web.app import create_app

    with TestClient(create_app(max_searches=2, max_seconds=0.05, max_nodes=2000)) as client:
        yield client


def one_line_error(response: Any) -> None:
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        error = response.json()["error"]
        assert error and "\n" not in error and len(error) < 400, error


def _fuzz_web_http(web: Any, data: st.DataObject) -> None:
    COUNTS["web HTTP"] += 1
    game = data.draw(st.sampled_from([g.name for g in GAMES]))
    sid = web.post("/api/sessions", json={"game": game}).json()["id"]
    if data.draw(st.booleans()):  # a move played, so that undo has one to take back
        legal = web.get(f"/api/sessions/{sid}").json()["legal"]
        web.post(f"/api/sessions/{sid}/move", json={"move": legal[0]})
    path = data.draw(st.sampled_from(["/api/sessions", f"/api/sessions/{sid}/move",
                                      f"/api/sessions/{sid}/undo", f"/api/sessions/{sid}/new",
                                      "/api/explain"]))
    one_line_error(web.post(path, content=data.draw(RAW)))


def _fuzz_web_sockets(web: Any, data: st.DataObject) -> None:
    from starlette.websockets import WebSocketDisconnect

    COUNTS["web sockets"] += 1
    game, path = data.draw(st.sampled_from([("connect4", "analysis"),
                                            *((g.name, "think") for g in GAMES)]))
    sid = web.post("/api/sessions", json={"game": game}).json()["id"]
    frames = data.draw(st.lists(st.one_of(
        RAW.map(lambda b: b.decode("utf-8", "replace")),
        OBJECTS.map(lambda o: json.dumps({"type": "think", **o})),
        st.binary(max_size=20)), min_size=1, max_size=3))
    with web.websocket_connect(f"/api/sessions/{sid}/{path}") as ws:
        for frame in frames:
            (ws.send_bytes if isinstance(frame, bytes) else ws.send_text)(frame)
        ws.send_text("{")  # malformed: the socket must now say why and close
        for _ in range(10_000):  # a bound: the replies of three requests at most
            try:
                message = ws.receive_json()
            except WebSocketDisconnect as closed:
                assert closed.code in (1003, 1008) and closed.reason, closed
                return
            assert message["type"] in ("started", "info", "result", "error", "busy",
                                       "estimate", "column", "done"), message
            if message["type"] == "error":
                assert "\n" not in message["error"] and len(message["error"]) < 400
        pytest.fail("the socket never closed")


test_fuzz_web_http, test_fuzz_web_http_deeper = everyday_and_deep(
    _fuzz_web_http, data=st.data(), n=EVERYDAY * 2)
test_fuzz_web_sockets, test_fuzz_web_sockets_deeper = everyday_and_deep(
    _fuzz_web_sockets, data=st.data(), n=EVERYDAY)
