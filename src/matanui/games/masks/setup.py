"""Quest for the Masks' set-up: the fields of a position and the small readers of them that
the rules, the words and the views share, the cards a game plays with, the arrangement a test
or tutorial may fix, and laying out a new game (MASKS-SETUP-*)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

from matanui.engine import BadSetup, State
from matanui.engine.arrangement import Spec, each_seat, listed, one, one_of, per_seat, text, whole_number

from .cards import ACTION_NUMBERS, CHALLENGE_NUMBERS, MISSION_NUMBERS, Cards
from .maps import CHALLENGE, GAME_ACTION, Board
from .moves import DIR_NAMES, Step
from .variants import Variant

if TYPE_CHECKING:
    from .rules import MasksGame

HAND_LIMIT = 5  # MASKS-GA-HAND-LIMIT
MASKS_TO_WIN, MASKS_TO_WIN_SHORT = 6, 3  # MASKS-OBJECT-WIN, MASKS-SHORT-GAME


class MasksSetUp(State):
    """The fields of a position, the set-up that fills them, and the small readers of them
    that the rules, the words and the views share."""

    game: MasksGame
    board: Board
    pools: CardPools
    masks_to_win: int  # the Great Masks a Toa needs to win
    turn_limit: int
    kind: tuple[int, ...]  # the board's, per cell: what the space is (maps.py)
    step: tuple[tuple[int, ...], ...]  # the board's, per cell: the cell N, E, S, W (-1: none)
    labels: tuple[str, ...]  # per cell, its name ('G2')
    toa_names: tuple[str, ...]
    move_texts: tuple[tuple[str, ...], ...]  # per seat, per direction: the narration of a move
    won: list[list[int]]  # per seat, the Great Mask/Turaga cards won, in the order won
    mask_pile: list[list[int]]  # per seat, the Great Mask/Turaga pile; its top is the end
    mask_on: list[int]  # per seat, the attached Great Mask (0: none)
    turaga_on: list[int]  # per seat, the attached Turaga card (0: none)
    # Each seat's hand, kept sorted: legal actions then come in an order that depends only on
    # what the seat can see.
    hands: list[list[int]]
    action_pile: list[list[int]]  # per seat, the Game Action draw pile; its top is the end
    action_discard: list[list[int]]
    challenge_pile: list[int]  # the Great Mask Challenge draw pile; its top is the end
    challenge_discard: list[int]
    mission_pile: list[int]  # the Mission draw pile; its top is the end
    mission_discard: list[int]
    missions: list[list[HeldMission]]  # per seat, oldest first
    known: list[set[int]]  # per seat, the cards of the hand that both players have seen
    skips: list[int]  # per seat, moves still to skip (Penalty cards)
    last_challenge: list[int]  # per seat, the Challenge space last landed on (-1: none)
    last_game_action: list[int]  # per seat, the Game Action space last landed on (-1: none)
    skills: list[list[int]]  # per seat, the six skills with the attached cards' bonuses
    toa_cells: list[int]  # per seat, the cell of its Toa Mask
    turn: int
    turn_player: int
    phase: str | None  # the decision (moves.py), None while the agenda runs
    actor: int | None  # who decides now
    agenda: list[Step]  # what is still to happen, a stack: the next step is the end
    challenge: Challenge | None  # the Great Mask Challenge under way
    passes: int  # in a challenge window: players who passed in a row
    claim: int  # the card just won, to attach or keep
    unclaimed: list[int]  # cards won on this space, still to attach or keep
    attach_done: int  # in the turn window: 1 a Great Mask, 2 a Turaga card changed
    gave_up: bool  # the turn was given up to push the other Toa (Infected Mask)
    # MASKS-GA-ANY-TIME: the turn player is owed the any-time window before the turn passes.
    owed: bool
    winner: int | None

    def _lay_out(self, arrangement: Mapping[str, Any]) -> None:
        """Fill every field for a new game, with the piles, hands and places the arrangement
        fixes or the rulebook's set-up (MASKS-SETUP-*), and tell it."""
        game = self.game
        cards = game.cards
        variant = game.variant(self.options["variant"])
        self.pools = CardPools.of(game, variant, self.players)
        if variant is None:
            board = game.boards[self.options["map"]]
            self.masks_to_win = MASKS_TO_WIN_SHORT if self.options["short"] else MASKS_TO_WIN
            self.turn_limit = self.options["turn_limit"]
        else:
            # A variant sets its own map and Great Masks to win: `map` and `short` do not apply.
            board = game.boards[variant.map]
            self.masks_to_win = variant.masks_to_win
            self.turn_limit = min(self.options["turn_limit"], variant.turn_limit)
        self.board = board
        # The whole arrangement is checked before anything is set up.
        arrange = Arranger(arrangement, cards, self.pools, board, self.masks_to_win)
        self.kind = board.kind
        self.step = board.step
        self.labels = tuple(board.label(c) for c in range(board.width * board.height))
        toas = [cards.toa[p] for p in self.players]
        self.toa_names = tuple(t.name for t in toas)

        # MASKS-SETUP-MASK-PILES: each Toa's own nine cards, shuffled, drawn only by its player.
        self.won = [arrange.seat_list("won", s) for s in (0, 1)]
        pools = self.pools
        self.mask_pile = [arrange.pile("mask_piles", s, pools.masks[s], self.won[s], self.rng)
                          for s in (0, 1)]
        self.mask_on, self.turaga_on = [0, 0], [0, 0]
        for s in (0, 1):
            for n in arrange.seat_list("attached", s):
                slot = self.mask_on if cards.mask_cards[n].kind == "mask" else self.turaga_on
                slot[s] = n
        # MASKS-SETUP-GA-PILES: each player has a complete set of Game Action cards #21-40 (a
        # variant: its few).
        self.hands = [sorted(arrange.seat_list("hands", s)) for s in (0, 1)]
        self.action_discard = [arrange.seat_list("action_discards", s) for s in (0, 1)]
        self.action_pile = [arrange.pile("action_piles", s, pools.actions,
                                     self.hands[s] + self.action_discard[s], self.rng) for s in (0, 1)]
        # MASKS-SETUP-SHARED-PILES: one Challenge pile (#1-6) and one Mission pile (#7-20).
        self.challenge_discard = arrange.shared_list("challenge_discard")
        self.challenge_pile = arrange.pile("challenge_pile", None, pools.challenges, self.challenge_discard,
                                           self.rng)
        self.missions = [[HeldMission(n, self._mission_count(n)) for n in arrange.seat_list("missions", s)]
                         for s in (0, 1)]
        queued = [m.card for queue in self.missions for m in queue]
        self.mission_discard = arrange.shared_list("mission_discard")
        self.mission_pile = arrange.pile("mission_pile", None, pools.missions, self.mission_discard + queued,
                                     self.rng)
        self.known = [set(), set()]
        self.skips = [0, 0]
        self.last_challenge = [-1, -1]
        self.last_game_action = [-1, -1]
        self.skills = [list(t.skills) for t in toas]
        for s in (0, 1):
            self._update_skills(s)
        self.turn = 0
        self.phase = None
        self.actor = None
        self.agenda = []
        self.challenge = None
        self.passes = 0
        self.claim = 0
        self.unclaimed = []
        self.attach_done = 0
        self.gave_up = False
        # MASKS-GA-ANY-TIME: the turn player is owed the any-time window before the turn passes.
        self.owed = False
        self.winner = None
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
        self.toa_cells = [0, 0]
        self.toa_cells[first], self.toa_cells[second] = board.west_start, board.east_start
        labels = self.labels
        if "positions" in arrangement:
            self.toa_cells = arrange.positions
            text = (f"The {self.toa_names[0]} Mask stands on {labels[self.toa_cells[0]]} and the "
                    f"{self.toa_names[1]} Mask on {labels[self.toa_cells[1]]}, as arranged. ")
        else:
            text = (f"{names[first]} places the {self.toa_names[first]} Mask on the Start Space to the "
                    f"West ({labels[board.west_start]}). {names[second]} places the "
                    f"{self.toa_names[second]} Mask on the Start Space to the East "
                    f"({labels[board.east_start]}). ")
        text += ("Rock-Paper-Scissors decides: " if rps else "") + f"{names[first]} goes first."
        self.emit("setup", text, {"first_player": first, "map": board.id,
                                  "positions": [labels[p] for p in self.toa_cells]})

    @property
    def decider(self) -> int:
        """The seat deciding now, for the words and views of a decision: they are asked for
        only while one is pending (not while the agenda runs, nor once the game is over)."""
        assert self.actor is not None, "no decision is pending"
        return self.actor

    def _challenge_on(self) -> Challenge:
        """The Great Mask Challenge under way: Bonus and Penalty cards that change its scores
        are offered only in its window."""
        assert self.challenge is not None, "no Great Mask Challenge is on"
        return self.challenge

    def _mission_count(self, number: int) -> int:
        mission = self.game.cards.missions[number]
        return mission.count if mission.kind in ("discard", "skip") else 1

    def _may_enter(self, seat: int, cell: int) -> bool:
        """May this Toa end a move on `cell` (a space of the map)?"""
        if cell == self.toa_cells[1 - seat]:
            return False  # MASKS-Q-OCCUPIED
        kind = self.kind[cell]
        if kind == CHALLENGE:
            # MASKS-MISSION-BEFORE-CHALLENGE, MASKS-CHALLENGE-NOT-TWICE
            return not self.missions[seat] and cell != self.last_challenge[seat]
        if kind == GAME_ACTION:
            return cell != self.last_game_action[seat]  # MASKS-GA-NOT-TWICE
        return True

    def _giving_up(self, seat: int) -> bool:
        """MASKS-MISSION-GIVE-UP: their oldest Mission asks for a card and their hand is empty."""
        queue = self.missions[seat]
        if not queue or self.hands[seat]:
            return False
        return self.game.cards.missions[queue[0].card].kind == "discard"

    def _mask_count(self, seat: int) -> int:
        kinds = self.game.mask_cards_kind
        return sum(kinds[n] == "mask" for n in self.won[seat])

    def _update_skills(self, seat: int) -> None:
        """MASKS-ATTACH-BONUS-ONLY-ATTACHED: skills are the Toa card's plus the attached cards'."""
        cards = self.game.cards
        base = cards.toa[self.players[seat]].skills
        mask = cards.mask_cards[self.mask_on[seat]].bonus if self.mask_on[seat] else (0,) * 6
        turaga = cards.mask_cards[self.turaga_on[seat]].bonus if self.turaga_on[seat] else (0,) * 6
        self.skills[seat] = [b + m + t for b, m, t in zip(base, mask, turaga, strict=True)]

    def _copy_into(self, other: Self) -> None:
        other.board = self.board
        other.pools = self.pools
        other.masks_to_win = self.masks_to_win
        other.turn_limit = self.turn_limit
        other.kind = self.kind
        other.step = self.step
        other.labels = self.labels
        other.toa_names = self.toa_names
        other.move_texts = self.move_texts
        other.won = [list(x) for x in self.won]
        other.mask_pile = [list(x) for x in self.mask_pile]
        other.mask_on = list(self.mask_on)
        other.turaga_on = list(self.turaga_on)
        other.hands = [list(x) for x in self.hands]
        other.action_pile = [list(x) for x in self.action_pile]
        other.action_discard = [list(x) for x in self.action_discard]
        other.challenge_pile = list(self.challenge_pile)
        other.challenge_discard = list(self.challenge_discard)
        other.mission_pile = list(self.mission_pile)
        other.mission_discard = list(self.mission_discard)
        other.missions = [[HeldMission(m.card, m.left) for m in q] for q in self.missions]
        other.known = [set(k) for k in self.known]
        other.skips = list(self.skips)
        other.last_challenge = list(self.last_challenge)
        other.last_game_action = list(self.last_game_action)
        other.skills = [list(x) for x in self.skills]
        other.toa_cells = list(self.toa_cells)
        other.turn = self.turn
        other.turn_player = self.turn_player
        other.phase = self.phase
        other.actor = self.actor
        other.agenda = list(self.agenda)
        on = self.challenge
        other.challenge = None if on is None else Challenge(on.lander, on.card, on.skill, list(on.bonus))
        other.passes = self.passes
        other.claim = self.claim
        other.unclaimed = list(self.unclaimed)
        other.attach_done = self.attach_done
        other.gave_up = self.gave_up
        other.owed = self.owed
        other.winner = self.winner


