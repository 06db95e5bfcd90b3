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

import random
from bisect import insort
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matanui.engine import BadSetup, Game, State
from matanui.engine.arrangement import Spec, each_seat, listed, one, one_of, per_seat, text, whole_number
from matanui.engine.audit import one_place
from matanui.engine.options import FIRST_PLAYER, Option, turn_limit
from matanui.engine.variants import chosen_variant

from .cards import (
    ACTION_NUMBERS,
    CHALLENGE_NUMBERS,
    DIRECTIONS,
    MISSION_NUMBERS,
    NUMBER_WORDS,
    SKILL_NAMES,
    SKILLS,
    Cards,
    MissionCard,
    load_cards,
)
from .maps import BLANK, CHALLENGE, GAME_ACTION, KIND_NAMES, MISSION, PORTAL, Board, Maps, load_maps
from .variants import FULL, Variant, load_variants

TURN, WINDOW, ANYTIME, CLAIM, JUMP, DISCARD, OVER = (
    "turn", "window", "anytime", "claim", "jump", "discard", "over")
HAND_LIMIT = 5  # MASKS-GA-HAND-LIMIT
MASKS_TO_WIN, MASKS_TO_WIN_SHORT = 6, 3  # MASKS-OBJECT-WIN, MASKS-SHORT-GAME
DEFAULT_TURN_LIMIT = 400
MAP_CHOICES = ("a", "b", "both")
MAP_LABELS = {"a": "Side A", "b": "Side B", "both": "Both mats"}
VARIANTS = load_variants()

# Agenda steps.
S_TURN, S_MISSIONS, S_CHALLENGE, S_WINDOW, S_COMPARE, S_JUMP, S_CLAIM = range(7)
# Move table entries: (opcode, ...).
M_MOVE, M_ATTACH, M_PLAY, M_PASS, M_KEEP, M_JUMP, M_DISCARD, M_WAIT = range(8)
PASS, KEEP, WAIT = (M_PASS,), (M_KEEP,), (M_WAIT,)

DIR_CODES = ("N", "E", "S", "W")
MOVE_IDS = tuple(f"move:{code}" for code in DIR_CODES)
DIR_NAMES = tuple(d.capitalize() for d in DIRECTIONS)
# A two-space move is named by where it ends; a diagonal end has two paths.
TWO_STEPS = (
    ("NN", ((0, 0),)), ("NE", ((0, 1), (1, 0))), ("EE", ((1, 1),)), ("SE", ((2, 1), (1, 2))),
    ("SS", ((2, 2),)), ("SW", ((2, 3), (3, 2))), ("WW", ((3, 3),)), ("NW", ((0, 3), (3, 0))),
)
TWO_STEP_WORDS = {"NN": "two spaces North", "EE": "two spaces East", "SS": "two spaces South",
                  "WW": "two spaces West", "NE": "one space North and one East",
                  "SE": "one space South and one East", "SW": "one space South and one West",
                  "NW": "one space North and one West"}
# What entering a space does, said in the move that enters it: (single, double space).
ENTER_WORDS = {
    BLANK: ("", ""), MISSION: ("you take a Mission card", ""),
    CHALLENGE: ("a Great Mask Challenge", "two Great Mask Challenges"),
    GAME_ACTION: ("you draw a Game Action card", "you draw two Game Action cards"),
    PORTAL: ("you jump to another Portal space", ""),
}
# When a Game Action card may be played (MASKS-GA-ANY-TIME): the cards that may be played at
# any time in every window, the others in the turn window or in a challenge window only.
ANY_TIME = frozenset(("draw", "skip"))
IN_TURN = ANY_TIME | {"push", "move"}
IN_CHALLENGE = ANY_TIME | {"boost", "weaken"}


def words(count: int) -> str:
    return NUMBER_WORDS[count] if count < len(NUMBER_WORDS) else str(count)


def arrangement_spec(cards: Cards) -> Spec:
    """What an arrangement may fix, each key's shape and entries; where each card may lie (a
    seat's own Great Mask/Turaga cards, a variant's few, one place each) `_Arranger` checks."""
    action, challenge, mission = one_of(cards.actions), one_of(cards.challenges), one_of(cards.missions)
    mask = whole_number(min(cards.mask_cards), max(cards.mask_cards))
    actions = f"Game Action card numbers ({_numbers_words(sorted(cards.actions))})"
    masks = "Great Mask/Turaga card numbers (of each seat's own Toa)"
    challenges = f"Great Mask Challenge card numbers ({_numbers_words(sorted(cards.challenges))})"
    missions = f"Mission card numbers ({_numbers_words(sorted(cards.missions))})"
    seats = "two lists (seat 0, seat 1) of"
    return {
        "first_player": one(one_of(("rps", 0, 1)), "0 or 1 (or 'rps': Rock-Paper-Scissors decides)"),
        "positions": each_seat(text, "two different spaces (seat 0, seat 1), where the two Toa Masks "
                                     "stand, e.g. ['G2', 'H9']"),
        "hands": per_seat(action, f"{seats} {actions} in each hand, at most five"),
        "action_piles": per_seat(action, f"{seats} {actions}: the top of each Game Action draw pile, "
                                         "top first"),
        "action_discards": per_seat(action, f"{seats} {actions}: each Game Action discard pile"),
        "mask_piles": per_seat(mask, f"{seats} {masks}: the top of each Great Mask/Turaga pile, top first"),
        "won": per_seat(mask, f"{seats} {masks}: the cards already won"),
        "attached": per_seat(mask, f"{seats} {masks}: of the won, the attached ones (one Great Mask, "
                                   "one Turaga)"),
        "challenge_pile": listed(challenge, f"a list of {challenges}: the top of the draw pile, top first"),
        "challenge_discard": listed(challenge, f"a list of {challenges}: the discard pile"),
        "mission_pile": listed(mission, f"a list of {missions}: the top of the draw pile, top first"),
        "mission_discard": listed(mission, f"a list of {missions}: the discard pile"),
        "missions": per_seat(mission, f"{seats} {missions}: each player's uncompleted Missions, oldest "
                                      "first"),
    }


