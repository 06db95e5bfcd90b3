"""Running a simulation job into a results file: the driver behind `matanui simulate`.

It joins the two halves that know nothing of each other: what a job plays (simulate.py)
and where finished games are kept (results.py), through any `Backend` (backends.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Protocol

from .results import ResultStore
from .simulate import DEFAULT_CHUNK, GameRow, Job, SimulationError


def chunks(indices: Iterable[int], size: int) -> list[list[int]]:
    batch: list[int] = []
    result = []
    for index in indices:
        batch.append(index)
        if len(batch) == size:
            result.append(batch)
            batch = []
    if batch:
        result.append(batch)
    return result


class Backend(Protocol):
    """Runs pieces of a job somewhere (see arena/backends.py), yielding each finished piece
    as soon as it is done, in any order."""

    def piece(self, missing: int, chunk: int) -> int:
        """Games per piece of work, for `missing` games to play, at most `chunk`: small pieces
        show progress often, big ones cost less to hand out."""
        ...

    def run(self, job: Job, work: list[list[int]]) -> Iterator[list[GameRow]]: ...


def simulate(job: Job, store_path: str, backend: Backend, chunk: int = DEFAULT_CHUNK,
             on_progress: Callable[[int, int], None] | None = None,
             on_resume: Callable[[int], None] | None = None) -> int:
    """Play the games of `job` that `store_path` lacks, committing them `chunk` at a time.
    `on_resume(done)` is told once how many games the file already held;
    `on_progress(done, total)` is called at the start and as each piece of work finishes
    (every game in this process). Returns the number of games played now. Killing the
    process loses at most the games not yet committed (an interrupt or an error commits
    every finished game first); running again resumes."""
    if chunk < 1:
        raise SimulationError(f"the chunk size must be at least 1, not {chunk}")
    with ResultStore(store_path) as store:
        store.bind(job)
        done = store.done_indices()
        missing = [i for i in range(job.games) if i not in done]
        finished = job.games - len(missing)
        if on_resume is not None:
            on_resume(finished)
        if on_progress is not None:
            on_progress(finished, job.games)
        played = 0
        waiting: list[GameRow] = []
        try:
            for rows in backend.run(job, chunks(missing, backend.piece(len(missing), chunk))):
                waiting += rows
                played += len(rows)
                if len(waiting) >= chunk:
                    store.add(waiting)
                    waiting = []
                if on_progress is not None:
                    on_progress(finished + played, job.games)
        finally:
            if waiting:
                store.add(waiting)
    return played
