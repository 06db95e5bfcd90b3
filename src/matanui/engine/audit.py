"""The audit every game makes of its pieces: each card or token in exactly one place, and
none lost (State.audit, which the contract tests call after every move)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Set
from typing import TypeVar

Thing = TypeVar("Thing", bound=Hashable)


def one_place(what: str, places: Iterable[tuple[str, Iterable[Thing]]],
              expected: Set[Thing] | None = None) -> dict[Thing, str]:
    """Where each thing is, from (place, things) pairs: AssertionError naming `what` ("card",
    "Mission card", "token") if one is in two places, or, given `expected`, if any of those
    is nowhere or one that does not belong is somewhere."""
    where: dict[Thing, str] = {}
    for place, things in places:
        for thing in things:
            if thing in where:
                raise AssertionError(f"{what} {thing} is both in {where[thing]} and {place}")
            where[thing] = place
    if expected is not None and where.keys() != expected:
        lost = sorted(expected - where.keys())  # type: ignore[type-var]
        extra = sorted(where.keys() - expected)  # type: ignore[type-var]
        raise AssertionError(f"{what}s lost: {lost}; {what}s that do not belong: {extra}")
    return where
