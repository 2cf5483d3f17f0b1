"""The Ray backend on a real Ray cluster, started on this machine for these tests: the same
games give the same results as local worker processes, an early stop takes no more
jobs, a dead worker's game is played again, and a bad address is one quick InputError.

The cluster (`ray start --head --block`, 2 CPUs, loopback only) is this module's, one in
each pytest-xdist worker that runs its tests; it is stopped through the process it was
started as (never by `ray stop`, which stops every Ray process of the machine).
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import logging
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

import zerosum
from zerosum.game import InputError
from zerosum.tournament.backends import Backend, LocalBackend
from zerosum.tournament.jobs import GameJob, GameResult
from zerosum.tournament.raycluster import RAY_SETTINGS, RayBackend, import_ray

ROOT = Path(__file__).resolve().parents[1]

# Read by Ray when it is imported (by RayBackend) and by the head node, which inherits them:
# the cluster and this process name each other by 127.0.0.1, so that no traffic leaves
# the loopback interface; and the cluster asks for a token of its own (unset, Ray would
# take one from ~/.ray/auth_token if there is one, the head node would then ask for it
# and this process, which has to be told, would not give it).
TOKEN = secrets.token_hex(16)
os.environ.update(RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0", RAY_AUTH_MODE="token",
                  RAY_AUTH_TOKEN=TOKEN)

pytestmark = pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                                reason="Ray is not installed (pip install -e '.[dev]' does)")

START_TIMEOUT = 60.0  # seconds for `ray start` to say the cluster runs
STOP_TIMEOUT = 30.0
PAIRS = [("alphabeta:depth=3", "random"), ("mcts:nodes=200", "alphabeta:depth=3"),
         ("random", "mcts:nodes=200"), ("mcts:nodes=200", "random")]
JOBS = [GameJob(n, game, pair, seeds=(n, 100 + n))
        for n, (game, pair) in enumerate(
            [(g, p) for g in ("tictactoe", "connect4") for p in PAIRS], 1)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The address of a Ray head node with 2 CPUs, its session files in a temporary
    folder (a short path: Ray's socket paths must fit in 107 characters)."""
    port = free_port()
    folder = tempfile.mkdtemp(prefix="zsray")
    log = Path(folder, "start.log")
    ray = Path(sys.executable).with_name("ray")
    # not the driver's short connect timeouts (RayBackend sets them once it has run)
    env = {k: v for k, v in os.environ.items() if k not in RAY_SETTINGS}
    with log.open("w") as out:
        head = subprocess.Popen(
            [str(ray), "start", "--head", "--block", f"--port={port}", "--num-cpus=2",
             "--disable-usage-stats", "--include-dashboard=false",
             "--include-log-monitor=false",  # the games' output is not wanted here
             "--object-store-memory=100000000",  # 100 MB, not 30 % of the memory
             f"--temp-dir={folder}"],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True, env=env)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while "Ray runtime started" not in log.read_text():
            if head.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"ray start failed:\n{log.read_text()}")
            time.sleep(0.2)
        yield f"127.0.0.1:{port}"
    finally:
        stop(head)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def joined(cluster: str) -> Iterator[str]:
    """The cluster, joined by this process for the rest of the module: a RayBackend then
    neither joins nor leaves it, and its workers (Ray's are per driver) serve test after
    test instead of starting anew for each."""
    ray = import_ray()
    ray.init(address=cluster, include_dashboard=False, log_to_driver=False,
             logging_level=logging.WARNING)
    yield cluster
    ray.shutdown()


def stop(head: subprocess.Popen[bytes]) -> None:
    """End the cluster: `ray start --block` stops its processes in order on SIGTERM
    (signalling them all at once would leave it waiting for its GCS); whatever of its
    process group is left after that is killed."""
    head.terminate()
    try:
        head.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        head.kill()
        head.wait()
    with contextlib.suppress(ProcessLookupError):
        os.killpg(head.pid, signal.SIGKILL)


def run(backend: Backend, jobs: list[GameJob]) -> list[GameResult]:
    results: list[GameResult] = []
    backend.run(iter(jobs), results.append)
    return results


def timeless(result: GameResult) -> str:
    """The result without its wall-clock times, which no two machines share."""
    return replace(result, seconds=0.0,
                   moves=tuple(replace(m, seconds=0.0) for m in result.moves)).to_json()


