"""Quest for the Masks' words: what each legal action would do, said to the player deciding,
and why an action is not legal now, in the rulebook's terms."""

from __future__ import annotations

from .cards import DIRECTIONS
from .maps import BLANK, CHALLENGE, GAME_ACTION, KIND_NAMES, MISSION, PORTAL
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
    M_ATTACH,
    M_DISCARD,
    M_JUMP,
    M_KEEP,
    M_MOVE,
    M_PASS,
    M_WAIT,
    TURN,
    TWO_STEP_WORDS,
    TWO_STEPS,
    WINDOW,
)
from .setup import MasksSetUp

# What entering a space does, said in the move that enters it: (single, double space).
ENTER_WORDS = {
    BLANK: ("", ""), MISSION: ("you take a Mission card", ""),
    CHALLENGE: ("a Great Mask Challenge", "two Great Mask Challenges"),
    GAME_ACTION: ("you draw a Game Action card", "you draw two Game Action cards"),
    PORTAL: ("you jump to another Portal space", ""),
}


class MasksWords(MasksSetUp):
    """describe() and the why-not texts."""

    def describe(self, action: str) -> str:
        move = self._move_table().get(action)
        if move is None:
            return f"{action} (not legal now)"
        op = move[0]
        cards = self.game.cards
        if op == M_MOVE:
            return f"Move {DIRECTIONS[move[1]]} to {self._space_words(move[2], effect=True)}"
        if op == M_ATTACH:
            mask = cards.mask_cards[move[1]]
            return f"Attach {mask.name} (Card #{mask.number}): {mask.text}"
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
            opp = 1 - self.decider
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

    def _deciding_words(self) -> str:
        return f"{self.names[self.decider]} now"

    def _why_not(self, action: str) -> str | None:
        return WhyNot(self).reason(action)


class WhyNot:
    """Says why an action id is not legal now, in the rulebook's terms."""

    def __init__(self, state: MasksWords) -> None:
        self.state = state
        self.seat = state.decider

    def reason(self, action: str) -> str | None:
        head, _, rest = action.partition(":")
        methods = {"move": self._move, "play": self._play, "attach": self._attach, "pass": self._pass,
                   "keep": self._keep, "jump": self._jump, "discard": self._discard, "wait": self._wait}
        method = methods.get(head)
        return method(rest) if method else None

    def _phase(self) -> str:
        phase = self.state.phase
        assert phase is not None, "no decision is pending"
        return PHASE_WORDS[phase]

    def _move(self, rest: str) -> str:
        s = self.state
        if s.phase != TURN:
            return f"a Toa moves in their player's turn, and now {self._phase()}"
        if rest not in DIR_CODES:
            return "a Toa moves one space North, East, South or West (N, E, S, W), never diagonally"
        d = DIR_CODES.index(rest)
        cell = s.step[s.toa_cells[self.seat]][d]
        if cell >= 0 and s._may_enter(self.seat, cell) and s._giving_up(self.seat):
            mission = s.missions[self.seat][0].card
            return (f"Mission #{mission} asks for a Game Action card and the hand is empty: the Toa "
                    "must move towards the nearest Game Action space")
        return self._closed(self.seat, cell, f"the space to the {DIR_NAMES[d]}")

    def _closed(self, seat: int, cell: int, where: str) -> str:
        s = self.state
        if cell < 0:
            return f"{where} is off the map"
        if cell == s.toa_cells[1 - seat]:
            return (f"{where} is occupied by {s.names[1 - seat]}'s Toa Mask; to enter it, wait for "
                    f"{s.names[1 - seat]} to move")
        if s.kind[cell] == CHALLENGE and s.missions[seat]:
            mission = s.missions[seat][0].card
            return f"{where} is a Challenge space, and Mission #{mission} must be completed first"
        if cell == s.last_challenge[seat]:
            return (f"{where} is the Challenge space last visited; a Great Mask Challenge attempt at a "
                    "different Challenge space must come first")
        if cell == s.last_game_action[seat]:
            return (f"{where} is the Game Action space last visited; a different Game Action space or a "
                    "Great Mask Challenge attempt must come first")
        return f"{where} is open, but {self._phase()}"

    def _card(self, rest: str, allowed: tuple[str, ...]) -> int | str:
        """The Game Action card `rest` names, if it is in the hand and may be played in this
        decision; else why not."""
        s = self.state
        number_text = rest.split(":")[0]
        if not number_text.isdigit() or int(number_text) not in s.game.cards.actions:
            return f"there is no Game Action card #{number_text} (they are #21 to #40)"
        number = int(number_text)
        if number not in s.hands[self.seat]:
            return f"card #{number} is not in {s.names[self.seat]}'s hand"
        if s.phase not in allowed:
            return f"that card cannot be played now: {self._phase()}"
        return number

    def _play(self, rest: str) -> str | None:
        s = self.state
        number = self._card(rest, (TURN, WINDOW, ANYTIME))
        if isinstance(number, str):
            return number
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
            return self._closed(opp, s.step[s.toa_cells[opp]][d], where)
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
        problem = self._card(rest, (DISCARD,))
        return problem if isinstance(problem, str) else None

    def _wait(self, rest: str) -> str:
        if self.state.phase != TURN:
            return f"now {self._phase()}"
        return "a Toa must always move one space when it can (no skipping)"


PHASE_WORDS = {
    TURN: "it is the start of a turn, before the move", WINDOW: "a Great Mask Challenge is on",
    ANYTIME: "the turn is about to pass (only a card playable at any time may be played)",
    CLAIM: "a won card waits to be attached or kept", JUMP: "a Toa must jump to another Portal",
    DISCARD: "a Mission card asks for a Game Action card",
}
