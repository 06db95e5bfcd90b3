"""The bot levels in words, with each level's measured score against `easy` (data/levels.toml),
for the lobby and `matanui play --help`. A figure measured under another rules version than
the game's current one is not shown as if it were current."""

from __future__ import annotations

import math
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from matanui import games

LEVELS_FILE = Path(__file__).parent / "data" / "levels.toml"


@cache
def _data() -> dict[str, Any]:
    with LEVELS_FILE.open("rb") as handle:
        return tomllib.load(handle)


def level_names() -> list[str]:
    return list(_data()["levels"])


def what(level: str) -> str:
    return _data()["levels"][level]["what"]


def _measured(game: str, level: str) -> dict[str, Any] | None:
    version = games.get(game).rules_version
    return next((row for row in _data()["against_easy"] if row["game"] == game and row["level"] == level
                 and row["rules_version"] == version), None)


def against_easy(game: str, level: str) -> str:
    """The level's measured score against easy in `game`, in words, or that it is unmeasured."""
    if level == "easy":
        return "the level the others are measured against"
    row = _measured(game, level)
    if row is None:
        return "not yet measured against easy under the current rules"
    low, high = row["interval"]
    elo = _elo(row["score"])
    rating = "more Elo than the games can measure" if elo is None else f"about {elo:+.0f} Elo"
    note = f", {row['note']}" if "note" in row else ""
    return (f"scores {row['score']:.2f} against easy ({low:.2f}-{high:.2f}, {row['games']} games{note}): "
            f"{rating}")


def _short(game: str, level: str) -> str:
    row = _measured(game, level)
    if row is None:
        return f"{game} not measured yet"
    elo = _elo(row["score"])
    return f"{game} {row['score']:.2f}" + ("" if elo is None else f" ({elo:+.0f} Elo)")


def describe(game: str) -> dict[str, str]:
    """Each level's line for `game`: what it is and how it scored against easy."""
    return {level: f"{what(level)}; {against_easy(game, level)}" for level in level_names()}


def help_text() -> str:
    """For `matanui play --help`: every level, and its score against easy in each game."""
    lines = []
    for level in level_names():
        scores = "" if level == "easy" else "; against easy: " + ", ".join(
            _short(name, level) for name in games.names())
        lines.append(f"{level}, {what(level)}{scores}")
    return ". ".join(lines) + " (measured in docs/ai.md)."


def _elo(score: float) -> float | None:
    if score >= 1 or score <= 0:
        return None
    return -400 * math.log10(1 / score - 1)
