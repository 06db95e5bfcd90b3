"""Small variants of a game (data/variants.toml): smaller games played by its rules, for
research. What every game with variants shares: reading the file entry by entry, and
choosing one by the `variant` option's value."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TypeVar

from .data import EntryChecker, load_toml
from .errors import BadSetup

FULL = "full"  # the option value for the rulebook's own game
V = TypeVar("V")


def read_variants(path: Path, fields: Iterable[str], build: Callable[[EntryChecker, str], V]) -> dict[str, V]:
    """The variants of `path`, by id: each entry holds `id`, `fields` and its provenance,
    checked field by field (DataFileError naming file, entry and field); `build` makes one
    from its checker and id."""
    data = load_toml(path)
    variants: dict[str, V] = {}
    for number, entry in enumerate(data.get("variant", []), start=1):
        check = EntryChecker(path.name, f"variant[{number}]", entry)
        check.only(("id", *fields))
        check.provenance()
        variant_id = check.new_key("id", str, [FULL, *variants])
        variants[variant_id] = build(check, variant_id)
    return variants


def chosen_variant(name: str, variants: Mapping[str, V], misfits: Mapping[str, str | None],
                   data_words: str) -> V | None:
    """The variant `name` (None for the full game); BadSetup when the game's data (`data_words`,
    "this Game Action deck") cannot play it, saying why (`misfits`)."""
    if name == FULL:
        return None
    why = misfits[name]
    if why:
        raise BadSetup(f"the {name} variant cannot be played with {data_words}: {why}; play variant {FULL!r}")
    return variants[name]
