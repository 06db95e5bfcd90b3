"""What the browser needs to know about each game before it draws one: its characters, options
and player counts (from the contract), and its picture book: the printed components an
observation refers to by id (Reconstruct's cards and parts, ...), read from the game's own
data, the key to every symbol its board shows (games/<game>/data/legend.toml), and what the
lobby says to introduce it (games/<game>/data/intro.toml). Data only: no rule is read or
restated here.
"""

from __future__ import annotations

from typing import Any

from matanui import games
from matanui.ai import levels
from matanui.engine import Game
from matanui.games import packs
from matanui.games.guide import introduction_data, legend_data

from . import rules_page
from .bots import levels_offered


def _character_names(game: Game) -> dict[str, str]:
    """Each character's name as players know it ("Tahu Nuva" for `tahu`): the game's own
    `character_name`, which the narration and every other surface use too."""
    return {c: game.character_name(c) for c in game.characters()}


def _level_words(game: str) -> dict[str, dict[str, str]]:
    """Each bot level in plain words (`what`) and, apart, how it was measured (`measured`):
    the lobby shows the words and keeps the figures behind a "how we measured" toggle."""
    notes = levels.describe(game)
    words = {}
    for level in levels_offered(game):
        what = levels.what(level, game)
        words[level] = {"what": what, "measured": notes[level].removeprefix(what).removeprefix("; ")}
    return words


def describe_game(game: Game) -> dict[str, Any]:
    return {"id": game.name, "title": game.title, "min_players": game.min_players,
            "max_players": game.max_players, "characters": game.characters(),
            "character_names": _character_names(game),
            "options": {key: option.to_json() for key, option in game.options_schema().items()},
            "levels": levels_offered(game.name), "level_notes": levels.describe(game.name),
            "level_words": _level_words(game.name),
            "introduction": introduction_data(game.name), "view": games.descriptor(game.name).view,
            "how_to_play": rules_page.link(game.name)}


def catalog() -> list[dict[str, Any]]:
    """Every registered game, for the lobby's form, with the data packs offered for it."""
    return [{**describe_game(games.get(name)),
             "packs": [dict(pack.data) for pack in packs.library(name)]}  # serve --data-dir
            for name in games.names()]


def picture_book(name: str, data: str | None = None) -> dict[str, Any]:
    """One game's description and components, for its board view: on the data pack whose
    hash is `data`, when given (its cards and boards are the ones to draw)."""
    game = packs.offered(name, data)
    book = games.descriptor(name).picture_book
    return {**describe_game(game), "components": book(game) if book else {},
            "legend": legend_data(name)}
