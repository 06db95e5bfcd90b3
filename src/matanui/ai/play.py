"""The one loop that plays a game to its end: with agents, each deciding from its own seat's
view, or with uniformly random moves. The arena, the batch simulator, the studies and the
benchmarks all play through it, so a change to how a game is played is made once."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from matanui.engine import Event, MatanuiError, State

from .base import Agent, SeatView


@dataclass
class BenchResult:
    """How many random games and steps were played in how many seconds (`matanui bench`,
    the batched engine's playouts)."""

    game: str
    players: int
    games: int
    steps: int
    seconds: float

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


def _deciding_seat(state: State) -> int:
    seat = state.current_player
    if seat is None:  # the kernel's contract: a game that is not over has a seat to decide
        raise MatanuiError(f"{state.game.name}: no seat decides, yet the game is not over")
    return seat


def deciding(state: State, agents: Sequence[Agent]) -> Iterator[int]:
    """Play `state` to its end with `agents` (one per seat). Before each decision it yields the
    seat about to decide, so the caller may look at the position first (without changing it);
    breaking out of the loop stops the game there."""
    while not state.is_over:
        seat = _deciding_seat(state)
        yield seat
        state.apply(agents[seat].act(SeatView(state, seat)))


def moves(state: State, agents: Sequence[Agent]) -> Iterator[tuple[int, str, list[Event]]]:
    """Play `state` to its end with `agents` (one per seat), yielding after each move the seat,
    its action and the events the move caused."""
    while not state.is_over:
        seat = _deciding_seat(state)
        action = agents[seat].act(SeatView(state, seat))
        yield seat, action, state.apply(action)


def play_randomly(state: State, rng: random.Random) -> int:
    """Play `state` to its end with uniformly random legal moves drawn from `rng`; the steps
    taken. Each step is what a random playout does: list the legal actions, pick one, apply
    it (the benchmarks' loop, kept free of anything else)."""
    legal, apply, randrange = state.legal_actions, state.apply, rng.randrange
    steps = 0
    while not state.is_over:
        actions = legal()
        apply(actions[randrange(len(actions))])
        steps += 1
    return steps
