"""The generic strong solver (zerosum.search.solve): known game values and position
counts, cross-checked against alpha-beta and against checkers' own retrograde analysis."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from zerosum.cli import main
from zerosum.game import GameBase
from zerosum.games.checkers.solve import solve as retrograde
from zerosum.games.registry import get_game
from zerosum.result import Limit
from zerosum.search.alphabeta import alphabeta_search
from zerosum.search.estimate import positions_at_least
from zerosum.search.solve import Solved, TooBig, Unsolvable, solve, solve_analyse
from zerosum.stop import SearchStopped, Stop


def make(name: str, **options: Any) -> Any:
    return get_game(name).make(**options)


def test_tictactoe_has_5478_positions_and_every_opening_draws() -> None:
    game = make("tictactoe")
    start = game.initial_state()
    solution = solve(game, start)
    # 5,478: the number of positions reachable in legal play (a well-known count).
    assert solution.positions == 5478
    assert solution[start] == Solved(0, 9)
    assert [v for _, v in solution.move_values(start)] == [Solved(0, 9)] * 9


def test_each_move_of_a_position_has_its_value_and_distance() -> None:
    game = make("tictactoe")
    # X: 1, 2; O: 4, 5; X to move: 3 wins at once, 6 blocks O's row and draws (O must
    # block 3, X then 7), anything else lets O complete 4-5-6.
    state = game.initial_state()
    for move in ("1", "4", "2", "5"):
        state = game.result(state, game.parse_move(state, move))
    solution = solve(game, state)
    assert solution[state] == Solved(1, 1)
    assert game.format_move(solution.best_move(state)) == "3"
    values = {game.format_move(a): v for a, v in solution.move_values(state)}
    assert values == {"3": Solved(1, 1), "6": Solved(0, 5), "7": Solved(-1, 2),
                      "8": Solved(-1, 2), "9": Solved(-1, 2)}


def test_the_loser_delays_and_the_winner_hurries() -> None:
    game = make("takestones", stones=12)
    start = game.initial_state()
    solution = solve(game, start)
    # Taking 1 or 3 loses; the loser's best is the slowest loss.
    values = {game.format_move(a): v for a, v in solution.move_values(start)}
    assert values == {"1": Solved(-100, 2), "3": Solved(-100, 4), "5": Solved(100, 11)}


@pytest.mark.parametrize(("stones", "value", "plies", "positions"),
                         [(7, -100, 6, 44), (12, 100, 11, 1131)])
def test_take_stones_values(stones: int, value: int, plies: int, positions: int) -> None:
    game = make("takestones", stones=stones)
    solution = solve(game, game.initial_state())
    assert solution[game.initial_state()] == Solved(value, plies)
    assert solution.positions == positions


@pytest.mark.parametrize(("name", "options"), [
    ("tictactoe", {}), ("takestones", {"stones": 9}), ("nqueens", {"size": 5}),
    ("nqueens", {"size": 6, "variation": "2"}),
])
def test_every_value_agrees_with_alpha_beta_to_the_end(name: str, options: dict[str, Any]) -> None:
    game = make(name, **options)
    start = game.initial_state()
    solution = solve(game, start)
    for action, solved in solution.move_values(start):
        child = game.result(start, action)
        assert alphabeta_search(game, child).value == solved.value, game.format_move(action)


def test_nqueens_values_by_size() -> None:
    values = []
    for size in range(1, 8):
        game = make("nqueens", size=size)
        solution = solve(game, game.initial_state())
        values.append(solution[game.initial_state()])
    # The first player wins every size but 4 (variation 1a), in as many plies as the
    # game then lasts.
    assert values == [Solved(1, 1), Solved(1, 1), Solved(1, 1), Solved(-1, 4),
                      Solved(1, 5), Solved(1, 5), Solved(1, 7)]


def test_checkers_4x4_agrees_with_its_retrograde_analysis() -> None:
    game = make("checkers", size=4)
    start = game.initial_state()
    solution = solve(game, start)
    assert solution[start] == Solved(0, 100)  # a draw under the course's 50-move rule
    pos = (start.black, start.white, start.kings, start.black_to_move)
    exact = retrograde(game.board, pos, game.max_capture)
    children = dict(exact.moves[pos])
    for action, solved in solution.move_values(start):
        child = children[action]
        mover = -exact.value(child, game.ply_limit - 1)
        assert solved.value == mover, action  # black moves first and is Max
        if mover:
            assert solved.plies == exact.distance(child) + 1, action


def test_a_game_too_big_for_the_budget_is_refused_with_its_size() -> None:
    game = make("tictactoe")
    # 256 random games already meet more than 1,000 positions: refused before solving.
    with pytest.raises(TooBig, match=r"^more than 1,000 positions \(about 0.3 MB; judged "
                       r"before solving, from 256 random games\): too big"):
        solve(game, game.initial_state(), budget=1000)
    # 5,478 positions, but random games show fewer than 5,000: found while solving.
    with pytest.raises(TooBig, match=r"^more than 5,000 positions \(about 1.5 MB\): too big"):
        solve(game, game.initial_state(), budget=5000)


@pytest.mark.parametrize(("name", "options", "positions", "first", "more"), [
    ("tictactoe", {}, 5_478, 3_073, 4_661),
    ("checkers", {"size": 4}, 51_229, 527, 908),
    ("takestones", {"stones": 20}, 65_786, 3_974, 8_270),
])
def test_random_games_give_a_figure_below_the_true_count_of_positions(
        name: str, options: dict[str, Any], positions: int, first: int, more: int) -> None:
    game = make(name, **options)
    start = game.initial_state()
    assert solve(game, start).positions == positions
    # Seeded: the same figures every time, growing with the games played, always below.
    assert round(positions_at_least(game, start, 256)) == first
    assert round(positions_at_least(game, start, 1024)) == more
    assert first < more < positions


def test_checkers_8x8_is_refused_before_any_position_is_solved() -> None:
    game = make("checkers")
    solved: list[int] = []
    with pytest.raises(TooBig, match=r"^more than 2,000,000 positions \(about 600 MB; judged "
                       r"before solving, from 1,024 random games\)"):
        solve(game, game.initial_state(), on_progress=solved.append)
    assert solved == []  # it said so at once: not one batch of positions was solved
    with pytest.raises(TooBig, match="from 256 random games"):  # the page's budget
        solve(game, game.initial_state(), budget=200_000, on_progress=solved.append)
    assert solved == []


def test_checkers_6x6_is_refused_at_once_by_its_known_count() -> None:
    """Random games cannot show 6x6's size (they meet few positions twice: the figure
    stops near 750,000 however many are played); the game's own count can."""
    game = make("checkers", size=6)
    start = game.initial_state()
    assert game.positions_known_at_least(start) == 2_000_000
    solved: list[int] = []
    with pytest.raises(TooBig, match=r"^more than 2,000,000 positions \(about 600 MB; known "
                       r"before solving, counted once\)"):
        solve(game, start, on_progress=solved.append)
    assert solved == []
    # Another position, or other rules, are not counted: the random games judge them.
    after = game.result(start, game.actions(start)[0])
    assert game.positions_known_at_least(after) == 0
    assert make("checkers", size=6, capture="max").positions_known_at_least(start) == 0


