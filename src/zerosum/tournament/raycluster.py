"""The games of a tournament as Ray tasks on a cluster (`--backend ray --address HOST:PORT`).

Ray is an optional extra (`pip install -e '.[ray]'` in the clone), imported only here.
Each game is one task running `referee.play_game(job)` on whichever node has a free CPU, so
its result is the one a local worker would give (for agents limited by depth, nodes or a
seed).
Every node needs the same Python and zerosum, and a person's own game or agent files at
the same path (relative paths are taken from the same working directory): docs/ray.md.

A task whose worker or node dies is played once more; a second death stops the
tournament with an InputError naming the game (rerunning resumes). Unlike a local worker,
a Ray task does not say whose turn it was, so a death cannot be blamed on an agent.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Iterator
from typing import Any

from zerosum.extras import install_hint
from zerosum.game import InputError
from zerosum.tournament.backends import ResultSink
from zerosum.tournament.jobs import GameJob, GameResult
from zerosum.tournament.referee import play_game

CONNECT_TIMEOUT = 10.0  # seconds to reach the head node's port before giving up
# Ray reads these when it is imported. By default a driver whose cluster does not answer
# (something else listens at the address) retries for over ten minutes, 20 tries of 35 s;
# these make it one try of about 11 s.
RAY_SETTINGS = {
    "RAY_gcs_server_port_wait_time_s": "1",  # tries to reach the cluster's GCS
    "RAY_gcs_rpc_server_connect_timeout_s": "3",
    "RAY_py_gcs_connect_timeout_s": "5",
}
TRIES = 2  # a game whose worker died is played once more


def import_ray() -> Any:
    """The `ray` module, imported with RAY_SETTINGS; InputError if it is not installed."""
    for name, value in RAY_SETTINGS.items():
        os.environ.setdefault(name, value)  # a person's own setting wins
    try:
        import ray
    except ImportError:
        raise InputError(f"the Ray backend needs Ray (the ray extra): {install_hint('ray')}"
                         ) from None
    return ray


def check_reachable(address: str) -> None:
    """InputError unless something listens at `address` (HOST:PORT): Ray itself would
    take a while to say that nothing answers, and a few lines of its own to say it."""
    if address in ("auto", "local") or "://" in address:
        return  # Ray's own forms: Ray checks them
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise InputError(f"Ray cluster address {address}: give HOST:PORT, the head "
                         "node's (ray start --head --port=PORT)")
    try:
        socket.create_connection((host.strip("[]"), int(port)), CONNECT_TIMEOUT).close()
    except OSError as e:
        raise InputError(f"no Ray cluster at {address}: {e.strerror or e} (is "
                         f"`ray start --head --port={port}` running there?)") from None


def play_on_node(job: GameJob, cwd: str) -> GameResult:
    """A task: the game, played from the driver's working directory where the node has
    it (so that a person's files named by relative paths are found as they are there)."""
    if os.path.isdir(cwd):
        os.chdir(cwd)
    return play_game(job)


class RayBackend:
    """Games as tasks of the Ray cluster at `address` (None: Ray's own choice, RAY_ADDRESS
    or the cluster started on this machine), `workers` at once (default: its CPUs).
    Made, it has checked that Ray is installed and that the address answers: a command
    fails on those before it writes anything (the tournament's database)."""

    def __init__(self, address: str | None, workers: int | None = None) -> None:
        self.address = address
        self.workers = workers
        import_ray()
        if address:
            check_reachable(address)

    def run(self, jobs: Iterator[GameJob], on_result: ResultSink) -> None:
        ray = import_ray()
        connected = self.connect(ray)
        try:
            self.loop(ray, jobs, on_result)
        finally:
            if connected:
                ray.shutdown()

    def connect(self, ray: Any) -> bool:
        """Join the cluster; False if this process had joined one already, which it then
        uses and leaves joined (a program of the person's own that uses Ray too)."""
        if self.address:
            check_reachable(self.address)
        if ray.is_initialized():
            return False
        where = self.address or "the default address"
        try:
            ray.init(address=self.address, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.WARNING, ignore_reinit_error=True)
        except (ConnectionError, RuntimeError, ValueError) as e:
            why = "it asks for Ray's token (RAY_AUTH_MODE=token, and the token in " \
                "RAY_AUTH_TOKEN or ~/.ray/auth_token)" if wants_token(e) else first_line(e)
            raise InputError(f"cannot join the Ray cluster at {where}: {why}") from None
        return True

    def loop(self, ray: Any, jobs: Iterator[GameJob], on_result: ResultSink) -> None:
        task = ray.remote(max_retries=0)(play_on_node)
        size = self.workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        cwd = os.getcwd()
        running: dict[Any, tuple[GameJob, int]] = {}  # a task's reference: its job, try
        more = True
        try:
            while True:
                while more and len(running) < size:
                    job = next(jobs, None)
                    if job is None:
                        more = False
                    else:
                        running[task.remote(job, cwd)] = (job, 1)
                if not running:
                    return
                [ref], _ = ray.wait(list(running), num_returns=1)
                job, tries = running.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as e:  # the game's code raised
                    raise InputError(f"game {job.number}: {first_line(e.cause)}") from None
                except ray.exceptions.RayError as e:  # its worker or node died
                    if tries == TRIES:
                        raise InputError(
                            f"game {job.number}: its Ray worker died {TRIES} times "
                            f"({type(e).__name__}); the tournament stopped "
                            "(rerun it to resume)") from None
                    running[task.remote(job, cwd)] = (job, tries + 1)
                    continue
                if on_result(result):
                    return
        finally:
            for ref in running:  # an early stop or an error: abandon what is in flight
                ray.cancel(ref, force=True)


def wants_token(e: BaseException | None) -> bool:
    """Whether Ray's error says the cluster wants an authentication token (Ray tells it
    in the text of an exception inside the one it raises)."""
    while e is not None:
        if "AuthenticationError" in str(e) or type(e).__name__ == "AuthenticationError":
            return True
        e = e.__cause__ or e.__context__
    return False


def first_line(e: BaseException) -> str:
    text = str(e).strip()
    line = text.splitlines()[0] if text else type(e).__name__
    return line if isinstance(e, InputError) else f"{type(e).__name__}: {line}"


class RayPool:
    """One function called on shares of work as Ray tasks, a task a share, the results
    in the shares' order (a trainer's self-play rounds: zerosum.learn.train's pool).
    Made, it has checked Ray and the address, and joined the cluster (as RayBackend)."""

    def __init__(self, address: str | None, workers: int | None = None) -> None:
        self.backend = RayBackend(address, workers)
        self.ray = import_ray()
        self.connected = self.backend.connect(self.ray)
        self.workers = workers or max(1, int(self.ray.cluster_resources().get("CPU", 1)))
        self.tasks: dict[Any, Any] = {}

    def map(self, function: Any, shared: tuple[Any, ...], shares: list[Any]) -> list[Any]:
        """[function(*shared, share) for share in shares], the shared arguments shipped
        to the cluster once."""
        ray = self.ray
        task = self.tasks.get(function)
        if task is None:
            task = self.tasks[function] = ray.remote(max_retries=1)(function)
        refs = [ray.put(x) for x in shared]
        try:
            return list(ray.get([task.remote(*refs, share) for share in shares]))
        except ray.exceptions.RayTaskError as e:
            raise InputError(f"a task on the Ray cluster failed: {first_line(e.cause)}"
                             ) from None
        except ray.exceptions.RayError as e:  # its worker or node died, twice
            raise InputError(f"a task's Ray worker died ({type(e).__name__})") from None

    def close(self) -> None:
        if self.connected:
            self.ray.shutdown()
            self.connected = False
