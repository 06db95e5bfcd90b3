"""Reading an arrangement (the piles, hands and positions a test or tutorial fixes) before
anything is set up: one reader for every game, with one set of messages.

An arrangement arrives as JSON-like data from tests, tutorials and records. A game declares
what it accepts as a spec, a mapping from each key to a `Key` (made by `one`, `listed`,
`per_seat`, `each_seat`, `by_name` or `seat_number`): the value's shape, the check of each entry,
and the words saying what is allowed. `read_arrangement` checks every key against its spec
and raises BadSetup naming the key, what was found and what is allowed; the game then checks
what only it knows (a card in two places, a space that does not exist) and only then lays
out the state. Nothing is half set up when a check fails.

An entry check is a function that returns the entry (perhaps converted) or raises ValueError
or TypeError; `whole_number`, `one_of` and `text` make the usual ones. Allowed words may say
`{seats}` and `{last}`, filled in with the number of seats and the last seat's number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import BadSetup

Check = Callable[[Any], Any]


@dataclass(frozen=True)
class Key:
    """One arrangement key: the shape of its value, the check of each entry (`item`, and
    `name` for a mapping's keys) and the words saying what is allowed."""

    shape: str
    item: Check
    allowed: str
    name: Check | None = None
    none: bool = False  # may the value be None (for `seat_number`)


def one(item: Check, allowed: str) -> Key:
    """A single value."""
    return Key("one", item, allowed)


def listed(item: Check, allowed: str) -> Key:
    """A list of entries."""
    return Key("list", item, allowed)


def per_seat(item: Check, allowed: str) -> Key:
    """One list of entries per seat."""
    return Key("per_seat", item, allowed)


def each_seat(item: Check, allowed: str) -> Key:
    """One entry per seat."""
    return Key("each_seat", item, allowed)


def by_name(name: Check, item: Check, allowed: str) -> Key:
    """A mapping from names to an entry or a list of entries; read as name -> list."""
    return Key("by_name", item, allowed, name)


def seat_number(allowed: str, *, none: bool = False) -> Key:
    """A seat number from 0 to the last seat (or None, when `none`)."""
    return Key("seat", _accept, allowed, none=none)


Spec = Mapping[str, Key]


def arrangement_words(spec: Spec) -> dict[str, str]:
    """What each key allows, for help texts (`Game.arrangement_keys`)."""
    return {key: _words(entry, None) for key, entry in spec.items()}


def read_arrangement(game: str, arrangement: Mapping[str, Any], spec: Spec, seats: int) -> dict[str, Any]:
    """Every key of `arrangement` checked against `spec` and read: lists as lists, mappings
    as {name: [entries]}. Raises BadSetup for an unknown key or a value that does not fit."""
    if not isinstance(arrangement, Mapping):
        raise BadSetup(f"an arrangement is a mapping of keys to values, not {arrangement!r:.60}")
    for key in arrangement:
        if key not in spec:
            raise BadSetup(f"{game} has no arrangement {key!r:.60}; its arrangement keys are: "
                           + "; ".join(f"{k}: {_words(v, None)}" for k, v in spec.items()))
    return {key: _Reader(key, spec[key], seats).read(value) for key, value in arrangement.items()}


class _Reader:
    """Reads one key's value, raising BadSetup in the one form every game shares."""

    def __init__(self, key: str, spec: Key, seats: int) -> None:
        self.key, self.spec, self.seats = key, spec, seats

    def read(self, value: Any) -> Any:
        shape = self.spec.shape
        if shape == "one":
            return self._entry(value, "")
        if shape == "seat":
            if value is None and self.spec.none:
                return None
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < self.seats:
                raise self._fail(value, "")
            return value
        if shape == "by_name":
            return self._by_name(value)
        entries = self._list(value, "")
        if shape == "list":
            return [self._entry(entry, f" entry {index}") for index, entry in enumerate(entries)]
        if len(entries) != self.seats:
            raise self._fail(value, f" (one per seat, {self.seats} seats)")
        if shape == "each_seat":
            return [self._entry(entry, f" for seat {s}") for s, entry in enumerate(entries)]
        return [[self._entry(entry, f" for seat {s}") for entry in self._list(listing, f" for seat {s}")]
                for s, listing in enumerate(entries)]

    def _by_name(self, value: Any) -> dict[Any, list[Any]]:
        if not isinstance(value, Mapping):
            raise self._fail(value, "")
        name = self.spec.name
        assert name is not None
        result: dict[Any, list[Any]] = {}
        for raw, entries in value.items():
            try:
                checked = name(raw)
            except (ValueError, TypeError):
                raise self._fail(raw, "", "has key ") from None
            many = entries if isinstance(entries, (list, tuple)) else [entries]
            result[checked] = [self._entry(entry, f" at {raw!r:.40}") for entry in many]
        return result

    def _list(self, value: Any, detail: str) -> list[Any] | tuple[Any, ...]:
        if not isinstance(value, (list, tuple)):
            raise self._fail(value, detail)
        return value

    def _entry(self, value: Any, detail: str) -> Any:
        try:
            return self.spec.item(value)
        except (ValueError, TypeError):
            raise self._fail(value, detail) from None

    def _fail(self, found: Any, detail: str, verb: str = "is ") -> BadSetup:
        return BadSetup(f"arrangement {self.key!r}{detail} {verb}{found!r:.80}; allowed: "
                        f"{_words(self.spec, self.seats)}")


def _words(spec: Key, seats: int | None) -> str:
    if seats is None:
        return spec.allowed.format(seats="N", last="N - 1")
    return spec.allowed.format(seats=seats, last=seats - 1)


def _accept(value: Any) -> Any:
    return value


def whole_number(low: int, high: int) -> Check:
    """An entry check: an int from `low` to `high` (bools are not numbers here)."""

    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(value)
        return value

    return check


def one_of(allowed: Mapping[Any, Any] | list[Any] | tuple[Any, ...] | frozenset[Any] | set[Any]) -> Check:
    """An entry check: one of `allowed` (a mapping's keys, or a collection). Values are
    compared by type as well, so that True is never taken for 1."""

    def check(value: Any) -> Any:
        if isinstance(value, (list, dict, set)) or value not in allowed:
            raise ValueError(value)
        if not any(type(value) is type(a) for a in allowed):
            raise ValueError(value)
        return value

    return check


def text(value: Any) -> str:
    """An entry check: a string (which the game then looks up itself)."""
    if not isinstance(value, str):
        raise ValueError(value)
    return value