@pytest.mark.slow
def test_the_known_count_of_checkers_6x6_is_what_the_solver_fills() -> None:
    """The count kept is the solver's own: without it, the solve fills its budget."""
    game = make("checkers", size=6)
    counted = game.positions_known_at_least(game.initial_state())
    setattr(game, "positions_known_at_least", lambda state: 0)  # noqa: B010 (this game only)
    solved: list[int] = []
    with pytest.raises(TooBig, match=r"^more than 2,000,000 positions \(about 600 MB\)"):
        solve(game, game.initial_state(), budget=counted, on_progress=solved.append)
    assert solved[-1] >= counted - 4096  # reported every 4,096 positions, till the budget


class Circle(GameBase[int, int]):
    """Two counters that can be passed back and forth for ever."""

    def initial_state(self) -> int:
        return 0

    def actions(self, state: int) -> list[int]:
        return [1 - state]

    def result(self, state: int, action: int) -> int:
        return action

    def is_terminal(self, state: int) -> bool:
        return False

    def is_maxs_turn(self, state: int) -> bool:
        return state == 0


def test_a_game_whose_play_can_return_to_a_position_is_refused() -> None:
    with pytest.raises(Unsolvable, match="play can return to this position"):
        solve(Circle(), 0)


def test_connect_four_4x4_is_a_draw() -> None:
    game = make("connect4", width=4, height=4)
    solution = solve(game, game.initial_state())
    # A draw, as John Tromp's table of small boards says (every column draws too).
    assert solution[game.initial_state()] == Solved(0, 16)
    assert [v for _, v in solution.move_values(game.initial_state())] == [Solved(0, 16)] * 4
    assert solution.positions == 161029


def test_a_stop_ends_the_solve() -> None:
    game = make("tictactoe")
    with pytest.raises(SearchStopped):
        solve(game, game.initial_state(), stop=Stop(nodes=4096))


