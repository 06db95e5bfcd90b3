"""Toa Nuva Reconstruct's steps and moves: the values the rules hand around.

A move is a named tuple whose first field is its kind, so the rules dispatch on `move.kind`
(or `move[0]` on the hot path) and read the rest by name. The move table of each card is
built once per deck (ReconstructGame); legal_actions only looks moves up.

The steps are plain strings, as Quest for Makuta's phases are: the hot path compares them at
every action, and a string constant compares several times faster than an Enum member is
even looked up. An observation's `phase` is the word itself.
"""

from __future__ import annotations

from typing import NamedTuple

# Steps: the decision a turn is at (RECON-TURN-ORDER).
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
