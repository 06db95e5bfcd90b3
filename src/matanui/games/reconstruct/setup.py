"""Toa Nuva Reconstruct's set-up: what a position holds and how it is copied, the arrangement a
test or tutorial may fix, and laying out a new game (RECON-SETUP-*)."""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self

from matanui.engine import BadSetup, State
from matanui.engine.arrangement import Spec, listed, one_of, per_seat, seat_number, whole_number

from .cards import Deck
from .moves import PLAY, CardMove

if TYPE_CHECKING:
    from .rules import ReconstructGame

ALL_PARTS = 0b1111111
HAND_DEAL = 3


def arrangement_spec(deck: Deck, part_index: Mapping[str, int]) -> Spec:
    """What an arrangement of this deck may fix; each card is then checked to be in the
    game and in one place only by `ReconstructSetUp._lay_out`."""
    card = whole_number(1, max(deck.cards))
    return {
        "draw_pile": listed(card, "a list of Game Action card numbers, top first; the rest are "
                                  "shuffled under them"),
        "hands": per_seat(card, "two lists (seat 0, seat 1) of card numbers; without it each "
                                "seat draws 3"),
        "built": per_seat(one_of(part_index), "two lists (seat 0, seat 1) of part ids "
                                              "already built, fewer than all 7"),
        "discard": listed(card, "a list of card numbers in the discard pile"),
        "first_player": seat_number("0 or 1 (otherwise the first_player option decides)"),
    }


class ReconstructSetUp(State):
    """The fields of a position, and the set-up that fills them."""

    game: ReconstructGame
    # The parts each seat has built, one bit per part index (ALL_PARTS: the Toa is built).
    built: list[int]
    # Each seat's hand, kept sorted: legal actions then come in an order that depends only
    # on what the seat can see, never on the order cards happened to arrive in.
    hands: list[list[int]]
    draw: list[int]  # the draw pile; its top is the end of the list
    discard: list[int]
    # The cards in each hand that both players have seen (taken by trade from the discard).
    known: list[set[int]]
    turn: int
    turn_player: int
    phase: str  # the step: START, PLAY, RESPOND or OVER (moves.py)
    pending: CardMove | None  # the card played, waiting for the opponent's answer
    winner: int | None
    drawn_game: bool
    draws_due: int  # cards the turn player draws at the start of this turn (2 after a stop)

    @property
    def cards_in_game(self) -> tuple[int, ...]:
        """The Game Action cards this game plays with: the whole deck, or a variant's few."""
        variant = self.game.variant(self.options["variant"])
        return variant.cards if variant else tuple(self.game.deck.cards)

    @property
    def turn_limit(self) -> int:
        """The turn after which the game is drawn: the option, or a variant's own if lower."""
        variant = self.game.variant(self.options["variant"])
        limit = self.options["turn_limit"]
        return min(limit, variant.turn_limit) if variant else limit

    def _lay_out(self, arrangement: Mapping[str, Any]) -> int:
        """Build the mats, shuffle and deal; the seat that goes first."""
        game = self.game
        variant = game.variant(self.options["variant"])
        pool = self.cards_in_game
        # Variants: each Toa Nuva starts with the variant's parts, unless arranged otherwise.
        built = arrangement.get("built") or [list(variant.built if variant else ())] * 2
        hands_given = arrangement.get("hands")
        discard = arrangement.get("discard", [])
        top = arrangement.get("draw_pile", [])  # top first
        placed = [c for hand in hands_given or [] for c in hand] + discard + top
        unknown = [c for c in placed if c not in pool]
        if unknown:
            raise BadSetup(f"arranged card {unknown[0]} is not in the Game Action deck "
                           f"({', '.join(map(str, sorted(pool)))})")
        if len(set(placed)) != len(placed):
            twice = next(c for c in placed if placed.count(c) > 1)
            raise BadSetup(f"the arrangement places card {twice} twice; each card is in one place")
        self.built = [0, 0]
        for seat, parts in enumerate(built):
            for part_id in parts:
                self.built[seat] |= 1 << game.part_index[part_id]
        if ALL_PARTS in self.built:
            raise BadSetup("an arrangement cannot start with a Toa Nuva already built (all 7 parts)")
        deal = variant.hand if variant else HAND_DEAL
        if hands_given is None and len(pool) - len(discard) < 2 * deal:
            raise BadSetup(f"without arranged hands each seat draws {deal} cards, so the "
                           f"discard may hold at most {len(pool) - 2 * deal} cards")
        self.hands = [sorted(h) for h in hands_given] if hands_given is not None else [[], []]
        self.discard = discard
        # RECON-SETUP-SHUFFLE: the rest of the deck is shuffled under the arranged top.
        rest = [c for c in pool if c not in set(placed)]
        self.rng.shuffle(rest)
        self.draw = rest + top[::-1]
        self.known = [set(), set()]
        self.turn = 0
        self.pending = None
        self.winner = None
        self.drawn_game = False
        if hands_given is None:
            # RECON-SETUP-DEAL: each player draws 3 cards from the shared pile.
            for seat in (0, 1):
                for _ in range(deal):
                    insort(self.hands[seat], self.draw.pop())
        first = arrangement.get("first_player", self.options["first_player"])
        if first == "rps":
            first = self.rng.randrange(2)  # RECON-SETUP-FIRST: Rock-Paper-Scissors
        self.phase = PLAY
        self.turn_player = first
        return first

    def _copy_into(self, other: Self) -> None:
        other.built = list(self.built)
        other.hands = [list(h) for h in self.hands]
        other.draw = list(self.draw)
        other.discard = list(self.discard)
        other.known = [set(k) for k in self.known]
        other.turn = self.turn
        other.turn_player = self.turn_player
        other.phase = self.phase
        other.pending = self.pending
        other.winner = self.winner
        other.drawn_game = self.drawn_game
        other.draws_due = self.draws_due
