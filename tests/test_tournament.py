"""zerosum.tournament: the schedule, the referee's rules, the worker processes, the
database and the reports, with exact games and figures."""

from __future__ import annotations

import json
import os
import random
from dataclasses import replace
from pathlib import Path

import pytest

from zerosum.game import InputError
from zerosum.games.connect4 import adjudicate
from zerosum.games.registry import get_game
from zerosum.match import MoveRecord
from zerosum.tournament.backends import LocalBackend, Worker
from zerosum.tournament.jobs import GameJob, GameResult
from zerosum.tournament.referee import RUNAWAYS, left_running, opening_state, play_game
from zerosum.tournament.report import Played, cross_table, pair_stats
from zerosum.tournament.schedule import (
    Settings,
    agent_seed,
    check_agents,
    jobs,
    move_timeout,
    random_openings,
    read_openings,
)
from zerosum.tournament.store import Store

AGENTS = Path(__file__).parent / "data" / "agents"
TTT = get_game("tictactoe").create()
C4 = get_game("connect4").create()


def settings(**kw: object) -> Settings:
    base: dict[str, object] = dict(game="tictactoe", agents=("random", "alphabeta",
                                                             "mcts:nodes=50"),
                                   games=4, move_timeouts=(60.0, 60.0, 60.0))
    base.update(kw)
    return Settings(**base)  # type: ignore[arg-type]


def moves_of(result: GameResult) -> list[str]:
    return [m.move for m in result.moves]


# -- the schedule ---------------------------------------------------------------------

def test_round_robin_pairs_every_two_agents_on_shared_openings_with_colours_swapped() -> None:
    schedule = list(jobs(settings(), TTT))
    assert len(schedule) == 12 == settings().total()
    assert [j.number for j in schedule] == list(range(1, 13))
    assert [j.agents for j in schedule[:6]] == [
        ("random", "alphabeta"), ("alphabeta", "random"),
        ("random", "mcts:nodes=50"), ("mcts:nodes=50", "random"),
        ("alphabeta", "mcts:nodes=50"), ("mcts:nodes=50", "alphabeta")]
    assert [j.pair for j in schedule] == [0] * 6 + [1] * 6
    assert [j.round for j in schedule[:6]] == [0, 0, 1, 1, 2, 2]
    # pair k of every pairing starts from opening k; the two pairs' openings differ
    assert len({j.opening for j in schedule[:6]}) == 1
    assert len({j.opening for j in schedule[6:]}) == 1
    assert schedule[0].opening != schedule[6].opening
    assert all(len(j.opening) == 2 for j in schedule)
    # the same settings make the same jobs, seeds included
    assert list(jobs(settings(), TTT)) == schedule
    assert next(jobs(settings(seed=2), TTT)).opening != schedule[0].opening


def test_a_gauntlet_pairs_the_first_agent_with_each_other() -> None:
    s = settings(format="gauntlet", agents=("a", "b", "c", "d"), move_timeouts=(1, 2, 3, 4))
    assert s.pairings() == [(0, 1), (0, 2), (0, 3)]
    schedule = list(jobs(s, TTT))
    assert len(schedule) == 12
    assert schedule[3].agents == ("c", "a") and schedule[3].move_timeout == (3, 1)


def test_agent_seeds_depend_on_the_seed_the_game_and_the_side_only() -> None:
    assert agent_seed(1, 5, 0) == agent_seed(1, 5, 0)
    assert len({agent_seed(1, 5, 0), agent_seed(1, 5, 1), agent_seed(1, 6, 0),
                agent_seed(2, 5, 0)}) == 4


def test_random_openings_do_not_repeat_until_they_run_out() -> None:
    # tic-tac-toe has 9 * 8 = 72 openings of two plies: the first 72 are all different
    drawn = random_openings(TTT, 2, random.Random(3))
    first = [next(drawn) for _ in range(72)]
    assert len(set(first)) == 72
    assert len(next(drawn)) == 2  # then they repeat rather than loop forever


