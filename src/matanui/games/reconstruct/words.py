"""Toa Nuva Reconstruct in words: who is who, what each legal action does, and why an action
is not legal."""

from __future__ import annotations

from .moves import PLAY, RESPOND
from .setup import ReconstructSetUp


class ReconstructWords(ReconstructSetUp):
    def _who(self, seat: int) -> str:
        return self.names[seat]

    def _builder(self, seat: int) -> str:
        """'Tahu Nuva', or 'Ana (Tahu Nuva)' for a player who gave a display name."""
        who, toa = self.names[seat], self._toa(seat)
        return who if who == toa else f"{who} ({toa})"

    def _toa(self, seat: int) -> str:
        return self.game.deck.toa[self.players[seat]].name

    def card_label(self, card: int) -> str:
        return self.game.deck.cards[card].label(self.game.deck.parts)

    def _card_words(self, card: int) -> str:
        return f"card #{card}, {self.game.deck.cards[card].colour}"

    def describe(self, action: str) -> str:
        move = self._move_table().get(action)
        if move is None:
            return f"{action} (not legal now)"
        kind = move.kind
        parts = self.game.deck.parts
        if kind == "add":
            return f"Add your {parts[move.part].name} ({self._card_words(move.card)})"
        if kind == "remove":
            return (f"Make {self._who(1 - self.turn_player)} remove their {parts[move.part].name} "
                    f"({self._card_words(move.card)})")
        if kind == "pass":
            return "Play no card this turn"
        if kind in ("allow", "stop"):
            assert self.pending is not None  # the respond step answers a played card
            effect, card, part = self.pending.kind, self.pending.card, parts[self.pending.part].name
            played = f"{self._who(self.turn_player)}'s card #{card}"
            if kind == "allow":
                what = f"adds their {part}" if effect == "add" else f"removes your {part}"
                return f"Let {played} take effect: it {what}"
            return (f"Play your stop card #{move.card} ({self.game.deck.cards[move.card].colour}): "
                    f"{played} does nothing, and you start your turn drawing 2 cards")
        if kind == "draw":
            return f"Draw {self.draws_due} card{'s' if self.draws_due > 1 else ''} and play as usual"
        return (f"Trade: discard card #{move.give} ({self.card_label(move.give)}), take card "
                f"#{move.take} ({self.card_label(move.take)}) from the discard pile; your turn ends")

    def _why_not(self, action: str) -> str | None:
        """The rule that forbids `action` (the kernel's why-not frame adds who decides and
        what is legal), or None where no rule says more than 'not legal now'."""
        words = action.split(":")
        me = self.current_player
        assert me is not None  # the kernel asks only while someone decides
        cards = self.game.deck.cards
        verb = words[0]
        if verb not in ("add", "remove", "stop", "trade") or len(words) < 2:
            return None
        try:
            card: int | None = int(words[1])
        except ValueError:
            card = None
        if card is None or card not in cards:
            return f"there is no card #{words[1]} (cards are numbered 1 to {len(cards)})"
        if card not in self.hands[me]:
            return f"card #{card} is not in {self._who(me)}'s hand"
        if cards[card].kind != verb and verb != "trade":
            return f"card #{card} is a {cards[card].kind} card, not a {verb} card"
        if verb in ("add", "remove") and self.phase != PLAY:
            return f"cards are played in the play step; now it is the {self.phase} step"
        if verb == "stop" and self.phase != RESPOND:
            return "a stop card answers the opponent's played card, and none is waiting"
        if verb in ("add", "remove") and len(words) == 3 and words[2] in self.game.part_index:
            part = self.game.part_index[words[2]]
            name = self.game.deck.parts[part].name
            if part not in cards[card].parts:
                return f"card #{card} does not show the {name}"
            if verb == "add" and self.built[me] >> part & 1:
                return f"{self._toa(me)}'s {name} is already built"
            if verb == "remove" and not self.built[1 - me] >> part & 1:
                return (f"{self._who(1 - me)} has no {name} to remove "
                        "(don't play a remove card without a matching part)")
        return None
