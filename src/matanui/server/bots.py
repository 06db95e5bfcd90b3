"""Bots move on the server, in a pool of worker processes, never on the event loop.

An agent's `act` is CPU-bound Python (a `hard` bot searches for a second), so running it on
the event loop would freeze every game, and running it on a thread would still hold the GIL
against the loop. A worker process instead receives the game's record (a few hundred bytes),
replays it, builds the agent and returns one action id. Workers keep no game in memory, so
any worker can serve any game, a restarted server needs nothing but the database, and a
bot's move depends only on the record: its seed is drawn from (game seed, seat, move number).
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

BOT_LEVELS = ("easy", "medium", "hard")


def bot_seed(game_seed: int, seat: int, move: int) -> int:
    """A bot's seed for one decision: the same record always gives the same bot move."""
    return (game_seed * 1_000_003 + seat * 10_007 + move) % (2**63)


def choose_action(record: dict[str, Any], seat: int, level: str) -> str:
    """In a worker: rebuild the game from its record and let the bot decide for `seat`."""
    from matanui.ai import SeatView, make_agent
    from matanui.engine import Record, replay

    parsed = Record.from_dict(record)
    state = replay(parsed)
    if state.current_player != seat:
        raise RuntimeError(f"seat {seat} is not to decide (seat {state.current_player} is)")
    agent = make_agent(level, parsed.game, seed=bot_seed(parsed.seed, seat, len(parsed.actions)))
    return agent.act(SeatView(state, seat))


def _warm_up() -> None:
    """Load the agents and every game's data once per worker, before the first bot turn."""
    import matanui.ai  # noqa: F401  (the import is the warm-up)
    from matanui import games

    for name in games.names():
        games.get(name)


class BotPool:
    """A pool of worker processes that choose bot actions."""

    def __init__(self, workers: int) -> None:
        # spawn, not fork: the server process has threads (the database thread, uvicorn's).
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_warm_up)

    async def choose(self, record: dict[str, Any], seat: int, level: str) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, choose_action, record, seat, level)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