SHARED_KEYS = frozenset(("challenge_pile", "challenge_discard", "mission_pile", "mission_discard"))


class MasksGame(Game):
    name = "masks"
    title = "Quest for the Masks"
    # 2: the first player starts West, the give-up Mission walk is enforced, and a card won
    # in the first challenge of a double space counts only after the second (issue #11).
    # 3: a card drawn during a move, or held in a turn whose move is skipped, may be played
    # before the turn passes (the any-time window, issue #22).
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


class MasksState(State):
    game: MasksGame

    # -- set-up ------------------------------------------------------------------------

    def _set_up(self, arrangement: Mapping[str, Any]) -> None:
        game = self.game
        cards = game.cards
        variant = game.variant(self.options["variant"])
        self.pools = CardPools.of(game, variant, self.players)
        if variant is None:
            board = game.boards[self.options["map"]]
            self.target = MASKS_TO_WIN_SHORT if self.options["short"] else MASKS_TO_WIN
            self.turn_limit = self.options["turn_limit"]
        else:
            # A variant sets its own map and Great Masks to win: `map` and `short` do not apply.
            board = game.boards[variant.map]
            self.target = variant.masks_to_win
            self.turn_limit = min(self.options["turn_limit"], variant.turn_limit)
        self.board = board
        # The whole arrangement is checked before anything is set up.
        arrange = _Arranger(arrangement, cards, self.pools, board, self.target)
        self.kind = board.kind
        self.step = board.step
        self.labels = tuple(board.label(c) for c in range(board.width * board.height))
        toas = [cards.toa[p] for p in self.players]
        self.toa_names = tuple(t.name for t in toas)

        # MASKS-SETUP-MASK-PILES: each Toa's own nine cards, shuffled, drawn only by its player.
        self.won = [arrange.seat_list("won", s) for s in (0, 1)]
        pools = self.pools
        self.gm_pile = [arrange.pile("mask_piles", s, pools.masks[s], self.won[s], self.rng) for s in (0, 1)]
        self.mask_on, self.turaga_on = [0, 0], [0, 0]
        for s in (0, 1):
            for n in arrange.seat_list("attached", s):
                slot = self.mask_on if cards.mask_cards[n].kind == "mask" else self.turaga_on
                slot[s] = n
        # MASKS-SETUP-GA-PILES: each player has a complete set of Game Action cards #21-40 (a
        # variant: its few).
        self.hands = [sorted(arrange.seat_list("hands", s)) for s in (0, 1)]
        self.ga_discard = [arrange.seat_list("action_discards", s) for s in (0, 1)]
        self.ga_draw = [arrange.pile("action_piles", s, pools.actions,
                                     self.hands[s] + self.ga_discard[s], self.rng) for s in (0, 1)]
        # MASKS-SETUP-SHARED-PILES: one Challenge pile (#1-6) and one Mission pile (#7-20).
        self.chal_discard = arrange.shared_list("challenge_discard")
        self.chal_draw = arrange.pile("challenge_pile", None, pools.challenges, self.chal_discard, self.rng)
        self.missions = [[[n, self._mission_count(n)] for n in arrange.seat_list("missions", s)]
                         for s in (0, 1)]
        queued = [m[0] for queue in self.missions for m in queue]
        self.mis_discard = arrange.shared_list("mission_discard")
        self.mis_draw = arrange.pile("mission_pile", None, pools.missions, self.mis_discard + queued,
                                     self.rng)
        self.known: list[set[int]] = [set(), set()]
        self.skips = [0, 0]
        self.last_chal = [-1, -1]
        self.last_ga = [-1, -1]
        self.eff = [list(t.skills) for t in toas]
        for s in (0, 1):
            self._update_skills(s)
        self.turn = 0
        self.phase: str | None = None
        self.actor: int | None = None
        self.agenda: list[tuple] = []
        self.chal: list[int] | None = None
        self.passes = 0
        self.claim = 0
        self.unclaimed: list[int] = []
        self.attach_done = 0
        self.gave_up = False
        # MASKS-GA-ANY-TIME: the turn player is owed the any-time window before the turn passes.
        self.owed = False
        self.winner: int | None = None
        first = arrangement.get("first_player", self.options["first_player"])
        rps = first == "rps"
        if rps:
            first = self.rng.randrange(2)  # MASKS-SETUP-FIRST: Rock-Paper-Scissors
        self.turn_player = 1 - first
        # MASKS-SETUP-START-SPACES: the player who goes first is the rulebook's Player 1, who
        # starts West; Player 2 starts East. Narration names them, never by move order.
        second = 1 - first
        names = self.names
        self.move_texts = tuple(
            tuple(f"{who} moves the {toa.name} Mask one space to the {name}." for name in DIR_NAMES)
            for who, toa in zip(names, toas, strict=True))
        self.pos = [0, 0]
        self.pos[first], self.pos[second] = board.west_start, board.east_start
        labels = self.labels
        if "positions" in arrangement:
            self.pos = arrange.positions
            text = (f"The {self.toa_names[0]} Mask stands on {labels[self.pos[0]]} and the "
                    f"{self.toa_names[1]} Mask on {labels[self.pos[1]]}, as arranged. ")
        else:
            text = (f"{names[first]} places the {self.toa_names[first]} Mask on the Start Space to the "
                    f"West ({labels[board.west_start]}). {names[second]} places the "
                    f"{self.toa_names[second]} Mask on the Start Space to the East "
                    f"({labels[board.east_start]}). ")
        text += ("Rock-Paper-Scissors decides: " if rps else "") + f"{names[first]} goes first."
        self.emit("setup", text, {"first_player": first, "map": board.id,
                                  "positions": [labels[p] for p in self.pos]})
        self._run()

    def _mission_count(self, number: int) -> int:
        mission = self.game.cards.missions[number]
        return mission.count if mission.kind in ("discard", "skip") else 1

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
        self._end(*winners)  # two seats: one is left after a forfeit

    def _generate_moves(self) -> dict[str, Any]:
        phase = self.phase
        if phase == TURN:
            return self._turn_moves(self.actor)
        if phase == WINDOW:
            return self._window_moves(self.actor, IN_CHALLENGE)
        if phase == ANYTIME:
            return self._window_moves(self.actor, ANY_TIME)
        game = self.game
        if phase == CLAIM:
            return {game.attach_ids[self.claim]: (M_ATTACH, self.claim), "keep": KEEP}
        if phase == JUMP:
            return {f"jump:{self.labels[c]}": (M_JUMP, c) for c in self._free_portals(self.actor)}
        return {game.discard_ids[n]: (M_DISCARD, n) for n in self.hands[self.actor]}

    def _may_enter(self, seat: int, cell: int) -> bool:
        """May this Toa end a move on `cell` (a space of the map)?"""
        if cell == self.pos[1 - seat]:
            return False  # MASKS-Q-OCCUPIED
        kind = self.kind[cell]
        if kind == CHALLENGE:
            # MASKS-MISSION-BEFORE-CHALLENGE, MASKS-CHALLENGE-NOT-TWICE
            return not self.missions[seat] and cell != self.last_chal[seat]
        if kind == GAME_ACTION:
            return cell != self.last_ga[seat]  # MASKS-GA-NOT-TWICE
        return True

    def _turn_moves(self, seat: int) -> dict[str, Any]:
        game = self.game
        moves: dict[str, Any] = {}
        step = self.step
        # _may_enter, inlined: this loop runs on every turn.
        kind = self.kind
        other = self.pos[1 - seat]
        closed_challenges = bool(self.missions[seat])
        last_chal, last_ga = self.last_chal[seat], self.last_ga[seat]
        for d, cell in enumerate(step[self.pos[seat]]):
            if cell < 0 or cell == other:
                continue
            space = kind[cell]
            if space == CHALLENGE:
                if closed_challenges or cell == last_chal:
                    continue
            elif space == GAME_ACTION and cell == last_ga:
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
                for d, cell in enumerate(step[self.pos[opp]]):
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

    def _giving_up(self, seat: int) -> bool:
        """MASKS-MISSION-GIVE-UP: their oldest Mission asks for a card and their hand is empty."""
        queue = self.missions[seat]
        if not queue or self.hands[seat]:
            return False
        return self.game.cards.missions[queue[0][0]].kind == "discard"

    def _towards_game_action(self, seat: int, moves: dict[str, Any]) -> dict[str, Any]:
        """MASKS-MISSION-GIVE-UP: "you must start to move towards the nearest Game Action
        space": only the moves that bring the Toa closer to it, unless none of them does."""
        distance = self._game_action_distance(seat)
        here = [distance[c] for c in self.step[self.pos[seat]] if c >= 0 and distance[c] >= 0]
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
        frontier = [c for c, k in enumerate(kind) if k == GAME_ACTION and c != self.last_ga[seat]]
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
        here = self.pos[seat]
        other = self.pos[1 - seat]
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
        here, other = self.pos[seat], self.pos[1 - seat]
        return [c for c in self.board.portals if c != here and c != other]

    # -- carrying out an action ----------------------------------------------------------

    def _perform(self, move: tuple) -> None:
        op = move[0]
        seat = self.actor
        if op == M_MOVE:
            cell = move[2]
            self.emit("move", self.move_texts[seat][move[1]],
                      {"seat": seat, "direction": DIRECTIONS[move[1]], "to": self.labels[cell]})
            self.phase = None
            self.pos[seat] = cell
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
        if queue and self.game.cards.missions[queue[0][0]].kind == "skip":  # MASKS-MISSION-SKIP
            head = queue[0]
            head[1] -= 1
            self.emit("skip", f"{who} skips this move for Mission #{head[0]}.",
                      {"seat": seat, "mission": head[0]})
            if not head[1]:
                queue.pop(0)
                self._complete_mission(seat, head[0])
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
            self.last_chal[seat] = cell
            self.last_ga[seat] = -1  # a challenge attempt lifts MASKS-GA-NOT-TWICE
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
            self.last_ga[seat] = cell
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
        text = f"{who} {how} a Game Action Space: this means they get to draw {words(count)} " \
            f"card{'s' if count > 1 else ''} from their Game Action pile of cards."
        if len(self.hands[seat]) >= HAND_LIMIT:
            text += f" They have {words(HAND_LIMIT)} cards in their hand, so they do not pick up another " \
                "Game Action Card."
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
            text += f" They can draw only {words(n)}: {why}."
        cards = self.game.cards.actions
        names = ", ".join(f"Card #{c} ({cards[c].name})" for c in drawn)
        secret = f"{text} They draw {names}." if n else text
        self.emit("draw", text, {"seat": seat, "drawn": n}, seat=seat,
                  secret={"cards": drawn}, secret_text=secret)
        return n

    def _draw_actions(self, seat: int, count: int) -> list[int]:
        """Draw up to `count` Game Action cards, never past five in hand (MASKS-GA-HAND-LIMIT),
        reshuffling the discard pile when the draw pile is empty (MASKS-GA-RESHUFFLE)."""
        hand, pile = self.hands[seat], self.ga_draw[seat]
        drawn: list[int] = []
        while len(drawn) < count and len(hand) < HAND_LIMIT:
            if not pile:
                discard = self.ga_discard[seat]
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
        self.pos[seat] = cell
        self.emit("jump", f"{self.names[seat]} jumps to the Portal space at {self.labels[cell]}.",
                  {"seat": seat, "to": self.labels[cell]})

    # -- missions ------------------------------------------------------------------------

    def _draw_mission(self, seat: int) -> None:
        who = self.names[seat]
        if not self.mis_draw:
            if not self.mis_discard:
                # MASKS-MISSION-NONE-LEFT
                self.emit("mission", "Every Mission card is held by a player: there is no Mission to take.",
                          {"seat": seat})
                return
            self._reshuffle_shared(self.mis_draw, self.mis_discard, "Mission")
        number = self.mis_draw.pop()
        mission = self.game.cards.missions[number]
        self.missions[seat].append([number, self._mission_count(number)])
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
        self.mis_discard.append(number)  # MASKS-MISSION-DISCARD-PILE
        self.emit("mission_done", f"{self.names[seat]} has completed the Mission. Card #{number} is placed "
                  "face up in the Mission Card discard pile.", {"seat": seat, "card": number})

    def _complete_travel(self, seat: int, target: str) -> None:
        """MASKS-MISSION-TRAVEL: only the oldest Mission can be completed (MASKS-MISSION-ORDER)."""
        queue = self.missions[seat]
        mission = self.game.cards.missions[queue[0][0]]
        if mission.kind == "travel" and mission.target == target:
            queue.pop(0)
            self._complete_mission(seat, mission.number)

    def _advance_missions(self, seat: int) -> None:
        """Carry out the oldest Missions as far as they can go now (MASKS-MISSION-ORDER)."""
        queue = self.missions[seat]
        missions = self.game.cards.missions
        while queue:
            mission = missions[queue[0][0]]
            if mission.kind == "move":
                queue.pop(0)
                if self._mission_move(seat, mission):
                    self.agenda.append((S_MISSIONS, seat))
                    self._enter(seat, self.pos[seat], "lands on")
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
        step, other = self.step, self.pos[1 - seat]
        cell = end = self.pos[seat]
        moved = 0
        for distance in range(1, mission.spaces + 1):
            cell = step[cell][mission.direction]
            if cell < 0 or cell == other:
                break
            if self._may_enter(seat, cell):
                end, moved = cell, distance
        toa = self.toa_names[seat]
        text = (f"{self.names[seat]} must move the {toa} Mask {words(mission.spaces)} spaces to the "
                f"{DIR_NAMES[mission.direction]}.")
        if moved < mission.spaces:
            text += f" They reach a stopping point after {words(moved)} space{'s' if moved != 1 else ''}."
        self.pos[seat] = end
        self.emit("mission_move", text, {"seat": seat, "to": self.labels[end], "spaces": moved})
        self._complete_mission(seat, mission.number)
        return moved > 0

    def _mission_discard(self, seat: int, card: int) -> None:
        """MASKS-MISSION-GIVE-UP: one card of the Mission's count is given up."""
        self.hands[seat].remove(card)
        self.known[seat].discard(card)
        self.ga_discard[seat].append(card)
        head = self.missions[seat][0]
        head[1] -= 1
        name = self.game.cards.actions[card].label
        self.emit("give_up", f"{self.names[seat]} gives up {name} for Mission #{head[0]}: it is placed "
                  "face up in their Game Action Card discard pile.", {"seat": seat, "card": card})
        if not head[1]:
            self.missions[seat].pop(0)
            self._complete_mission(seat, head[0])

    # -- Great Mask Challenges -------------------------------------------------------------

    def _reveal_challenge(self, seat: int) -> None:
        """MASKS-CHALLENGE-REVEAL; the challenge window opens before the scores are compared."""
        if not self.chal_draw:
            self._reshuffle_shared(self.chal_draw, self.chal_discard, "Great Mask Challenge")
        card = self.chal_draw.pop()
        skill = self.game.cards.challenges[card].skill
        self.chal = [seat, card, skill, 0, 0]
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
        lander, card, skill, bonus0, bonus1 = self.chal
        self.chal = None
        other = 1 - lander
        scores = (self.eff[0][skill] + bonus0, self.eff[1][skill] + bonus1)
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
        self.chal_discard.append(card)
        text += f" Card #{card} is placed face up in the Great Mask Challenge Card discard pile."
        self.emit("result", text, {"lander": lander, "card": card, "scores": list(scores), "won": won})
        if won:
            self._win_card(lander)

    def _win_card(self, seat: int) -> None:
        pile = self.gm_pile[seat]
        if not pile:
            return  # cannot happen with six Great Masks among nine cards: the game ended first
        number = pile.pop()
        self.won[seat].append(number)
        card = self.game.cards.mask_cards[number]
        self.emit("win_card", f"Because {self.names[seat]} won the Great Mask Challenge, they get to draw "
                  "a card from the top of their Great Mask/Turaga Card pile. They do this and reveal "
                  f"{card.name} (Card #{number}).", {"seat": seat, "card": number})
        if self._mask_count(seat) >= self.target:  # MASKS-OBJECT-WIN, MASKS-SHORT-GAME
            which = "all six" if self.target == MASKS_TO_WIN else words(self.target)
            game = "the game" if self.target == MASKS_TO_WIN else "the shorter game"
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

    def _mask_count(self, seat: int) -> int:
        kinds = self.game.mask_cards_kind
        return sum(kinds[n] == "mask" for n in self.won[seat])

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
        self.emit("attach", text, {"seat": seat, "card": number, "skills": list(self.eff[seat])})

    def _update_skills(self, seat: int) -> None:
        """MASKS-ATTACH-BONUS-ONLY-ATTACHED: skills are the Toa card's plus the attached cards'."""
        cards = self.game.cards
        base = cards.toa[self.players[seat]].skills
        mask = cards.mask_cards[self.mask_on[seat]].bonus if self.mask_on[seat] else (0,) * 6
        turaga = cards.mask_cards[self.turaga_on[seat]].bonus if self.turaga_on[seat] else (0,) * 6
        self.eff[seat] = [b + m + t for b, m, t in zip(base, mask, turaga, strict=True)]

    # -- Game Action cards -----------------------------------------------------------------

    def _play(self, seat: int, move: tuple) -> None:
        """MASKS-GA-DISCARD: a played card is discarded at once, then takes effect."""
        number = move[1]
        card = self.game.cards.actions[number]
        self.hands[seat].remove(number)
        self.known[seat].discard(number)
        self.ga_discard[seat].append(number)
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
            self.pos[opp] = cell
            self._enter(opp, cell, "has now been forced into")
            return
        if effect == "move":
            cell = move[3]
            text += f" They move their Toa Mask {TWO_STEP_WORDS[TWO_STEPS[move[2]][0]]}."
            self.emit("play", text, {**fields, "to": self.labels[cell]})
            self.phase = None
            self.pos[seat] = cell
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
            text += f" They discard it and draw {words(card.amount)} new cards."
            self._draw_with_event(seat, card.amount, text)
            if self.missions[seat]:
                self.agenda.append((S_MISSIONS, seat))
            return
        if effect == "skip":
            self.skips[opp] += card.amount
            text += f" {self.names[opp]} will skip their next move."
        elif effect == "boost":
            self.chal[3 + seat] += card.amount
            text += f" {self.toa_names[seat]} gets {card.amount} more points in this challenge."
        else:  # weaken
            self.chal[3 + opp] -= card.amount
            text += f" {self.toa_names[opp]} loses {card.amount} points in this challenge."
        self.emit("play", text, fields)

    # -- words -----------------------------------------------------------------------------

    def describe(self, action: str) -> str:
        move = self._move_table().get(action)
        if move is None:
            return f"{action} (not legal now)"
        op = move[0]
        cards = self.game.cards
        if op == M_MOVE:
            return f"Move {DIRECTIONS[move[1]]} to {self._space_words(move[2], effect=True)}"
        if op == M_ATTACH:
            card = cards.mask_cards[move[1]]
            return f"Attach {card.name} (Card #{card.number}): {card.text}"
        if op == M_KEEP:
            return "Keep the card unattached"
        if op == M_PASS:
            if self.phase == ANYTIME:
                return "Play no card now: the turn passes"
            return "Play no card in this challenge"
        if op == M_JUMP:
            return f"Jump to the Portal space at {self.labels[move[1]]}"
        if op == M_DISCARD:
            return f"Give up {cards.actions[move[1]].label} for your Mission"
        if op == M_WAIT:
            return "Wait: no space is open to your Toa Mask"
        card = cards.actions[move[1]]
        if card.effect == "push":
            opp = 1 - self.actor
            return (f"Play {card.label}: give up your turn and move {self.names[opp]}'s Toa Mask "
                    f"{DIRECTIONS[move[2]]} to {self._space_words(move[3])}")
        if card.effect == "move":
            return (f"Play {card.label}: move {TWO_STEP_WORDS[TWO_STEPS[move[2]][0]]} to "
                    f"{self._space_words(move[3], effect=True)}")
        return f"Play {card.label}: {card.text}"

    def _space_words(self, cell: int, effect: bool = False) -> str:
        """'the Mission space at C3', and with `effect` what entering it does to the mover:
        'the double Challenge space at D8: two Great Mask Challenges'."""
        double = self.board.circles[cell] == 2
        words = f"the {'double ' if double else ''}{KIND_NAMES[self.kind[cell]]} at {self.labels[cell]}"
        what = ENTER_WORDS[self.kind[cell]][double] if effect else ""
        return f"{words}: {what}" if what else words

    def response_window(self) -> str | None:
        """MASKS-GA-WINDOW-INFO: whether the player at the any-time window holds a card that
        can be played is secret, so an interface closes it with `pass` the same way either way."""
        return "pass" if self.phase == ANYTIME else None

    def targets(self, action: str) -> dict[str, Any]:
        """What a legal action acts on: the `space` a Toa Mask moves or jumps to (and whose:
        `seat`), the `card` played, attached or given up."""
        move = self._move_table().get(action)
        if move is None:
            return {}
        op, me = move[0], self.actor
        if op == M_MOVE:
            return {"kind": "move", "seat": me, "space": self.labels[move[2]]}
        if op == M_JUMP:
            return {"kind": "jump", "seat": me, "space": self.labels[move[1]]}
        if op in (M_ATTACH, M_DISCARD):
            return {"kind": "attach" if op == M_ATTACH else "discard", "card": move[1]}
        if op == M_PLAY:
            effect = self.game.cards.actions[move[1]].effect
            if effect == "push":
                return {"kind": "play", "card": move[1], "seat": 1 - me, "space": self.labels[move[3]]}
            if effect == "move":
                return {"kind": "play", "card": move[1], "seat": me, "space": self.labels[move[3]]}
            return {"kind": "play", "card": move[1]}
        return {"kind": {M_PASS: "pass", M_KEEP: "keep", M_WAIT: "wait"}[op]}

    def _why_not(self, action: str) -> str | None:
        return _Why(self).reason(action)

    def _deciding_words(self) -> str:
        return f"{self.names[self.actor]} now"

    # -- information -----------------------------------------------------------------------

    def _observe(self, seat: int | None) -> dict[str, Any]:
        labels = self.labels
        chal = None
        if self.chal is not None:
            lander, card, skill, bonus0, bonus1 = self.chal
            chal = {"lander": lander, "card": card, "skill": SKILLS[skill], "bonus": [bonus0, bonus1],
                    "scores": [self.eff[0][skill] + bonus0, self.eff[1][skill] + bonus1]}
        return {
            "game": self.game.name,
            "seat": seat,
            "players": list(self.players),
            "map": self.board.id,
            "short": self.options["short"],
            "masks_to_win": self.target,
            "turn": self.turn,
            "turn_limit": self.turn_limit,
            "turn_player": self.turn_player,
            "current_player": self.actor,
            "phase": self.phase,
            "positions": [labels[p] for p in self.pos],
            "toa": [self._seat_view(s) for s in (0, 1)],
            "challenge_pile": len(self.chal_draw),
            "challenge_discard": list(self.chal_discard),
            "mission_pile": len(self.mis_draw),
            "mission_discard": list(self.mis_discard),
            "challenge": chal,
            "passes": self.passes if self.phase == WINDOW else None,
            "claim": self.claim if self.phase == CLAIM else None,
            "attach_done": {"mask": bool(self.attach_done & 1), "turaga": bool(self.attach_done & 2)},
            "hand": list(self.hands[seat]) if seat is not None else None,
            "is_over": self.is_over,
            "winners": self.winners,
        }

    def _seat_view(self, seat: int) -> dict[str, Any]:
        """What everyone may know of one player: all but their hand and their piles' order."""
        labels = self.labels
        return {
            "toa": self.players[seat],
            "skills": list(self.eff[seat]),
            "won": list(self.won[seat]),
            "masks": self._mask_count(seat),
            "mask": self.mask_on[seat] or None,
            "turaga": self.turaga_on[seat] or None,
            "mask_pile": len(self.gm_pile[seat]),
            "hand_size": len(self.hands[seat]),
            "known_in_hand": sorted(self.known[seat]),
            "action_pile": len(self.ga_draw[seat]),
            "action_discard": list(self.ga_discard[seat]),
            "missions": [list(m) for m in self.missions[seat]],
            "skips": self.skips[seat],
            "last_challenge": labels[self.last_chal[seat]] if self.last_chal[seat] >= 0 else None,
            "last_game_action": labels[self.last_ga[seat]] if self.last_ga[seat] >= 0 else None,
        }

    def _determinize(self, seat: int, rng: random.Random) -> MasksState:
        """The opponent's unknown cards and every pile's order are resampled, each pool sorted
        first so that the sample depends only on what `seat` sees."""
        other = self.clone()
        opp = 1 - seat
        known = other.known[opp]
        hidden = [c for c in other.hands[opp] if c not in known]
        pool = sorted(hidden + other.ga_draw[opp])
        rng.shuffle(pool)
        other.hands[opp] = sorted([c for c in other.hands[opp] if c in known] + pool[: len(hidden)])
        other.ga_draw[opp] = pool[len(hidden):]
        piles = (other.ga_draw[seat], other.gm_pile[0], other.gm_pile[1], other.chal_draw, other.mis_draw)
        for pile in piles:
            pile.sort()
            rng.shuffle(pile)
        other._reseed(rng)
        return other

    def _copy_into(self, other: MasksState) -> None:
        for name in ("board", "pools", "turn_limit", "kind", "step", "labels", "target", "toa_names",
                     "move_texts",
                     "turn", "phase", "actor", "passes", "claim", "attach_done", "gave_up", "owed", "winner",
                     "turn_player", "setup_events"):
            setattr(other, name, getattr(self, name))
        for name in ("won", "gm_pile", "hands", "ga_discard", "ga_draw", "eff"):
            setattr(other, name, [list(x) for x in getattr(self, name)])
        other.mask_on = list(self.mask_on)
        other.turaga_on = list(self.turaga_on)
        other.pos = list(self.pos)
        other.skips = list(self.skips)
        other.last_chal = list(self.last_chal)
        other.last_ga = list(self.last_ga)
        other.known = [set(k) for k in self.known]
        other.missions = [[list(m) for m in q] for q in self.missions]
        other.chal_draw = list(self.chal_draw)
        other.chal_discard = list(self.chal_discard)
        other.mis_draw = list(self.mis_draw)
        other.mis_discard = list(self.mis_discard)
        other.chal = list(self.chal) if self.chal is not None else None
        other.unclaimed = list(self.unclaimed)
        other.agenda = list(self.agenda)

    # -- for tests and invariants ----------------------------------------------------------

    def audit(self) -> None:
        cards, pools = self.game.cards, self.pools
        for seat in (0, 1):
            places = {"hand": self.hands[seat], "draw": self.ga_draw[seat], "discard": self.ga_discard[seat]}
            one_place(f"Player {seat + 1}'s Game Action card", places.items(), set(pools.actions))
            assert len(self.hands[seat]) <= HAND_LIMIT, f"Player {seat + 1} holds over {HAND_LIMIT} cards"
            assert self.hands[seat] == sorted(self.hands[seat]), "hands are kept sorted"
            assert self.known[seat] <= set(self.hands[seat]), "a known card is not in the hand"
            own = set(pools.masks[seat])
            places = {"pile": self.gm_pile[seat], "won": self.won[seat]}
            one_place(f"Player {seat + 1}'s Great Mask/Turaga card", places.items(), own)
            for slot, kind in ((self.mask_on[seat], "mask"), (self.turaga_on[seat], "turaga")):
                assert not slot or (slot in self.won[seat] and cards.mask_cards[slot].kind == kind), \
                    f"Player {seat + 1} has card #{slot} attached as a {kind} without having won it"
            assert self.kind[self.pos[seat]] >= 0, "a Toa Mask stands in the sea"
        assert self.pos[0] != self.pos[1], "two Toa Masks share a space"
        in_play = [self.chal[1]] if self.chal is not None else []
        places = {"draw": self.chal_draw, "discard": self.chal_discard, "in play": in_play}
        one_place("Great Mask Challenge card", places.items(), set(pools.challenges))
        queues = [m[0] for q in self.missions for m in q]
        places = {"draw": self.mis_draw, "discard": self.mis_discard, "held": queues}
        one_place("Mission card", places.items(), set(pools.missions))