def test_the_cluster_plays_the_games_as_local_workers_do(cluster: str) -> None:
    ray = import_ray()
    joined_before = ray.is_initialized()  # by the fixture `joined`, if it ran already
    on_ray = run(RayBackend(cluster), JOBS)
    assert ray.is_initialized() == joined_before  # it left the cluster it joined
    local = run(LocalBackend(2), JOBS)
    assert sorted(r.number for r in on_ray) == list(range(1, 9))
    assert [timeless(r) for r in sorted(on_ray, key=lambda r: r.number)] == \
        [timeless(r) for r in sorted(local, key=lambda r: r.number)]
    assert [r.reason for r in sorted(on_ray, key=lambda r: r.number)][:4] == [
        "X wins: three in a row", "Draw: the board is full", "O wins: three in a row",
        "X wins: three in a row"]


def test_programs_play_on_the_cluster_as_on_local_workers(cluster: str) -> None:
    # A course's programs (absolute paths: they exist on every node of this cluster),
    # a forfeited move's record included.
    program = f"{sys.executable} {ROOT / 'tests/data/submissions/comp3608/ConnectFour.py'}"
    good = f"course:comp3608,time=20:{program}"
    slow = f"course:comp3608,time=0.3:{program} --fault slow"
    jobs = [GameJob(1, "connect4", (good, "random"), seeds=(1, 2)),
            GameJob(2, "connect4", (slow, good), seeds=(3, 4))]
    on_ray = sorted(run(RayBackend(cluster), jobs), key=lambda r: r.number)
    local = sorted(run(LocalBackend(2), jobs), key=lambda r: r.number)
    assert [timeless(r) for r in on_ray] == [timeless(r) for r in local]
    assert on_ray[1].reason == "Yellow wins: four in a row"
    assert sum(bool(m.forfeit) for m in on_ray[1].moves) == 4


def test_an_early_stop_takes_no_more_jobs(joined: str) -> None:
    taken: list[int] = []

    def jobs() -> Iterator[GameJob]:
        for job in JOBS:
            taken.append(job.number)
            yield job

    results: list[GameResult] = []

    def on_result(result: GameResult) -> bool:
        results.append(result)
        return len(results) == 2

    RayBackend(joined, workers=2).run(jobs(), on_result)
    assert len(results) == 2
    assert import_ray().is_initialized()  # it leaves the process as it found it
    # 2 in flight at first, one more after each of the first results but the last
    assert taken == [1, 2, 3]


AGENT = """\
import os, sys


def make_agent(seed, marker=""):
    return Dies(marker)


class Dies:
    "Kills its process on its first move; with a marker file, only the first time."

    def __init__(self, marker):
        self.marker = marker

    def play(self, game, state):
        if self.marker and os.path.exists(self.marker):
            return game.actions(state)[0]
        if self.marker:
            open(self.marker, "w").close()
        sys.stdout.flush()
        os._exit(3)
"""


def test_a_game_whose_worker_died_is_played_again(joined: str, tmp_path: Path) -> None:
    (tmp_path / "dies.py").write_text(AGENT)
    marker = tmp_path / "died-once"
    job = GameJob(5, "tictactoe", (f"{tmp_path / 'dies.py'}:marker={marker}", "random"),
                  seeds=(1, 2))
    [result] = run(RayBackend(joined), [job])
    assert marker.exists() and result.number == 5
    assert result.fault is None and len(result.moves) >= 5


def test_a_worker_dying_twice_stops_the_tournament(joined: str, tmp_path: Path) -> None:
    (tmp_path / "dies.py").write_text(AGENT)
    jobs = [GameJob(7, "tictactoe", (str(tmp_path / "dies.py"), "random"))]
    with pytest.raises(InputError, match=r"^game 7: its Ray worker died 2 times "
                                         r"\(WorkerCrashedError\)"):
        run(RayBackend(joined), jobs)


