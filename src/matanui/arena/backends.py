"""Where simulation chunks run: this process, a local process pool, or a Ray cluster.

Every backend plays the same `play_chunk(job, indices)`, so the games (and the stored rows)
are the same whichever runs them; only the order in which pieces finish differs. A few
pieces per worker are kept in flight, so a big job never floods memory with pending work.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .simulate import GameRow, Job, SimulationError, play_chunk

IN_FLIGHT_PER_WORKER = 3
# In a pool, the fewest pieces of work each worker gets over a run: progress then moves at
# least this often, while handing out a piece (well under a millisecond) stays small beside
# the games in it.
PIECES_PER_WORKER = 100
CONNECT_TIMEOUT_S = 10
TOKEN_HELP = ("set RAY_AUTH_TOKEN to the cluster's token (`ray get-auth-token` on its head node "
              "prints it), or RAY_AUTH_TOKEN_PATH to a file holding it, or put it in ~/.ray/auth_token")


def _ray_token_at_hand() -> bool:
    """Whether a Ray auth token is in one of the places Ray itself reads it from."""
    path = os.environ.get("RAY_AUTH_TOKEN_PATH")
    return bool(os.environ.get("RAY_AUTH_TOKEN")) or (Path(path).is_file() if path else
                                                      (Path.home() / ".ray" / "auth_token").is_file())


def _use_token_auth() -> None:
    """Clusters started with `ray start` ask for a token by default (Ray 2.59 and later), but a
    driver given an explicit address sends one only under RAY_AUTH_MODE=token. Turn that on when a
    token is at hand and the operator has not chosen a mode. Ray reads the mode once, at import,
    so this runs before `import ray`."""
    if "RAY_AUTH_MODE" not in os.environ and _ray_token_at_hand():
        os.environ["RAY_AUTH_MODE"] = "token"


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Ray's C++ client logs each failed connection attempt straight to file descriptor 2; while
    connecting, those lines go nowhere, and a failure is told in one line by the caller."""
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _answers(address: str) -> bool:
    """Whether something listens at a HOST:PORT address (other forms are left to Ray). Ray
    itself retries an address where nothing listens for minutes before giving up."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or "/" in address:
        return True
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT_S).close()
    except OSError:
        return False
    return True


def _causes(exc: BaseException) -> Iterator[BaseException]:
    while exc is not None:
        yield exc
        exc = exc.__cause__ or exc.__context__


class LocalBackend:
    """`workers` processes on this machine (1: in this process, no pool)."""

    def __init__(self, workers: int = 1) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise SimulationError(f"--workers must be a whole number >= 1, not {workers!r}")
        self.workers = workers

    def piece(self, missing: int, chunk: int) -> int:
        """One game at a time in this process (handing out costs nothing); in a pool, enough
        pieces per worker that progress moves, never more than a chunk."""
        if self.workers == 1:
            return 1
        return max(1, min(chunk, missing // (self.workers * PIECES_PER_WORKER)))

    def run(self, job: Job, work: list[list[int]]) -> Iterator[list[GameRow]]:
        if self.workers == 1:
            for indices in work:
                yield play_chunk(job, indices)
            return
        pool = ProcessPoolExecutor(max_workers=self.workers)
        try:
            queue = iter(work)
            pending: set[Future[list[GameRow]]] = set()
            while True:
                while len(pending) < self.workers * IN_FLIGHT_PER_WORKER:
                    indices = next(queue, None)
                    if indices is None:
                        break
                    pending.add(pool.submit(play_chunk, job, indices))
                if not pending:
                    return
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


class RayBackend:
    """A Ray cluster: the one at `address` (its head's HOST:PORT, `ray://head:10001` or
    `auto`), or a local one started with `workers` CPUs and shut down afterwards. An existing
    cluster is sent this matanui package with the job, so its nodes need only Python, Ray and
    matanui's own dependencies; its token is read where Ray reads it (see `_use_token_auth`)."""

    def __init__(self, address: str | None = None, workers: int = 1) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise SimulationError(f"--workers must be a whole number >= 1, not {workers!r}")
        self.address = address
        self.workers = workers

    def piece(self, missing: int, chunk: int) -> int:
        """A whole chunk per task: a cluster's cost per task is what --chunk is sized against."""
        return chunk

    def _connect(self) -> tuple[Any, bool]:
        if self.address:
            _use_token_auth()
            if not _answers(self.address):
                raise SimulationError(f"nothing answers at {self.address}: start the cluster's head there "
                                      "(`ray start --head --port=PORT`) and pass --address HOST:PORT, "
                                      "the address that command prints")
        try:
            import ray
        except ImportError:
            raise SimulationError("--backend ray needs Ray: pip install 'matanui[cluster]'") from None
        if ray.is_initialized():
            return ray, False
        settings: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                    "logging_level": "ERROR"}
        if self.address:
            import matanui

            settings.update(address=self.address, runtime_env={"py_modules": [matanui]})
        else:
            settings.update(num_cpus=self.workers)
        try:
            if self.address:
                with _quiet_stderr():
                    ray.init(**settings)
            else:
                ray.init(**settings)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise SimulationError(self._explain(exc)) from None
        return ray, True

    def _explain(self, exc: Exception) -> str:
        """One line saying why Ray could not be started or reached, and what to set."""
        if not self.address:
            return f"cannot start a local Ray cluster: {exc}"
        where = f"cannot reach the Ray cluster at {self.address}"
        if any("InvalidAuthToken" in str(cause) or type(cause).__name__ == "AuthenticationError"
               for cause in _causes(exc)):
            if os.environ.get("RAY_AUTH_MODE", "token") != "token":
                return f"{where}: it asks for a token; set RAY_AUTH_MODE=token and {TOKEN_HELP}"
            if _ray_token_at_hand():
                return f"{where}: it refused this driver's token; {TOKEN_HELP}"
            return f"{where}: it asks for a token and this driver has none; {TOKEN_HELP}"
        return (f"{where} ({exc}); start it with `ray start --head --port=PORT` and pass "
                "--address HOST:PORT, the address that command prints")

    def run(self, job: Job, work: list[list[int]]) -> Iterator[list[GameRow]]:
        ray, started = self._connect()
        pending: list[Any] = []
        try:
            remote = ray.remote(play_chunk)
            capacity = max(1, int(ray.cluster_resources().get("CPU", self.workers))) * IN_FLIGHT_PER_WORKER
            queue = iter(work)
            while True:
                while len(pending) < capacity:
                    indices = next(queue, None)
                    if indices is None:
                        break
                    pending.append(remote.remote(job, indices))
                if not pending:
                    return
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    yield ray.get(ref)
        finally:
            for ref in pending:  # stopped early (interrupted or failed): drop the rest
                ray.cancel(ref, force=True)
            if started:
                ray.shutdown()
