"""The map from a search's raw chance to an honest one, per game (data/calibration.toml):
a logistic curve on the logit of the chance, `1 / (1 + exp(-(a * logit(p) + b)))`, fitted on
one block of held-out games and checked on another (matanui.ai.calibration; docs/ai.md, "Are
the chances honest?"). A search's playouts play every side alike, which pulls its chances
toward the middle in some games and away from it in others; the map undoes that. A game
without an entry keeps its raw chances."""

from __future__ import annotations

import math
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from matanui.engine import MatanuiError

CALIBRATION_FILE = Path(__file__).parent / "data" / "calibration.toml"
EDGE = 0.01  # raw chances are held within [EDGE, 1 - EDGE] before the logit: 0 and 1 occur


def logit(chance: float) -> float:
    chance = min(1 - EDGE, max(EDGE, chance))
    return math.log(chance / (1 - chance))


def apply(curve: tuple[float, float], chance: float) -> float:
    slope, shift = curve
    return 1 / (1 + math.exp(-(slope * logit(chance) + shift)))


@cache
def _data() -> dict[str, Any]:
    try:
        with CALIBRATION_FILE.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise MatanuiError(f"{CALIBRATION_FILE}: cannot be read ({error})") from None


def curve(game: str) -> tuple[float, float] | None:
    """The game's fitted (slope, shift); None where it has none."""
    entry = _data().get(game)
    if entry is None:
        return None
    try:
        return float(entry["slope"]), float(entry["shift"])
    except (KeyError, TypeError, ValueError):
        raise MatanuiError(f"{CALIBRATION_FILE}, [{game}]: needs numbers 'slope' and 'shift'") from None


def calibrated(game: str, chance: float) -> float:
    found = curve(game)
    return chance if found is None else apply(found, chance)