def test_openings_from_a_file_are_checked_line_by_line() -> None:
    assert read_openings("# two\n4 4\n\n3 5 4\n", "o.txt", C4) == (("4", "4"), ("3", "5", "4"))
    with pytest.raises(InputError, match=r"openings file o.txt, line 2: .*8"):
        read_openings("4\n8 1\n", "o.txt", C4)
    with pytest.raises(InputError, match=r"openings file o\.txt holds no opening"):
        read_openings("# nothing\n", "o.txt", C4)
    with pytest.raises(InputError, match=r"line 1: .*the game is over"):
        read_openings("1 2 1 2 1 2 1\n", "o.txt", C4)


def test_agent_lists_are_checked() -> None:
    with pytest.raises(InputError, match="two agents or more"):
        check_agents(["engine"], "round-robin")
    with pytest.raises(InputError, match="'random' is given twice"):
        check_agents(["random", "engine", "random"], "round-robin")


def test_move_timeout_gives_timed_agents_room_and_untimed_a_minute() -> None:
    assert move_timeout(0.1) == pytest.approx(2.3)
    assert move_timeout(None) == 60.0


# -- the referee ----------------------------------------------------------------------

def job(agents: tuple[str, str], game: str = "tictactoe", **kw: object) -> GameJob:
    return GameJob(1, game, agents, **kw)  # type: ignore[arg-type]


def test_a_full_alphabeta_never_loses_tic_tac_toe_and_records_every_move() -> None:
    for number in range(1, 7):
        r = play_game(GameJob(number, "tictactoe", ("random", "alphabeta"),
                              seeds=(number, 0)))
        assert r.score in (0.0, 0.5) and r.fault is None
        assert all(m.by == i % 2 for i, m in enumerate(r.moves))
        assert all(m.value is not None and m.nodes for m in r.moves if m.by == 1)
        assert all(m.value is None for m in r.moves if m.by == 0)  # random judges nothing


def test_the_same_job_plays_the_same_game() -> None:
    j = job(("mcts:nodes=30", "random"), "connect4", opening=("4", "4"), seeds=(7, 8))
    first, again = play_game(j), play_game(j)
    assert moves_of(first) == moves_of(again)
    assert first.moves[:2] == (MoveRecord("4", 0.0, by=-1), MoveRecord("4", 0.0, by=-1))
    assert (first.score, first.reason) == (again.score, again.reason)


def test_the_move_limit_makes_a_draw() -> None:
    r = play_game(job(("random", "random"), "connect4", max_plies=6))
    assert (r.score, r.reason) == (0.5, "draw by the move limit (6 plies)")
    assert len(r.moves) == 6


def test_an_agent_that_crashes_loses_and_the_reason_says_why() -> None:
    crashing = str(AGENTS / "crashing.py")
    r = play_game(job((crashing, "alphabeta:depth=1")))
    assert (r.score, r.fault) == (0.0, 0)
    assert r.reason == f"X ({crashing}) crashed: RuntimeError: out of ideas"
    assert len(r.moves) == 4  # its two moves and the opponent's two


def test_an_illegal_move_loses() -> None:
    illegal = str(AGENTS / "illegal.py")
    r = play_game(job(("random", illegal)))
    assert (r.score, r.fault) == (1.0, 1)
    assert r.reason == f"O ({illegal}) played an illegal move: 99"


def test_an_agent_past_its_move_timeout_loses_on_time() -> None:
    hanging = str(AGENTS / "hanging.py")
    r = play_game(job((hanging, "random"), move_timeout=(0.2, 60.0)))
    assert (r.score, r.fault) == (0.0, 0)
    assert r.reason == f"X ({hanging}) lost on time: no move within 0.2 s"


@pytest.mark.parametrize("agent", ["minimax:depth=9", str(AGENTS / "slow_search.py")])
def test_a_search_too_slow_for_its_move_timeout_is_stopped_and_late(agent: str) -> None:
    """The referee stops a searching agent's Running at its move timeout: the search
    ends (it reads its Stop), and the move is late as a signal made it."""
    before = left_running()
    r = play_game(job((agent, "random"), "connect4", move_timeout=(0.3, 60.0)))
    assert (r.score, r.fault) == (0.0, 0)
    assert r.reason == f"Red ({agent}) lost on time: no move within 0.3 s"
    assert left_running() == before  # nothing of it runs on


