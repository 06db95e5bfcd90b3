"""One game between agents, each seeing only its own seat's view."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from matanui.ai.base import Agent
from matanui.ai.play import moves
from matanui.engine import Game
from matanui.games import packs


@dataclass(frozen=True)
class MatchResult:
    winners: tuple[int, ...]
    returns: tuple[float, ...]
    steps: int
    turns: int | None


@lru_cache(maxsize=8)
def game_on(game_name: str, data: str | None) -> Game:
    """The game on a data pack's folder, or built in; a worker loads a pack once."""
    return packs.game_for(game_name, data)


def play_match(game_name: str, characters: Sequence[str], agents: Sequence[Agent], seed: int,
               options: Mapping[str, Any] | None = None, data: str | None = None) -> MatchResult:
    """One game; `data` names a data pack's folder (None: the built-in data)."""
    state = game_on(game_name, data).new_game(seed, characters, options)
    steps = sum(1 for _ in moves(state, agents))
    return MatchResult(tuple(state.winners), tuple(state.returns()), steps,
                       getattr(state, "turn", None))