@dataclass(frozen=True)
class CardPools:
    """The cards a game plays with, pile by pile: all of them, or a small variant's few."""

    actions: tuple[int, ...]  # each player's own Game Action set
    challenges: tuple[int, ...]
    missions: tuple[int, ...]
    masks: tuple[tuple[int, ...], tuple[int, ...]]  # each seat's own Great Mask/Turaga cards

    @staticmethod
    def of(game: MasksGame, variant: Variant | None, players: Sequence[str]) -> CardPools:
        cards = game.cards
        if variant is None:
            return CardPools(tuple(ACTION_NUMBERS), tuple(CHALLENGE_NUMBERS), tuple(MISSION_NUMBERS),
                             (tuple(cards.piles(players[0])), tuple(cards.piles(players[1]))))
        piles = (tuple(variant.mask_pile(cards, players[0])), tuple(variant.mask_pile(cards, players[1])))
        return CardPools(variant.actions, variant.challenges, variant.missions, piles)


def _numbers_words(numbers: Sequence[int]) -> str:
    """'#21 to #40' for a run of three numbers or more, else '#33, #39'."""
    if len(numbers) > 2 and list(numbers) == list(range(min(numbers), max(numbers) + 1)):
        return f"#{min(numbers)} to #{max(numbers)}"
    return ", ".join(f"#{n}" for n in numbers)


