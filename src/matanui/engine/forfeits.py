"""Forfeits: a seat leaving a game before its end, by resigning or when its clock ran out.

Their action ids (`resign:<seat>`, `timeout:<seat>`) lie outside `legal_actions()`, so no
bot, agent or environment ever picks one; `State.apply` accepts them from any seat still in
play, whoever is to decide, and records them in the history like any action.
"""

from __future__ import annotations

from .errors import IllegalAction

FORFEIT_KINDS = ("resign", "timeout")
# Each kind's words as a decision (a replay's frame), beside the narration's (forfeit_words).
FORFEIT_DECISIONS = {"resign": "Resign", "timeout": "Out of time"}


def forfeit_action(kind: str, seat: int) -> str:
    """The action id of a forfeit (`resign:0`); IllegalAction for an unknown kind or a seat
    that is not a whole number."""
    if kind not in FORFEIT_KINDS:
        raise IllegalAction(f"a forfeit is one of {', '.join(FORFEIT_KINDS)}, not {kind!r:.40}")
    if type(seat) is not int or seat < 0:
        raise IllegalAction(f"a forfeit's seat is a whole number, not {seat!r:.40}")
    return f"{kind}:{seat}"


def parse_forfeit(action: str) -> tuple[str, int | None] | None:
    """(kind, seat) when `action` is written as a forfeit (seat None when what follows the
    colon is not a seat number as `forfeit_action` writes it); None for any other action."""
    kind, colon, rest = action.partition(":")
    if not colon or kind not in FORFEIT_KINDS:
        return None
    seat = int(rest) if rest.isdigit() and rest.isascii() and str(int(rest)) == rest else None
    return kind, seat


def forfeit_words(kind: str, name: str) -> str:
    """How narration says it: "Tahu resigns" or "Tahu's time ran out"."""
    return f"{name} resigns" if kind == "resign" else f"{name}'s time ran out"