def runaway_game(folder: Path) -> tuple[str, Path]:
    """A person's own game whose evaluation never returns to the search (it swallows
    every exception and reads no Stop) until the file `release` exists."""
    release = folder / "release"
    path = folder / "runaway.py"
    path.write_text(
        "import contextlib, os, time\n"
        "from zerosum.games.tictactoe import TicTacToe\n\n\n"
        "class Runaway(TicTacToe):\n"
        "    def evaluate(self, state):\n"
        f"        while not os.path.exists({str(release)!r}):\n"
        "            with contextlib.suppress(Exception):\n"
        "                time.sleep(0.01)\n"
        "        return super().evaluate(state)\n\n\n"
        "GAME = Runaway()\n")
    return str(path), release


RUNAWAY_REASON = ("X (alphabeta:depth=2) lost on time: no move within 0.3 s, and its "
                  "search did not stop within 2 s of being told")


def test_a_runaway_search_loses_the_game_and_is_reported(tmp_path: Path) -> None:
    """Stuck in the game's own code, the search cannot be ended: its side loses the
    game even where a late move costs only the move, and this process says it still
    runs, until it ends by itself."""
    game, release = runaway_game(tmp_path)
    before = left_running()
    r = play_game(GameJob(1, game, ("alphabeta:depth=2", "random"), move_timeout=(0.3, 60.0),
                          late="move"))
    assert (r.score, r.fault, r.reason) == (0.0, 0, RUNAWAY_REASON)
    assert [m.move for m in r.moves] == []
    assert left_running() == before + 1
    release.touch()
    assert RUNAWAYS[-1].wait(60)
    assert left_running() == before


def test_a_worker_with_a_runaway_search_retires_and_a_fresh_one_plays_on(
        tmp_path: Path) -> None:
    game, _ = runaway_game(tmp_path)  # never released: the worker's exit ends it

    class Counted(LocalBackend):
        started = 0

        def start(self) -> Worker:
            Counted.started += 1
            return super().start()

    results: list[GameResult] = []
    Counted(1).run(iter([GameJob(1, game, ("alphabeta:depth=2", "random"),
                                 move_timeout=(0.3, 60.0)),
                         GameJob(2, "tictactoe", ("random", "random"))]), results.append)
    assert [(r.number, r.fault) for r in results] == [(1, 0), (2, None)]
    assert results[0].reason == RUNAWAY_REASON
    assert Counted.started == 2  # the first worker retired after its game


def test_under_the_course_rule_a_late_move_is_lost_and_play_goes_on() -> None:
    """COMP3608: "your move will be forfeit, and play will return to the other player"."""
    hanging = str(AGENTS / "hanging.py")
    the_job = job(("random", hanging), move_timeout=(60.0, 0.2), late="move")
    assert '"late": "move"' in the_job.to_json()
    assert GameJob.from_json(the_job.to_json()) == the_job
    assert '"late"' not in job(("random", hanging)).to_json()  # as jobs always were
    r = play_game(the_job)
    lost = [m for m in r.moves if m.forfeit]
    assert lost and all((m.by, m.move, m.forfeit) == (1, "", "no move within 0.2 s")
                        for m in lost)
    assert [m.by for m in r.moves if m.by >= 0] == [0, 1] * len(lost) + [0] * (
        len(r.moves) - 2 * len(lost) - len(the_job.opening))
    assert r.fault is None and r.score == 1.0 and r.reason == "X wins: three in a row"
    assert GameResult.from_json(r.to_json()) == r


def test_connect_four_is_adjudicated_by_its_solver_once_few_cells_are_empty() -> None:
    moves = tuple("475774457522754657214321516462")  # 30 stones: 12 cells empty
    before = opening_state(C4, moves[:29])
    assert adjudicate(C4, before) is None  # 13 empty cells: too early
    verdict = adjudicate(C4, opening_state(C4, moves))
    assert verdict == -1.0  # Yellow wins with best play
    r = play_game(job(("random", "random"), "connect4", opening=moves))
    assert r.reason.startswith("adjudicated: ") and len(r.moves) == 30
    assert r.score == {1.0: 1.0, 0.0: 0.5, -1.0: 0.0}[verdict]
    r = play_game(job(("random", "random"), "connect4", opening=moves, adjudicate=False))
    assert not r.reason.startswith("adjudicated") and len(r.moves) > 30


