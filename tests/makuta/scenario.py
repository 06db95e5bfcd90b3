"""Helpers for Quest for Makuta scenario tests.

The start board lies with Toa Landing's centre at 0,0 (see data/boards.toml, "start"):

    y\\x -3 -2 -1  0  1  2  3
    -3   #  K  .  P  .  Y  #      From Toa Landing a single space leads out on each side:
    -2   .  .  #  .  #  .  R      0,-2 (north), 2,0 (east), 0,2 (south), -2,0 (west); the
    -1   T  #  L  L  L  #  .      portals beyond them are 0,-3, 3,0, 0,3 and -3,0.
     0   P  .  L  L  L  .  P
     1   .  #  L  L  L  #  T
     2   R  .  #  .  #  .  .
     3   #  Y  .  P  .  K  #
"""

from __future__ import annotations

from typing import Any

from matanui.engine import Event
from matanui.games.makuta import GAME
from matanui.games.makuta.rules import MakutaState


def arranged(players: list[str] | None = None, options: dict | None = None,
             **arrangement: Any) -> MakutaState:
    """A game of Tahu (seat 0, first) and Lewa on a start board with no tokens unless the
    test places some."""
    arrangement.setdefault("first_player", 0)
    arrangement.setdefault("tokens", {})
    return GAME.arrange(players or ["tahu", "lewa"], options, **arrangement)


def play(state: MakutaState, *actions: str) -> list[Event]:
    events: list[Event] = []
    for action in actions:
        events += state.apply(action)
    return events


def texts(events: list[Event], seat: int | None = None) -> list[str]:
    return [e.view(seat)["text"] for e in events]


def faces(state: MakutaState, seat: int, viewer: int | None = None) -> dict[str, list[str]]:
    """A collector card as `viewer` (by default its owner) sees it."""
    return state.observation(seat if viewer is None else viewer)["cards"][seat]
