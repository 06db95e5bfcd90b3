"""Toa Nuva Reconstruct as fixed-size numbers.

Actions: `pass`, `allow`, `draw`, then every add and remove card with each part it shows,
every stop card, and every trade of a card for another of its colour.

Observation pieces (seen from the observing seat, "me" first):
  to_decide, my_turn     1 each: whether I decide now; whether it is my turn
  phase                  start, play, respond, over
  characters             (2, Toa) which Toa Nuva each seat builds
  built                  (2, 7) parts built per seat
  hand                   my cards (by card index); zeros for the public view
  known                  (2, cards) cards seen entering each seat's hand (a trade's take)
  discard                the discard pile
  pending_card, pending_effect (add, remove), pending_part   the card waiting for an answer
  counts                 hand sizes (2), draw pile, cards due, turn / limit, advanced
Memory: every card I have held, every card I have seen played or discarded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from matanui.envs.encoding import Encoding, Layout, one_hot

PHASES = ("start", "play", "respond", "over")


class ReconstructEncoding(Encoding):
    about: ClassVar[Mapping[str, str]] = {
        "to_decide": "1 when this seat must decide now",
        "my_turn": "1 when it is this seat's turn",
        "phase": "the step of the turn: start, play, respond, over",
        "characters": "which Toa Nuva each seat builds (me first)",
        "built": "the parts each seat has built",
        "hand": "my cards, by card; zeros in the public view",
        "known": "cards seen entering each seat's hand (a trade's take)",
        "discard": "the discard pile",
        "pending_card": "the card waiting for an answer (a stop card or allow)",
        "pending_effect": "what the waiting card does: add, remove",
        "pending_part": "the part the waiting card acts on",
        "counts": "hand sizes (me, other), draw pile, cards due, turn / limit, advanced gameplay",
        "held": "every card I have held",
        "seen_played": "every card I have seen played or discarded",
    }

    def __init__(self, game: Any, players: int) -> None:
        deck = game.deck
        self.card_ids = sorted(deck.cards)
        self.card_index = {card: i for i, card in enumerate(self.card_ids)}
        self.part_index = {part.id: part.index for part in deck.parts}
        self.toa_index = {toa: i for i, toa in enumerate(deck.toa)}
        super().__init__(game, players)

    def action_ids(self) -> list[str]:
        game = self.game
        cards = game.deck.cards
        actions = ["pass", "allow", "draw"]
        for card in self.card_ids:
            options = game.add_moves.get(card) or game.remove_moves.get(card) or [game.stop_moves[card]]
            actions += [action for action, _ in options]
        for give in self.card_ids:
            actions += [f"trade:{give}:{take}" for take in self.card_ids
                        if take != give and cards[take].colour == cards[give].colour]
        return actions

    def max_decisions(self, options: Mapping[str, Any]) -> int:
        """A turn is at most three decisions (start, play, respond)."""
        return 3 * (options["turn_limit"] + 1)

    def describe_observation(self, layout: Layout) -> None:
        cards, parts = len(self.card_ids), len(self.part_index)
        layout.add("to_decide", 1)
        layout.add("my_turn", 1)
        layout.add("phase", len(PHASES))
        layout.add("characters", 2, len(self.toa_index))
        layout.add("built", 2, parts)
        layout.add("hand", cards)
        layout.add("known", 2, cards)
        layout.add("discard", cards)
        layout.add("pending_card", cards)
        layout.add("pending_effect", 2)
        layout.add("pending_part", parts)
        layout.add("counts", 6)

    def describe_memory(self, layout: Layout) -> None:
        layout.add("held", len(self.card_ids))
        layout.add("seen_played", len(self.card_ids))

    def encode(self, obs: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        order = self.relative(obs)
        me = order[0]
        cards = self.card_index
        total = len(self.card_ids)
        out["to_decide"][0] = obs["current_player"] == me and obs["seat"] is not None
        out["my_turn"][0] = obs["turn_player"] == me
        out["phase"][PHASES.index(obs["phase"])] = 1
        for row, seat in enumerate(order):
            out["characters"][row, self.toa_index[obs["players"][seat]]] = 1
            for part in obs["built"][seat]:
                out["built"][row, self.part_index[part]] = 1
            for card in obs["known_in_hands"][seat]:
                out["known"][row, cards[card]] = 1
        for card in obs["hand"] or ():
            out["hand"][cards[card]] = 1
        for card in obs["discard"]:
            out["discard"][cards[card]] = 1
        pending = obs["pending"]
        if pending is not None:
            one_hot(out["pending_card"], cards[pending["card"]])
            out["pending_effect"][0 if pending["effect"] == "add" else 1] = 1
            one_hot(out["pending_part"], self.part_index[pending["part"]])
        sizes = obs["hand_sizes"]
        out["counts"][:] = (sizes[order[0]] / total, sizes[order[1]] / total, obs["draw_pile_size"] / total,
                            obs["draws_due"] / 2, obs["turn"] / obs["turn_limit"], obs["advanced"])

    def remember(self, obs: dict[str, Any], memory: dict[str, np.ndarray]) -> None:
        cards = self.card_index
        for card in obs["hand"] or ():
            memory["held"][cards[card]] = 1
        for card in obs["discard"]:
            memory["seen_played"][cards[card]] = 1
        if obs["pending"] is not None:
            memory["seen_played"][cards[obs["pending"]["card"]]] = 1


ENCODING = ReconstructEncoding