def test_openings_must_be_legal() -> None:
    with pytest.raises(InputError, match=r"opening 1 1: move 2 \(1\): cell 1 is not free"):
        opening_state(TTT, ("1", "1"))


# -- worker processes -----------------------------------------------------------------

def test_workers_play_the_same_games_as_one_process_and_survive_a_dying_agent() -> None:
    dying = str(AGENTS / "dying.py")
    pairs = [("random", "alphabeta:depth=2"), (dying, "random"), ("alphabeta:depth=2", "random"),
             ("random", dying), ("mcts:nodes=40", "random")]
    schedule = [GameJob(n, "tictactoe", agents, seeds=(n, n + 100))
                for n, agents in enumerate(pairs, 1)]
    results: list[GameResult] = []
    LocalBackend(2).run(iter(schedule), results.append)
    by_number = {r.number: r for r in results}
    assert sorted(by_number) == [1, 2, 3, 4, 5]
    for n in (1, 3, 5):
        here = play_game(schedule[n - 1])
        assert (moves_of(by_number[n]), by_number[n].reason) == (moves_of(here), here.reason)
    assert (by_number[2].score, by_number[2].fault) == (0.0, 0)
    assert by_number[2].reason == f"{dying} lost: its worker process died (exit code 3)"
    assert (by_number[4].score, by_number[4].fault) == (1.0, 1)


def test_a_backend_stops_taking_jobs_when_told() -> None:
    schedule = (GameJob(n, "tictactoe", ("random", "random"), seeds=(n, n))
                for n in range(1, 1000))
    results: list[GameResult] = []

    def take(result: GameResult) -> bool:
        results.append(result)
        return len(results) == 3

    LocalBackend(1).run(schedule, take)
    assert [r.number for r in results] == [1, 2, 3]


def test_a_worker_killed_from_outside_is_replaced_and_blames_nobody() -> None:
    import multiprocessing
    import signal

    schedule = [GameJob(n, "tictactoe", ("random", "alphabeta:depth=1"), seeds=(n, n))
                for n in range(1, 4)]
    results: list[GameResult] = []

    def take(result: GameResult) -> None:
        results.append(result)
        if result.number == 1:  # the idle worker dies (an OOM killer, a person's kill)
            for child in multiprocessing.active_children():
                os.kill(child.pid or 0, signal.SIGKILL)
                child.join()

    LocalBackend(1).run(iter(schedule), take)
    assert [(r.number, r.fault) for r in results] == [(1, None), (2, None), (3, None)]
    assert [moves_of(r) for r in results] == [moves_of(play_game(j)) for j in schedule]


def test_a_worker_dying_before_any_agent_ran_plays_the_game_again(tmp_path: Path) -> None:
    flag = tmp_path / "die-once"
    flag.write_text("")
    game = tmp_path / "dies_once.py"
    game.write_text(f"import os\nfrom pathlib import Path\n"
                    f"from zerosum.games.tictactoe import TicTacToe\n"
                    f"if Path({str(flag)!r}).exists():\n"
                    f"    Path({str(flag)!r}).unlink()\n"
                    f"    os._exit(9)\n"
                    f"GAME = TicTacToe()\n")
    job = GameJob(1, str(game), ("random", "alphabeta"), seeds=(1, 1))
    results: list[GameResult] = []
    LocalBackend(1).run(iter([job]), results.append)
    # the first worker died loading the game: nobody's forfeit, the game played again
    assert [(r.number, r.fault) for r in results] == [(1, None)]
    assert moves_of(results[0]) == moves_of(play_game(job))
    always = tmp_path / "dies_always.py"
    always.write_text("import os\nos._exit(9)\n")
    with pytest.raises(InputError, match=r"^game 1: its worker process died 3 times "
                                         r"before any agent's code ran \(exit code 9\)"):
        LocalBackend(1).run(iter([GameJob(1, str(always), ("random", "random"))]),
                            lambda r: None)


