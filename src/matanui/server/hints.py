"""Hints at the table: what a strong player would do in the asking seat's place, and why
(matanui.ai.analysis.hint), searched in a bot worker from that seat's view alone.

Hints are offered where they can give nobody an edge over another person: a game whose other
seats are all bots, a hot-seat game (its people share one screen, and may all ask), and a game
created with `hints` (every seat may ask, and whoever takes a seat is told before joining, so
every person in it agreed). In any other game with another person on another screen a hint
would be help that person does not get, so none is given there.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from .protocol import Rejected

if TYPE_CHECKING:
    from .rooms import Room
    from .storage import GameRow


def offered(row: GameRow) -> bool:
    """Whether this game gives hints: agreed at creation, hot-seat, or at most one person among
    its seats."""
    return row.hints or row.hotseat or sum(seat.kind != "bot" or seat.replaced for seat in row.seats) <= 1


async def answer(room: Room, seat: int) -> dict[str, Any]:
    """The hint message for `seat`, whose decision it must be; Rejected, saying why, where the
    game gives none or the seat has nothing to decide."""
    if not offered(room.row):
        raise Rejected("no_hints", "this game gives no hints: hints are for games against bots, "
                       "hot-seat games and games whose people all agreed to them when it was made",
                       status=403)
    state = room.state
    if state.is_over:
        raise Rejected("game_over", "the game is over: its replay shows the analysis of every move",
                       status=409)
    room.check_played_by_person(seat)
    if state.current_player != seat or not state.legal_actions():
        raise Rejected("not_your_turn", f"a hint is for your own decision; it is "
                       f"{state.names[state.current_player]}'s now", status=409)
    at = len(state.history)
    try:
        found = await room.backends.bots.hint(room.id, vars(state.record()), seat)
    except Exception as error:  # the worker's fault, not the asker's: logged, and the game goes on
        room.backends.incidents.report(f"hint {type(error).__name__}", logging.ERROR,
                                       f"a hint in game {room.id} failed: {type(error).__name__}: {error}")
        raise Rejected("hint_failed", "the hint could not be worked out just now; the game goes on "
                       "(ask again in a moment)", status=503) from None
    return {"type": "hint", "at": at, **found}
