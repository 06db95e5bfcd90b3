"""Quest for the Masks: every rule of the rulebook, in one place.

Rule ids in comments (MASKS-...) are the rows of docs/rules/masks.md. The seat that goes
first is the rulebook's Player 1 (West start), the other Player 2 (East start).

The decisions (phases), and the action ids each offers:
  turn     the turn player, before they move: `attach:N` (a won Great Mask or Turaga card, at
           most one change of each per turn), `play:N` (a card that may be played any time),
           then the move itself: `move:N|E|S|W`, or a card that replaces it (Infected Mask
           `play:21:N`, a two-space Reward `play:30:NE`); `wait` only when no move is open;
  window   a Great Mask Challenge, after its card is revealed: the lander, then the other
           player, in turn until both pass in a row: `pass` or `play:N` (Bonus, Penalty, ...);
  anytime  the turn player, before the turn passes, after a move that drew them a card (with
           no challenge after it) or in a turn whose move is skipped: `pass` or `play:N` (a
           card playable at any time: Reward draw, Penalty skip). Its choices are secret, so
           it is a response window (`response_window()` is `pass`);
  claim    the player who just won a Great Mask/Turaga card: `attach:N` or `keep`;
  jump     a Toa on a Portal with more than one free Portal to go to: `jump:B6`;
  discard  a Mission makes a player give up a card and they hold more than one: `discard:N`.
Everything that is no decision happens without asking. What happens after an action is kept
on an agenda (a stack of steps), so that a decision may interrupt a chain of effects (a push
onto a Mission that moves the Toa onto a Portal...) and the chain resumes after it.
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

from .cards import DIRECTIONS, NUMBER_WORDS, SKILL_NAMES, SKILLS, Cards, MissionCard, load_cards
from .maps import BLANK, CHALLENGE, GAME_ACTION, MISSION, PORTAL, Maps, load_maps
from .moves import (
    ANY_TIME,
    ANYTIME,
    CLAIM,
    DIR_CODES,
    DIR_NAMES,
    DISCARD,
    IN_CHALLENGE,
    IN_TURN,
    JUMP,
    KEEP,
    M_ATTACH,
    M_DISCARD,
    M_JUMP,
    M_KEEP,
    M_MOVE,
    M_PASS,
    M_PLAY,
    MOVE_IDS,
    OVER,
    PASS,
    S_CHALLENGE,
    S_CLAIM,
    S_COMPARE,
    S_JUMP,
    S_MISSIONS,
    S_TURN,
    S_WINDOW,
    TURN,
    TWO_STEP_WORDS,
    TWO_STEPS,
    WAIT,
    WINDOW,
    Move,
)
from .setup import HAND_LIMIT, MASKS_TO_WIN, Challenge, HeldMission, arrangement_spec
from .variants import FULL, Variant, load_variants
from .view import MasksView
from .words import MasksWords

DEFAULT_TURN_LIMIT = 400
MAP_CHOICES = ("a", "b", "both")
MAP_LABELS = {"a": "Side A", "b": "Side B", "both": "Both mats"}
VARIANTS = load_variants()


def number_words(count: int) -> str:
    """A count as the narration writes it: "two", or "12" past the words it has."""
    return NUMBER_WORDS[count] if count < len(NUMBER_WORDS) else str(count)


class MasksGame(Game):
    name = "masks"
    title = "Quest for the Masks"
    # 2: the first player starts West, the give-up Mission walk is enforced, and a card won
    # in the first challenge of a double space counts only after the second.
    # 3: a card drawn during a move, or held in a turn whose move is skipped, may be played
    # before the turn passes (the any-time window).
    rules_version = "3"
    min_players = max_players = 2

    def arrangement_spec(self) -> Spec:
        return self._arrangement_spec

    def __init__(self, cards: Cards, maps: Maps) -> None:
        self.cards = cards
        self.maps = maps
        # Every board a game may be played on, by id (a variant's small map among them), and
        # the ones the `map` option offers.
        self.boards = dict(maps.boards)
        self.map_boards = {key: maps.boards[key] for key in MAP_CHOICES if key in maps.boards}
        # Why each small variant cannot be played with these cards and maps (None: it can).
        self.variant_misfits = {name: variant.misfit(cards, maps) for name, variant in VARIANTS.items()}
        self.options = {
            "map": Option("choice", "side A or B of the map, or both mats put together", default="a",
                          choices=tuple(self.map_boards),
                          labels=tuple(MAP_LABELS[key] for key in self.map_boards)),
            "short": Option("bool", "the shorter game, won with three Great Masks", default=False),
            "first_player": FIRST_PLAYER,
            "turn_limit": turn_limit("turns after which the game is drawn", default=DEFAULT_TURN_LIMIT),
            "variant": Option(
                "choice", "the rulebook's full game, or a small variant for research (a small map, few "
                "cards; not a rule of the rulebook)", default=FULL,
                choices=(FULL, *VARIANTS), labels=("Full game", *(v.name for v in VARIANTS.values()))),
        }
        # Action ids are built once; legal_actions only looks them up.
        self.play_ids = {n: f"play:{n}" for n in cards.actions}
        self.push_ids = {n: tuple(f"play:{n}:{d}" for d in DIR_CODES) for n in cards.actions}
        self.two_step_ids = {n: tuple(f"play:{n}:{code}" for code, _ in TWO_STEPS) for n in cards.actions}
        self.discard_ids = {n: f"discard:{n}" for n in cards.actions}
        self.attach_ids = {n: f"attach:{n}" for n in cards.mask_cards}
        self.effect = {n: card.effect for n, card in cards.actions.items()}
        self.mask_cards_kind = {n: card.kind for n, card in cards.mask_cards.items()}
        self._arrangement_spec = arrangement_spec(cards)

    def characters(self) -> list[str]:
        return list(self.cards.toa)

    def variant(self, name: str) -> Variant | None:
        """The small variant `name` plays (None for the full game); BadSetup when these
        cards and maps (a data pack's) cannot play it."""
        return chosen_variant(name, VARIANTS, self.variant_misfits, "these cards and maps")

    def character_name(self, character: str) -> str:
        return self.cards.toa[character].name

    def options_schema(self) -> dict[str, Option]:
        return self.options

    seating_words = "two Toa from: {allowed}"
    not_a_character = "{name!r} is not a Toa of Quest for the Masks; choose from: {allowed}"
    # MASKS-SETUP-CHOOSE-TOA: each Toa has one set of Great Mask/Turaga cards.
    same_character = "both players chose {name}; each player chooses a different Toa (choose from: {allowed})"


class MasksState(MasksWords, MasksView):
    """The state machine: each decision's legal moves and what each move does."""

    # -- set-up ------------------------------------------------------------------------

    def _set_up(self, arrangement: Mapping[str, Any]) -> None:
        self._lay_out(arrangement)
        self._run()

    # -- the decision ------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return self.actor

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    def _finish(self, winners: list[int]) -> None:
        self._end(winners[0] if winners else None)  # two seats: one is left after a forfeit

    def _generate_moves(self) -> dict[str, Any]:
        phase, seat = self.phase, self.actor
        assert seat is not None, "moves are asked for only while a decision is pending"
        if phase == TURN:
            return self._turn_moves(seat)
        if phase == WINDOW:
            return self._window_moves(seat, IN_CHALLENGE)
        if phase == ANYTIME:
            return self._window_moves(seat, ANY_TIME)
        game = self.game
        if phase == CLAIM:
            return {game.attach_ids[self.claim]: (M_ATTACH, self.claim), "keep": KEEP}
        if phase == JUMP:
            return {f"jump:{self.labels[c]}": (M_JUMP, c) for c in self._free_portals(seat)}
        return {game.discard_ids[n]: (M_DISCARD, n) for n in self.hands[seat]}

    def _turn_moves(self, seat: int) -> dict[str, Any]:
        game = self.game
        moves: dict[str, Any] = {}
        step = self.step
        # _may_enter, inlined: this loop runs on every turn.
        kind = self.kind
        other = self.toa_cells[1 - seat]
        closed_challenges = bool(self.missions[seat])
        last_challenge, last_game_action = self.last_challenge[seat], self.last_game_action[seat]
        for d, cell in enumerate(step[self.toa_cells[seat]]):
            if cell < 0 or cell == other:
                continue
            space = kind[cell]
            if space == CHALLENGE:
                if closed_challenges or cell == last_challenge:
                    continue
            elif space == GAME_ACTION and cell == last_game_action:
                continue
            moves[MOVE_IDS[d]] = (M_MOVE, d, cell)
        if moves and self._giving_up(seat):
            moves = self._towards_game_action(seat, moves)
        can_move = bool(moves)
        if self.won[seat]:
            self._attach_moves(seat, moves)
        effect = game.effect
        opp = 1 - seat
        for n in self.hands[seat]:
            card_effect = effect[n]
            if card_effect == "push":  # MASKS-GA-INFECTED
                ids = game.push_ids[n]
                for d, cell in enumerate(step[self.toa_cells[opp]]):
                    if cell >= 0 and self._may_enter(opp, cell):
                        moves[ids[d]] = (M_PLAY, n, d, cell)
            elif card_effect == "move":  # MASKS-GA-MOVE-TWO
                ids = game.two_step_ids[n]
                for index, end in enumerate(self._two_step_ends(seat)):
                    if end >= 0:
                        moves[ids[index]] = (M_PLAY, n, index, end)
            elif card_effect in IN_TURN:
                moves[game.play_ids[n]] = (M_PLAY, n)
        if not can_move:
            moves["wait"] = WAIT  # MASKS-BOXED-IN
        return moves

    def _towards_game_action(self, seat: int, moves: dict[str, Any]) -> dict[str, Any]:
        """MASKS-MISSION-GIVE-UP: "you must start to move towards the nearest Game Action
        space": only the moves that bring the Toa closer to it, unless none of them does."""
        distance = self._game_action_distance(seat)
        here = [distance[c] for c in self.step[self.toa_cells[seat]] if c >= 0 and distance[c] >= 0]
        if not here:
            return moves
        nearest = min(here)
        closer = {a: m for a, m in moves.items() if distance[m[2]] == nearest}
        return closer or moves

    def _game_action_distance(self, seat: int) -> list[int]:
        """Fewest one-space moves from each space to a Game Action space the Toa may enter (-1:
        none reachable), over the spaces they may walk: not Challenge spaces (their Mission closes
        them), nor Portal spaces (they move the Toa elsewhere). The other Toa is no obstacle: it moves."""
        kind, step = self.kind, self.step
        distance = [-1] * len(kind)
        frontier = [c for c, k in enumerate(kind) if k == GAME_ACTION and c != self.last_game_action[seat]]
        for cell in frontier:
            distance[cell] = 0
        while frontier:
            reached = []
            for cell in frontier:
                for near in step[cell]:
                    if near >= 0 and distance[near] < 0 and kind[near] in (BLANK, MISSION):
                        distance[near] = distance[cell] + 1
                        reached.append(near)
            frontier = reached
        return distance

    def _attach_moves(self, seat: int, moves: dict[str, Any]) -> None:
        """MASKS-ATTACH-BEFORE-MOVE: one change of Great Mask and one of Turaga per turn."""
        mask_cards = self.game.mask_cards_kind
        ids = self.game.attach_ids
        for n in self.won[seat]:
            if mask_cards[n] == "mask":
                if not self.attach_done & 1 and n != self.mask_on[seat]:
                    moves[ids[n]] = (M_ATTACH, n)
            elif not self.attach_done & 2 and n != self.turaga_on[seat]:
                moves[ids[n]] = (M_ATTACH, n)

    def _two_step_ends(self, seat: int) -> list[int]:
        """Where a two-space move may end, per TWO_STEPS entry (-1: not open). Only the end
        space counts (MASKS-Q-MOVE-THROUGH), but the Toa cannot pass through the other Toa."""
        step = self.step
        here = self.toa_cells[seat]
        other = self.toa_cells[1 - seat]
        ends = []
        for _, paths in TWO_STEPS:
            end = -1
            for first, second in paths:
                mid = step[here][first]
                if mid < 0 or mid == other:
                    continue
                cell = step[mid][second]
                if cell >= 0 and self._may_enter(seat, cell):
                    end = cell
                    break
            ends.append(end)
        return ends

    def _window_moves(self, seat: int, effects: frozenset[str]) -> dict[str, Any]:
        """A challenge window or the any-time window: `pass`, or a card of those effects."""
        game = self.game
        moves: dict[str, Any] = {"pass": PASS}
        effect = game.effect
        for n in self.hands[seat]:
            if effect[n] in effects:
                moves[game.play_ids[n]] = (M_PLAY, n)
        return moves

    def _free_portals(self, seat: int) -> list[int]:
        """MASKS-PORTAL-JUMP: a different Portal, not one the other Toa stands on."""
        here, other = self.toa_cells[seat], self.toa_cells[1 - seat]
        return [c for c in self.board.portals if c != here and c != other]

    # -- carrying out an action ----------------------------------------------------------

    def _perform(self, move: Move) -> None:
        op = move[0]
        seat = self.actor
        assert seat is not None, "a move is performed only for the decision pending"
        if op == M_MOVE:
            cell = move[2]
            self.emit("move", self.move_texts[seat][move[1]],
                      {"seat": seat, "direction": DIRECTIONS[move[1]], "to": self.labels[cell]})
            self.phase = None
            self.toa_cells[seat] = cell
            self._enter(seat, cell, "lands on")
        elif op == M_PLAY:
            self._play(seat, move)
        elif op == M_PASS:
            if self.phase == ANYTIME:
                self.emit("pass", f"{self.names[seat]} plays no Game Action Card now.", {"seat": seat})
            else:
                self.emit("pass", f"{self.names[seat]} plays no Game Action Card in this challenge.",
                          {"seat": seat})
                if self.passes == 0:
                    self.agenda.append((S_WINDOW, 1 - seat, 1))
            self.phase = None
        elif op == M_ATTACH:
            self._attach(seat, move[1])
            if self.phase == TURN:
                return  # still before the move: the turn window stays open
            self.phase = None
        elif op == M_KEEP:
            card = self.game.cards.mask_cards[self.claim]
            self.emit("keep", f"{self.names[seat]} places {card.name} (Card #{card.number}) "
                      "below their Toa card, unattached.", {"seat": seat, "card": card.number})
            self.phase = None
        elif op == M_JUMP:
            self.phase = None
            self._jump(seat, move[1])
        elif op == M_DISCARD:
            self.phase = None
            self._mission_discard(seat, move[1])
            self.agenda.append((S_MISSIONS, seat))
        else:  # M_WAIT
            self.emit("wait", f"{self.names[seat]} cannot move their Toa Mask: they wait.", {"seat": seat})
            self.phase = None
        self._run()

    def _run(self) -> None:
        """Carry out the agenda until a decision is due or the game is over; an empty agenda
        means the turn is over."""
        agenda = self.agenda
        while self.phase is None:
            if not agenda:
                if self.owed:
                    self.owed = False
                    self._open_anytime(self.turn_player)
                else:
                    self._next_turn()
                continue
            step = agenda.pop()
            op = step[0]
            if op == S_TURN:
                self._open_turn(step[1])
            elif op == S_WINDOW:
                self._open_window(step[1], step[2])
            elif op == S_MISSIONS:
                self._advance_missions(step[1])
            elif op == S_CHALLENGE:
                self._reveal_challenge(step[1])
            elif op == S_COMPARE:
                self._compare()
            elif op == S_CLAIM:
                self._open_claim(step[1])
            else:  # S_JUMP
                self._open_jump(step[1])

    # -- turns ---------------------------------------------------------------------------

    def _next_turn(self) -> None:
        """MASKS-TURN-ORDER: the other player's turn; skipped moves are used up here."""
        seat = 1 - self.turn_player
        self.turn_player = seat
        self.turn += 1
        if self.turn > self.turn_limit:  # MASKS-TURN-LIMIT
            self.emit("draw_game", f"The turn limit ({self.turn_limit}) is reached: "
                      "the game is drawn.", {})
            self._end(None)
            return
        who = self.names[seat]
        if self.gave_up:
            self.gave_up = False
            self.emit("turn", f"Because {self.names[1 - seat]} used their turn to move {who}'s Toa "
                      f"Mask, it's now {who}'s turn to move.", {"seat": seat})
        queue = self.missions[seat]
        if queue and self.game.cards.missions[queue[0].card].kind == "skip":  # MASKS-MISSION-SKIP
            head = queue[0]
            head.left -= 1
            self.emit("skip", f"{who} skips this move for Mission #{head.card}.",
                      {"seat": seat, "mission": head.card})
            if not head.left:
                queue.pop(0)
                self._complete_mission(seat, head.card)
                self.agenda.append((S_MISSIONS, seat))
            self.owed = True  # MASKS-GA-ANY-TIME: the move is skipped, not the cards
            return
        if self.skips[seat]:  # MASKS-GA-SKIP
            self.skips[seat] -= 1
            self.emit("skip", f"{who} must skip this move (Penalty).", {"seat": seat})
            self.owed = True
            return
        self.attach_done = 0
        self.agenda.append((S_TURN, seat))

    def _open_turn(self, seat: int) -> None:
        moves = self._turn_moves(seat)
        if len(moves) == 1 and "wait" in moves and not self.hands[seat]:
            # MASKS-BOXED-IN: no space to move to and an empty hand: the turn passes without
            # asking. With cards in hand the window opens even when none can be played, so
            # that the opponent learns nothing about the hand (MASKS-GA-WINDOW-INFO).
            self.emit("wait", f"{self.names[seat]} cannot move their Toa Mask and has no card "
                      "to play: they wait.", {"seat": seat})
            return
        self.phase = TURN
        self.actor = seat
        self._keep_moves(moves)

    def _open_anytime(self, seat: int) -> None:
        """MASKS-GA-ANY-TIME, MASKS-GA-WINDOW-INFO: opened to any turn player with a card in
        hand, whatever the cards (their number is public, what they are is not)."""
        if self.hands[seat]:
            self.phase = ANYTIME
            self.actor = seat

    def _end(self, winner: int | None) -> None:
        self.phase = OVER
        self.actor = None
        self.winner = winner
        self.agenda.clear()

    # -- spaces --------------------------------------------------------------------------

    def _enter(self, seat: int, cell: int, how: str) -> None:
        """MASKS-MOVE-ICON: the icon of the space a Toa ends on decides what happens. `how` is
        the narration's verb: 'lands on', or 'has been forced into' when pushed or sent."""
        kind = self.kind[cell]
        if kind == BLANK:
            return
        who = self.names[seat]
        queue = self.missions[seat]
        if kind == MISSION:  # MASKS-MISSION-DRAW
            self.emit("space", f"{who} {how} a Mission Space: this means they must complete a Mission.",
                      {"seat": seat, "space": "mission"})
            self._draw_mission(seat)
            self.agenda.append((S_MISSIONS, seat))
        elif kind == CHALLENGE:
            self.last_challenge[seat] = cell
            self.last_game_action[seat] = -1  # a challenge attempt lifts MASKS-GA-NOT-TWICE
            count = self.board.circles[cell]  # MASKS-DOUBLE
            what = "a Great Mask Challenge" if count == 1 else "two Great Mask Challenges"
            self.emit("space", f"{who} {how} a Challenge Space: this means they get to attempt {what}.",
                      {"seat": seat, "space": "challenge", "count": count})
            # The cards won here are attached or kept after all its challenges: the attached
            # cards were decided before the move (MASKS-ATTACH-BEFORE-MOVE, MASKS-DOUBLE).
            self.agenda.append((S_CLAIM, seat))
            for _ in range(count):
                self.agenda.append((S_CHALLENGE, seat))
        elif kind == GAME_ACTION:
            self.last_game_action[seat] = cell
            if queue:
                self._complete_travel(seat, "game_action")
            self._land_on_game_action(seat, cell, how)
            if queue:
                self.agenda.append((S_MISSIONS, seat))
        elif kind == PORTAL:
            self.emit("space", f"{who} {how} a Portal Space: they must jump to a different Portal space.",
                      {"seat": seat, "space": "portal"})
            if queue:
                self._complete_travel(seat, "portal")
                self.agenda.append((S_MISSIONS, seat))
            self.agenda.append((S_JUMP, seat))

    def _land_on_game_action(self, seat: int, cell: int, how: str) -> None:
        """MASKS-GA-DRAW, MASKS-GA-HAND-LIMIT, MASKS-DOUBLE."""
        count = self.board.circles[cell]
        who = self.names[seat]
        text = f"{who} {how} a Game Action Space: this means they get to draw {number_words(count)} " \
            f"card{'s' if count > 1 else ''} from their Game Action pile of cards."
        if len(self.hands[seat]) >= HAND_LIMIT:
            text += f" They have {number_words(HAND_LIMIT)} cards in their hand, so they do not pick up " \
                "another Game Action Card."
            self.emit("draw", text, {"seat": seat, "drawn": 0})
            return
        if self._draw_with_event(seat, count, text) and seat == self.turn_player:
            # MASKS-GA-ANY-TIME: the card came after the turn window; it may be played before
            # the turn passes. (A Toa pushed here by the turn player has his own turn next.)
            self.owed = True

    def _draw_with_event(self, seat: int, count: int, text: str) -> int:
        """Draw and narrate: the number drawn is public, the cards are told to the drawer only.
        Returns how many were drawn."""
        drawn = self._draw_actions(seat, count)
        n = len(drawn)
        if n < count:
            full = len(self.hands[seat]) >= HAND_LIMIT
            why = "their hand is full" if full else "their piles are empty"
            text += f" They can draw only {number_words(n)}: {why}."
        cards = self.game.cards.actions
        names = ", ".join(f"Card #{c} ({cards[c].name})" for c in drawn)
        secret = f"{text} They draw {names}." if n else text
        self.emit("draw", text, {"seat": seat, "drawn": n}, seat=seat,
                  secret={"cards": drawn}, secret_text=secret)
        return n

    def _draw_actions(self, seat: int, count: int) -> list[int]:
        """Draw up to `count` Game Action cards, never past five in hand (MASKS-GA-HAND-LIMIT),
        reshuffling the discard pile when the draw pile is empty (MASKS-GA-RESHUFFLE)."""
        hand, pile = self.hands[seat], self.action_pile[seat]
        drawn: list[int] = []
        while len(drawn) < count and len(hand) < HAND_LIMIT:
            if not pile:
                discard = self.action_discard[seat]
                if not discard:
                    break
                pile.extend(sorted(discard))
                discard.clear()
                self.rng.shuffle(pile)
                # Everyone saw which cards went back: the rest of their cards are in their hand.
                self.known[seat] = set(hand)
                self.emit("reshuffle", f"{self.names[seat]}'s Game Action Card draw pile is depleted: "
                          "they shuffle their discard pile and place the cards face down to start a new draw "
                          "pile.", {"seat": seat})
            card = pile.pop()
            insort(hand, card)
            drawn.append(card)
        return drawn

    def _open_jump(self, seat: int) -> None:
        portals = self._free_portals(seat)
        if len(portals) > 1:
            self.phase = JUMP
            self.actor = seat
            return
        if portals:
            self._jump(seat, portals[0])
        else:
            self.emit("jump", f"Every other Portal space is taken: {self.names[seat]}'s Toa Mask stays.",
                      {"seat": seat})

    def _jump(self, seat: int, cell: int) -> None:
        self.toa_cells[seat] = cell
        self.emit("jump", f"{self.names[seat]} jumps to the Portal space at {self.labels[cell]}.",
                  {"seat": seat, "to": self.labels[cell]})

    # -- missions ------------------------------------------------------------------------

    def _draw_mission(self, seat: int) -> None:
        who = self.names[seat]
        if not self.mission_pile:
            if not self.mission_discard:
                # MASKS-MISSION-NONE-LEFT
                self.emit("mission", "Every Mission card is held by a player: there is no Mission to take.",
                          {"seat": seat})
                return
            self._reshuffle_shared(self.mission_pile, self.mission_discard, "Mission")
        number = self.mission_pile.pop()
        mission = self.game.cards.missions[number]
        self.missions[seat].append(HeldMission(number, self._mission_count(number)))
        self.emit("mission", f"{who} flips over the top card in the Mission pile of cards. They reveal "
                  f"card #{number}. This card reads “{mission.text}”", {"seat": seat, "card": number})

    def _reshuffle_shared(self, pile: list[int], discard: list[int], name: str) -> None:
        """MASKS-MISSION-RESHUFFLE, MASKS-CHALLENGE-RESHUFFLE."""
        pile.extend(sorted(discard))
        discard.clear()
        self.rng.shuffle(pile)
        self.emit("reshuffle", f"The {name} Card draw pile is depleted: the {name} Card discard pile is "
                  "shuffled and placed face down to start a new draw pile.", {"pile": name})

    def _complete_mission(self, seat: int, number: int) -> None:
        self.mission_discard.append(number)  # MASKS-MISSION-DISCARD-PILE
        self.emit("mission_done", f"{self.names[seat]} has completed the Mission. Card #{number} is placed "
                  "face up in the Mission Card discard pile.", {"seat": seat, "card": number})

    def _complete_travel(self, seat: int, target: str) -> None:
        """MASKS-MISSION-TRAVEL: only the oldest Mission can be completed (MASKS-MISSION-ORDER)."""
        queue = self.missions[seat]
        mission = self.game.cards.missions[queue[0].card]
        if mission.kind == "travel" and mission.target == target:
            queue.pop(0)
            self._complete_mission(seat, mission.number)

    def _advance_missions(self, seat: int) -> None:
        """Carry out the oldest Missions as far as they can go now (MASKS-MISSION-ORDER)."""
        queue = self.missions[seat]
        missions = self.game.cards.missions
        while queue:
            mission = missions[queue[0].card]
            if mission.kind == "move":
                queue.pop(0)
                if self._mission_move(seat, mission):
                    self.agenda.append((S_MISSIONS, seat))
                    self._enter(seat, self.toa_cells[seat], "lands on")
                    return
                continue
            if mission.kind != "discard":
                return  # skip: used up at their next turns; travel: done on arrival
            hand = self.hands[seat]
            if not hand:
                return  # MASKS-MISSION-GIVE-UP: they must go and collect a card first
            if len(hand) > 1:
                self.phase = DISCARD
                self.actor = seat
                return
            self._mission_discard(seat, hand[0])

    def _mission_move(self, seat: int, mission: MissionCard) -> bool:
        """MASKS-MISSION-MOVE: move up to `spaces` spaces straight on, at once, stopping at a
        map's edge or before the other Toa, and ending on the furthest space on which the Toa
        may end. True when the Toa moved (then the end space counts)."""
        step, other = self.step, self.toa_cells[1 - seat]
        cell = end = self.toa_cells[seat]
        moved = 0
        for distance in range(1, mission.spaces + 1):
            cell = step[cell][mission.direction]
            if cell < 0 or cell == other:
                break
            if self._may_enter(seat, cell):
                end, moved = cell, distance
        toa = self.toa_names[seat]
        text = (f"{self.names[seat]} must move the {toa} Mask {number_words(mission.spaces)} spaces to the "
                f"{DIR_NAMES[mission.direction]}.")
        if moved < mission.spaces:
            spaces = "space" if moved == 1 else "spaces"
            text += f" They reach a stopping point after {number_words(moved)} {spaces}."
        self.toa_cells[seat] = end
        self.emit("mission_move", text, {"seat": seat, "to": self.labels[end], "spaces": moved})
        self._complete_mission(seat, mission.number)
        return moved > 0

    def _mission_discard(self, seat: int, card: int) -> None:
        """MASKS-MISSION-GIVE-UP: one card of the Mission's count is given up."""
        self.hands[seat].remove(card)
        self.known[seat].discard(card)
        self.action_discard[seat].append(card)
        head = self.missions[seat][0]
        head.left -= 1
        name = self.game.cards.actions[card].label
        self.emit("give_up", f"{self.names[seat]} gives up {name} for Mission #{head.card}: it is placed "
                  "face up in their Game Action Card discard pile.", {"seat": seat, "card": card})
        if not head.left:
            self.missions[seat].pop(0)
            self._complete_mission(seat, head.card)

    # -- Great Mask Challenges -------------------------------------------------------------

    def _reveal_challenge(self, seat: int) -> None:
        """MASKS-CHALLENGE-REVEAL; the challenge window opens before the scores are compared."""
        if not self.challenge_pile:
            self._reshuffle_shared(self.challenge_pile, self.challenge_discard, "Great Mask Challenge")
        card = self.challenge_pile.pop()
        skill = self.game.cards.challenges[card].skill
        self.challenge = Challenge(seat, card, skill, [0, 0])
        self.owed = False  # the challenge window offers both players what the any-time one would
        self.emit("challenge", f"{self.names[seat]} flips over the top card in the Great Mask Challenge "
                  f"draw pile to reveal Card #{card}. This Great Mask Challenge Card uses "
                  f"{SKILL_NAMES[skill]}.",
                  {"seat": seat, "card": card, "skill": SKILLS[skill]})
        self.agenda.append((S_COMPARE,))
        self.agenda.append((S_WINDOW, seat, 0))

    def _open_window(self, seat: int, passes: int) -> None:
        """MASKS-CHALLENGE-WINDOW: a player with no card in hand passes without being asked
        (their hand size is public, so this tells nothing)."""
        if not self.hands[seat]:
            if passes == 0:
                self.agenda.append((S_WINDOW, 1 - seat, 1))
            return
        self.phase = WINDOW
        self.actor = seat
        self.passes = passes

    def _compare(self) -> None:
        """MASKS-CHALLENGE-COMPARE, -TIE, -LANDER-ONLY."""
        challenge = self.challenge
        assert challenge is not None, "a challenge is compared after its card is revealed"
        self.challenge = None
        lander, card, skill, bonus = challenge.lander, challenge.card, challenge.skill, challenge.bonus
        other = 1 - lander
        scores = (self.skills[0][skill] + bonus[0], self.skills[1][skill] + bonus[1])
        name = SKILL_NAMES[skill]
        toa = self.toa_names
        won = scores[lander] >= scores[other]
        text = (f"Both players check their Toa’s {name} score: {toa[lander]} has a {name} of "
                f"{scores[lander]}, and {toa[other]} has a {name} of {scores[other]}. ")
        if scores[lander] > scores[other]:
            text += f"{toa[lander]} has a higher score and has won the Great Mask Challenge."
        elif won:
            text += ("It's a tie, and the Toa who landed on the Challenge space wins: "
                     f"{toa[lander]} has won the Great Mask Challenge.")
        else:
            text += f"{toa[other]} has a higher score and has stopped {toa[lander]} from winning the Great " \
                "Mask Challenge."
        self.challenge_discard.append(card)
        text += f" Card #{card} is placed face up in the Great Mask Challenge Card discard pile."
        self.emit("result", text, {"lander": lander, "card": card, "scores": list(scores), "won": won})
        if won:
            self._win_card(lander)

    def _win_card(self, seat: int) -> None:
        pile = self.mask_pile[seat]
        if not pile:
            return  # cannot happen with six Great Masks among nine cards: the game ended first
        number = pile.pop()
        self.won[seat].append(number)
        card = self.game.cards.mask_cards[number]
        self.emit("win_card", f"Because {self.names[seat]} won the Great Mask Challenge, they get to draw "
                  "a card from the top of their Great Mask/Turaga Card pile. They do this and reveal "
                  f"{card.name} (Card #{number}).", {"seat": seat, "card": number})
        if self._mask_count(seat) >= self.masks_to_win:  # MASKS-OBJECT-WIN, MASKS-SHORT-GAME
            which = "all six" if self.masks_to_win == MASKS_TO_WIN else number_words(self.masks_to_win)
            game = "the game" if self.masks_to_win == MASKS_TO_WIN else "the shorter game"
            self.emit("win", f"{self.names[seat]} has collected {which} of {self.toa_names[seat]}'s Great "
                      f"Mask cards and wins {game}!", {"seat": seat})
            self._end(seat)
            return
        self.unclaimed.append(number)

    def _open_claim(self, seat: int) -> None:
        """MASKS-ATTACH-AFTER-WIN: each card won on the space, in the order won, is attached or
        kept once the space's challenges are over."""
        if not self.unclaimed:
            return
        self.claim = self.unclaimed.pop(0)
        if self.unclaimed:
            self.agenda.append((S_CLAIM, seat))
        self.phase = CLAIM
        self.actor = seat

    # -- Great Mask and Turaga cards -------------------------------------------------------

    def _attach(self, seat: int, number: int) -> None:
        """MASKS-ATTACH-ONE-EACH: the card takes the place of the attached one of its kind,
        which stays in front of the player, unattached (MASKS-NEVER-DISCARDED)."""
        card = self.game.cards.mask_cards[number]
        slot = self.mask_on if card.kind == "mask" else self.turaga_on
        before = slot[seat]
        slot[seat] = number
        if self.phase == TURN:
            self.attach_done |= 1 if card.kind == "mask" else 2
        self._update_skills(seat)
        text = f"{self.names[seat]} decides to equip their Toa with {card.name} (Card #{number}): " \
            f"“{card.text}”."
        if before:
            text += f" {self.game.cards.mask_cards[before].name} is no longer attached."
        self.emit("attach", text, {"seat": seat, "card": number, "skills": list(self.skills[seat])})

    # -- Game Action cards -----------------------------------------------------------------

    def _play(self, seat: int, move: Move) -> None:
        """MASKS-GA-DISCARD: a played card is discarded at once, then takes effect."""
        number = move[1]
        card = self.game.cards.actions[number]
        self.hands[seat].remove(number)
        self.known[seat].discard(number)
        self.action_discard[seat].append(number)
        who = self.names[seat]
        opp = 1 - seat
        text = f"{who} plays {card.label}: “{card.text}”"
        fields = {"seat": seat, "card": number, "effect": card.effect}
        effect = card.effect
        if effect == "push":
            cell = move[3]
            text += (f" {who} moves the {self.toa_names[opp]} Mask one space to the "
                     f"{DIR_NAMES[move[2]]}. Card #{number} is placed face up in {who}'s Game Action Card "
                     "discard pile.")
            self.emit("play", text, {**fields, "to": self.labels[cell]})
            self.phase = None
            self.gave_up = True
            self.toa_cells[opp] = cell
            self._enter(opp, cell, "has now been forced into")
            return
        if effect == "move":
            cell = move[3]
            text += f" They move their Toa Mask {TWO_STEP_WORDS[TWO_STEPS[move[2]][0]]}."
            self.emit("play", text, {**fields, "to": self.labels[cell]})
            self.phase = None
            self.toa_cells[seat] = cell
            self._enter(seat, cell, "lands on")
            return
        # Cards that leave the decision open: afterwards the same window opens again (the
        # turn, the any-time window once the card's effects are done), or the challenge
        # window passes to the other player.
        if self.phase == TURN:
            self.agenda.append((S_TURN, seat))
        elif self.phase == WINDOW:
            self.agenda.append((S_WINDOW, opp, 0))
        else:
            self.owed = True
        self.phase = None
        if effect == "draw":
            text += f" They discard it and draw {number_words(card.amount)} new cards."
            self._draw_with_event(seat, card.amount, text)
            if self.missions[seat]:
                self.agenda.append((S_MISSIONS, seat))
            return
        if effect == "skip":
            self.skips[opp] += card.amount
            text += f" {self.names[opp]} will skip their next move."
        elif effect == "boost":
            self._challenge_on().bonus[seat] += card.amount
            text += f" {self.toa_names[seat]} gets {card.amount} more points in this challenge."
        else:  # weaken
            self._challenge_on().bonus[opp] -= card.amount
            text += f" {self.toa_names[opp]} loses {card.amount} points in this challenge."
        self.emit("play", text, fields)

    # -- words -----------------------------------------------------------------------------

    def response_window(self) -> str | None:
        """MASKS-GA-WINDOW-INFO: whether the player at the any-time window holds a card that
        can be played is secret, so an interface closes it with `pass` the same way either way."""
        return "pass" if self.phase == ANYTIME else None

def load_game(folder: Path | None = None, maps_file: Path | None = None) -> MasksGame:
    """The game with our cards and map, or with a user's own data files."""
    return MasksGame(load_cards(folder), load_maps(maps_file))


MasksGame.state_class = MasksState
