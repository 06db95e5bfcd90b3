"""One game between agents, each seeing only its own seat's view."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from matanui import games
from matanui.ai.base import Agent, SeatView


@dataclass(frozen=True)
class MatchResult:
    winners: tuple[int, ...]
    returns: tuple[float, ...]
    steps: int
    turns: int | None


def play_match(game_name: str, characters: Sequence[str], agents: Sequence[Agent], seed: int,
               options: Mapping[str, Any] | None = None) -> MatchResult:
    state = games.get(game_name).new_game(seed, characters, options)
    steps = 0
    while not state.is_over:
        seat = state.current_player
        state.apply(agents[seat].act(SeatView(state, seat)))
        steps += 1
    return MatchResult(tuple(state.winners), tuple(state.returns()), steps,
                       getattr(state, "turn", None))
