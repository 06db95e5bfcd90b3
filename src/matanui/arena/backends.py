"""Where simulation chunks run: this process, a local process pool, or a Ray cluster.

Every backend plays the same `play_chunk(job, indices)`, so the games (and the stored rows)
are the same whichever runs them; only the order in which chunks finish differs. A few
chunks per worker are kept in flight, so a big job never floods memory with pending work.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from .simulate import GameRow, Job, SimulationError, play_chunk

IN_FLIGHT_PER_WORKER = 3


class LocalBackend:
    """`workers` processes on this machine (1: in this process, no pool)."""

    def __init__(self, workers: int = 1) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise SimulationError(f"--workers must be a whole number >= 1, not {workers!r}")
        self.workers = workers

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
    """A Ray cluster: the one at `address` (for example `ray://head:10001` or `auto`), or a
    local one started with `workers` CPUs and shut down afterwards. An existing cluster is
    sent this matanui package with the job, so its nodes need only Python and Ray."""

    def __init__(self, address: str | None = None, workers: int = 1) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise SimulationError(f"--workers must be a whole number >= 1, not {workers!r}")
        self.address = address
        self.workers = workers

    def _connect(self) -> tuple[Any, bool]:
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
            ray.init(**settings)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise SimulationError(f"cannot start or reach Ray at {self.address or 'a local cluster'}: "
                                  f"{exc}") from None
        return ray, True

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
