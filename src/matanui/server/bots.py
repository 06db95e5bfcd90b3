"""Bots move on the server, in worker processes (workers.py), never on the event loop.

An agent's `act` is CPU-bound Python (a `hard` bot searches for a second), so running it on
the event loop would freeze every game, and running it on a thread would still hold the GIL
against the loop. A worker process instead receives the game's record (a few hundred bytes),
replays it, builds the agent and returns one action id. The record is the truth: a worker
keeps recent positions only as a cache (it applies just the actions since), so any worker
can serve any game, a restarted server needs nothing but the database, and a bot's move
depends only on the record: its seed is drawn from (game seed, seat, move number).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from matanui.engine import Record, State

from .workers import BACKGROUND_NICE, Workers

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


class BotPool:
    """Two lanes of worker processes that choose bot actions. Games with a person in a seat
    use `people` (normal priority); games of bots only use `background`, its own workers at
    the lowest CPU priority, so they never queue before a person's game nor take its CPU."""

    def __init__(self, workers: int, background_workers: int = 1) -> None:
        self.people = Workers(workers)
        self.background = Workers(background_workers, nice=BACKGROUND_NICE)

    async def choose(self, game_id: str, record: dict[str, Any], seat: int, level: str, *,
                     background: bool = False) -> str:
        lane = self.background if background else self.people
        return await lane.run(choose_action, game_id, record, seat, level)

    def close(self) -> None:
        self.people.close()
        self.background.close()
