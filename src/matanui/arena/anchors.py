"""The bots' fixed ratings, shown beside the players' on each game's leaderboard: measured in
the arena, not learned from games with people (those stay unrated, docs/ratings.md).

For each game, the journals that ai/data/levels.toml cites for the current rules (each
level against `easy`, `hard` against `medium`) are read, each agent named by its level, and
the levels fitted by arena/ratings.py's Bradley-Terry on the Elo scale. Glicko's scale is
the same logistic scale (400 / ln 10), so a difference carries over as it is; the anchor
that fixes where the scale sits is `medium` = 1500, the rating every new player starts at
(the sensible player is our stated guess at a new player's strength, nothing measured).

`python -m matanui.arena.anchors` writes data/anchors.toml from the journals;
tests/arena/test_anchors.py checks that the file is what the journals give.
"""

from __future__ import annotations

import json
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import tomli_w

from matanui import games
from matanui.ai.levels import LEVELS_FILE

from .ratings import bradley_terry, scores
from .tournament import GameOutcome

ANCHORS_FILE = Path(__file__).parent / "data" / "anchors.toml"
REPOSITORY = Path(__file__).resolve().parents[3]  # where the journals (docs/ai/) lie
ANCHOR_LEVEL, ANCHOR_RATING = "medium", 1500.0
OPPONENT = {"against_easy": ("random", "easy"), "against_medium": ("heuristic", "medium")}


def _outcomes(journal: Path, level: str, opponent: tuple[str, str]) -> list[GameOutcome]:
    """The journal's games with each agent named by its level."""
    agent, opponent_level = opponent
    found = []
    for line in journal.read_text().splitlines():
        game = json.loads(line)
        levels = [opponent_level if a == agent else level for a in game["agents"]]
        found.append(GameOutcome(game=game["game"], agents=levels, characters=game["characters"],
                                 seed=game["seed"], winners=game["winners"], steps=game["steps"],
                                 turns=game.get("turns")))
    return found


def measure(root: Path = REPOSITORY) -> dict[str, Any]:
    """Every game's level ratings on the Glicko scale, each with the journals it came from."""
    with LEVELS_FILE.open("rb") as handle:
        levels = tomllib.load(handle)
    measured: dict[str, Any] = {}
    for name in games.names():
        version = games.get(name).rules_version
        outcomes, journals = [], []
        for table, opponent in OPPONENT.items():
            for row in levels.get(table, []):
                if row["game"] == name and row["rules_version"] == version:
                    outcomes += _outcomes(root / row["journal"], row["level"], opponent)
                    journals.append(row["journal"])
        agents = sorted({a for o in outcomes for a in o.agents})
        if ANCHOR_LEVEL not in agents:
            continue
        fitted = bradley_terry([p for o in outcomes for p in scores(o)], agents)
        shift = ANCHOR_RATING - fitted[ANCHOR_LEVEL]
        measured[name] = {"rules_version": version, "games": len(outcomes), "journals": journals,
                          "levels": {a: round(fitted[a] + shift, 1) for a in agents}}
    return measured


@cache
def anchors() -> dict[str, Any]:
    """The committed anchors (data/anchors.toml): {game: {"levels": {level: rating}, ...}}."""
    with ANCHORS_FILE.open("rb") as handle:
        return tomllib.load(handle)["games"]


def current(game: str) -> dict[str, float]:
    """The bot levels' anchor ratings in `game` under its current rules (empty: unmeasured)."""
    entry = anchors().get(game)
    if entry is None or entry["rules_version"] != games.get(game).rules_version:
        return {}
    return entry["levels"]


HEADER = """\
# The bot levels' fixed ratings on each leaderboard (Glicko scale), written by
# `python -m matanui.arena.anchors` from the arena journals each entry names (the ones
# ai/data/levels.toml cites for the rules version): Bradley-Terry on the Elo scale, which is
# Glicko's, anchored at medium = 1500 (arena/anchors.py says why). Do not edit by hand.
"""


if __name__ == "__main__":
    anchor = {"level": ANCHOR_LEVEL, "rating": ANCHOR_RATING}
    ANCHORS_FILE.write_text(HEADER + tomli_w.dumps({"anchor": anchor, "games": measure()}))
    print(f"wrote {ANCHORS_FILE}")