def test_an_error_in_a_game_names_the_game(joined: str, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.py"
    with pytest.raises(InputError, match=rf"^game 3: agent file {missing}: no such file$"):
        run(RayBackend(joined), [GameJob(3, "tictactoe", (str(missing), "random"))])


def test_an_address_with_no_cluster_is_one_quick_error() -> None:
    address = f"127.0.0.1:{free_port()}"  # nothing listens there
    with pytest.raises(InputError, match=rf"^no Ray cluster at {address}: Connection refused"):
        RayBackend(address)  # made, before it is run: before the database is written


def test_an_address_is_host_and_port() -> None:
    with pytest.raises(InputError, match=r"^Ray cluster address 127\.0\.0\.1: give HOST:PORT"):
        RayBackend("127.0.0.1")


def test_without_ray_installed_the_error_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    hint = f"in {ROOT} run: .venv/bin/python -m pip install -e '.[ray]'"
    with pytest.raises(InputError, match="^" + re.escape(
            f"the Ray backend needs Ray (the ray extra): {hint}") + "$"):
        RayBackend("127.0.0.1:6379")


def test_a_move_past_its_timeout_loses_there_too(joined: str) -> None:
    """The referee's move timeout works in a Ray task: its clock stops the search there
    as in a local worker."""
    job = GameJob(4, "connect4", ("alphabeta:depth=0", "random"), move_timeout=(0.2, 60.0))
    [result] = run(RayBackend(joined), [job])
    assert (result.number, result.score, result.fault) == (4, 0.0, 0)
    assert result.reason == "Red (alphabeta:depth=0) lost on time: no move within 0.2 s"


@pytest.mark.slow
def test_an_address_where_no_ray_answers_is_an_error() -> None:
    """Something listens there but says nothing: Ray gives up after one try (about 11 s,
    not the ten minutes of its defaults). In a process of its own, which has joined no
    cluster and imports Ray afresh, as the `zerosum` command does."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        address = f"127.0.0.1:{listener.getsockname()[1]}"
        code = ("from zerosum.tournament.raycluster import RayBackend\n"
                f"RayBackend({address!r}).run(iter([]), print)")
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=120)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        f"zerosum.game.InputError: cannot join the Ray cluster at {address}: "
        f"ConnectionError: Failed to connect to Ray cluster at {address}")


def test_only_the_ray_backend_imports_ray() -> None:
    """Ray is an optional extra: nothing else may need it."""
    src = Path(zerosum.__file__).parent
    users = sorted(str(path.relative_to(src)) for path in src.rglob("*.py")
                   if any(isinstance(node, (ast.Import, ast.ImportFrom))
                          and any(name == "ray" or name.startswith("ray.")
                                  for name in imported(node))
                          for node in ast.walk(ast.parse(path.read_text()))))
    assert users == ["tournament/raycluster.py"]


def imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""] if node.level == 0 else []
    return [alias.name for alias in node.names]


def test_a_cluster_that_wants_a_token_says_so(cluster: str) -> None:
    """In a process of its own, not told the token (nor that the cluster wants one)."""
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_AUTH_TOKEN", "RAY_AUTH_MODE")}
    code = ("from zerosum.tournament.raycluster import RayBackend\n"
            f"RayBackend({cluster!r}).run(iter([]), print)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={**env, "RAY_AUTH_MODE": "disabled"})
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        f"zerosum.game.InputError: cannot join the Ray cluster at {cluster}: it asks for "
        "Ray's token (RAY_AUTH_MODE=token, and the token in RAY_AUTH_TOKEN or "
        "~/.ray/auth_token)")


def test_training_rounds_on_the_cluster_learn_what_local_workers_learn(
        cluster: str, tmp_path: Path) -> None:
    """A trainer's self-play rounds as Ray tasks (RayPool), and its gates on the cluster:
    the same weights as two local worker processes, and gates that decide alike (how
    many games a gate took depends on which games end first, with workers)."""
    from zerosum.games.registry import get_game
    from zerosum.learn.train import train
    from zerosum.tournament.gate import CheckpointGate
    from zerosum.tournament.raycluster import RayPool

    ttt = get_game("tictactoe")
    runs = []
    for name, pool, backend in (("ray", RayPool(cluster, 2), RayBackend(cluster, 2)),
                                ("local", None, LocalBackend(2))):
        runs.append(train(ttt, ttt.create(), {}, "ntuple", tmp_path / f"{name}.zsnet",
                          games=800, seed=3, workers=2, pool=pool, checkpoint_games=400,
                          gatekeeper=CheckpointGate(ttt, ttt.create(), {}, 3, backend)))
    on_ray, local = runs
    assert on_ray.arrays["weights"] == local.arrays["weights"]
    gates = [r.header["run"]["history"][1]["gate"] for r in runs]
    assert [(g["checkpoint"], g["against"], g["decision"]) for g in gates] == \
        [("games-800", "games-400", "H1")] * 2
    assert all(g["games"] > 0 for g in gates)
