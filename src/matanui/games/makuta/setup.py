"""Quest for Makuta's set-up: the fields of a position and how they are read, laying a
board with its tokens, the arrangement a test or tutorial may fix, and laying out a new
game (MAKUTA-SETUP-*)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self

from matanui.engine import BadSetup, State
from matanui.engine.arrangement import (
    Check,
    Spec,
    by_name,
    each_seat,
    listed,
    one,
    one_of,
    per_seat,
    seat_number,
    text,
    whole_number,
)

from .components import CARD_KINDS, KANOHI, KEY, KIND_IDS, LOCK, RAHI, TOKEN_ICONS, TURAGA, Components
from .island import NO_SPACE, START_NAME, Island
from .moves import AFTER_LAND, ROLL, ST_END

if TYPE_CHECKING:
    from .rules import MakutaGame

PUBLIC = 1 << 6  # knowledge bit of spectators: set when everyone saw a token's face
EVERYONE = (1 << 7) - 1
START_ORIGIN_NOTE = "the start board lies with Toa Landing's centre at 0,0"


class MakutaSetUp(State):
    """The fields of a position, the set-up that fills them, and the small readers of them
    that the rules, the words and the views share."""

    game: MakutaGame
    island: Island
    pile: list[str]  # the boards still to draw; its top is the end of the list
    bags: list[list[int]]  # per token kind; drawn from the end
    items: dict[int, list[int]]  # face-down Kanohi, Turaga and keys on spaces
    rahi: dict[int, int]
    under: dict[int, list[int]]  # items under a Rahi
    locks: dict[int, int]  # gate -> lock token
    start: list[int]  # tokens face down on the start space
    cards: list[list[list[int]]]  # per seat, per card kind, the tokens of its collector card
    beaten: list[int]  # beaten Rahi, no longer in play
    seen_by: list[int]  # per token, a bit per seat that has seen its face (PUBLIC: everyone)
    pawns: list[int]  # per seat, its space
    temple: int  # segments the temple is turned
    forced: list[int]  # arranged die rolls still to come
    placing: str | None  # the board drawn, waiting to be laid
    placements: dict[str, tuple[Any, ...]]  # the ways to lay it
    turn: int
    winner: int | None
    phase: str
    turn_player: int
    decider: int  # who decides now: the turn player, or the player to the left of a loser
    move_roll: int  # what the movement die showed this turn
    steps: int  # steps left of the roll
    path: list[int]  # the spaces walked this turn
    came_from: int
    land_node: int
    land_stage: int
    queue: list[int]  # tokens waiting to be collected
    after: int  # what follows the collecting
    return_kind: int  # the card kind over its limit
    foe: str  # whom a challenge is against: "rahi" or "makuta" (else "")
    strength: int
    used: list[int]  # the Kanohi and Turaga shown in this challenge
    bonus: int
    challenge_roll: int  # the challenger's roll, once rolled (else 0)
    victim: int

    def _lay_out(self, arrangement: Mapping[str, Any]) -> None:
        """Fill every field for a new game (the turn's own left as at a turn's start), with
        the boards and tokens the arrangement fixes or the rulebook's set-up."""
        game = self.game
        n = len(self.players)
        self.island = Island(game.shapes)
        self.bags = [[] for _ in KIND_IDS]
        self.items = {}
        self.rahi = {}
        self.under = {}
        self.locks = {}
        self.start = []
        self.cards = [[[] for _ in CARD_KINDS] for _ in range(n)]
        self.beaten = []
        self.seen_by = [0] * len(game.kind)
        self.temple = 0
        self.forced = list(arrangement.get("dice", []))
        self.placing = None
        self.placements = {}
        self.turn = 0
        self.winner = None
        self._init_turn_fields()
        Arranger(self, arrangement).lay_out()

    def _init_turn_fields(self) -> None:
        self.phase = ROLL
        self.turn_player = 0
        self.decider = 0
        self.move_roll = 0
        self.steps = 0
        self.path: list[int] = []
        self.came_from = NO_SPACE
        self.land_node = NO_SPACE
        self.land_stage = ST_END
        self.queue: list[int] = []
        self.after = AFTER_LAND
        self.return_kind = KANOHI
        self.foe = ""
        self.strength = 0
        self.used: list[int] = []
        self.bonus = 0
        self.challenge_roll = 0
        self.victim = -1

    def _copy_into(self, other: Self) -> None:
        other.island = self.island.copy()
        other.pile = list(self.pile)
        other.bags = [list(b) for b in self.bags]
        other.items = {n: list(ts) for n, ts in self.items.items()}
        other.rahi = dict(self.rahi)
        other.under = {n: list(ts) for n, ts in self.under.items()}
        other.locks = dict(self.locks)
        other.start = list(self.start)
        other.cards = [[list(k) for k in card] for card in self.cards]
        other.beaten = list(self.beaten)
        other.seen_by = list(self.seen_by)
        other.pawns = list(self.pawns)
        other.temple = self.temple
        other.forced = list(self.forced)
        other.placing = self.placing
        other.placements = dict(self.placements)
        other.turn = self.turn
        other.winner = self.winner
        other.phase = self.phase
        other.turn_player = self.turn_player
        other.decider = self.decider
        other.move_roll = self.move_roll
        other.steps = self.steps
        other.path = list(self.path)
        other.came_from = self.came_from
        other.land_node = self.land_node
        other.land_stage = self.land_stage
        other.queue = list(self.queue)
        other.after = self.after
        other.return_kind = self.return_kind
        other.foe = self.foe
        other.strength = self.strength
        other.used = list(self.used)
        other.bonus = self.bonus
        other.challenge_roll = self.challenge_roll
        other.victim = self.victim

    @property
    def start_node(self) -> int:
        return self.island.by_name[START_NAME]

    def _who(self, seat: int) -> str:
        return self.names[seat]

    def _label(self, token: int) -> str:
        return self.game.parts.tokens[token].label

    def _space(self, node: int) -> str:
        name = self.island.names[node]
        return "Toa Landing" if name == START_NAME else name

    def _die(self, seat: int) -> tuple[str, int]:
        """MAKUTA-WHITE-DIE, MAKUTA-KAKAMA, MAKUTA-KAUKAU: the die in use and its faces."""
        tokens = self.game.parts.tokens
        for token in self.cards[seat][KANOHI]:
            die = tokens[token].die
            if die:
                return die, self.game.parts.dice[die]
        die = self.game.parts.rules.start_die
        return die, self.game.parts.dice[die]

    def _speed_masks(self, seat: int) -> list[int]:
        tokens = self.game.parts.tokens
        return [t for t in self.cards[seat][KANOHI] if tokens[t].die]

    def _held(self, seat: int, kind: int, power: str) -> int | None:
        tokens = self.game.parts.tokens
        return next((t for t in self.cards[seat][kind] if tokens[t].power == power), None)

    def _held_for_move(self, seat: int, kind: int, power: str) -> int:
        """The token with `power` on `seat`'s card, for the move it grants: that move is
        offered only while `_held` finds the token, so it is there."""
        token = self._held(seat, kind, power)
        assert token is not None, f"seat {seat} holds no {power} token"
        return token

    def _drawn_board(self) -> str:
        """The board drawn and waiting to be laid: `place:` moves (and their previews) are
        offered only while there is one."""
        assert self.placing is not None, "no board is drawn"
        return self.placing

    def _has_token(self, node: int) -> bool:
        return (node in self.items or node in self.rahi or node in self.locks
                or (node == self.start_node and bool(self.start)))

    def _toa_at(self, node: int) -> int:
        """How many pawns of Toa still in play stand on `node`."""
        count = self.pawns.count(node)
        for seat in self.out:
            count -= self.pawns[seat] == node
        return count

    def _left_of(self, seat: int) -> int:
        """MAKUTA-ORDER: the player to your left is the next seat clockwise still in play
        (MAKUTA-FORFEIT)."""
        n = len(self.players)
        seat = (seat + 1) % n
        while seat in self.out:
            seat = (seat + 1) % n
        return seat

    def _bonus_of(self, seat: int, token: int) -> int:
        """MAKUTA-HAU, MAKUTA-PAKARI, MAKUTA-TURAGA-OWN, MAKUTA-TURAGA-OTHER."""
        t = self.game.parts.tokens[token]
        if t.kind == KANOHI:
            return t.bonus
        rules = self.game.parts.rules
        own = self.game.parts.toa[self.players[seat]].turaga
        return rules.own_turaga_bonus if t.name == own else rules.other_turaga_bonus

    def _shown(self, name: str) -> int:
        """The decider's Kanohi or Turaga of that name, not yet shown in this challenge."""
        tokens = self.game.parts.tokens
        return next(t for k in (KANOHI, TURAGA) for t in self.cards[self.decider][k]
                    if tokens[t].name == name and t not in self.used)

    def _over_limit_quiet(self, seat: int) -> bool:
        rules = self.game.parts.rules
        card = self.cards[seat]
        return (len(self._speed_masks(seat)) > 1 or len(card[KANOHI]) > rules.kanohi_limit
                or len(card[TURAGA]) > rules.turaga_limit or len(card[KEY]) > rules.key_limit)

    def _show_die(self, seat: int) -> None:
        """MAKUTA-DIE-PUBLIC: the die a Toa rolls shows which speed mask it holds (for
        arranged collector cards; collected speed masks are shown at once)."""
        for token in self._speed_masks(seat):
            self.seen_by[token] = EVERYONE

    def _lay(self, board: str, rot: int, x: int, y: int, fill: bool = True) -> None:
        """MAKUTA-BOARD-TOKENS, MAKUTA-MAKUTA-LOCKS, MAKUTA-TEMPLE-PLACE."""
        had_temple = self.island.makuta
        nodes, links = self.island.add(board, rot, x, y)
        if fill:
            counts = self._fill(nodes)
            if any(counts):
                said = ", ".join(f"{c} {KIND_IDS[k]}" for k, c in enumerate(counts) if c)
                self.emit("tokens", f"Tokens are added face down: {said}.", {"counts": counts})
        if self.island.makuta and not had_temple:
            colours = ", ".join(s.colour for s in self.game.parts.segments)
            self.emit("temple", "Makuta's temple is placed in the centre of its board, "
                      f"a coloured segment at each gate ({colours}, clockwise).", {})
        if fill:
            for pair in links:
                for portal in pair:
                    gate = self.island.gate_portal.get(portal)
                    if gate is not None and gate not in self.locks and self.bags[LOCK]:
                        self.locks[gate] = self.bags[LOCK].pop()
                        self.emit("lock", "A Temple Lock token is placed face down on "
                                  f"the gate at {self._space(gate)}.",
                                  {"gate": self.island.names[gate]})

    def _fill(self, nodes: range) -> list[int]:
        """Draw a token for each icon of `nodes` from its bag; how many of each kind."""
        counts = [0] * len(KIND_IDS)
        icons = self.island.icon
        for node in nodes:
            kind = TOKEN_ICONS.get(icons[node])
            if kind is None or not self.bags[kind]:
                continue  # MAKUTA-BAG-EMPTY
            token = self.bags[kind].pop()
            counts[kind] += 1
            if kind == RAHI:
                self.rahi[node] = token
            else:
                self.items[node] = [token]
        return counts


