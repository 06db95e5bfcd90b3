"""Quest for the Masks' small variants (data/variants.toml): not rules of the rulebook but
smaller games played by its rules, for research (a game small enough for CFR and exact
exploitability, docs/research.md). A variant plays on a small map of data/maps.toml that no
`map` option offers, with a few of the cards of each pile, a smaller number of Great Masks
to win and an earlier turn limit."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from matanui.engine.data import EntryChecker
from matanui.engine.variants import FULL, read_variants

from .cards import ACTION_NUMBERS, CHALLENGE_NUMBERS, DATA, MISSION_NUMBERS, Cards
from .maps import Maps

__all__ = ["FULL", "Variant", "load_variants"]


@dataclass(frozen=True)
class Variant:
    id: str
    name: str
    map: str  # the side of data/maps.toml it plays on
    actions: tuple[int, ...]  # each player's Game Action set (of #21-40)
    challenges: tuple[int, ...]  # the Great Mask Challenge cards (of #1-6)
    missions: tuple[int, ...]  # the Mission cards (of #7-20)
    masks: int  # how many of each Toa's Great Mask cards are in his pile, lowest numbers first
    turaga: int  # and how many of his Turaga cards
    masks_to_win: int
    turn_limit: int  # the game is drawn after this many turns (the option may only lower it)

    def mask_pile(self, cards: Cards, toa: str) -> list[int]:
        """The Toa's own Great Mask/Turaga cards this variant plays with, in number order."""
        own = [cards.mask_cards[n] for n in cards.piles(toa)]
        masks = [c.number for c in own if c.kind == "mask"][: self.masks]
        return masks + [c.number for c in own if c.kind == "turaga"][: self.turaga]

    def misfit(self, cards: Cards, maps: Maps) -> str | None:
        """Why this variant cannot be played with these cards and maps (a data pack's may
        lack them), or None when it can."""
        if self.map not in maps.boards:
            return f"it plays on map {self.map!r}, which these maps lack"
        for what, numbers, pool in (("Game Action", self.actions, cards.actions),
                                    ("Great Mask Challenge", self.challenges, cards.challenges),
                                    ("Mission", self.missions, cards.missions)):
            missing = [n for n in numbers if n not in pool]
            if missing:
                listed = ", ".join(f"#{n}" for n in missing)
                return f"it plays with {what} cards {listed}, which these cards lack"
        return None


def _numbers(check: EntryChecker, field: str, allowed: range) -> tuple[int, ...]:
    numbers = check.get(field, list)
    if (not numbers or not all(type(n) is int and n in allowed for n in numbers)
            or len(set(numbers)) != len(numbers)):
        check.fail(field, f"must list distinct card numbers from #{allowed.start} to #{allowed.stop - 1}")
    return tuple(numbers)


def load_variants(path: Path | None = None) -> dict[str, Variant]:
    """The variants of data/variants.toml, by id, checked field by field (DataFileError
    naming file, entry and field)."""
    fields = ("name", "map", "actions", "challenges", "missions", "masks", "turaga", "masks_to_win",
              "turn_limit")
    return read_variants(path or DATA / "variants.toml", fields, _variant)


def _variant(check: EntryChecker, variant_id: str) -> Variant:
    masks = check.integer("masks", 1, 6)
    return Variant(
        variant_id, check.get("name", str), check.get("map", str),
        _numbers(check, "actions", ACTION_NUMBERS), _numbers(check, "challenges", CHALLENGE_NUMBERS),
        _numbers(check, "missions", MISSION_NUMBERS), masks, check.integer("turaga", 0, 3),
        check.integer("masks_to_win", 1, masks), check.integer("turn_limit", 1, 400))
