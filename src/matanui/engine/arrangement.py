"""Checking an arrangement (the piles, hands and positions a test or tutorial fixes) before
anything is set up.

An arrangement arrives as JSON-like data from tests, tutorials and records. A game reads it
through `Arrangement`, whose getters check each key's shape and raise BadSetup naming the key,
what was found and what is allowed; a game then checks what only it knows (a card in two
places, a part that does not exist) and only then lays out the state. Nothing is half set up
when a check fails.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from .errors import BadSetup

T = TypeVar("T")


class Arrangement:
    def __init__(self, game: str, arrangement: Mapping[str, Any], known: Mapping[str, str]) -> None:
        """`known` maps each key the game accepts to the words saying what it allows."""
        self.game = game
        self.values = arrangement
        self.known = known
        for key in arrangement:
            if key not in known:
                raise BadSetup(f"{game} has no arrangement {key!r:.60}; its arrangement keys are: "
                               + "; ".join(f"{k}: {v}" for k, v in known.items()))

    def fail(self, key: str, found: Any, detail: str = "") -> BadSetup:
        """The error for a bad value of `key`: what was found and what is allowed."""
        where = f"arrangement {key!r}{detail}"
        return BadSetup(f"{where} is {found!r:.80}; allowed: {self.known[key]}")

    def items(self, key: str, item: Callable[[Any], T], default: list[T] | None = None) -> list[T] | None:
        """A list, each entry passed through `item` (which raises ValueError when it is not
        allowed); `default` when the key is absent."""
        if key not in self.values:
            return default
        value = self.values[key]
        if not isinstance(value, (list, tuple)):
            raise self.fail(key, value)
        return [self._item(key, entry, item, f" entry {index}") for index, entry in enumerate(value)]

    def per_seat(self, key: str, seats: int, item: Callable[[Any], T]) -> list[list[T]] | None:
        """One list per seat, each entry passed through `item`; None when the key is absent."""
        if key not in self.values:
            return None
        value = self.values[key]
        if not isinstance(value, (list, tuple)) or len(value) != seats:
            raise self.fail(key, value)
        result = []
        for seat, entries in enumerate(value):
            if not isinstance(entries, (list, tuple)):
                raise self.fail(key, entries, f" for seat {seat}")
            result.append([self._item(key, entry, item, f" for seat {seat}") for entry in entries])
        return result

    def one(self, key: str, item: Callable[[Any], T], default: T) -> T:
        """One value passed through `item`; `default` when the key is absent."""
        if key not in self.values:
            return default
        return self._item(key, self.values[key], item, "")

    def _item(self, key: str, value: Any, item: Callable[[Any], T], detail: str) -> T:
        try:
            return item(value)
        except (ValueError, TypeError):
            raise self.fail(key, value, detail) from None


def whole_number(low: int, high: int) -> Callable[[Any], int]:
    """An item check: an int from `low` to `high` (bools are not numbers here)."""

    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(value)
        return value

    return check


def one_of(allowed: Mapping[Any, T] | list[T] | tuple[T, ...]) -> Callable[[Any], Any]:
    """An item check: one of `allowed` (a mapping's keys, or a list). Values are compared by
    type as well, so that True is never taken for 1."""

    def check(value: Any) -> Any:
        if isinstance(value, (list, dict, set)) or value not in allowed:
            raise ValueError(value)
        if not any(type(value) is type(a) for a in allowed):
            raise ValueError(value)
        return value

    return check
