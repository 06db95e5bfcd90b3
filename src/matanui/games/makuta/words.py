"""Quest for Makuta's words: what each legal action would do, said to the player deciding,
and why an action is not legal now."""

from __future__ import annotations

from .components import KANOHI, KEY, LOCK, TURAGA
from .island import DIR_WORDS, DIRS, NO_SPACE
from .moves import (
    AKAKU,
    BONUS,
    CHALLENGE,
    GATE,
    LEVITATE,
    MOVE,
    MOVE_IDS,
    PLACE,
    PUT,
    RETURN,
    REVEAL,
    ROLL,
    START_TOKEN,
    STEAL,
    TAKE,
)
from .setup import MakutaSetUp


class MakutaWords(MakutaSetUp):
    """describe() and the why-not texts."""

    def describe(self, action: str) -> str:
        move = self._move_table().get(action)
        if move is None:
            return f"{action} (not legal now)"
        kind = move[0]
        me = self.decider
        if kind == "move":
            left = self.steps - 1
            return (f"Move {DIR_WORDS[move[1]]} to {self._space_words(move[2])} "
                    f"({left} {'step' if left == 1 else 'steps'} left)")
        if kind in SIMPLE_WORDS:
            return SIMPLE_WORDS[kind](self)
        if kind in ("to", "put"):
            verb = "Levitate to" if kind == "to" else f"Put {self._who(self.victim)} on"
            return f"{verb} {self._space_words(move[1])}"
        if kind == "place":
            _, rot, portal, x, y = move
            assert self.placing is not None  # a placement lays the board drawn
            board = self.game.parts.boards[self.placing]
            far = board.size - 1
            turned = f"turned {rot * 90} degrees clockwise" if rot else "not turned"
            return (f"Lay {board.name} with its portal {portal + 1} against yours, {turned}: it "
                    f"covers {x},{y} to {x + far},{y + far}")
        if kind in ("return", "steal", "take"):
            return self._describe_slot(kind, move[1], move[2])
        if kind == "akaku":
            return f"Use the Kanohi Akaku on {self._who(move[1])}: see their tokens, take one"
        if kind == "use":
            token = self._shown(move[1])
            return f"Show {self._label(token)} (+{self._bonus_of(me, token)})"
        return action

    def _describe_slot(self, verb: str, kind: int, slot: int) -> str:
        owner = self.decider if verb == "return" else self.victim
        token = self.cards[owner][kind][slot]
        bit = 1 << self.decider
        face = self._label(token) if self.seen_by[token] & bit else "face down"
        where = {"return": "Place your", "steal": "Take", "take": "Take"}[verb]
        of = "" if verb == "return" else f" of {self._who(owner)}"
        return f"{where} {TOKEN_WORDS[kind]} #{slot + 1}{of} ({face})" + \
            (" face down on the start space" if verb == "return" else "")

    def _space_words(self, node: int) -> str:
        """A space as the deciding player sees it: its kind, what lies on it (face down unless
        that player has seen it) and its name, e.g. 'the space at 2,0 with a face-down Rahi'."""
        if node == self.start_node:
            count = len(self.start)
            return "Toa Landing" + (f" ({count} face-down token{'s' if count > 1 else ''} there)"
                                    if count else "")
        tokens = self.game.parts.tokens
        bit = 1 << self.decider
        things = []
        if node in self.rahi:
            rahi = self.rahi[node]
            things.append(f"a Rahi of strength {tokens[rahi].value}" if self.seen_by[rahi] & bit
                          else "a face-down Rahi")
        for token in (*self.items.get(node, ()), *([self.locks[node]] if node in self.locks else ())):
            things.append(f"the {self._label(token)}" if self.seen_by[token] & bit
                          else f"a face-down {TOKEN_WORDS[tokens[token].kind]}")
        if node in self.island.dead_portals():
            kind = "closed portal (no room for a board beyond it)"
        elif self.island.is_open_portal(node):
            kind = "open portal"
        elif node in self.island.out:
            kind = "joined portal"
        elif node in self.island.gate:
            kind = "temple gate"
        else:
            kind = "space"
        there = f" with {' and '.join(things)}" if things else ""
        return f"the {kind} at {self.island.names[node]}{there}"

    def _deciding_words(self) -> str:
        return f"{self._who(self.decider)} now (deciding: {PHASE_WORDS[self.phase]})"

    def _why_not(self, action: str) -> str | None:
        verb, _, rest = action.partition(":")
        me = self.decider
        if verb == "move" and self.phase == MOVE and rest in DIRS:
            here = self.pawns[me]
            there = self.island.adj[4 * here + DIRS.index(rest)]
            if there == NO_SPACE:
                return (f"there is no space to the {DIR_WORDS[DIRS.index(rest)]} (boards are "
                        "crossed only portal to portal)")
            return "that space was already visited this turn: no doubling back"
        if verb == "move" and rest not in DIRS:
            return f"moves are {', '.join(MOVE_IDS)}; never diagonally"
        if verb == "stop" and self.phase == MOVE:
            if self.steps == self.move_roll:
                return "move at least one space first"
            return ("you may stop early only on a token, a portal or the start space with "
                    "tokens (or, with a Kanohi Akaku, on another Toa)")
        if verb == "levitate" and self.phase == ROLL:
            return "you hold no Kanohi Miru"
        if verb == "challenge" and self.phase == GATE:
            return "your three keys do not match this lock (yellow keys stand for any symbol)"
        if verb == "use" and self.phase == CHALLENGE:
            return "roll first: Kanohi and Turaga are added to the roll once it is seen"
        if verb == "use" and self.phase == BONUS:
            return ("you hold no such Kanohi or Turaga, or it is already shown (a mask counts "
                    "once)")
        if verb in ("return", "steal", "take") and self.phase in (RETURN, STEAL, TAKE):
            return "there is no such token on that collector card"
        return ""

    def _sum(self) -> str:
        if not self.bonus:
            return str(self.challenge_roll)
        return f"{self.challenge_roll} + {self.bonus} = {self.challenge_roll + self.bonus}"

    def _against(self) -> str:
        return "Makuta" if self.foe == "makuta" else "the Rahi"


