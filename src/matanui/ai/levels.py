"""The bot levels in words, with each level's measured score against `easy`, and `hard`'s
against `medium` (data/levels.toml), for the lobby and `matanui play --help`. A figure
measured under another rules version than the game's current one is not shown as if it were
current."""

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


def what(level: str, game: str | None = None) -> str:
    """What the level is; in `game`, what it is there where that game's differs
    (`[levels.LEVEL.what_in]`)."""
    entry = _data()["levels"][level]
    return entry.get("what_in", {}).get(game, entry["what"])


def _exceptions(level: str) -> str:
    """For the help text: the games where the level is something else, and what."""
    return "".join(f" (in {game}: {words})" for game, words in
                   _data()["levels"][level].get("what_in", {}).items())


def _measured(game: str, level: str, opponent: str = "easy") -> dict[str, Any] | None:
    version = games.get(game).rules_version
    return next((row for row in _data().get(f"against_{opponent}", [])
                 if row["game"] == game and row["level"] == level and row["rules_version"] == version), None)


def _opponents(level: str) -> list[str]:
    """The levels `level` is measured against: easy, and medium for `hard`."""
    return [] if level == "easy" else ["easy"] + (["medium"] if level == "hard" else [])


def against(game: str, level: str, opponent: str = "easy") -> str:
    """The level's measured score against `opponent` in `game`, in words, or that it is
    unmeasured."""
    if level == "easy":
        return "the level the others are measured against"
    row = _measured(game, level, opponent)
    if row is None:
        return f"not yet measured against {opponent} under the current rules"
    low, high = row["interval"]
    elo = _elo(row["score"])
    rating = "more Elo than the games can measure" if elo is None else f"about {elo:+.0f} Elo"
    note = f", {row['note']}" if "note" in row else ""
    return (f"scores {row['score']:.2f} against {opponent} ({low:.2f}-{high:.2f}, "
            f"{row['games']} games{note}): {rating}")


def _short(game: str, level: str, opponent: str) -> str:
    row = _measured(game, level, opponent)
    if row is None:
        return f"{game} not measured yet"
    elo = _elo(row["score"])
    return f"{game} {row['score']:.2f}" + ("" if elo is None else f" ({elo:+.0f} Elo)")


def describe(game: str) -> dict[str, str]:
    """Each level's line for `game`: what it is and how it scored against the levels below."""
    return {level: "; ".join([what(level, game)] + [against(game, level, opponent)
                                              for opponent in _opponents(level) or ["easy"]])
            for level in level_names()}


def help_text() -> str:
    """For `matanui play --help`: every level, and its scores in each game."""
    lines = []
    for level in level_names():
        scores = "".join(f"; against {opponent}: " + ", ".join(_short(name, level, opponent)
                                                             for name in games.names())
                         for opponent in _opponents(level))
        lines.append(f"{level}, {what(level)}{_exceptions(level)}{scores}")
    return ". ".join(lines) + " (measured in docs/ai.md)."


def _elo(score: float) -> float | None:
    if score >= 1 or score <= 0:
        return None
    return -400 * math.log10(1 / score - 1)