class _Arranger:
    """Masks' own checks of an arrangement its spec has read, made whole before anything is
    set up: each card only where it may lie (a seat's own Great Mask/Turaga cards, a variant's
    few) and in one place at most, attached cards among the won ones, a hand within the
    limit, a game not already won, and the Toa Masks on two different spaces of the map."""

    def __init__(self, arrangement: Mapping[str, Any], cards: Cards, pools: CardPools, board: Board,
                 target: int) -> None:
        self.arrangement = arrangement
        self.lists: dict[tuple[str, int | None], list[int]] = {}
        if "positions" in arrangement:
            self.positions = self._positions(arrangement["positions"], board)
        actions, missions = pools.actions, pools.missions
        for seat in (0, 1):
            own = pools.masks[seat]
            self._places(seat, (("won", own), ("mask_piles", own)))
            self._places(seat, (("hands", actions), ("action_discards", actions), ("action_piles", actions)))
            self._check_attached(seat, cards)
            self._check_counts(seat, cards, target)
        self._places(None, (("challenge_discard", pools.challenges), ("challenge_pile", pools.challenges)))
        self._places(None, (("missions", missions), ("mission_discard", missions),
                            ("mission_pile", missions)))

    def _read(self, key: str, seat: int | None) -> list[int]:
        """The cards a key gives one seat (seat lists) or the table (shared lists)."""
        if key not in self.arrangement:
            return []
        value = self.arrangement[key]
        return value if seat is None else value[seat]

    def _places(self, seat: int | None, places: Sequence[tuple[str, Sequence[int]]]) -> None:
        """Check keys whose cards share one pool: each card of the pool, in one place at most.
        `seat` None: shared keys (and the Missions held by both players)."""
        seen: dict[int, str] = {}
        for key, allowed in places:
            seats = (0, 1) if seat is None and key not in SHARED_KEYS else (seat,)
            for s in seats:
                value = self._read(key, s)
                for card in value:
                    if card not in allowed:
                        whose = "" if s is None else f" for seat {s}"
                        raise BadSetup(f"arrangement {key!r} has card #{card}, which does not belong there"
                                       f"{whose} (allowed: {_numbers_words(allowed)})")
                    if card in seen:
                        raise BadSetup(f"arrangement {key!r} places a card twice: #{card} is also in "
                                       f"{seen[card]}; each card is in one place")
                    seen[card] = key
                self.lists[key, s] = list(value)

    def _check_attached(self, seat: int, cards: Cards) -> None:
        value = self._read("attached", seat)
        won = self.lists["won", seat]
        for card in value:
            if card not in won:
                raise BadSetup(f"arrangement 'attached' has card #{card}, which seat {seat} has not won "
                               f"(arranged won cards: {won}); only won cards can be attached")
        kinds = [cards.mask_cards[n].kind for n in value]
        if len(set(kinds)) != len(kinds):
            raise BadSetup(f"arrangement 'attached' gives seat {seat} two cards of one kind; "
                           "a Toa has one Great Mask and one Turaga card attached at a time")
        self.lists["attached", seat] = list(value)

    def _check_counts(self, seat: int, cards: Cards, target: int) -> None:
        hand = self.lists["hands", seat]
        if len(hand) > HAND_LIMIT:
            raise BadSetup(f"arrangement 'hands' gives seat {seat} {len(hand)} cards; at most {HAND_LIMIT}")
        masks = sum(cards.mask_cards[n].kind == "mask" for n in self.lists["won", seat])
        if masks >= target:
            raise BadSetup(f"arrangement 'won' gives seat {seat} {masks} Great Masks: that game is already "
                           f"over (at most {target - 1})")

    @staticmethod
    def _positions(labels: list[str], board: Board) -> list[int]:
        cells = [board.cell(label) for label in labels]
        if None in cells or cells[0] == cells[1]:
            raise BadSetup(f"arrangement 'positions' must name two different spaces of map {board.id!r} "
                           f"(row letter and column number, e.g. ['G2', 'H9']), not {labels!r}")
        return [cell for cell in cells if cell is not None]

    def seat_list(self, key: str, seat: int) -> list[int]:
        return list(self.lists[key, seat])

    def shared_list(self, key: str) -> list[int]:
        return list(self.lists[key, None])

    def pile(self, key: str, seat: int | None, allowed: Sequence[int], taken: Sequence[int],
             rng: random.Random) -> list[int]:
        """A draw pile: the arranged top (top first), the rest shuffled beneath (top = end)."""
        top = self.lists[key, seat]
        rest = [c for c in allowed if c not in set(top) | set(taken)]
        rng.shuffle(rest)
        return rest + top[::-1]


