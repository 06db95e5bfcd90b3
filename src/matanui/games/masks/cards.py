"""Quest for the Masks' cards: the 100 cards of the starter checklist, loaded from
data/toa.toml and data/cards.toml and validated. A user who owns the physical cards may load
their own files over ours (`load_cards(folder)`); a bad file names the entry and the field.

Numbers are the checklist's: Challenge #1-6, Mission #7-20, Game Action #21-40, and per Toa
the Toa card (#41, 51, ... 91), six Great Masks (+1..+6) and three Turaga cards (+7..+9).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matanui.engine.data import EntryChecker, load_toml
from matanui.engine.errors import DataFileError

DATA = Path(__file__).with_name("data")
SKILLS = ("flight", "shielding", "speed", "strength", "swimming", "vision")
SKILL_NAMES = tuple(s.capitalize() for s in SKILLS)
DIRECTIONS = ("north", "east", "south", "west")  # index = direction number in the rules
MISSION_KINDS = ("move", "discard", "skip", "travel")
TRAVEL_TARGETS = ("game_action", "portal")
EFFECTS = ("push", "draw", "move", "boost", "weaken", "skip")
# The amounts a data file may give each effect (push has none: it is always one space).
AMOUNTS = {"draw": (1, 5), "move": (2, 2), "boost": (100, 1000), "weaken": (100, 1000), "skip": (1, 3)}
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six")
CHALLENGE_NUMBERS = range(1, 7)
MISSION_NUMBERS = range(7, 21)
ACTION_NUMBERS = range(21, 41)
TOA_NUMBERS = range(41, 101, 10)


@dataclass(frozen=True)
class Toa:
    number: int
    id: str
    name: str
    element: str
    skills: tuple[int, ...]  # in SKILLS order: base values before any attached card
    provenance: str


@dataclass(frozen=True)
class MaskCard:
    """A Great Mask card (kind "mask") or a Turaga card (kind "turaga")."""

    number: int
    toa: str
    kind: str
    name: str
    bonus: tuple[int, ...]  # points added to each skill while attached, in SKILLS order
    provenance: str

    @property
    def text(self) -> str:
        """The card's text box: 'Add 100 points to Shielding'."""
        parts = [f"{points} points to {SKILL_NAMES[i]}" for i, points in enumerate(self.bonus) if points]
        return "Add " + " and ".join(parts)


@dataclass(frozen=True)
class ChallengeCard:
    number: int
    skill: int  # index into SKILLS
    provenance: str


@dataclass(frozen=True)
class MissionCard:
    number: int
    kind: str
    text: str
    direction: int  # move: index into DIRECTIONS; else -1
    spaces: int  # move: how far
    count: int  # discard / skip: how many
    target: str  # travel: the kind of space to reach
    provenance: str


@dataclass(frozen=True)
class ActionCard:
    number: int
    name: str
    effect: str
    amount: int
    text: str
    provenance: str

    @property
    def label(self) -> str:
        return f"{self.name} (Card #{self.number})"


@dataclass(frozen=True)
class ThemeDeck:
    number: int
    toa: tuple[str, ...]
    cards: tuple[int, int]  # first and last card number of the deck's Toa cards
    provenance: str


@dataclass(frozen=True)
class Cards:
    toa: dict[str, Toa]
    mask_cards: dict[int, MaskCard]  # Great Mask and Turaga cards by number
    challenges: dict[int, ChallengeCard]
    missions: dict[int, MissionCard]
    actions: dict[int, ActionCard]
    theme_decks: tuple[ThemeDeck, ...]

    def piles(self, toa_id: str) -> list[int]:
        """The Toa's own Great Mask/Turaga cards, in number order."""
        return [n for n, card in self.mask_cards.items() if card.toa == toa_id]


