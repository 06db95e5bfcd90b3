"""Forfeits: a seat leaving a game before its end, by resigning or when its clock ran out,
and the abort: a game ended before it was played, with no result.

Their action ids (`resign:<seat>`, `timeout:<seat>`, `abort:<seat>`) lie outside
`legal_actions()`, so no bot, agent or environment ever picks one; `State.apply` accepts them
from any seat still in play, whoever is to decide, and records them in the history like any
action. A forfeit loses for its seat; an abort ends the game for everyone with no winner and
no loser (when one is allowed is the server's rule: docs/ratings.md, "Aborted games").
"""

from __future__ import annotations

from .errors import IllegalAction

FORFEIT_KINDS = ("resign", "timeout")  # the seat leaves and loses
ABORT = "abort"  # the game ends unplayed: nobody wins, nobody loses
ENDING_KINDS = (*FORFEIT_KINDS, ABORT)
# Each kind's words as a decision (a replay's frame), beside the narration's (forfeit_words).
FORFEIT_DECISIONS = {"resign": "Resign", "timeout": "Out of time", ABORT: "Abort"}


def forfeit_action(kind: str, seat: int) -> str:
    """The action id of a forfeit (`resign:0`); IllegalAction for an unknown kind or a seat
    that is not a whole number."""
    if kind not in ENDING_KINDS:
        raise IllegalAction(f"a forfeit is one of {', '.join(ENDING_KINDS)}, not {kind!r:.40}")
    if type(seat) is not int or seat < 0:
        raise IllegalAction(f"a forfeit's seat is a whole number, not {seat!r:.40}")
    return f"{kind}:{seat}"


def parse_forfeit(action: str) -> tuple[str, int | None] | None:
    """(kind, seat) when `action` is written as a forfeit (seat None when what follows the
    colon is not a seat number as `forfeit_action` writes it); None for any other action."""
    kind, colon, rest = action.partition(":")
    if not colon or kind not in ENDING_KINDS:
        return None
    seat = int(rest) if rest.isdigit() and rest.isascii() and str(int(rest)) == rest else None
    return kind, seat


def forfeit_words(kind: str, name: str) -> str:
    """How narration says it: "Tahu resigns", "Tahu's time ran out" or "Tahu aborts the game"."""
    return {"resign": f"{name} resigns", ABORT: f"{name} aborts the game"}.get(kind, f"{name}'s time ran out")
