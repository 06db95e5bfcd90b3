"""Toa Nuva Reconstruct: every rule of the rulebook, in one place.

Rule ids in comments (RECON-...) are the rows of docs/rules/reconstruct.md.

A turn is at most three decisions:
  start    (Advanced Gameplay only, when a trade is possible): `draw` or `trade:GIVE:TAKE`;
  play     the turn player plays one card (`add:CARD:PART`, `remove:CARD:PART`) or `pass`;
  respond  the opponent answers a played card: `allow` or `stop:CARD`.
Drawing is automatic where it is no decision.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from matanui.engine import BadSetup, Event, Game, State
from matanui.engine.arrangement import Spec, listed, one_of, per_seat, seat_number, whole_number
from matanui.engine.audit import one_place
from matanui.engine.options import FIRST_PLAYER, Option, turn_limit
from matanui.engine.variants import chosen_variant

from .cards import Deck, load_deck
from .variants import FULL, Variant, load_variants

START, PLAY, RESPOND, OVER = "start", "play", "respond", "over"
ALL_PARTS = 0b1111111
DEFAULT_TURN_LIMIT = 200
HAND_DEAL = 3
VARIANTS = load_variants()
OPTIONS = {
    "advanced": Option("bool", "the Advanced Gameplay trade", default=False),
    "first_player": FIRST_PLAYER,
    "turn_limit": turn_limit("turns after which the game is drawn", default=DEFAULT_TURN_LIMIT),
    "variant": Option(
        "choice", "the rulebook's full game, or a small variant for research (few cards, "
        "fewer parts to build; not a rule of the rulebook)", default=FULL,
        choices=(FULL, *VARIANTS), labels=("Full game", *(v.name for v in VARIANTS.values()))),
}


class ReconstructGame(Game):
    name = "reconstruct"
    title = "Toa Nuva Reconstruct"
    rules_version = "1"
    min_players = max_players = 2

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        parts = deck.parts
        self.part_index = {p.id: p.index for p in parts}
        # Action ids and their moves are built once; legal_actions only looks them up.
        self.add_moves: dict[int, list[tuple[str, tuple]]] = {}
        self.remove_moves: dict[int, list[tuple[str, tuple]]] = {}
        self.stop_moves: dict[int, tuple[str, tuple]] = {}
        # Why each small variant cannot be played with this deck (None: it can).
        self.variant_misfits = {name: variant.misfit(deck) for name, variant in VARIANTS.items()}
        for card in deck.cards.values():
            if card.kind == "add":
                self.add_moves[card.id] = [
                    (f"add:{card.id}:{parts[p].id}", ("add", card.id, p)) for p in card.parts
                ]
            elif card.kind == "remove":
                self.remove_moves[card.id] = [
                    (f"remove:{card.id}:{parts[p].id}", ("remove", card.id, p)) for p in card.parts
                ]
            else:
                self.stop_moves[card.id] = (f"stop:{card.id}", ("stop", card.id))

    def characters(self) -> list[str]:
        return list(self.deck.toa)

    def arrangement_spec(self) -> Spec:
        card = whole_number(1, max(self.deck.cards))
        return {
            "draw_pile": listed(card, "a list of Game Action card numbers, top first; the rest are "
                                      "shuffled under them"),
            "hands": per_seat(card, "two lists (seat 0, seat 1) of card numbers; without it each "
                                    "seat draws 3"),
            "built": per_seat(one_of(self.part_index), "two lists (seat 0, seat 1) of part ids "
                                                       "already built, fewer than all 7"),
            "discard": listed(card, "a list of card numbers in the discard pile"),
            "first_player": seat_number("0 or 1 (otherwise the first_player option decides)"),
        }

    def variant(self, name: str) -> Variant | None:
        """The small variant `name` plays (None for the full game); BadSetup when this
        game's deck (a data pack's) cannot play it."""
        return chosen_variant(name, VARIANTS, self.variant_misfits, "this Game Action deck")

    def character_name(self, character: str) -> str:
        return self.deck.toa[character].name

    def options_schema(self) -> dict[str, Option]:
        return OPTIONS

    seating_words = "two Toa Nuva from: {allowed}"
    not_a_character = "{name!r} is not a Toa Nuva of this deck; choose from: {allowed}"
    # RECON-SETUP-SAME-TOA: each Toa Nuva has one set of Part Cards.
    same_character = ("both players chose {name}; only one player can build each Toa Nuva "
                      "(the rulebook settles who chooses first with Rock-Paper-Scissors)")


class ReconstructState(State):
    game: ReconstructGame

    # -- set-up ------------------------------------------------------------------------

    def _set_up(self, arrangement: Mapping[str, Any]) -> None:
        game = self.game
        variant = game.variant(self.options["variant"])
        pool = self.cards_in_game
        # Variants: each Toa Nuva starts with the variant's parts, unless arranged otherwise.
        built = arrangement.get("built") or [list(variant.built if variant else ())] * 2
        hands_given = arrangement.get("hands")
        discard = arrangement.get("discard", [])
        top = arrangement.get("draw_pile", [])  # top first
        first = arrangement.get("first_player", self.options["first_player"])
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
        # Hands are kept sorted: legal actions then come in an order that depends only on
        # what the seat can see, never on the order cards happened to arrive in.
        self.hands = [sorted(h) for h in hands_given] if hands_given is not None else [[], []]
        self.discard = discard
        # RECON-SETUP-SHUFFLE: the rest of the deck is shuffled under the arranged top.
        rest = [c for c in pool if c not in set(placed)]
        self.rng.shuffle(rest)
        self.draw = rest + top[::-1]  # the top of the pile is the end of the list
        self.known: list[set[int]] = [set(), set()]
        self.turn = 0
        self.pending: tuple | None = None
        self.winner: int | None = None
        self.drawn_game = False
        if hands_given is None:
            # RECON-SETUP-DEAL: each player draws 3 cards from the shared pile.
            for seat in (0, 1):
                for _ in range(deal):
                    insort(self.hands[seat], self.draw.pop())
        if first == "rps":
            first = self.rng.randrange(2)  # RECON-SETUP-FIRST: Rock-Paper-Scissors
        self.phase = PLAY
        self.turn_player = first
        self.setup_events = [
            Event("setup", f"{self._builder(0)} and {self._builder(1)} each build their Toa Nuva. "
                  f"Each player draws 3 cards; {self._who(first)} goes first.",
                  {"first_player": first}),
        ]
        self.setup_events += self._begin_turn(first, 1)

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

    # -- the decision ------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        phase = self.phase
        if phase == RESPOND:
            return 1 - self.turn_player
        if phase == OVER:
            return None
        return self.turn_player

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    def _finish(self, winners: list[int]) -> None:
        (self.winner,) = winners  # two seats: one is left after a forfeit
        self.phase = OVER

    def _generate_moves(self) -> dict[str, Any]:
        game = self.game
        me = self.current_player
        moves: dict[str, Any] = {}
        if self.phase == PLAY:
            mine = self.built[me]
            theirs = self.built[1 - me]
            add_moves, remove_moves = game.add_moves, game.remove_moves
            for card in self.hands[me]:
                options = add_moves.get(card)
                if options is not None:
                    for action, move in options:
                        if not mine >> move[2] & 1:  # RECON-ADD: a part you lack
                            moves[action] = move
                    continue
                options = remove_moves.get(card)
                if options is not None:
                    for action, move in options:
                        if theirs >> move[2] & 1:  # RECON-REMOVE-ONLY-MATCHING
                            moves[action] = move
            moves["pass"] = ("pass",)  # RECON-PLAY-OPTIONAL
        elif self.phase == RESPOND:
            moves["allow"] = ("allow",)
            stop_moves = game.stop_moves
            for card in self.hands[me]:
                option = stop_moves.get(card)
                if option is not None:
                    moves[option[0]] = option[1]
        else:  # START: Advanced Gameplay
            moves["draw"] = ("draw",)
            moves.update(self._trade_moves(me))
        return moves

    def _trade_moves(self, seat: int) -> dict[str, Any]:
        """RECON-ADVANCED-TRADE: discard one card, take one of the same colour from the
        discard pile (not the card just discarded: that would change nothing)."""
        cards = self.game.deck.cards
        moves: dict[str, Any] = {}
        by_colour: dict[str, list[int]] = {}
        for card in self.discard:
            by_colour.setdefault(cards[card].colour, []).append(card)
        for give in self.hands[seat]:
            for take in sorted(by_colour.get(cards[give].colour, ())):
                moves[f"trade:{give}:{take}"] = ("trade", give, take)
        return moves

    def _perform(self, move: tuple) -> list[Event]:
        kind = move[0]
        if kind == "allow":
            return self._resolve()
        if kind == "stop":
            return self._stop(move[1])
        if kind == "pass":
            me = self.turn_player
            events = [Event("pass", f"{self._who(me)} plays no Game Action Card this turn.", {"seat": me})]
            return events + self._end_turn(me)
        if kind == "draw":
            return self._draw_step(self.turn_player, self.draws_due)
        if kind == "trade":
            return self._trade(move[1], move[2])
        # add or remove: the card is played; the opponent may answer with a stop card.
        me = self.turn_player
        self.hands[me].remove(move[1])
        self.known[me].discard(move[1])
        self.pending = move
        self.phase = RESPOND
        verb = "add" if kind == "add" else f"force {self._who(1 - me)} to remove"
        part = self.game.deck.parts[move[2]].name
        text = f"{self._who(me)} plays card #{move[1]} to {verb} {'a' if kind == 'add' else 'the'} {part}."
        return [Event("play", text, {"seat": me, "card": move[1], "effect": kind,
                                     "part": self.game.deck.parts[move[2]].id})]

    # -- rules -------------------------------------------------------------------------

    def _begin_turn(self, seat: int, draws: int) -> list[Event]:
        """RECON-TURN-ORDER, step 1. `draws` is 2 after a successful stop."""
        self.turn += 1
        self.turn_player = seat
        self.draws_due = draws
        if self.turn > self.turn_limit:
            self.phase = OVER
            self.drawn_game = True
            return [Event("draw_game", f"The turn limit ({self.turn_limit}) is reached: "
                          "the game is drawn.", {})]
        if self.options["advanced"] and self._trade_moves(seat):
            self.phase = START
            return []
        return self._draw_step(seat, draws)

    def _draw_step(self, seat: int, count: int) -> list[Event]:
        """RECON-DRAW (and RECON-STOP-DRAW-TWO when count is 2)."""
        events: list[Event] = []
        drawn: list[int] = []
        hand, draw = self.hands[seat], self.draw
        for _ in range(count):
            if not draw:
                if not self.discard:
                    break
                # RECON-EMPTY-PILE: the discard pile becomes the new draw pile.
                draw.extend(self.discard)
                self.discard.clear()
                self.rng.shuffle(draw)
                events.append(Event("reshuffle", "The draw pile is empty: the discard pile is "
                                    "shuffled to make a new draw pile.", {}))
            drawn.append(draw.pop())
        for card in drawn:
            insort(hand, card)
        self.phase = PLAY
        who = self._who(seat)
        n = len(drawn)
        text = f"{who} draws {n} Game Action Card{'s' if n != 1 else ''}." if n else \
            f"{who} cannot draw: the draw and discard piles are empty."
        secret_text = text[:-1] + (": " + ", ".join(f"#{c}" for c in drawn) + "." if drawn else ".")
        events.append(Event("draw", text, {"seat": seat, "count": n}, seat=seat,
                            secret={"cards": drawn}, secret_text=secret_text))
        return events

    def _resolve(self) -> list[Event]:
        """The opponent let the played card through: it takes effect, then is discarded."""
        kind, card, part = self.pending
        me = self.turn_player
        self.pending = None
        self.discard.append(card)  # RECON-DISCARD
        part_name = self.game.deck.parts[part].name
        if kind == "add":
            self.built[me] |= 1 << part
            events = [Event("add", f"{self._who(me)} adds their {part_name} "
                            f"({bin(self.built[me]).count('1')} of 7).",
                            {"seat": me, "part": self.game.deck.parts[part].id})]
            if self.built[me] == ALL_PARTS:  # RECON-WIN
                self.winner = me
                self.phase = OVER
                events.append(Event("win", f"{self._who(me)} has built all 7 parts of their Toa Nuva "
                                    "and wins the game!", {"seat": me}))
                return events
        else:
            other = 1 - me
            self.built[other] &= ~(1 << part)
            events = [Event("remove", f"{self._who(other)} puts back their {part_name}.",
                            {"seat": other, "part": self.game.deck.parts[part].id})]
        return events + self._end_turn(me)

    def _stop(self, stop_card: int) -> list[Event]:
        """RECON-STOP: the played card is discarded without effect, the stop card after it,
        and the stopper's turn begins with two cards drawn."""
        me = self.turn_player
        other = 1 - me
        card = self.pending[1]
        self.pending = None
        self.hands[other].remove(stop_card)
        self.known[other].discard(stop_card)
        self.discard.append(card)
        self.discard.append(stop_card)
        events = [Event("stop", f"{self._who(other)} plays stop card #{stop_card}: "
                        f"{self._who(me)}'s card #{card} does nothing and the turn is over.",
                        {"seat": other, "card": stop_card, "stopped": card})]
        return events + self._begin_turn(other, 2)

    def _trade(self, give: int, take: int) -> list[Event]:
        me = self.turn_player
        hand = self.hands[me]
        hand.remove(give)
        self.known[me].discard(give)
        self.discard.append(give)
        self.discard.remove(take)
        insort(hand, take)
        self.known[me].add(take)  # everyone saw which card was taken
        colour = self.game.deck.cards[give].colour
        events = [Event("trade", f"{self._who(me)} discards card #{give} and takes {colour} card "
                        f"#{take} from the discard pile instead of playing.",
                        {"seat": me, "gave": give, "took": take})]
        return events + self._end_turn(me)

    def _end_turn(self, seat: int) -> list[Event]:
        """RECON-TURN-ORDER, step 4: it is now the opponent's turn."""
        return self._begin_turn(1 - seat, 1)

    # -- words -------------------------------------------------------------------------

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

    def describe(self, action: str) -> str:
        move = self._moves_table().get(action)
        if move is None:
            return f"{action} (not legal now)"
        kind = move[0]
        parts = self.game.deck.parts
        if kind == "add":
            return f"Add your {parts[move[2]].name} ({self._card_words(move[1])})"
        if kind == "remove":
            return (f"Make {self._who(1 - self.current_player)} remove their {parts[move[2]].name} "
                    f"({self._card_words(move[1])})")
        if kind == "pass":
            return "Play no card this turn"
        if kind in ("allow", "stop"):
            effect, card, part = self.pending[0], self.pending[1], parts[self.pending[2]].name
            played = f"{self._who(self.turn_player)}'s card #{card}"
            if kind == "allow":
                what = f"adds their {part}" if effect == "add" else f"removes your {part}"
                return f"Let {played} take effect: it {what}"
            return (f"Play your stop card #{move[1]} ({self.game.deck.cards[move[1]].colour}): {played} "
                    f"does nothing, and you start your turn drawing 2 cards")
        if kind == "draw":
            return f"Draw {self.draws_due} card{'s' if self.draws_due > 1 else ''} and play as usual"
        return (f"Trade: discard card #{move[1]} ({self.card_label(move[1])}), take card #{move[2]} "
                f"({self.card_label(move[2])}) from the discard pile; your turn ends")

    def response_window(self) -> str | None:
        """RECON-STOP: the answer to a played card is a window whose choices are secret (does
        the opponent hold a stop card?); `allow` lets it pass."""
        return "allow" if self.phase == RESPOND else None

    def targets(self, action: str) -> dict[str, Any]:
        """What a legal action acts on: the `card` played (and `part` it adds or removes, on
        whose mat: `seat`), the stop `card`, or a trade's `card` given and `take`n."""
        move = self._moves_table().get(action)
        if move is None:
            return {}
        kind = move[0]
        if kind in ("add", "remove"):
            me = self.current_player
            return {"kind": kind, "card": move[1], "part": self.game.deck.parts[move[2]].id,
                    "seat": me if kind == "add" else 1 - me}
        if kind == "stop":
            return {"kind": kind, "card": move[1]}
        if kind == "trade":
            return {"kind": kind, "card": move[1], "take": move[2]}
        return {"kind": kind}

    def _card_words(self, card: int) -> str:
        return f"card #{card}, {self.game.deck.cards[card].colour}"

    def _moves_table(self) -> dict[str, Any]:
        if self._moves is None:
            self._moves = self._generate_moves() if not self.is_over else {}
        return self._moves

    def _why_not(self, action: str) -> str | None:
        parts = action.split(":")
        me = self.current_player
        cards = self.game.deck.cards
        reason = None
        if parts[0] in ("add", "remove", "stop", "trade") and len(parts) >= 2:
            try:
                card = int(parts[1])
            except ValueError:
                card = None
            if card not in cards:
                reason = f"there is no card #{parts[1]} (cards are numbered 1 to {len(cards)})"
            elif card not in self.hands[me]:
                reason = f"card #{card} is not in {self._who(me)}'s hand"
            elif cards[card].kind != parts[0] and parts[0] != "trade":
                reason = f"card #{card} is a {cards[card].kind} card, not a {parts[0]} card"
            elif parts[0] in ("add", "remove") and self.phase != PLAY:
                reason = f"cards are played in the play step; now it is the {self.phase} step"
            elif parts[0] == "stop" and self.phase != RESPOND:
                reason = "a stop card answers the opponent's played card, and none is waiting"
            elif parts[0] == "add" and len(parts) == 3 and parts[2] in self.game.part_index:
                p = self.game.part_index[parts[2]]
                if p not in cards[card].parts:
                    reason = f"card #{card} does not show the {self.game.deck.parts[p].name}"
                elif self.built[me] >> p & 1:
                    reason = f"{self._toa(me)}'s {self.game.deck.parts[p].name} is already built"
            elif parts[0] == "remove" and len(parts) == 3 and parts[2] in self.game.part_index:
                p = self.game.part_index[parts[2]]
                if p not in cards[card].parts:
                    reason = f"card #{card} does not show the {self.game.deck.parts[p].name}"
                elif not self.built[1 - me] >> p & 1:
                    reason = (f"{self._who(1 - me)} has no {self.game.deck.parts[p].name} to remove "
                              "(don't play a remove card without a matching part)")
        return reason

    # -- information -------------------------------------------------------------------

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

    def _determinize(self, seat: int, rng: random.Random) -> ReconstructState:
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

    def _copy_into(self, other: ReconstructState) -> None:
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
        other.setup_events = self.setup_events

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
            places.append(("in-play", [self.pending[1]]))
        return places


def load_game(actions_file: Path | None = None, toa_file: Path | None = None) -> ReconstructGame:
    """The game with our deck, or with a user's own Game Action deck (and parts/Toa) file."""
    return ReconstructGame(load_deck(actions_file, toa_file))


ReconstructGame.state_class = ReconstructState
