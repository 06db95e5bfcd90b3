"""Fixed-size numbers for the research adapters: a game's actions as indices, its
observations as flat float32 tensors.

The contract gives readable action ids and JSON observations whose length varies (hands grow
and shrink). Learning code needs fixed sizes, so each game has an `Encoding` in
`matanui.envs.encodings.<game>` that lists every action id the game can ever offer (in a fixed
order: index i always means the same action) and lays its observation out as named pieces of
one flat tensor, seen from the observing seat (its own pieces first, the others after it in
seat order).

An encoding may also keep a *memory* per seat: a summary of everything that seat has
observed so far (the cards it has held, say), updated from its own observations only. The
observation tensor and the memory together form the information-state tensor.

A game may offer more than one encoding of its observation (Makuta: `full`, the default, and
`compact`): its module lists them in `ENCODINGS`, the default first, each class naming itself
in `variant`; the actions and the memory are the same in all of them.
"""

from __future__ import annotations

import importlib
import math
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from matanui import games
from matanui.engine import Game, MatanuiError, State


class Layout:
    """Named pieces of one flat tensor, each with its own shape."""

    def __init__(self) -> None:
        self.pieces: list[tuple[str, slice, tuple[int, ...]]] = []
        self.size = 0

    def add(self, name: str, *shape: int) -> None:
        length = math.prod(shape)
        self.pieces.append((name, slice(self.size, self.size + length), shape))
        self.size += length

    def views(self, tensor: np.ndarray) -> dict[str, np.ndarray]:
        """Writable views of `tensor`, one per piece, reshaped."""
        return {name: tensor[where].reshape(shape) for name, where, shape in self.pieces}


DEFAULT_VARIANT = "full"


class Encoding(ABC):
    """One game's actions and observations as fixed-size arrays, for a number of seats."""

    variant: ClassVar[str] = DEFAULT_VARIANT  # the name `encoding_for(..., encoding=)` knows it by
    # What each observation and memory piece holds, in words (docs/research.md's per-piece
    # tables are generated from it and the layouts: matanui.envs.sizes).
    about: ClassVar[Mapping[str, str]] = {}

    def __init__(self, game: Game, players: int) -> None:
        self.game = game
        self.players = players
        self.actions: tuple[str, ...] = tuple(self.action_ids())
        self.index = {action: i for i, action in enumerate(self.actions)}
        if len(self.index) != len(self.actions):
            raise AssertionError(f"{game.name}: the encoding lists an action twice")
        self.observation_layout = Layout()
        self.describe_observation(self.observation_layout)
        self.memory_layout = Layout()
        self.describe_memory(self.memory_layout)
        # Encoding writes into one scratch tensor (its views made once), then copies it out.
        self._scratch = np.zeros(self.observation_layout.size, np.float32)
        self._scratch_views = self.observation_layout.views(self._scratch)

    # -- what a game's encoding defines ------------------------------------------------

    @abstractmethod
    def action_ids(self) -> list[str]:
        """Every action id the game can ever offer, in a fixed order."""

    @abstractmethod
    def describe_observation(self, layout: Layout) -> None:
        """Add the observation's pieces to `layout`."""

    @abstractmethod
    def encode(self, obs: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        """Write the observation `obs` (of `obs["seat"]`, or public when None) into the
        zeroed pieces `out`."""

    @abstractmethod
    def max_decisions(self, options: Mapping[str, Any]) -> int:
        """An upper bound on the decisions of one game with these (checked) options."""

    @abstractmethod
    def describe_memory(self, layout: Layout) -> None:
        """Add the memory's pieces to `layout`."""

    @abstractmethod
    def remember(self, obs: dict[str, Any], memory: dict[str, np.ndarray]) -> None:
        """Fold the seat's latest observation into its memory pieces (in place)."""

    # -- used by the adapters ----------------------------------------------------------

    @property
    def observation_size(self) -> int:
        return self.observation_layout.size

    @property
    def memory_size(self) -> int:
        return self.memory_layout.size

    def tensor(self, obs: dict[str, Any]) -> np.ndarray:
        """A new observation tensor for the observation `obs`."""
        scratch = self._scratch
        scratch.fill(0.0)
        self.encode(obs, self._scratch_views)
        # Counts are scaled to [0, 1] by their usual bound; a rare one beyond it is clipped.
        return np.clip(scratch, 0.0, 1.0)

    def observe(self, state: State, seat: int | None) -> np.ndarray:
        return self.tensor(state.observation(seat))

    def index_of(self, action: str, obs: dict[str, Any]) -> int:
        """The index of an action id offered now. `obs` is an observation of the position:
        a game whose action ids name the spaces of a board that grows overrides this and
        `action_of` to translate them to fixed indices."""
        index = self.index.get(action)
        if index is None:
            raise AssertionError(f"{self.game.name} offers {action!r}, which its encoding lacks")
        return index

    def action_of(self, index: int, obs: dict[str, Any]) -> str:
        """The action id an index stands for in the position `obs` observes."""
        return self.actions[index]

    def mask(self, legal: Sequence[str], obs: dict[str, Any]) -> np.ndarray:
        """1 for each legal action's index, 0 elsewhere."""
        mask = np.zeros(len(self.actions), np.int8)
        for action in legal:
            mask[self.index_of(action, obs)] = 1
        return mask

    def relative(self, obs: dict[str, Any]) -> list[int]:
        """The seats in the order the observer sees them: itself first (seat 0 for the
        public view), then the others in seat order."""
        me = obs["seat"] or 0
        return [(me + k) % self.players for k in range(self.players)]


def has_encoding(name: str) -> bool:
    return name in games.names() and games.descriptor(name).encoding is not None


def _encodings(spec: Game) -> dict[str, type[Encoding]]:
    """The game's encoding classes by variant name, the default first (its descriptor's
    `encoding` module)."""
    if not has_encoding(spec.name):
        with_one = ", ".join(name for name in games.names() if has_encoding(name))
        raise MatanuiError(f"{spec.name} has no research encoding yet; the games with one: {with_one}")
    module = importlib.import_module(games.descriptor(spec.name).encoding or "")
    return {kind.variant: kind for kind in getattr(module, "ENCODINGS", (module.ENCODING,))}


def encoding_variants(game: str | Game) -> tuple[str, ...]:
    """The names of the encodings a game offers, the default first."""
    return tuple(_encodings(games.get(game) if isinstance(game, str) else game))


def encoding_for(game: str | Game, players: int, encoding: str = DEFAULT_VARIANT) -> Encoding:
    """The encoding of a game (by name, or a Game object such as one with a user's deck);
    `encoding` names one of the game's variants (`encoding_variants`)."""
    spec = games.get(game) if isinstance(game, str) else game
    if not spec.min_players <= players <= spec.max_players:
        raise MatanuiError(f"{spec.name} is for {spec.players_words()} players, not {players}")
    kinds = _encodings(spec)
    kind = kinds.get(encoding) if isinstance(encoding, str) else None
    if kind is None:
        raise MatanuiError(f"{spec.name}'s encodings are {', '.join(kinds)}, not {encoding!r}")
    return kind(spec, players)


def one_hot(view: np.ndarray, index: int | None) -> None:
    if index is not None:
        view[index] = 1.0
