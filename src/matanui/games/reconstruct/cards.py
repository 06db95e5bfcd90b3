"""Reconstruct's data: the seven parts, the six Toa Nuva and the Game Action deck, loaded
from data/*.toml and validated. A user may load their own deck file over ours."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from matanui.engine.data import EntryChecker, load_toml
from matanui.engine.errors import DataFileError

DATA = Path(__file__).with_name("data")
KINDS = ("add", "remove", "stop")


@dataclass(frozen=True)
class Part:
    index: int
    id: str
    name: str


@dataclass(frozen=True)
class Toa:
    id: str
    name: str
    element: str
    kanohi: str
    tool: str


@dataclass(frozen=True)
class ActionCard:
    id: int
    kind: str  # add | remove | stop
    colour: str
    parts: tuple[int, ...]  # part indexes the card offers (empty for stop cards)
    provenance: str

    def label(self, parts: tuple[Part, ...]) -> str:
        """Short words for the card: 'red: add Left Leg / Right Leg / Tool'."""
        if self.kind == "stop":
            return f"{self.colour}: stop"
        names = " / ".join(parts[i].name for i in self.parts)
        return f"{self.colour}: {self.kind} {names}"


@dataclass(frozen=True)
class Deck:
    parts: tuple[Part, ...]
    toa: dict[str, Toa]
    colours: tuple[str, ...]
    cards: dict[int, ActionCard]


def load_parts_and_toa(path: Path) -> tuple[tuple[Part, ...], dict[str, Toa]]:
    data = load_toml(path)
    source = path.name
    parts: list[Part] = []
    for number, entry in enumerate(data.get("part", []), start=1):
        check = EntryChecker(source, f"part[{number}]", entry)
        check.only(("id", "name"))
        check.provenance()
        parts.append(Part(len(parts), check.get("id", str), check.get("name", str)))
    if len(parts) != 7 or len({p.id for p in parts}) != 7:
        raise DataFileError(f"{source}: needs exactly 7 distinct [[part]] entries, has {len(parts)}")
    toa: dict[str, Toa] = {}
    for number, entry in enumerate(data.get("toa", []), start=1):
        check = EntryChecker(source, f"toa[{number}]", entry)
        check.only(("id", "name", "element", "kanohi", "tool"))
        check.provenance()
        one = Toa(*(check.get(f, str) for f in ("id", "name", "element", "kanohi", "tool")))
        if one.id in toa:
            check.fail("id", f"repeats {one.id!r}")
        toa[one.id] = one
    if len(toa) < 2:
        raise DataFileError(f"{source}: needs at least 2 [[toa]] entries")
    return tuple(parts), toa


def load_action_cards(path: Path, parts: tuple[Part, ...]) -> tuple[tuple[str, ...], dict[int, ActionCard]]:
    data = load_toml(path)
    source = path.name
    deck = EntryChecker(source, "deck", data.get("deck"))
    deck.only(("name", "size", "colours"))
    deck.provenance()
    colours = tuple(deck.get("colours", list))
    if len(colours) != 5 or not all(isinstance(c, str) for c in colours):
        deck.fail("colours", 'must list the five colours ("Each Game Action Card has one of '
                  'five distinct colors")')
    size = deck.integer("size", 1, 1000)
    part_ids = [p.id for p in parts]
    cards: dict[int, ActionCard] = {}
    for number, entry in enumerate(data.get("card", []), start=1):
        check = EntryChecker(source, f"card[{number}]", entry)
        check.only(("id", "kind", "colour", "parts"))
        card_id = check.integer("id", 1, 9999)
        if card_id in cards:
            check.fail("id", f"repeats {card_id}")
        kind = check.choice("kind", KINDS)
        colour = check.choice("colour", colours)
        if kind == "stop":
            if "parts" in check.entry:
                check.fail("parts", "must be absent on a stop card")
            offered: tuple[int, ...] = ()
        else:
            offered = tuple(part_ids.index(p) for p in check.choices("parts", part_ids))
        cards[card_id] = ActionCard(card_id, kind, colour, offered, check.provenance())
    if len(cards) != size:
        raise DataFileError(f"{source}: deck.size says {size} cards but {len(cards)} [[card]] entries follow")
    # RECON-WIN: a Toa Nuva starts with no part and is won by adding all 7.
    added = {index for card in cards.values() if card.kind == "add" for index in card.parts}
    missing = [part.name for part in parts if part.index not in added]
    if missing:
        raise DataFileError(f"{source}: no add card offers {', '.join(missing)}; no Toa Nuva "
                            "could ever be completed")
    return colours, cards


def load_deck(actions_file: Path | None = None, toa_file: Path | None = None) -> Deck:
    parts, toa = load_parts_and_toa(toa_file or DATA / "toa.toml")
    colours, cards = load_action_cards(actions_file or DATA / "actions.toml", parts)
    return Deck(parts, toa, colours, cards)