@pytest.mark.parametrize("agent, reason", [
    ("exits_when_made.py", "lost: its worker process died while making it (exit code 4)"),
    ("slow_to_make.py", "lost: not made within 0.3 s"),
    ("exits.py", "crashed: it called sys.exit(5)"),
])
@pytest.mark.parametrize("side", [0, 1])
def test_an_agent_failing_while_made_is_blamed_not_the_side_to_move(
        agent: str, reason: str, side: int) -> None:
    spec = str(AGENTS / agent)
    agents = ("random", spec) if side else (spec, "random")
    job = GameJob(1, "tictactoe", agents, move_timeout=(0.3, 0.3))  # type: ignore[arg-type]
    results: list[GameResult] = []
    LocalBackend(1).run(iter([job]), results.append)
    (result,) = results
    assert (result.fault, result.score) == (side, float(side))
    assert result.reason.endswith(f"{spec} {reason}") or \
        result.reason.endswith(f"({spec}) {reason}"), result.reason


def test_an_agent_file_failing_in_a_worker_only_stops_the_tournament_naming_the_game(
        ) -> None:
    # made once in the tournament's process first, it can fail here only if the file
    # changed (or differs on another machine): no game can be played fairly
    spec = str(AGENTS / "exits.py") + ":at=make"
    job = GameJob(7, "tictactoe", ("random", spec))
    with pytest.raises(InputError, match=rf"^game 7: agent file {AGENTS / 'exits.py'}, line "
                                         r"19: sys.exit\(0\) called while making the agent$"):
        LocalBackend(1).run(iter([job]), lambda result: None)


