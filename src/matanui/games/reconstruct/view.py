"""What each seat of Toa Nuva Reconstruct may see, what a legal action acts on (for the
interfaces), a full position that agrees with it (determinization), and the audit that every
card is in exactly one place."""

from __future__ import annotations

import random
from typing import Any, Self

from matanui.engine.audit import one_place

from .setup import ReconstructSetUp


class ReconstructView(ReconstructSetUp):
    def _observe(self, seat: int | None) -> dict[str, Any]:
        parts = self.game.deck.parts
        pending = None
        if self.pending is not None:
            kind, card, part = self.pending
            pending = {"card": card, "effect": kind, "part": parts[part].id, "seat": self.turn_player}
        return {
            "game": self.game.name,
            "seat": seat,
            "players": list(self.players),
            "advanced": self.options["advanced"],
            "turn": self.turn,
            "turn_limit": self.turn_limit,
            "turn_player": self.turn_player,
            "current_player": self.current_player,
            "phase": self.phase,
            "built": [[p.id for p in parts if self.built[s] >> p.index & 1] for s in (0, 1)],
            "hand": sorted(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "known_in_hands": [sorted(k) for k in self.known],
            "discard": list(self.discard),
            "draw_pile_size": len(self.draw),
            "draws_due": self.draws_due,
            "pending": pending,
            "is_over": self.is_over,
            "winners": self.winners,
        }

    def _determinize(self, seat: int, rng: random.Random) -> Self:
        """The opponent's unknown cards and the draw pile order are resampled together."""
        other = self.clone()
        opp = 1 - seat
        known = other.known[opp]
        hidden_in_hand = [c for c in other.hands[opp] if c not in known]
        pool = sorted(hidden_in_hand + other.draw)  # canonical: the true order must not leak
        rng.shuffle(pool)
        n = len(hidden_in_hand)
        other.hands[opp] = sorted([c for c in other.hands[opp] if c in known] + pool[:n])
        other.draw = pool[n:]
        other._reseed(rng)
        return other

    def targets(self, action: str) -> dict[str, Any]:
        """What a legal action acts on: the `card` played (and `part` it adds or removes, on
        whose mat: `seat`), the stop `card`, or a trade's `card` given and `take`n."""
        move = self._move_table().get(action)
        if move is None:
            return {}
        kind = move.kind
        if kind in ("add", "remove"):
            me = self.turn_player
            return {"kind": kind, "card": move.card, "part": self.game.deck.parts[move.part].id,
                    "seat": me if kind == "add" else 1 - me}
        if kind == "stop":
            return {"kind": kind, "card": move.card}
        if kind == "trade":
            return {"kind": kind, "card": move.give, "take": move.take}
        return {"kind": kind}

    # -- for tests and invariants ------------------------------------------------------

    def audit(self) -> None:
        one_place("Game Action card", self._card_places(), set(self.cards_in_game))

    def card_locations(self) -> dict[int, str]:
        """Where every Game Action card is: hand:N, draw, discard or in-play."""
        return one_place("Game Action card", self._card_places())

    def _card_places(self) -> list[tuple[str, list[int]]]:
        places = [("draw", self.draw), ("discard", self.discard),
                  ("hand:0", self.hands[0]), ("hand:1", self.hands[1])]
        if self.pending is not None:
            places.append(("in-play", [self.pending.card]))
        return places
