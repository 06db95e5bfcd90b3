"""Bots move on the server, in worker processes (workers.py), never on the event loop.

An agent's `act` is CPU-bound Python (a `hard` bot searches for a second), so running it on
the event loop would freeze every game, and running it on a thread would still hold the GIL
against the loop. A worker process instead receives the game's record (a few hundred bytes),
replays it, builds the agent and returns one action id. The record is the truth: a worker
keeps recent positions only as a cache (it applies just the actions since), so any worker
can serve any game, a restarted server needs nothing but the database, and a bot's move
depends only on the record: its seed is drawn from (game seed, seat, move number).

A timed level's thinking time (`hard`: one second) counts from when the game asked for the
move, not from when a worker got to it: in games with people, the search gets what is left
of its seconds after the wait, and where less than `LEAST_SEARCH` is left the bot plays the
game's heuristic (`medium`) at once (in a game without one, it searches for `LEAST_SEARCH`).
Under load the reply still comes about when it would on a quiet server, and the queue cannot
grow: a late job takes the worker for milliseconds.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from matanui.engine import Record, State

from .workers import BACKGROUND_NICE, Workers

BOT_LEVELS = ("easy", "medium", "hard")
LEAST_SEARCH = 0.05  # seconds: a search shorter than this would be noise; play the heuristic


def levels_offered(game: str) -> list[str]:
    """The bot levels a game offers: `medium` is its sensible player, so only a game with
    one (its heuristics, matanui.ai.heuristics) offers it."""
    from matanui.ai.heuristics import heuristics

    return [level for level in BOT_LEVELS if level != "medium" or heuristics(game) is not None]


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


def hint_for(game_id: str, record: dict[str, Any], seat: int) -> dict[str, Any]:
    """In a worker: the hint for `seat` at the record's position, searched from its view
    (matanui.ai.analysis), seeded by the position so that asking again gives the same."""
    from matanui.ai import SeatView
    from matanui.ai.analysis import hint

    parsed = Record.from_dict(record)
    state = _position(game_id, parsed).clone()
    found = hint(SeatView(state, seat), seed=bot_seed(parsed.seed, seat, len(parsed.actions)))
    return {"action": found.action, "words": found.words, "reason": found.reason,
            "chance": round(found.chance, 3)}


@dataclass(frozen=True)
class Choice:
    action: str
    timed: bool  # the level thinks for a time (`hard`)
    hurried: bool  # ... but its time was spent waiting: the heuristic chose


def choose_action(game_id: str, record: dict[str, Any], seat: int, level: str,
                  asked: float | None = None) -> Choice:
    """In a worker: bring the game up to its record and let the bot decide for `seat`. With
    `asked` (time.time() when the move was asked for) a timed level thinks only for what is
    left of its seconds, or plays the heuristic where that is less than LEAST_SEARCH (where
    the game has none, it searches for LEAST_SEARCH)."""
    from matanui.ai import SeatView, make_agent

    parsed = Record.from_dict(record)
    state = _position(game_id, parsed)
    if state.current_player != seat:
        raise RuntimeError(f"seat {seat} is not to decide (seat {state.current_player} is)")
    seed = bot_seed(parsed.seed, seat, len(parsed.actions))
    agent = make_agent(level, parsed.game, seed=seed, outside_code=False)
    seconds = getattr(agent, "seconds", None)
    hurried = False
    if seconds is not None and asked is not None:
        left = asked + seconds - time.time()
        hurried = left < LEAST_SEARCH
        if hurried and "medium" in levels_offered(parsed.game):
            agent = make_agent("medium", parsed.game, seed=seed)
        else:
            agent.seconds = max(left, LEAST_SEARCH)
    return Choice(agent.act(SeatView(state, seat)), seconds is not None, hurried)


class BotPool:
    """Two lanes of worker processes that choose bot actions. Games with a person in a seat
    use `people` (normal priority); games of bots only use `background`, its own workers at
    the lowest CPU priority, so they never queue before a person's game nor take its CPU.
    Only `people` counts a timed level's seconds from the asking (nobody waits on a game of
    bots only); it counts its timed moves and how many were hurried (for /api/health)."""

    def __init__(self, workers: int, background_workers: int = 1) -> None:
        self.people = Workers(workers)
        self.background = Workers(background_workers, nice=BACKGROUND_NICE)
        self.counts = {"timed_moves": 0, "hurried_moves": 0}

    async def choose(self, game_id: str, record: dict[str, Any], seat: int, level: str, *,
                     background: bool = False) -> str:
        if background:
            choice = await self.background.run(choose_action, game_id, record, seat, level)
            return choice.action
        choice = await self.people.run(choose_action, game_id, record, seat, level, time.time())
        self.counts["timed_moves"] += choice.timed
        self.counts["hurried_moves"] += choice.hurried
        return choice.action

    async def hint(self, game_id: str, record: dict[str, Any], seat: int) -> dict[str, Any]:
        """A hint for `seat`'s decision now, on the people's lane (someone is waiting)."""
        return await self.people.run(hint_for, game_id, record, seat)

    def close(self) -> None:
        self.people.close()
        self.background.close()
