"""Worker processes for CPU-bound work (bot decisions, replays), never on the event loop.

Python work on a thread would still hold the GIL against the loop, so each pool is a set of
`spawn`ed processes (the server process has threads: fork would copy them half-way). A pool
may run at a lower CPU priority (`nice`): background work (games of bots only, replays) then
takes only the CPU that games with people leave over; a pool may run `idle` too (Linux's
SCHED_IDLE, below even nice 19: the analyses, which then take only what replays leave over).
Workers leave with the server.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

BACKGROUND_NICE = 19  # the lowest CPU priority: background work yields to everything else


def _start(server: int, nice: int, idle: bool = False) -> None:
    """Lower this worker's priority, load the agents and every game's data once, and leave
    with the server: a server killed outright (kill -9) never tells its workers."""
    import matanui.ai  # noqa: F401  (the import is the warm-up)
    from matanui import games

    if nice:
        os.nice(nice)
    if idle and hasattr(os, "SCHED_IDLE"):  # elsewhere (not Linux) nice alone
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    for name in games.names():
        games.get(name)
    threading.Thread(target=_exit_with, args=(server,), daemon=True, name="watch-server").start()


def _exit_with(server: int) -> None:
    while os.getppid() == server:
        time.sleep(1.0)
    os._exit(0)


class Workers:
    """`count` worker processes at CPU priority `nice` (0: normal, 19: lowest), and `idle`
    (SCHED_IDLE, where the system has it: only when nothing else wants the CPU), started when
    the first job comes."""

    def __init__(self, count: int, *, nice: int = 0, idle: bool = False) -> None:
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(max_workers=count, mp_context=context, initializer=_start,
                                         initargs=(os.getpid(), nice, idle))

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, call, *args)

    def pids(self) -> list[int]:
        """The workers started so far (for tests and the abuse script)."""
        return list(getattr(self._pool, "_processes", None) or {})

    def close(self) -> None:
        """Stop the workers (a job in progress finishes first: at most a hard bot's second)."""
        self._pool.shutdown(wait=True, cancel_futures=True)