class Arranger:
    """Set-up: the rulebook's, or one fixed by an arrangement (scenario tests, tutorials).

    Arrangement keys (all optional; spaces are named "x,y" or "start"; tokens by their view
    id, e.g. "kanohi:pakari", "turaga:vakama", "key:yellow", "rahi:muaka:18",
    "lock:fire-water-air"):
      first_player  seat that starts (else the green die decides);
      dice          die results used, in order, before the generator's;
      pile          board ids on top of the pile, top first (the rest shuffled below);
      boards        [[board id, rot, x, y], ...] laid already, in order, after the start board;
      tokens        {space: token or [tokens]}: the only tokens on the boards laid at set-up;
      under         {space: [tokens]} under the Rahi there;
      start_pile    tokens face down on the start space;
      cards         per seat, the tokens on its collector card;
      bags          {kind: [tokens]} on top of that bag, first drawn first;
      pawns         per seat, its space (else all on Toa Landing);
      revealed      spaces whose Rahi or lock everyone has seen;
      temple        how many segments the temple is already turned.
    `arrangement_spec` has every key's shape and entries checked first; the places (spaces of the boards
    laid, which tokens may lie where, how many of each token there are) are checked as they
    are laid out, so a state is returned only when all of it holds. An arranged roll larger
    than the die it meets in play raises BadSetup then, and undoes that action.
    """

    def __init__(self, state: MakutaSetUp, arrangement: Mapping[str, Any]) -> None:
        self.state = state
        self.arrangement = arrangement
        self.free = {view: list(ts) for view, ts in state.game.by_view.items()}

    def token(self, view: str) -> int:
        if not self.free[view]:
            raise BadSetup(f"the arrangement uses more {view!r} tokens than the game has")
        return self.free[view].pop(0)

    def space(self, name: Any) -> int:
        node = self.state.island.by_name.get(name)
        if node is None:
            raise BadSetup(f"arranged space {name!r} is not a space of the boards laid "
                           f"({START_ORIGIN_NOTE}; spaces are named 'x,y' or 'start')")
        return node

    def items(self, views: list[Any], where: str) -> list[int]:
        """Tokens that can only be Kanohi, Turaga or keys (on a card, under a Rahi, on the
        start space)."""
        tokens = [self.token(v) for v in views]
        for view, token in zip(views, tokens, strict=True):
            if self.state.game.kind[token] not in CARD_KINDS:
                raise BadSetup(f"{view} is arranged {where}, where only Kanohi, Turaga and keys "
                               "can ever be")
        return tokens

    def lay_out(self) -> None:
        """MAKUTA-SETUP-BOARDS, MAKUTA-SETUP-TOKENS, MAKUTA-SETUP-START-TOKENS,
        MAKUTA-SETUP-PAWNS."""
        state, arrangement, game = self.state, self.arrangement, self.state.game
        start = game.parts.boards[game.start_board]
        half = start.size // 2
        placed = [[game.start_board, 0, -half, -half], *list(arrangement.get("boards", []))]
        for entry in placed:
            self.lay(entry)
        laid = {b for b, *_ in state.island.placed}
        top = list(arrangement.get("pile", []))
        for board in top:
            if board not in game.pile_boards or board in laid or top.count(board) > 1:
                raise BadSetup(f"arranged pile board {board!r} is not a board still to draw; "
                               f"boards: {', '.join(game.pile_boards)}")
        rest = [b for b in game.pile_boards if b not in laid and b not in top]
        state.rng.shuffle(rest)
        state.pile = rest + top[::-1]  # the top of the pile is the end of the list
        self.place_tokens()
        tops = arrangement.get("bags", {})
        for kind, kind_id in enumerate(KIND_IDS):
            first = [self.token(v) for v in tops.get(kind_id, [])]
            if any(game.kind[t] != kind for t in first):
                raise BadSetup(f"the {kind_id} bag holds only {kind_id} tokens")
            rest_tokens = [t for ts in self.free.values() for t in ts if game.kind[t] == kind]
            state.rng.shuffle(rest_tokens)
            state.bags[kind] = rest_tokens + first[::-1]
        self.free = {}
        if "tokens" not in arrangement:
            for placement, (board, _rot, _x, _y) in enumerate(state.island.placed):
                nodes = [n for n in range(len(state.island)) if state.island.board_of[n] == placement]
                state._fill(range(nodes[0], nodes[-1] + 1))
                if state.island.gate and game.parts.boards[board].role == "makuta":
                    for portal, gate in state.island.gate_portal.items():
                        if portal in state.island.joined and state.bags[LOCK]:
                            state.locks[gate] = state.bags[LOCK].pop()
        n = len(state.players)
        pawns = arrangement.get("pawns", [START_NAME] * n)
        state.pawns = [self.space(p) for p in pawns]
        for seat in range(n):
            state._show_die(seat)
            if state._over_limit_quiet(seat):
                raise BadSetup(f"the arranged collector card of seat {seat} is over a limit "
                               "(3 keys, 4 Kanohi with one Kakama or Kaukau, 2 Turaga)")
        state.temple = arrangement.get("temple", 0) % len(game.parts.segments)
        state.emit("setup", f"The start board is placed face up in the centre and the "
                   f"other {len(state.pile)} boards face down in a pile. Tokens are "
                   f"placed face down on the start board. {self.standing()}; "
                   "everyone starts with the white die.",
                   {"players": list(state.players)})

    def standing(self) -> str:
        """Where the pawns start, as they really stand (an arrangement may put them anywhere):
        'Tahu, Lewa stand on Toa Landing', or 'Tahu stands on Toa Landing; Lewa stands on -3,-2'."""
        state = self.state
        spaces: dict[int, list[str]] = {}
        for seat, node in enumerate(state.pawns):
            spaces.setdefault(node, []).append(state._who(seat))
        return "; ".join(f"{', '.join(names)} {'stands' if len(names) == 1 else 'stand'} on "
                         f"{state._space(node)}" for node, names in spaces.items())

    def lay(self, entry: list[Any]) -> None:
        state, game = self.state, self.state.game
        board, rot, x, y = entry
        if board in {b for b, *_ in state.island.placed}:
            raise BadSetup(f"the arrangement lays board {board!r} twice")
        if not state.island.fits(x, y, game.parts.boards[board].size):
            raise BadSetup(f"arranged board {board!r} at {x},{y} overlaps a board already laid")
        state._lay(board, rot, x, y, fill=False)

    def place_tokens(self) -> None:
        state, arrangement = self.state, self.arrangement
        for name, views in arrangement.get("tokens", {}).items():
            node = self.space(name)
            if node == state.start_node:
                raise BadSetup("tokens are arranged on Toa Landing, which holds only returned "
                               "tokens: arrange those with start_pile")
            for view in views:
                self.place(self.token(view), node, name)
        for name, views in arrangement.get("under", {}).items():
            node = self.space(name)
            if node not in state.rahi:
                raise BadSetup(f"tokens are arranged under a Rahi on {name}, but no Rahi is there")
            state.under[node] = self.items(views, f"under the Rahi on {name}")
        state.start = self.items(arrangement.get("start_pile", []), "on the start space")
        for seat, views in enumerate(arrangement.get("cards", [])):
            for token in self.items(views, "on a collector card"):
                state.cards[seat][state.game.kind[token]].append(token)
                state.seen_by[token] |= 1 << seat
        for name in arrangement.get("revealed", []):
            node = self.space(name)
            shown = state.rahi.get(node, state.locks.get(node))
            if shown is None:
                raise BadSetup(f"revealed space {name} holds no Rahi or lock")
            state.seen_by[shown] = EVERYONE

    def place(self, token: int, node: int, name: str) -> None:
        """A token on a space: one Rahi a space; locks on gates, one each, and nothing else
        on a gate."""
        state = self.state
        kind = state.game.kind[token]
        gate = node in state.island.gate
        if kind == LOCK:
            if not gate:
                raise BadSetup(f"a lock is arranged on {name}, which is not a gate")
            if node in state.locks:
                raise BadSetup(f"two locks arranged on the gate {name}")
            state.locks[node] = token
        elif gate:
            raise BadSetup(f"{state.game.views[token]} is arranged on the gate {name}, which "
                           "holds only its lock")
        elif kind == RAHI:
            if node in state.rahi:
                raise BadSetup(f"two Rahi arranged on space {name}")
            state.rahi[node] = token
        else:
            state.items.setdefault(node, []).append(token)


