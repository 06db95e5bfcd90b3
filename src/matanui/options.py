"""Reading values from the command line: `-o key=value` game options, and whole numbers."""

from __future__ import annotations

import json

from matanui.engine import BadSetup


def integer(text: str | int) -> int:
    """A whole number written in the digits 0-9 only (the command line's numbers): Python's
    int() also reads other scripts' digits (ARABIC-INDIC DIGIT ONE as 1), which a person who
    typed one did not mean as a number. Named `integer` for the INTEGER the help shows."""
    if isinstance(text, int):  # a default, already a number
        return text
    digits = text.strip().removeprefix("-").removeprefix("+")
    if not (digits.isascii() and digits.isdigit()):
        from typer import BadParameter  # here: the research adapters read options without the CLI

        raise BadParameter(f"{text!r} is not a number: write it with the digits 0 to 9")
    return int(text)


def parse_options(pairs: list[str]) -> dict[str, object]:
    """`["advanced=true", "turn_limit=50"]` -> `{"advanced": True, "turn_limit": 50}`.
    Values are read as JSON when they parse (true, 3, "x"), else as plain strings."""
    options: dict[str, object] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise BadSetup(f"option {pair!r} must look like key=value, e.g. advanced=true")
        try:
            options[key] = json.loads(raw)
        except (ValueError, RecursionError):  # not JSON, a number past int()'s digit limit, too deep
            options[key] = raw
    return options
