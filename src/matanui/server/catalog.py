"""What the browser needs to know about each game before it draws one: its characters, options
and player counts (from the contract), and its picture book: the printed components an
observation refers to by id (Reconstruct's cards and parts, ...), read from the game's own
data. Data only: no rule is read or restated here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from matanui import games
from matanui.engine import Game

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


PICTURE_BOOKS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "reconstruct": _reconstruct,
}


def describe_game(game: Game) -> dict[str, Any]:
    return {"id": game.name, "title": game.title, "min_players": game.min_players,
            "max_players": game.max_players, "characters": game.characters(),
            "options": game.option_help(), "levels": list(BOT_LEVELS)}


def catalog() -> list[dict[str, Any]]:
    """Every registered game, for the lobby's form."""
    return [describe_game(games.get(name)) for name in games.names()]


def picture_book(name: str) -> dict[str, Any]:
    """One game's description and components, for its board view."""
    game = games.get(name)
    book = PICTURE_BOOKS.get(name)
    return {**describe_game(game), "components": book(game) if book else {}}