TOKEN_EXAMPLES = "tokens look like kanohi:pakari, turaga:vakama, key:fire, rahi:muaka:18, lock:fire-water-air"


def arrangement_spec(parts: Components) -> Spec:
    """What an arrangement may fix, each key's shape and entries; where things may lie
    (spaces of the boards laid, how many of each token there are) `_Arranger` checks."""
    token = one_of({t.view for t in parts.tokens})
    by_space = f"a mapping {{{{space: token or [tokens]}}}} ({TOKEN_EXAMPLES})"
    top = max(parts.dice.values())
    return {
        "first_player": seat_number("a seat number from 0 to {last} (or None: the green die decides)",
                                    none=True),
        "dice": listed(whole_number(1, top), f"a list of whole numbers from 1 to {top} (the faces of "
                                             "the largest die)"),
        "pile": listed(text, "a list of board ids"),
        "boards": listed(_board_entry(parts.boards), "a list of [board id, rot 0-3, x, y] with board ids "
                                                     + ", ".join(parts.boards)),
        "tokens": by_name(text, token, by_space),
        "under": by_name(text, token, by_space),
        "start_pile": listed(token, f"a list of tokens ({TOKEN_EXAMPLES})"),
        "cards": per_seat(token, f"a list of {{seats}} lists of tokens, one per seat ({TOKEN_EXAMPLES})"),
        "bags": by_name(one_of(KIND_IDS), token, "a mapping {{kind: [tokens]}} with kinds "
                                                 + ", ".join(KIND_IDS)),
        "pawns": each_seat(text, "a list of {seats} spaces, one per seat"),
        "revealed": listed(text, "a list of spaces"),
        "temple": one(_whole, "a whole number of segments"),
    }


def _whole(value: Any) -> int:
    """An entry check: any int (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(value)
    return value


def _board_entry(boards: Mapping[str, Any]) -> Check:
    """An entry check: [board id, rot 0-3, x, y], read as a list."""
    rot = whole_number(0, 3)

    def check(value: Any) -> list[Any]:
        if not isinstance(value, (list, tuple)) or len(value) != 4 or not isinstance(value[0], str) \
                or value[0] not in boards:
            raise ValueError(value)
        return [value[0], rot(value[1]), _whole(value[2]), _whole(value[3])]

    return check