@dataclass(slots=True)
class Challenge:
    """A Great Mask Challenge under way (MASKS-CHALLENGE-*): the Toa who landed on its space,
    the card revealed and the skill it tests (an index of SKILLS), and each seat's points
    from the cards played in its window."""

    lander: int
    card: int
    skill: int
    bonus: list[int]  # per seat


@dataclass(slots=True)
class HeldMission:
    """A Mission card a player holds, not completed yet, and how many times it is still to
    be done (cards to give up, moves to skip; 1 for the others)."""

    card: int
    left: int


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


def numbers_words(numbers: Sequence[int]) -> str:
    """'#21 to #40' for a run of three numbers or more, else '#33, #39'."""
    if len(numbers) > 2 and list(numbers) == list(range(min(numbers), max(numbers) + 1)):
        return f"#{min(numbers)} to #{max(numbers)}"
    return ", ".join(f"#{n}" for n in numbers)


def arrangement_spec(cards: Cards) -> Spec:
    """What an arrangement may fix, each key's shape and entries; where each card may lie (a
    seat's own Great Mask/Turaga cards, a variant's few, one place each) `Arranger` checks."""
    action, challenge, mission = one_of(cards.actions), one_of(cards.challenges), one_of(cards.missions)
    mask = whole_number(min(cards.mask_cards), max(cards.mask_cards))
    actions = f"Game Action card numbers ({numbers_words(sorted(cards.actions))})"
    masks = "Great Mask/Turaga card numbers (of each seat's own Toa)"
    challenges = f"Great Mask Challenge card numbers ({numbers_words(sorted(cards.challenges))})"
    missions = f"Mission card numbers ({numbers_words(sorted(cards.missions))})"
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


class Arranger:
    """Masks' own checks of an arrangement its spec has read, made whole before anything is
    set up: each card only where it may lie (a seat's own Great Mask/Turaga cards, a variant's
    few) and in one place at most, attached cards among the won ones, a hand within the
    limit, a game not already won, and the Toa Masks on two different spaces of the map."""

    def __init__(self, arrangement: Mapping[str, Any], cards: Cards, pools: CardPools, board: Board,
                 masks_to_win: int) -> None:
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
            self._check_counts(seat, cards, masks_to_win)
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
                                       f"{whose} (allowed: {numbers_words(allowed)})")
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

    def _check_counts(self, seat: int, cards: Cards, masks_to_win: int) -> None:
        hand = self.lists["hands", seat]
        if len(hand) > HAND_LIMIT:
            raise BadSetup(f"arrangement 'hands' gives seat {seat} {len(hand)} cards; at most {HAND_LIMIT}")
        masks = sum(cards.mask_cards[n].kind == "mask" for n in self.lists["won", seat])
        if masks >= masks_to_win:
            raise BadSetup(f"arrangement 'won' gives seat {seat} {masks} Great Masks: that game is already "
                           f"over (at most {masks_to_win - 1})")

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
