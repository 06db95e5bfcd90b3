"""Bots move on the server, in a pool of worker processes, never on the event loop.

An agent's `act` is CPU-bound Python (a `hard` bot searches for a second), so running it on
the event loop would freeze every game, and running it on a thread would still hold the GIL
against the loop. A worker process instead receives the game's record (a few hundred bytes),
replays it, builds the agent and returns one action id. The record is the truth: a worker
keeps recent positions only as a cache (it applies just the actions since), so any worker
can serve any game, a restarted server needs nothing but the database, and a bot's move
depends only on the record: its seed is drawn from (game seed, seat, move number).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from matanui.engine import Record, State

BOT_LEVELS = ("easy", "medium", "hard")


def bot_seed(game_seed: int, seat: int, move: int) -> int:
    """A bot's seed for one decision: the same record always gives the same bot move."""
    return (game_seed * 1_000_003 + seat * 10_007 + move) % (2**63)


# A worker's last position of each game it served, so that the next decision applies only the
# actions since (replaying whole records would cost each game time in the square of its length).
_positions: OrderedDict[str, State] = OrderedDict()
POSITIONS_KEPT = 512


def _position(game_id: str, record: Record) -> State:
    from matanui.engine import replay

    state = _positions.pop(game_id, None)
    if (state is None or state.seed != record.seed
            or state.history != record.actions[: len(state.history)]):
        state = replay(record)
    else:
        for action in record.actions[len(state.history):]:
            state.apply(action)
    _positions[game_id] = state
    if len(_positions) > POSITIONS_KEPT:
        _positions.popitem(last=False)
    return state


def choose_action(game_id: str, record: dict[str, Any], seat: int, level: str) -> str:
    """In a worker: bring the game up to its record and let the bot decide for `seat`."""
    from matanui.ai import SeatView, make_agent

    parsed = Record.from_dict(record)
    state = _position(game_id, parsed)
    if state.current_player != seat:
        raise RuntimeError(f"seat {seat} is not to decide (seat {state.current_player} is)")
    agent = make_agent(level, parsed.game, seed=bot_seed(parsed.seed, seat, len(parsed.actions)))
    return agent.act(SeatView(state, seat))


def _warm_up(server: int) -> None:
    """Load the agents and every game's data once per worker, before the first bot turn, and
    leave with the server: a server killed outright (kill -9) never tells its workers."""
    import matanui.ai  # noqa: F401  (the import is the warm-up)
    from matanui import games

    for name in games.names():
        games.get(name)
    threading.Thread(target=_exit_with, args=(server,), daemon=True, name="watch-server").start()


def _exit_with(server: int) -> None:
    while os.getppid() == server:
        time.sleep(1.0)
    os._exit(0)


class BotPool:
    """A pool of worker processes that choose bot actions."""

    def __init__(self, workers: int) -> None:
        # spawn, not fork: the server process has threads (the database thread, uvicorn's).
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_warm_up,
                                         initargs=(os.getpid(),))

    async def choose(self, game_id: str, record: dict[str, Any], seat: int, level: str) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, choose_action, game_id, record, seat, level)

    def close(self) -> None:
        """Stop the workers (a decision in progress finishes first: at most a hard bot's second)."""
        self._pool.shutdown(wait=True, cancel_futures=True)