PHASE_WORDS = {
    ROLL: "start of the turn", LEVITATE: "where to levitate", MOVE: "moving",
    PLACE: "how to lay the new board", RETURN: "which token to give up",
    START_TOKEN: "whether to take a token from the start space",
    REVEAL: "whether to turn over the lock", GATE: "whether to challenge Makuta",
    AKAKU: "whether to use the Kanohi Akaku", STEAL: "which token to take",
    CHALLENGE: "the challenge roll",
    BONUS: "which Kanohi and Turaga to add to the roll",
    TAKE: "which item the player to the right loses", PUT: "where the loser's pawn goes",
}

TOKEN_WORDS = {KANOHI: "Kanohi token", TURAGA: "Turaga token", KEY: "key token", LOCK: "lock"}

SIMPLE_WORDS = {
    "roll": lambda s: f"Roll the {s._die(s.decider)[0]} die and move",
    "levitate": lambda _: "Use the Kanohi Miru to levitate to any other space",
    "stop": lambda s: f"Stop on {s._space_words(s.pawns[s.decider])} ({s.steps} of the roll unused)",
    "take-start": lambda _: "Take one token from the start space without looking",
    "skip": lambda s: {START_TOKEN: "Leave the start space's tokens",
                       REVEAL: "Leave the lock face down",
                       GATE: "Do not challenge Makuta now",
                       AKAKU: "Do not use the Kanohi Akaku"}[s.phase],
    "reveal": lambda _: "Turn over the lock token for everyone to see",
    "challenge": lambda _: "Challenge Makuta (the white die turns the temple first)",
    "strike": lambda s: f"Roll the {s._die(s.decider)[0]} die against {s.strength}",
    "settle": lambda s: f"Add up: {s._sum()} against {s.strength}",
}
