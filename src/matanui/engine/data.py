"""Loading data files (TOML) with provenance, and checking them field by field.

Every entry of a data file says where it comes from:
    provenance = "printed"        with `source`: the rulebook words that fix it (found word
                                  for word in the rulebook);
    provenance = "derived"        with `source` (the printed words it rests on) and `why`
                                  (the reasoning): a value inferred from printed evidence
                                  rather than read, such as a misprint resolved or a text
                                  shared by cards of one kind;
    provenance = "reconstructed"  with `why`: one line on what the rulebook implies;
    provenance = "owner"          with `why`: what a user read off their own cards.
A bad file raises DataFileError naming the file, the entry and the field.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .errors import DataFileError
from .files import read_text
from .untrusted import first_hidden, nesting_deeper_than

PROVENANCES = ("printed", "derived", "reconstructed", "owner")
# What a data file may be (docs/data.md): far more than any game's data needs (the largest
# of ours is 23 KB and nests 4 deep), so that whatever a file holds, reading it costs little.
MAX_DATA_BYTES = 1024 * 1024
MAX_DEPTH = 16  # tables and arrays inside one another
MAX_PACK_NAME = 64  # characters of a data pack's name, which lobbies, records and reports show
# The only hidden characters (engine/untrusted.py) a string of a data file may hold: a
# rulebook quote in `source` may run over several lines.
TEXT_ALLOWS = "\n\t"
# TOML's words for the Python types a field may need (what a person editing the file sees).
TYPE_WORDS = {str: "a string", int: "a whole number", float: "a number", bool: "true or false",
              list: "a list [...]", dict: "a table {...}"}


def load_toml(path: str | Path) -> dict[str, Any]:
    """The tables of a data file; DataFileError, naming the file, for one that cannot be read,
    is not a plain file, is larger than MAX_DATA_BYTES, is not UTF-8, is not TOML, or nests
    deeper than MAX_DEPTH."""
    path = Path(path)
    text = read_text(path, "data file", DataFileError, MAX_DATA_BYTES)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"data file {path} is not valid TOML: {exc}") from None
    except RecursionError:
        data = None
    if data is None or nesting_deeper_than(data, MAX_DEPTH):
        raise DataFileError(f"data file {path} nests tables and arrays more than {MAX_DEPTH} deep")
    return data


class EntryChecker:
    """Checks one entry of a data file; every complaint names file, entry and field."""

    def __init__(self, source: str, entry_name: str, entry: Any) -> None:
        self.source = source
        self.entry_name = entry_name
        if not isinstance(entry, dict):
            self.fail("", f"must be a table, not {TYPE_WORDS.get(type(entry), repr(entry))}")
        self.entry: dict[str, Any] = entry

    def fail(self, field: str, message: str) -> None:
        where = f"{self.entry_name}.{field}" if field else self.entry_name
        raise DataFileError(f"{self.source}: {where} {message}")

    def get(self, field: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        if field not in self.entry:
            if default is ...:
                self.fail(field, "is missing")
            return default
        value = self.entry[field]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            kinds = (kind,) if isinstance(kind, type) else kind
            names = " or ".join(TYPE_WORDS.get(k, f"a {k.__name__}") for k in kinds)
            self.fail(field, f"must be {names}, not {value!r}")
        if isinstance(value, str):
            at = first_hidden(value, TEXT_ALLOWS)
            if at is not None:
                self.fail(field, f"holds the control character {value[at]!r} at character {at + 1}; "
                          "text in a data file is plain (line breaks and tabs allowed)")
        return value

    def new_key(self, field: str, kind: type, seen: Iterable[Any]) -> Any:
        """A field that names its entry (an id, a colour): refused when an earlier entry
        of the file already used it."""
        value = self.get(field, kind)
        if value in seen:
            self.fail(field, f"repeats {value!r}")
        return value

    def choice(self, field: str, allowed: Iterable[str], default: Any = ...) -> Any:
        allowed = list(allowed)
        value = self.get(field, str, default)
        if value is not default and value not in allowed:
            self.fail(field, f"is {value!r}; allowed: {', '.join(allowed)}")
        return value

    def choices(self, field: str, allowed: Iterable[str], *, min_items: int = 1) -> list[str]:
        allowed = list(allowed)
        values = self.get(field, list)
        if len(values) < min_items:
            self.fail(field, f"needs at least {min_items} item(s)")
        for value in values:
            if value not in allowed:
                self.fail(field, f"has {value!r}; allowed: {', '.join(allowed)}")
        if len(set(values)) != len(values):
            self.fail(field, "repeats an item")
        return values

    def integer(self, field: str, low: int, high: int, default: Any = ...) -> int:
        value = self.get(field, int, default)
        if value is not default and not low <= value <= high:
            self.fail(field, f"is {value}; allowed: {low} to {high}")
        return value

    def provenance(self) -> str:
        """Check the provenance fields and return the provenance."""
        kind = self.choice("provenance", PROVENANCES)
        if kind in ("printed", "derived"):
            self.get("source", str)
        if kind != "printed":
            self.get("why", str)
        return kind

    def only(self, fields: Iterable[str]) -> None:
        """Reject fields this entry does not know (a typo would otherwise pass silently)."""
        allowed = set(fields) | {"provenance", "source", "why"}
        for name in self.entry:
            if name not in allowed:
                self.fail(name, f"is not a known field; known: {', '.join(sorted(allowed))}")
