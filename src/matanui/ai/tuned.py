"""Weights that `matanui tune` found for a game's heuristic (data/tuned.toml), each game's
table naming the run that found them and the test that verified them, so the figures can be
recomputed from the committed journals."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from matanui.engine import MatanuiError

TUNED_FILE = Path(__file__).parent / "data" / "tuned.toml"


@cache
def _data() -> dict[str, Any]:
    try:
        with TUNED_FILE.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise MatanuiError(f"{TUNED_FILE}: cannot be read ({error})") from None


def tuned_run(game: str) -> dict[str, Any]:
    """The game's table: the tuned weights and where they came from."""
    entry = _data().get(game)
    if not isinstance(entry, dict) or not isinstance(entry.get("weights"), dict):
        raise MatanuiError(f"{TUNED_FILE} has no [{game}.weights] table of tuned weights")
    return entry


def tuned_weights(game: str) -> dict[str, float]:
    """The weights as NAME = number; the caller checks names and values against the
    game's heuristic (matanui.ai.registry)."""
    weights = tuned_run(game)["weights"]
    bad = [name for name, value in weights.items()
           if isinstance(value, bool) or not isinstance(value, int | float)]
    if bad:
        raise MatanuiError(f"{TUNED_FILE}, [{game}.weights]: {', '.join(bad)} must be numbers")
    return {name: float(value) for name, value in weights.items()}
