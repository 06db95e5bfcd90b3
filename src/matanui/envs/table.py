"""One game in progress as the research adapters see it: the matanui state, its encoding,
and each seat's memory (the summary of all that seat has observed so far)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from matanui.engine import Event, IllegalAction, MatanuiError, State

from .encoding import Encoding


def choose_characters(encoding: Encoding, characters: Sequence[str] | None, rng: random.Random) -> list[str]:
    """The given characters (checked), or a seeded draw of distinct ones."""
    game = encoding.game
    if characters is None:
        return rng.sample(game.characters(), encoding.players)
    characters = list(characters)
    if len(characters) != encoding.players:
        raise MatanuiError(f"name {encoding.players} characters, one per seat, not {len(characters)}: "
                           f"choose from {', '.join(game.characters())}")
    return characters


class Table:
    def __init__(self, encoding: Encoding, state: State, memory: np.ndarray | None = None) -> None:
        """A table for `state`; `memory` carries the seats' memories over (from a copy or a
        resampled state), otherwise they start from what the seats observe now."""
        self.encoding = encoding
        self.state = state
        self._seen: list[dict[str, Any] | None] = [None] * encoding.players
        fresh = memory is None
        self.memory = np.zeros((encoding.players, encoding.memory_size), np.float32) if fresh else memory
        self._memory_views = [encoding.memory_layout.views(row) for row in self.memory]
        if fresh:
            self._remember()

    @classmethod
    def deal(cls, encoding: Encoding, seed: int, characters: Sequence[str] | None,
             options: Mapping[str, Any] | None) -> Table:
        """A new game: its characters drawn from `seed` unless given, then dealt with `seed`."""
        chosen = choose_characters(encoding, characters, random.Random(seed))
        return cls(encoding, encoding.game.new_game(seed, chosen, options))

    def seen(self, seat: int) -> dict[str, Any]:
        """The seat's observation now (computed once per position)."""
        obs = self._seen[seat]
        if obs is None:
            obs = self._seen[seat] = self.state.observation(seat)
        return obs

    def _remember(self) -> None:
        if self.encoding.memory_size:
            for seat, views in enumerate(self._memory_views):
                self.encoding.remember(self.seen(seat), views)

    def forget_all_but(self, seat: int) -> None:
        """Restart every other seat's memory from its observation now (for a resampled
        state, whose other seats' pasts are unknown)."""
        for other in range(self.encoding.players):
            if other != seat and self.encoding.memory_size:
                self.memory[other] = 0.0
                self.encoding.remember(self.seen(other), self._memory_views[other])

    def features(self, seat: int) -> np.ndarray:
        """The seat's information-state tensor: its observation, then its memory."""
        return np.concatenate([self.encoding.tensor(self.seen(seat)), self.memory[seat]])

    def _position(self) -> dict[str, Any]:
        """An observation of the position, for translating action ids (any seat's will do:
        what they translate is public)."""
        return self.seen(self.state.current_player or 0)

    def mask(self) -> np.ndarray:
        return self.encoding.mask(self.state.legal_actions(), self._position())

    def legal_indices(self) -> list[int]:
        position = self._position()
        return sorted(self.encoding.index_of(action, position) for action in self.state.legal_actions())

    def action_id(self, action_index: int) -> str:
        """The action id an index stands for now."""
        actions = self.encoding.actions
        if not 0 <= action_index < len(actions):
            raise IllegalAction(f"action index {action_index} is out of range: {self.encoding.game.name} "
                                f"actions are numbered 0 to {len(actions) - 1}")
        return self.encoding.action_of(action_index, self._position())

    def play(self, action_index: int) -> list[Event]:
        """Apply the action with this index. One that is out of range or not legal now raises
        IllegalAction, saying which are legal, and changes nothing."""
        action = self.action_id(action_index)
        if not self.state.is_legal(action):
            legal = ", ".join(f"{i} ({self.action_id(i)})" for i in self.legal_indices())
            raise IllegalAction(f"action {action_index} ({action}) is not legal now; legal: {legal}")
        return self.play_id(action)

    def play_id(self, action: str) -> list[Event]:
        """Apply a legal action given by its id (as matanui's own agents choose them)."""
        events = self.state.apply(action)
        self._seen = [None] * self.encoding.players
        self._remember()
        return events

    def clone(self) -> Table:
        other = Table(self.encoding, self.state.clone(), self.memory.copy())
        other._seen = list(self._seen)  # observations are never mutated, only replaced
        return other
