"""Reconstruct's picture book: the parts, the Toa Nuva, the colours and every card, as the
browser's board view draws them (data only: no rule is read or restated here)."""

from __future__ import annotations

from typing import Any


def picture_book(game: Any) -> dict[str, Any]:
    deck = game.deck
    return {
        "parts": [{"id": p.id, "name": p.name} for p in deck.parts],
        "toa": {t.id: {"name": t.name, "element": t.element, "kanohi": t.kanohi, "tool": t.tool}
                for t in deck.toa.values()},
        "colours": list(deck.colours),
        "cards": {str(c.id): {"kind": c.kind, "colour": c.colour,
                              "parts": [deck.parts[p].id for p in c.parts]} for c in deck.cards.values()},
    }