def test_never_more_workers_than_games_nor_than_a_few_a_core(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from zerosum.tournament import backends

    started: list[object] = []
    start = LocalBackend.start

    def counted(self: LocalBackend) -> object:
        started.append(self)
        return start(self)

    monkeypatch.setattr(LocalBackend, "start", counted)
    schedule = [GameJob(n, "tictactoe", ("random", "random"), seeds=(n, n)) for n in (1, 2)]
    results: list[GameResult] = []
    LocalBackend(8).run(iter(schedule), results.append)
    assert len(results) == 2 and len(started) <= 2
    assert LocalBackend(256).size == backends.MAX_PER_CORE * backends.default_workers()


# -- the database ---------------------------------------------------------------------

def test_the_store_keeps_games_and_refuses_another_tournament(tmp_path: Path) -> None:
    path = str(tmp_path / "t.sqlite")
    j = job(("random", "alphabeta"))
    r = play_game(j)
    a = Settings("tictactoe", ("random", "alphabeta"), 2, move_timeouts=(60.0, 60.0))
    with Store(path, a.to_json()) as store:
        store.add(j, r)
    with Store(path, a.to_json()) as store:
        assert store.results() == {1: r} and store.jobs() == {1: j}
    with pytest.raises(InputError, match=r"holds another tournament \(other settings\)"):
        Store(path, replace(a, seed=2).to_json())
    with Store.existing(path) as store:
        assert store.settings_json == a.to_json()
    # more games of the same tournament extend it; fewer are refused
    with pytest.raises(InputError, match="holds another tournament with 2 games a pairing: "
                                         "give --games 2 or more"):
        Store(path, replace(a, games=0).to_json())
    with Store(path, replace(a, games=4).to_json()) as store:
        assert store.results() == {1: r}
    with Store.existing(path) as store:
        assert Settings.from_json(store.settings_json).games == 4


def test_a_file_that_is_no_database_is_refused(tmp_path: Path) -> None:
    garbled = tmp_path / "notes.txt"
    garbled.write_text("this is no database\n" * 100)
    with pytest.raises(InputError, match=r"notes\.txt is not a tournament database"):
        Store(str(garbled), "s")
    with pytest.raises(InputError, match="no tournament database"):
        Store.existing(str(tmp_path / "missing.sqlite"))
    with pytest.raises(InputError, match="no directory"):
        Store(str(tmp_path / "nowhere" / "t.sqlite"), "s")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


# -- reports --------------------------------------------------------------------------

def played(agents: tuple[str, str], pair: int, score: float, number: int) -> Played:
    return Played(GameJob(number, "tictactoe", agents, pair=pair),
                  GameResult(number, score, "x"))


def test_cross_table_and_pair_figures() -> None:
    games = [played(("a", "b"), 0, 1.0, 1), played(("b", "a"), 0, 0.5, 2),
             played(("a", "b"), 1, 1.0, 3), played(("b", "a"), 1, 0.0, 4)]
    assert cross_table(games, ["a", "b"]).splitlines()[2:] == [
        "  1  a      -  3.5/4",
        "  2  b  0.5/4      -"]
    stats = pair_stats(games, "a", "b")
    assert (stats.wins, stats.draws, stats.losses) == (3, 1, 0)
    assert stats.pairs == (0, 0, 0, 1, 1)  # pairs scored 1½ and 2 for a


def test_a_game_that_cannot_be_set_up_in_a_worker_stops_the_tournament_with_one_line() -> None:
    broken = GameJob(1, "tictactoe", ("random", "random"), opening=("1", "1"))
    with pytest.raises(InputError, match=r"^game 1: opening 1 1: move 2 \(1\): cell 1 is not"):
        LocalBackend(1).run(iter([broken]), lambda result: None)


def test_reading_another_sqlite_database_leaves_it_unchanged(tmp_path: Path) -> None:
    import sqlite3

    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE notes (text TEXT)")
    before = other.read_bytes()
    with pytest.raises(InputError, match=r"other\.sqlite is not a tournament database"):
        Store.existing(str(other))
    assert other.read_bytes() == before


def test_standings_wait_until_every_agent_is_linked_by_games() -> None:
    from zerosum.tournament.report import standings

    early = [played(("a", "b"), 0, 1.0, 1), played(("c", "d"), 0, 0.5, 6)]
    assert standings(early).startswith("Standings: no ratings yet: ")
    linked = [*early, played(("a", "c"), 0, 0.5, 3)]
    assert standings(linked).splitlines()[2].split()[:2] == ["1", "a"]


def test_a_backend_leaving_games_unplayed_never_passes_for_done(tmp_path: Path) -> None:
    from zerosum.tournament.run import play

    class Lazy:  # plays the first game only, then returns as if done
        def run(self, jobs: object, on_result: object) -> None:
            job = next(jobs)  # type: ignore[call-overload]
            on_result(play_game(job))  # type: ignore[operator]

    s = settings(agents=("random", "alphabeta:depth=1"), move_timeouts=(60.0, 60.0))
    with Store(str(tmp_path / "t.sqlite"), s.to_json()) as store:
        with pytest.raises(InputError, match=r"^3 games were not played \(game 2 the first\)"):
            play(s, TTT, store, Lazy(), lambda job, result: None)
        assert list(store.results()) == [1]


@pytest.mark.parametrize("raised", ["OSError('disk')", "SystemExit(3)"])
def test_a_game_files_own_error_in_a_worker_stops_the_tournament_naming_it(
        tmp_path: Path, raised: str) -> None:
    game = tmp_path / "breaks.py"
    game.write_text("from zerosum.games.tictactoe import TicTacToe\n\n\n"
                    "class Breaks(TicTacToe):\n"
                    "    def result(self, state, action):\n"
                    f"        raise {raised}\n\n\n"
                    "GAME = Breaks()\n")
    job = GameJob(2, str(game), ("random", "random"))
    kind = raised.split("(")[0]
    with pytest.raises(InputError, match=rf"^game 2: the game {game} failed: {kind}"):
        LocalBackend(1).run(iter([job]), lambda result: None)


def test_settings_from_before_balanced_openings_read_as_unbalanced() -> None:
    """A database written before openings were balanced has no such key: its settings
    read back as they played (random openings), so a rerun recognises it."""
    a = Settings("tictactoe", ("random", "alphabeta"), 2, move_timeouts=(60.0, 60.0))
    assert a.balanced and Settings.from_json(a.to_json()) == a
    old = json.loads(a.to_json())
    del old["balanced"]
    assert Settings.from_json(json.dumps(old)) == replace(a, balanced=False)
