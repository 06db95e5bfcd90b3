"""What an agent is, and the only window it gets on a game: its seat's view.

Agents never hold the true state. A `SeatView` exposes what the seat may know (its
observation, what it observed at every earlier step, and the legal actions) and
`determinize`, which samples a full state consistent with that observation. The view is
rebuilt for every decision.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

from matanui.engine import Game, State


class SeatView:
    """What one seat may see of a state, and nothing more."""

    __slots__ = ("_history", "_state", "seat")

    def __init__(self, state: State, seat: int, history: list[dict[str, Any]] | None = None) -> None:
        self._state = state
        self.seat = seat
        self._history = history

    @property
    def game(self) -> Game:
        return self._state.game

    @property
    def players(self) -> tuple[str, ...]:
        return self._state.players

    def observation(self) -> dict[str, Any]:
        return self._state.observation(self.seat)

    def observation_history(self) -> list[dict[str, Any]]:
        """What this seat saw before each action of the game so far, oldest first (the
        current observation is not included): the seat watched every step, so it may
        remember them all. Rebuilt from the game's record; a determinized state has no
        record, so its history is empty unless the view was given one."""
        if self._history is None:
            state = self._state
            if state.seed < 0:
                self._history = []
            else:
                past = state.game.new_game(state.seed, state.players, state.options, state.arrangement)
                seen = []
                for action in state.history:
                    seen.append(past.observation(self.seat))
                    past.apply(action)
                self._history = seen
        return self._history

    def legal_actions(self) -> list[str]:
        return self._state.legal_actions()

    def describe(self, action: str) -> str:
        return self._state.describe(action)

    def determinize(self, rng: random.Random) -> State:
        """A full state agreeing with this seat's observation, hidden parts resampled."""
        return self._state.determinize(self.seat, rng)


class Agent(ABC):
    """Chooses one legal action for the seat whose view it is given. Seeded: the same seed
    and the same views give the same choices."""

    name: str = "agent"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def act(self, view: SeatView) -> str: ...


class RandomAgent(Agent):
    """Uniformly random among the legal actions."""

    name = "random"

    def act(self, view: SeatView) -> str:
        actions = view.legal_actions()
        return actions[self.rng.randrange(len(actions))]
