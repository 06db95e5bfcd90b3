"""Aborted games: a game that ends before it was played, with no result and no rating change.

A game may be aborted while some player has made fewer than MOVES_BEFORE_RESULT decisions of
their own (as on lichess, where a game can be aborted until each side has moved twice). A
decision is what the seat's player chose: a pass the rules make at a response window, or an
automatic action, is nobody's. Until then:

- any player may abort it (`{"type": "abort"}`);
- a resign is an abort (nobody has played yet: there is nothing to lose);
- a clock that runs out is an abort (a player who never came, or came and never moved, cannot
  hand the other a rated win, nor take a rated loss for a link opened late).

An aborted game's last action is `abort:<seat>` (engine/forfeits.py): it is over, nobody won,
nobody is out, and every summary shows it as "Aborted" (docs/ratings.md, "Aborted games").
"""

from __future__ import annotations

from collections.abc import Sequence

from matanui.engine import ABORT, State
from matanui.engine.forfeits import parse_forfeit

from .storage import SeatRow

MOVES_BEFORE_RESULT = 2  # a game counts once every player has made this many decisions


def own_moves(turns: Sequence[tuple[int | None, bool]], seats: int) -> list[int]:
    """How many decisions each seat's player made (clocks.turn_of's `turns`: the server's own
    turns and the rules' automatic ones are nobody's)."""
    made = [0] * seats
    for seat, by_rule in turns:
        if seat is not None and not by_rule:
            made[seat] += 1
    return made


def abortable(state: State, turns: Sequence[tuple[int | None, bool]], seats: Sequence[SeatRow]) -> bool:
    """Whether the game may still be aborted: it goes on, and some person's seat still in play
    has made fewer than MOVES_BEFORE_RESULT decisions of its own."""
    if state.is_over:
        return False
    made = own_moves(turns, len(seats))
    return any(row.kind != "bot" and seat not in state.out and made[seat] < MOVES_BEFORE_RESULT
               for seat, row in enumerate(seats))


def aborted(history: Sequence[str]) -> bool:
    """Whether a game's record ends in an abort."""
    last = parse_forfeit(history[-1]) if history else None
    return last is not None and last[0] == ABORT
