"""Toa Nuva Reconstruct's steps and moves: the typed values the rules hand around.

A move is a named tuple whose first field is its kind, so the rules dispatch on `move.kind`
(or `move[0]` on the hot path) and read the rest by name. The move table of each card is
built once per deck (ReconstructGame); legal_actions only looks moves up.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Step(StrEnum):
    """The decision a turn is at (RECON-TURN-ORDER). A StrEnum, so an observation's `phase`
    is the plain word ("play") everywhere it is shown or sent."""

    START = "start"      # Advanced Gameplay only, when a trade is possible: draw or trade
    PLAY = "play"        # the turn player plays one card or passes
    RESPOND = "respond"  # the opponent answers a played card: allow or stop
    OVER = "over"


class CardMove(NamedTuple):
    """Play an add or remove card for one part (the part's index on the Toa's mat)."""

    kind: str  # "add" or "remove"
    card: int
    part: int


class StopMove(NamedTuple):
    """Answer the played card with a stop card."""

    kind: str  # "stop"
    card: int


class TradeMove(NamedTuple):
    """RECON-ADVANCED-TRADE: discard `give` and take `take` of the same colour instead."""

    kind: str  # "trade"
    give: int
    take: int


class Choice(NamedTuple):
    """A move that names no card: pass, allow or draw."""

    kind: str


PASS, ALLOW, DRAW = Choice("pass"), Choice("allow"), Choice("draw")

Move = CardMove | StopMove | TradeMove | Choice
