"""Shared helpers for the Quest for the Masks tests: arranging a game and reading narration."""

from __future__ import annotations

import pytest

from matanui.engine import Event, IllegalAction
from matanui.games.masks import GAME


def arranged(players=("pohatu", "gali"), options=None, **arrangement):
    """A game on side A (unless told otherwise) where Player 1 moves first."""
    arrangement.setdefault("first_player", 0)
    return GAME.arrange(list(players), {"map": "a", **(options or {})}, **arrangement)


def texts(events: list[Event], seat: int | None = None) -> list[str]:
    """The narration as `seat` reads it (None: the public)."""
    return [event.view(seat)["text"] for event in events]


def said(events: list[Event], words: str, seat: int | None = None) -> bool:
    """Whether some event's narration contains `words`."""
    return any(words in text for text in texts(events, seat))


def position(state, seat: int) -> str:
    return state.observation(None)["positions"][seat]


def far_apart(**arrangement):
    """Pohatu (Player 1) somewhere, Gali (Player 2) out of the way at I10 unless told."""
    positions = arrangement.pop("at", ["G2", "I10"])
    if isinstance(positions, str):
        positions = [positions, "I10"]
    return arranged(positions=positions, **arrangement)


def unchanged_after_illegal(state, action, match):
    before = [state.observation(s) for s in (None, 0, 1)]
    with pytest.raises(IllegalAction, match=match) as error:
        state.apply(action)
    assert "Legal actions:" in str(error.value)
    assert [state.observation(s) for s in (None, 0, 1)] == before
    return error