def _skill_table(check: EntryChecker, field: str, *, low: int, high: int, exact: bool) -> tuple[int, ...]:
    table = check.get(field, dict)
    for key, value in table.items():
        if key not in SKILLS:
            check.fail(field, f"names {key!r}, which is not a skill; skills: {', '.join(SKILLS)}")
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            check.fail(f"{field}.{key}", f"is {value!r}; allowed: a whole number from {low} to {high}")
    if exact and len(table) != len(SKILLS):
        check.fail(field, f"must give all six skills: {', '.join(SKILLS)}")
    if not table:
        check.fail(field, "must name at least one skill")
    return tuple(table.get(skill, 0) for skill in SKILLS)


def _entries(data: dict[str, Any], source: str, key: str):
    entries = data.get(key, [])
    if not isinstance(entries, list):
        raise DataFileError(f"{source}: {key} must be an array of tables ([[{key}]])")
    for index, entry in enumerate(entries, start=1):
        yield EntryChecker(source, f"{key}[{index}]", entry)


def _unique(check: EntryChecker, seen: dict, key: Any, field: str) -> None:
    if key in seen:
        check.fail(field, f"repeats {key!r}")


def load_toa_file(path: Path) -> tuple[dict[str, Toa], dict[int, MaskCard], tuple[ThemeDeck, ...]]:
    data = load_toml(path)
    source = path.name
    toa: dict[str, Toa] = {}
    for check in _entries(data, source, "toa"):
        check.only(("number", "id", "name", "element", "skills", "printed"))
        number = check.integer("number", 41, 91)
        if number not in TOA_NUMBERS:
            check.fail("number", f"is {number}; Toa cards are #41, 51, 61, 71, 81 and 91")
        toa_id = check.get("id", str)
        _unique(check, toa, toa_id, "id")
        if any(t.number == number for t in toa.values()):
            check.fail("number", f"repeats {number}")
        skills = _skill_table(check, "skills", low=100, high=1000, exact=True)
        printed = check.get("printed", dict, {})
        for key, words in printed.items():
            if key not in SKILLS or not isinstance(words, str):
                check.fail(f"printed.{key}", "must map a skill to the rulebook words that print it")
        toa[toa_id] = Toa(number, toa_id, check.get("name", str), check.get("element", str), skills,
                          check.provenance())
    if len(toa) < 2:
        raise DataFileError(f"{source}: needs at least 2 [[toa]] entries")

    masks: dict[str, tuple[str, tuple[int, ...]]] = {}
    for check in _entries(data, source, "mask"):
        check.only(("id", "name", "bonus"))
        mask_id = check.get("id", str)
        _unique(check, masks, mask_id, "id")
        bonus = _skill_table(check, "bonus", low=1, high=1000, exact=False)
        check.provenance()
        masks[mask_id] = (check.get("name", str), bonus)

    cards: dict[int, MaskCard] = {}
    for key, kind, offsets in (("mask_card", "mask", range(1, 7)), ("turaga_card", "turaga", range(7, 10))):
        for check in _entries(data, source, key):
            fields = ("number", "toa", "mask") if kind == "mask" else ("number", "toa", "name", "bonus")
            check.only(fields)
            number = check.integer("number", 42, 100)
            _unique(check, cards, number, "number")
            owner = toa[check.choice("toa", list(toa))]
            if number - owner.number not in offsets:
                first, last = owner.number + offsets[0], owner.number + offsets[-1]
                check.fail("number", f"is {number}; {owner.name}'s {kind} cards are #{first} to #{last}")
            if kind == "mask":
                mask_name, bonus = masks[check.choice("mask", list(masks))]
                name = f"{owner.name} - {mask_name}"
            else:
                name = check.get("name", str)
                bonus = _skill_table(check, "bonus", low=1, high=1000, exact=False)
            cards[number] = MaskCard(number, owner.id, kind, name, bonus, check.provenance())
    for one in toa.values():
        mine = [c for c in cards.values() if c.toa == one.id]
        if sum(c.kind == "mask" for c in mine) != 6 or sum(c.kind == "turaga" for c in mine) != 3:
            raise DataFileError(f"{source}: {one.name} needs six [[mask_card]] and three [[turaga_card]] "
                                f"entries (\"{one.name.upper()} (card #{one.number}) gets Great Mask/Turaga "
                                f"cards #'d {one.number + 1} to {one.number + 9}\")")

    decks: list[ThemeDeck] = []
    for check in _entries(data, source, "theme_deck"):
        check.only(("number", "toa", "cards"))
        pair = tuple(check.choices("toa", list(toa)))
        span = check.get("cards", list)
        if len(span) != 2 or not all(isinstance(n, int) for n in span):
            check.fail("cards", "must be [first, last] card numbers")
        for toa_id in pair:
            if not span[0] <= toa[toa_id].number <= span[1]:
                check.fail("toa", f"names {toa_id}, whose card #{toa[toa_id].number} is outside {span}")
        decks.append(ThemeDeck(check.integer("number", 1, 99), pair, (span[0], span[1]), check.provenance()))
    return toa, cards, tuple(decks)


