"""Quest for the Masks' picture book: the skills, the Toa, the map legend and maps, and every
card's words, as the browser's board view draws them (data only: no rule is read or restated
here)."""

from __future__ import annotations

from typing import Any

from .cards import SKILL_NAMES


def picture_book(game: Any) -> dict[str, Any]:
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