class _Why:
    """Says why an action id is not legal now, in the rulebook's terms."""

    def __init__(self, state: MasksState) -> None:
        self.state = state
        self.seat = state.actor

    def reason(self, action: str) -> str | None:
        head, _, rest = action.partition(":")
        methods = {"move": self._move, "play": self._play, "attach": self._attach, "pass": self._pass,
                   "keep": self._keep, "jump": self._jump, "discard": self._discard, "wait": self._wait}
        method = methods.get(head)
        return method(rest) if method else None

    def _phase(self) -> str:
        return {TURN: "it is the start of a turn, before the move", WINDOW: "a Great Mask Challenge is on",
                ANYTIME: "the turn is about to pass (only a card playable at any time may be played)",
                CLAIM: "a won card waits to be attached or kept", JUMP: "a Toa must jump to another Portal",
                DISCARD: "a Mission card asks for a Game Action card"}[self.state.phase]

    def _move(self, rest: str) -> str:
        s = self.state
        if s.phase != TURN:
            return f"a Toa moves in their player's turn, and now {self._phase()}"
        if rest not in DIR_CODES:
            return "a Toa moves one space North, East, South or West (N, E, S, W), never diagonally"
        d = DIR_CODES.index(rest)
        cell = s.step[s.pos[self.seat]][d]
        if cell >= 0 and s._may_enter(self.seat, cell) and s._giving_up(self.seat):
            mission = s.missions[self.seat][0][0]
            return (f"Mission #{mission} asks for a Game Action card and the hand is empty: the Toa "
                    "must move towards the nearest Game Action space")
        return self._closed(self.seat, cell, f"the space to the {DIR_NAMES[d]}")

    def _closed(self, seat: int, cell: int, where: str) -> str:
        s = self.state
        if cell < 0:
            return f"{where} is off the map"
        if cell == s.pos[1 - seat]:
            return (f"{where} is occupied by {s.names[1 - seat]}'s Toa Mask; to enter it, wait for "
                    f"{s.names[1 - seat]} to move")
        if s.kind[cell] == CHALLENGE and s.missions[seat]:
            mission = s.missions[seat][0][0]
            return f"{where} is a Challenge space, and Mission #{mission} must be completed first"
        if cell == s.last_chal[seat]:
            return (f"{where} is the Challenge space last visited; a Great Mask Challenge attempt at a "
                    "different Challenge space must come first")
        if cell == s.last_ga[seat]:
            return (f"{where} is the Game Action space last visited; a different Game Action space or a "
                    "Great Mask Challenge attempt must come first")
        return f"{where} is open, but {self._phase()}"

    def _card(self, rest: str, allowed: str) -> tuple[int | None, str | None]:
        s = self.state
        number_text = rest.split(":")[0]
        if not number_text.isdigit() or int(number_text) not in s.game.cards.actions:
            return None, f"there is no Game Action card #{number_text} (they are #21 to #40)"
        number = int(number_text)
        if number not in s.hands[self.seat]:
            return None, f"card #{number} is not in {s.names[self.seat]}'s hand"
        if s.phase not in allowed:
            return None, f"that card cannot be played now: {self._phase()}"
        return number, None

    def _play(self, rest: str) -> str | None:
        s = self.state
        number, problem = self._card(rest, (TURN, WINDOW, ANYTIME))
        if problem:
            return problem
        card = s.game.cards.actions[number]
        effect = card.effect
        if s.phase == WINDOW and effect not in IN_CHALLENGE:
            return f"{card.name} is played in your turn, before you move, not during a challenge"
        if s.phase == TURN and effect not in IN_TURN:
            return f"this {card.name} is played during a Great Mask Challenge"
        if s.phase == ANYTIME and effect not in ANY_TIME:
            when = "during a Great Mask Challenge" if effect in IN_CHALLENGE else "before your move"
            return f"this {card.name} is played {when}, not now"
        _, _, extra = rest.partition(":")
        if effect == "push":
            if extra not in DIR_CODES:
                return "say which way to move the opponent's Toa Mask: play:N:N, :E, :S or :W"
            d = DIR_CODES.index(extra)
            opp = 1 - self.seat
            where = f"the space to the {DIR_NAMES[d]} of {s.names[opp]}"
            return self._closed(opp, s.step[s.pos[opp]][d], where)
        if effect == "move":
            codes = [code for code, _ in TWO_STEPS]
            if extra not in codes:
                return f"say where the two spaces end: {', '.join(codes)}"
            return "no open path of two spaces ends there (the end space must be one the Toa may enter)"
        return "that card takes no direction" if extra else None

    def _attach(self, rest: str) -> str | None:
        s = self.state
        if not rest.isdigit() or int(rest) not in s.won[self.seat]:
            return f"{s.names[self.seat]} has not won a card #{rest}"
        if s.phase not in (TURN, CLAIM):
            return f"cards are attached before the move or right after winning them, and now {self._phase()}"
        if s.phase == CLAIM:
            return "right after winning, only the card just won may be attached"
        number = int(rest)
        if number in (s.mask_on[self.seat], s.turaga_on[self.seat]):
            return f"card #{number} is already attached"
        return "one change of Great Mask and one of Turaga card per turn, and that change is made"

    def _pass(self, rest: str) -> str:
        return (f"'pass' is for a Great Mask Challenge or for the moment before a turn passes, and now "
                f"{self._phase()}")

    def _keep(self, rest: str) -> str:
        return f"'keep' answers a card just won, and now {self._phase()}"

    def _jump(self, rest: str) -> str:
        s = self.state
        if s.phase != JUMP:
            return f"jumps are made from a Portal space just entered, and now {self._phase()}"
        return f"{rest} is not a free Portal space other than this one"

    def _discard(self, rest: str) -> str | None:
        _, problem = self._card(rest, (DISCARD,))
        return problem

    def _wait(self, rest: str) -> str:
        if self.state.phase != TURN:
            return f"now {self._phase()}"
        return "a Toa must always move one space when it can (no skipping)"


def load_game(folder: Path | None = None, maps_file: Path | None = None) -> MasksGame:
    """The game with our cards and map, or with a user's own data files."""
    return MasksGame(load_cards(folder), load_maps(maps_file))


MasksGame.state_class = MasksState
