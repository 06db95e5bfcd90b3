"""Reconstruct's small variants (data/variants.toml): not rules of the rulebook but smaller
games played by its rules, for research (a game small enough for CFR and exact
exploitability, docs/research.md). A variant plays with a few of the deck's cards, starts
each Toa Nuva with some parts already built, deals fewer cards and ends sooner."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from matanui.engine.data import EntryChecker
from matanui.engine.variants import FULL, read_variants

from .cards import DATA, Deck

__all__ = ["FULL", "Variant", "load_variants"]


@dataclass(frozen=True)
class Variant:
    id: str
    name: str
    cards: tuple[int, ...]  # the Game Action cards it plays with (ids of the deck)
    built: tuple[str, ...]  # part ids each Toa Nuva starts with
    hand: int  # cards each player draws at set-up
    turn_limit: int  # the game is drawn after this many turns (the option may only lower it)

    def misfit(self, deck: Deck) -> str | None:
        """Why this variant cannot be played with `deck` (a data pack's may lack its
        cards), or None when it can."""
        missing = [c for c in self.cards if c not in deck.cards]
        if missing:
            return f"it plays with cards {', '.join(f'#{c}' for c in missing)}, which this deck lacks"
        part_ids = {part.id for part in deck.parts}
        unknown = [p for p in self.built if p not in part_ids]
        if unknown:
            return f"it starts with part {unknown[0]!r}, which this deck does not have"
        offered = {p for c in self.cards if deck.cards[c].kind == "add" for p in deck.cards[c].parts}
        lacking = [part.name for part in deck.parts
                   if part.id not in self.built and part.index not in offered]
        if lacking:
            return f"none of its add cards offers {', '.join(lacking)}, so no Toa Nuva could be completed"
        return None


def load_variants(path: Path | None = None) -> dict[str, Variant]:
    """The variants of data/variants.toml, by id, checked field by field (DataFileError
    naming file, entry and field)."""
    return read_variants(path or DATA / "variants.toml", ("name", "cards", "built", "hand", "turn_limit"),
                         _variant)


def _variant(check: EntryChecker, variant_id: str) -> Variant:
    cards = check.get("cards", list)
    if not cards or not all(type(c) is int and c > 0 for c in cards) or len(set(cards)) != len(cards):
        check.fail("cards", "must list distinct card numbers (whole numbers from 1)")
    built = check.get("built", list)
    if not all(isinstance(p, str) for p in built) or len(set(built)) != len(built) or len(built) >= 7:
        check.fail("built", "must list distinct part ids, fewer than all 7")
    hand = check.integer("hand", 1, 3)
    if 2 * hand > len(cards):
        check.fail("hand", f"is {hand}, but two hands of {hand} need more than its {len(cards)} cards")
    return Variant(variant_id, check.get("name", str), tuple(cards), tuple(built), hand,
                   check.integer("turn_limit", 1, 200))