def test_as_an_analyser_the_result_is_decided_with_its_distance() -> None:
    game = make("takestones", stones=12)
    infos: list[Any] = []
    result = solve_analyse(game, game.initial_state(), Limit(), on_info=infos.append)
    assert (result.value, result.decided, result.plies) == (100, True, 11)
    assert len(result.pv) == 11 and game.format_move(result.action) == "5"
    assert [(i.value, i.decided, i.plies) for i in infos] == [(100, True, 11)]
    with pytest.raises(TooBig):
        solve_analyse(game, game.initial_state(), Limit(nodes=100))


def test_zerosum_solve_takes_every_game_and_shows_every_move(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "takestones", "--stones", "12", "--all-moves"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[:6] == [
        "value:               +100 (Max wins in 11 plies)",
        "best move:           5",
        "move 1:              -100 (Min wins in 2 plies)",
        "move 3:              -100 (Min wins in 4 plies)",
        "move 5:              +100 (Max wins in 11 plies)",
        "principal variation: 5 10 2 8 4 12 6 3 9 1 7",
    ]
    assert rows[6].startswith("positions:           1,131 solved in ")


def test_every_move_is_valued_from_the_side_that_makes_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    """O to move after 5 1 9: a move that lets X win is -1 for O, and the words say it
    is X's win (docs/search.md, "Values as shown"); X to move, +1 is X's win."""
    assert main(["solve", "tictactoe", "5", "1", "9", "--all-moves", "--no-pv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[:8] == [
        "value:               0 (draw, proven)",
        "best move:           3",
        "move 2:              -1 (X wins in 4 plies)",
        "move 3:              0 (draw, proven)",
        "move 4:              -1 (X wins in 4 plies)",
        "move 6:              -1 (X wins in 4 plies)",
        "move 7:              0 (draw, proven)",
        "move 8:              -1 (X wins in 4 plies)",
    ]
    assert main(["solve", "tictactoe", "5", "2", "--all-moves", "--no-pv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0] == "value:               +1 (X wins in 5 plies)"
    assert "move 1:              +1 (X wins in 5 plies)" in rows


def test_zerosum_solve_after_moves_and_a_drawn_line_cut_short(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "tictactoe", "1", "5", "9"]) == 0
    out = capsys.readouterr().out
    assert "value:               0 (draw, proven)\n" in out
    assert main(["solve", "checkers", "--size", "4", "--no-pv"]) == 0
    out = capsys.readouterr().out
    assert "value:               0 (draw, proven)\nbest move:           A4-B3\npositions:" in out


MYGAME = str(Path(__file__).parents[1] / "docs" / "examples" / "mygame.py")


def test_zerosum_solve_takes_a_persons_own_game_file(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Twenty-one (take 1-3 of 21, the last one wins): the first player wins by leaving
    a multiple of 4, so only taking 1 wins; after 3 and 3, 15 are left and 3 wins."""
    assert main(["solve", "--game-file", MYGAME, "--all-moves"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[:6] == [
        "value:               +1 (First wins in 11 plies)",
        "best move:           1",
        "move 1:              +1 (First wins in 11 plies)",
        "move 2:              -1 (Second wins in 10 plies)",
        "move 3:              -1 (Second wins in 10 plies)",
        "principal variation: 1 1 3 1 3 1 3 1 3 1 3",
    ]
    assert rows[6].startswith("positions:           42 solved in ")
    assert main(["solve", "--game-file", MYGAME, "--moves", "3 3",
                 "--no-pv"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [
        "value:               +1 (First wins in 7 plies)", "best move:           3"]


@pytest.mark.parametrize(("args", "message"), [
    (["tictactoe", "--budget", "100"], "zerosum: error: tictactoe: more than 100 positions "
     "(about 0.03 MB; judged before solving, from 256 random games): too big to solve "
     "exhaustively; try a position nearer the end, or a larger --budget"),
    (["tictactoe", "1", "1"], "zerosum: error: move 2 (1): cell 1 is not free"),
    (["tictactoe", "1", "4", "2", "5", "3", "6"],
     "zerosum: error: move 6 (6): the game is already over"),
    (["tictactoe", "--budget", "0"], "--budget"),
    ([], "zerosum: error: name a game (e.g. zerosum solve tictactoe) or give --game-file"),
    (["--all-moves"], "zerosum: error: these flags go with --game-file"),
    (["--game-file", MYGAME, "tictactoe"],
     "zerosum: error: give a game name or --game-file, not both (tictactoe)"),
    (["--game-file", MYGAME, "--moves", "3 9"],
     "zerosum: error: move 2 (9): not a legal move here: '9'"),
    (["--game-file", "no-such-game.py"], "zerosum: error: game file no-such-game.py: no such file"),
])
def test_zerosum_solve_refuses_in_one_line(args: list[str], message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        raise SystemExit(main(["solve", *args]))
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