def _numbered(check: EntryChecker, numbers: range, seen: dict) -> int:
    number = check.integer("number", numbers.start, numbers.stop - 1)
    _unique(check, seen, number, "number")
    return number


def _require_all(source: str, seen: dict, numbers: range, what: str) -> None:
    missing = [n for n in numbers if n not in seen]
    if missing:
        raise DataFileError(f"{source}: {what} cards #{numbers.start}-{numbers.stop - 1} are all needed; "
                            f"missing: {', '.join(f'#{n}' for n in missing)}")


def load_cards_file(
    path: Path,
) -> tuple[dict[int, ChallengeCard], dict[int, MissionCard], dict[int, ActionCard]]:
    data = load_toml(path)
    source = path.name
    challenges: dict[int, ChallengeCard] = {}
    for check in _entries(data, source, "challenge"):
        check.only(("number", "skill"))
        number = _numbered(check, CHALLENGE_NUMBERS, challenges)
        skill = SKILLS.index(check.choice("skill", SKILLS))
        challenges[number] = ChallengeCard(number, skill, check.provenance())
    _require_all(source, challenges, CHALLENGE_NUMBERS, "Great Mask Challenge")

    missions: dict[int, MissionCard] = {}
    for check in _entries(data, source, "mission"):
        kind = check.choice("kind", MISSION_KINDS)
        extra = {"move": ("direction", "spaces"), "discard": ("count",), "skip": ("count",),
                 "travel": ("target",)}[kind]
        check.only(("number", "kind", "text", *extra))
        number = _numbered(check, MISSION_NUMBERS, missions)
        direction = DIRECTIONS.index(check.choice("direction", DIRECTIONS)) if kind == "move" else -1
        spaces = check.integer("spaces", 1, 6) if kind == "move" else 0
        count = check.integer("count", 1, 5) if kind in ("discard", "skip") else 0
        target = check.choice("target", TRAVEL_TARGETS) if kind == "travel" else ""
        missions[number] = MissionCard(number, kind, check.get("text", str), direction, spaces, count,
                                       target, check.provenance())
    _require_all(source, missions, MISSION_NUMBERS, "Mission")

    actions: dict[int, ActionCard] = {}
    for check in _entries(data, source, "action"):
        effect = check.choice("effect", EFFECTS)
        check.only(("number", "name", "effect", "text", *(() if effect == "push" else ("amount",))))
        number = _numbered(check, ACTION_NUMBERS, actions)
        amount = check.integer("amount", *AMOUNTS[effect]) if effect != "push" else 1
        actions[number] = ActionCard(number, check.get("name", str), effect, amount, check.get("text", str),
                                     check.provenance())
    _require_all(source, actions, ACTION_NUMBERS, "Game Action")
    return challenges, missions, actions


def load_cards(folder: Path | None = None) -> Cards:
    """Our cards, or a user's own toa.toml and cards.toml from `folder`."""
    folder = folder or DATA
    toa, mask_cards, decks = load_toa_file(folder / "toa.toml")
    challenges, missions, actions = load_cards_file(folder / "cards.toml")
    return Cards(toa, mask_cards, challenges, missions, actions, decks)
