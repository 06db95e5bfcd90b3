"""What the browser needs to know about each game before it draws one: its characters, options
and player counts (from the contract), and its picture book: the printed components an
observation refers to by id (Reconstruct's cards and parts, ...), read from the game's own
data, the key to every symbol its board shows (games/<game>/data/legend.toml), and what the
lobby says to introduce it (games/<game>/data/intro.toml). Data only: no rule is read or
restated here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from matanui import games
from matanui.ai import levels
from matanui.engine import Game
from matanui.games import packs
from matanui.games.guide import introduction_data, legend_data

from . import rules_page
from .bots import BOT_LEVELS


def _reconstruct(game: Any) -> dict[str, Any]:
    deck = game.deck
    return {
        "parts": [{"id": p.id, "name": p.name} for p in deck.parts],
        "toa": {t.id: {"name": t.name, "element": t.element, "kanohi": t.kanohi, "tool": t.tool}
                for t in deck.toa.values()},
        "colours": list(deck.colours),
        "cards": {str(c.id): {"kind": c.kind, "colour": c.colour,
                              "parts": [deck.parts[p].id for p in c.parts]} for c in deck.cards.values()},
    }


def _masks(game: Any) -> dict[str, Any]:
    from matanui.games.masks.cards import SKILL_NAMES

    cards = game.cards
    return {
        "skills": list(SKILL_NAMES),
        "toa": {t.id: {"name": t.name, "element": t.element, "skills": list(t.skills)}
                for t in cards.toa.values()},
        "legend": {key: {"kind": s.kind, "circles": s.circles, "name": s.name}
                   for key, s in game.maps.legend.items()},
        "maps": {option: {"name": b.name, "width": b.width, "height": b.height, "symbols": list(b.symbols)}
                 for option, b in game.maps.boards.items()},
        "mask_cards": {str(n): {"toa": c.toa, "kind": c.kind, "name": c.name, "text": c.text}
                       for n, c in cards.mask_cards.items()},
        "challenges": {str(n): {"skill": SKILL_NAMES[c.skill]} for n, c in cards.challenges.items()},
        "missions": {str(n): {"text": c.text} for n, c in cards.missions.items()},
        "actions": {str(n): {"name": c.name, "text": c.text} for n, c in cards.actions.items()},
    }


def _makuta(game: Any) -> dict[str, Any]:
    """Every board in its four turns: each space's squares and printed icon, in board-local
    x, y (the island's spaces are named by the first square plus the board's place); board
    names, and each token face's label (a face-up token is named by its view)."""
    return {
        "toa": {t: {"name": toa.name} for t, toa in game.parts.toa.items()},
        "board_names": {board_id: board.name for board_id, board in game.parts.boards.items()},
        "tokens": {token.view: token.label for token in game.parts.tokens},
        "boards": {board_id: [{"size": shape.board.size, "cells": [list(map(list, c)) for c in shape.cells],
                               "icons": list(shape.icons), "temple": [list(sq) for sq in shape.temple]}
                              for shape in shapes]
                   for board_id, shapes in game.shapes.items()},
    }


PICTURE_BOOKS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "reconstruct": _reconstruct,
    "masks": _masks,
    "makuta": _makuta,
}


def _character_names(game: Game) -> dict[str, str]:
    """Each character's name as players know it ("Tahu Nuva" for `tahu`), from the game's
    picture book; the id itself where a game has no book."""
    book = PICTURE_BOOKS.get(game.name)
    toa = book(game)["toa"] if book else {}
    return {c: toa.get(c, {}).get("name", c) for c in game.characters()}


def _level_words(game: str) -> dict[str, dict[str, str]]:
    """Each bot level in plain words (`what`) and, apart, how it was measured (`measured`):
    the lobby shows the words and keeps the figures behind a "how we measured" toggle."""
    notes = levels.describe(game)
    words = {}
    for level in BOT_LEVELS:
        what = levels.what(level, game)
        words[level] = {"what": what, "measured": notes[level].removeprefix(what).removeprefix("; ")}
    return words


def describe_game(game: Game) -> dict[str, Any]:
    return {"id": game.name, "title": game.title, "min_players": game.min_players,
            "max_players": game.max_players, "characters": game.characters(),
            "character_names": _character_names(game),
            "options": {key: option.to_json() for key, option in game.options_schema().items()},
            "levels": list(BOT_LEVELS), "level_notes": levels.describe(game.name),
            "level_words": _level_words(game.name),
            "introduction": introduction_data(game.name),
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
    book = PICTURE_BOOKS.get(name)
    return {**describe_game(game), "components": book(game) if book else {},
            "legend": legend_data(name)}
