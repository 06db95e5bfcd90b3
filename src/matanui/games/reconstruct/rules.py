"""Toa Nuva Reconstruct's rules: the turn order and what each card does. The package's other
modules hold the rest of a game: setup.py (a position's fields and the set-up), moves.py
(steps and typed moves), words.py (describe and why-not), view.py (what each seat sees).

Rule ids in comments (RECON-...) are the rows of docs/rules/reconstruct.md.

A turn is at most three decisions:
  start    (Advanced Gameplay only, when a trade is possible): `draw` or `trade:GIVE:TAKE`;
  play     the turn player plays one card (`add:CARD:PART`, `remove:CARD:PART`) or `pass`;
  respond  the opponent answers a played card: `allow` or `stop:CARD`.
Drawing is automatic where it is no decision.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from matanui.engine import Game
from matanui.engine.arrangement import Spec
from matanui.engine.options import FIRST_PLAYER, Option, turn_limit
from matanui.engine.variants import chosen_variant

from .cards import Deck, load_deck
from .moves import ALLOW, DRAW, OVER, PASS, PLAY, RESPOND, START, CardMove, Move, StopMove, TradeMove
from .setup import ALL_PARTS, HAND_DEAL, arrangement_spec
from .variants import FULL, Variant, load_variants
from .view import ReconstructView
from .words import ReconstructWords

__all__ = ["HAND_DEAL", "VARIANTS", "ReconstructGame", "ReconstructState", "load_game"]

DEFAULT_TURN_LIMIT = 200
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
        self.add_moves: dict[int, list[tuple[str, CardMove]]] = {}
        self.remove_moves: dict[int, list[tuple[str, CardMove]]] = {}
        self.stop_moves: dict[int, tuple[str, StopMove]] = {}
        # Why each small variant cannot be played with this deck (None: it can).
        self.variant_misfits = {name: variant.misfit(deck) for name, variant in VARIANTS.items()}
        for card in deck.cards.values():
            if card.kind == "add":
                self.add_moves[card.id] = [
                    (f"add:{card.id}:{parts[p].id}", CardMove("add", card.id, p)) for p in card.parts
                ]
            elif card.kind == "remove":
                self.remove_moves[card.id] = [
                    (f"remove:{card.id}:{parts[p].id}", CardMove("remove", card.id, p)) for p in card.parts
                ]
            else:
                self.stop_moves[card.id] = (f"stop:{card.id}", StopMove("stop", card.id))
        self._arrangement_spec = arrangement_spec(deck, self.part_index)  # read by every new_game

    def characters(self) -> list[str]:
        return list(self.deck.toa)

    def arrangement_spec(self) -> Spec:
        return self._arrangement_spec

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


class ReconstructState(ReconstructWords, ReconstructView):
    """A position, and the rules that change it: the turn order and the effect of each card."""

    def _set_up(self, arrangement: Mapping[str, Any]) -> None:
        first = self._lay_out(arrangement)
        self.emit("setup", f"{self._builder(0)} and {self._builder(1)} each build their Toa Nuva. "
                  f"Each player draws 3 cards; {self._who(first)} goes first.", {"first_player": first})
        self._begin_turn(first, 1)

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
        self.winner = winners[0] if winners else None  # two seats: one is left after a forfeit
        self.phase = OVER

    def response_window(self) -> str | None:
        """RECON-STOP: the answer to a played card is a window whose choices are secret (does
        the opponent hold a stop card?); `allow` lets it pass."""
        return "allow" if self.phase == RESPOND else None

    def _generate_moves(self) -> dict[str, Move]:
        game = self.game
        me = self.turn_player
        moves: dict[str, Move] = {}
        phase = self.phase
        if phase == PLAY:
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
            moves["pass"] = PASS  # RECON-PLAY-OPTIONAL
        elif phase == RESPOND:
            moves["allow"] = ALLOW
            stop_moves = game.stop_moves
            for card in self.hands[1 - me]:
                option = stop_moves.get(card)
                if option is not None:
                    moves[option[0]] = option[1]
        else:  # START: Advanced Gameplay
            moves["draw"] = DRAW
            moves.update(self._trade_moves(me))
        return moves

    def _trade_moves(self, seat: int) -> dict[str, TradeMove]:
        """RECON-ADVANCED-TRADE: discard one card, take one of the same colour from the
        discard pile (not the card just discarded: that would change nothing)."""
        cards = self.game.deck.cards
        moves: dict[str, TradeMove] = {}
        by_colour: dict[str, list[int]] = {}
        for card in self.discard:
            by_colour.setdefault(cards[card].colour, []).append(card)
        for give in self.hands[seat]:
            for take in sorted(by_colour.get(cards[give].colour, ())):
                moves[f"trade:{give}:{take}"] = TradeMove("trade", give, take)
        return moves

    def _perform(self, move: Move) -> None:
        # The commonest moves first: a playout answers and plays cards far more often than
        # it stops, passes, draws or trades.
        kind = move[0]
        if kind == "allow":
            self._resolve()
        elif isinstance(move, CardMove):
            self._play(move)
        elif isinstance(move, StopMove):
            self._stop(move.card)
        elif kind == "pass":
            me = self.turn_player
            self.emit("pass", f"{self._who(me)} plays no Game Action Card this turn.", {"seat": me})
            self._end_turn(me)
        elif kind == "draw":
            self._draw_step(self.turn_player, self.draws_due)
        else:
            assert isinstance(move, TradeMove)
            self._trade(move.give, move.take)

    # -- rules -------------------------------------------------------------------------

    def _play(self, move: CardMove) -> None:
        """An add or remove card is played; the opponent may answer with a stop card."""
        me = self.turn_player
        kind, card, part_index = move
        self.hands[me].remove(card)
        self.known[me].discard(card)
        self.pending = move
        self.phase = RESPOND
        add = kind == "add"
        verb = "add" if add else f"force {self._who(1 - me)} to remove"
        part = self.game.deck.parts[part_index]
        self.emit("play", f"{self._who(me)} plays card #{card} to {verb} {'a' if add else 'the'} "
                  f"{part.name}.", {"seat": me, "card": card, "effect": kind, "part": part.id})

    def _begin_turn(self, seat: int, draws: int) -> None:
        """RECON-TURN-ORDER, step 1. `draws` is 2 after a successful stop."""
        self.turn += 1
        self.turn_player = seat
        self.draws_due = draws
        if self.turn > self.turn_limit:
            self.phase = OVER
            self.drawn_game = True
            self.emit("draw_game", f"The turn limit ({self.turn_limit}) is reached: the game is drawn.", {})
        elif self.options["advanced"] and self._trade_moves(seat):
            self.phase = START
        else:
            self._draw_step(seat, draws)

    def _draw_step(self, seat: int, count: int) -> None:
        """RECON-DRAW (and RECON-STOP-DRAW-TWO when count is 2)."""
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
                self.emit("reshuffle", "The draw pile is empty: the discard pile is shuffled to make "
                          "a new draw pile.", {})
            drawn.append(draw.pop())
        for card in drawn:
            insort(hand, card)
        self.phase = PLAY
        who = self._who(seat)
        n = len(drawn)
        text = f"{who} draws {n} Game Action Card{'s' if n != 1 else ''}." if n else \
            f"{who} cannot draw: the draw and discard piles are empty."
        secret_text = text[:-1] + (": " + ", ".join(f"#{c}" for c in drawn) + "." if drawn else ".")
        self.emit("draw", text, {"seat": seat, "count": n}, seat=seat, secret={"cards": drawn},
                  secret_text=secret_text)

    def _resolve(self) -> None:
        """The opponent let the played card through: it takes effect, then is discarded."""
        assert self.pending is not None
        kind, card, part = self.pending
        me = self.turn_player
        self.pending = None
        self.discard.append(card)  # RECON-DISCARD
        part_name, part_id = self.game.deck.parts[part].name, self.game.deck.parts[part].id
        if kind == "add":
            self.built[me] |= 1 << part
            self.emit("add", f"{self._who(me)} adds their {part_name} ({bin(self.built[me]).count('1')} "
                      "of 7).", {"seat": me, "part": part_id})
            if self.built[me] == ALL_PARTS:  # RECON-WIN
                self.winner = me
                self.phase = OVER
                self.emit("win", f"{self._who(me)} has built all 7 parts of their Toa Nuva and wins "
                          "the game!", {"seat": me})
                return
        else:
            other = 1 - me
            self.built[other] &= ~(1 << part)
            self.emit("remove", f"{self._who(other)} puts back their {part_name}.",
                      {"seat": other, "part": part_id})
        self._end_turn(me)

    def _stop(self, stop_card: int) -> None:
        """RECON-STOP: the played card is discarded without effect, the stop card after it,
        and the stopper's turn begins with two cards drawn."""
        assert self.pending is not None
        me = self.turn_player
        other = 1 - me
        card = self.pending.card
        self.pending = None
        self.hands[other].remove(stop_card)
        self.known[other].discard(stop_card)
        self.discard.append(card)
        self.discard.append(stop_card)
        self.emit("stop", f"{self._who(other)} plays stop card #{stop_card}: {self._who(me)}'s card "
                  f"#{card} does nothing and the turn is over.",
                  {"seat": other, "card": stop_card, "stopped": card})
        self._begin_turn(other, 2)

    def _trade(self, give: int, take: int) -> None:
        me = self.turn_player
        hand = self.hands[me]
        hand.remove(give)
        self.known[me].discard(give)
        self.discard.append(give)
        self.discard.remove(take)
        insort(hand, take)
        self.known[me].add(take)  # everyone saw which card was taken
        colour = self.game.deck.cards[give].colour
        self.emit("trade", f"{self._who(me)} discards card #{give} and takes {colour} card #{take} "
                  "from the discard pile instead of playing.", {"seat": me, "gave": give, "took": take})
        self._end_turn(me)

    def _end_turn(self, seat: int) -> None:
        """RECON-TURN-ORDER, step 4: it is now the opponent's turn."""
        self._begin_turn(1 - seat, 1)

def load_game(actions_file: Path | None = None, toa_file: Path | None = None) -> ReconstructGame:
    """The game with our deck, or with a user's own Game Action deck (and parts/Toa) file."""
    return ReconstructGame(load_deck(actions_file, toa_file))


ReconstructGame.state_class = ReconstructState
