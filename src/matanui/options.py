"""Parsing `-o key=value` game options from the command line."""

from __future__ import annotations

import json

from matanui.engine import BadSetup


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
