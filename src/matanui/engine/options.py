"""Checks shared by the games' options: unknown names, first player, turn limit.

Each raises BadSetup with the allowed values; a game's `_check_options` calls the ones it needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import BadSetup


def reject_unknown(game: str, options: Mapping[str, Any], known: Mapping[str, str]) -> None:
    for key in options:
        if key not in known:
            raise BadSetup(f"{game} has no option {key!r}; its options are: "
                           + "; ".join(f"{k}: {v}" for k, v in known.items()))


def check_first_player(value: Any, what: str = "option first_player") -> None:
    """'rps' (a seeded Rock-Paper-Scissors) or a seat, 0 or 1: a whole number, so that
    neither True nor 1.0 passes for seat 1."""
    if value != "rps" and (type(value) is not int or value not in (0, 1)):
        raise BadSetup(f"{what} must be 'rps', 0 or 1, not {value!r:.40}")


# A turn limit only ends a game that would otherwise go on forever; no game of ours needs
# more than a few hundred turns, and a limit of 10**9 would let one game hold a server's
# bots (and a replay) for hours.
MIN_TURN_LIMIT = 10
MAX_TURN_LIMIT = 10_000


def check_turn_limit(value: Any) -> None:
    if (not isinstance(value, int) or isinstance(value, bool)
            or not MIN_TURN_LIMIT <= value <= MAX_TURN_LIMIT):
        raise BadSetup(f"option turn_limit must be a whole number from {MIN_TURN_LIMIT} to "
                       f"{MAX_TURN_LIMIT}, not {value!r:.40}")
