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


def check_first_player(value: Any) -> None:
    """'rps' (a seeded Rock-Paper-Scissors) or a seat, 0 or 1."""
    if value not in ("rps", 0, 1) or isinstance(value, bool):
        raise BadSetup(f"option first_player must be 'rps', 0 or 1, not {value!r}")


def check_turn_limit(value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 10:
        raise BadSetup(f"option turn_limit must be a whole number >= 10, not {value!r}")
