"""Adventure Game: Quest for Makuta: every rule of the rulebook, in one place.

Rule ids in comments (MAKUTA-...) are the rows of docs/rules/makuta.md.

A turn is a short run of decisions, each belonging to exactly one seat (`current_player`):
  roll      `roll` (or `levitate`, then `to:SPACE`, with a Kanohi Miru);
  move      one `move:N|E|S|W` per space, `stop` where stopping early is allowed;
  landing   what the space asks for, in this order: a Rahi challenge (`roll`, then
            `use:NAME`... and `settle`),
            laying a board (`place:ROT:Q`), collecting (`return:KIND:SLOT` over a limit),
            the start space (`take-start`/`skip`), a gate (`reveal`/`skip`, then
            `challenge`/`skip`), another Toa (`akaku:TOA`/`skip`, then `steal:KIND:SLOT`);
  losing    the player to the left decides `take:KIND:SLOT` and, after Makuta, `put:SPACE`.
Die rolls are chance steps inside `apply`, drawn from the state's seeded generator (or from
an arrangement's `dice` list, for scenario tests).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from matanui.engine import BadSetup, Game, State
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
from matanui.engine.audit import one_place
from matanui.engine.forfeits import forfeit_words
from matanui.engine.options import Option, turn_limit

from .components import (
    CARD_KINDS,
    KANOHI,
    KEY,
    KIND_IDS,
    LOCK,
    RAHI,
    TOKEN_ICONS,
    TURAGA,
    Components,
    Segment,
    load,
)
from .island import DIR_WORDS, DIRS, NO_SPACE, START_NAME, Island, make_shapes

# Phases: what the current decision is about.
ROLL, LEVITATE, MOVE, PLACE, RETURN = "roll", "levitate", "move", "place", "return"
START_TOKEN, REVEAL, GATE, AKAKU, STEAL = "start-token", "reveal", "gate", "akaku", "steal"
CHALLENGE, BONUS, TAKE, PUT, OVER = "challenge", "bonus", "take", "put", "over"
# Decisions whose choices everyone can count: one choice there is taken for the player.
AUTOMATIC_PHASES = frozenset((MOVE, PLACE, RETURN, TAKE, STEAL, PUT))

# Landing resolves these in order (MAKUTA-LANDING-ORDER).
ST_RAHI, ST_PORTAL, ST_ITEMS, ST_START, ST_REVEAL, ST_GATE, ST_AKAKU, ST_END = range(8)
# What follows once collected tokens are within the limits.
AFTER_LAND, AFTER_EXTRA_TURN, AFTER_REROLL = range(3)

PUBLIC = 1 << 6  # knowledge bit of spectators: set when everyone saw a token's face
EVERYONE = (1 << 7) - 1
TURNS_PER_PLAYER = 100  # the default turn limit, per player
OPTIONS = {
    "turn_limit": turn_limit("turns (all players' turns together, extra turns included) after "
                             "which the game is drawn", per_player=TURNS_PER_PLAYER),
}
START_ORIGIN_NOTE = "the start board lies with Toa Landing's centre at 0,0"

MOVE_IDS = tuple(f"move:{d}" for d in DIRS)
WALK_SEARCH_LIMIT = 20_000  # steps tried to find the walks of one move (see `_walks`)
ROLL_MOVE, LEVITATE_MOVE, STOP_MOVE, SKIP_MOVE = ("roll",), ("levitate",), ("stop",), ("skip",)
TAKE_START_MOVE, REVEAL_MOVE, CHALLENGE_MOVE = ("take-start",), ("reveal",), ("challenge",)
STRIKE_MOVE, SETTLE_MOVE = ("strike",), ("settle",)  # the challenge roll's action id is `roll`


class MakutaGame(Game):
    name = "makuta"
    title = "Adventure Game: Quest for Makuta"
    rules_version = "2"  # 2: bonuses after the challenge roll; a turn's walk spans its rolls
    min_players = 2
    max_players = 6

    def __init__(self, parts: Components) -> None:
        self.parts = parts
        self.shapes = make_shapes(parts.boards.values())
        tokens = parts.tokens
        self.kind = tuple(t.kind for t in tokens)
        self.views = tuple(t.view for t in tokens)
        self.start_board = parts.board_of_role("start").id
        self.pile_boards = tuple(b.id for b in parts.boards.values() if b.role != "start")
        self.by_view: dict[str, list[int]] = {}
        for token in tokens:
            self.by_view.setdefault(token.view, []).append(token.index)
        # Action ids for every card slot a decision can name, built once.
        most = max(parts.rules.kanohi_limit, parts.rules.turaga_limit, parts.rules.key_limit) + 2
        self.slot_ids = {
            verb: [[(f"{verb}:{KIND_IDS[k]}:{i}", (verb, k, i)) for i in range(most)]
                   for k in CARD_KINDS]
            for verb in ("return", "steal", "take")
        }
        self.use_ids = {t.name: (f"use:{t.name}", ("use", t.name)) for t in tokens
                        if t.kind == TURAGA or t.bonus}
        self._arrangement_spec = arrangement_spec(parts)

    def arrangement_spec(self) -> Spec:
        return self._arrangement_spec

    def characters(self) -> list[str]:
        return list(self.parts.toa)

    def character_name(self, character: str) -> str:
        return self.parts.toa[character].name

    def options_schema(self) -> dict[str, Option]:
        return OPTIONS

    seating_words = "{count} Toa in clockwise seat order from: {allowed}"
    not_a_character = "{name!r} is not a Toa of this game; choose from: {allowed}"
    # MAKUTA-SETUP-TOA: one pawn and one collector card per Toa.
    same_character = ("each player chooses a different Toa (there is one pawn and one collector card "
                      "of each); choose from: {allowed}")


class MakutaState(State):
    game: MakutaGame

    # -- set-up ------------------------------------------------------------------------

    def _set_up(self, arrangement: Mapping[str, Any]) -> None:
        game = self.game
        n = len(self.players)
        self.island = Island(game.shapes)
        self.bags: list[list[int]] = [[] for _ in KIND_IDS]
        self.items: dict[int, list[int]] = {}  # face-down Kanohi, Turaga and keys on spaces
        self.rahi: dict[int, int] = {}
        self.under: dict[int, list[int]] = {}  # items under a Rahi
        self.locks: dict[int, int] = {}  # gate -> lock token
        self.start: list[int] = []  # tokens face down on the start space
        self.cards: list[list[list[int]]] = [[[] for _ in CARD_KINDS] for _ in range(n)]
        self.beaten: list[int] = []  # beaten Rahi, no longer in play
        self.known = [0] * len(game.kind)
        self.temple = 0
        self.forced = list(arrangement.get("dice", []))
        self.placing: str | None = None
        self.placements: dict[str, tuple] = {}
        self.turn = 0
        self.winner: int | None = None
        self._init_turn_fields()
        _Arranger(self, arrangement).lay_out()
        first = arrangement.get("first_player")
        if first is None:
            first = self._roll_for_first_player()
        self._begin_turn(first)

    def _init_turn_fields(self) -> None:
        self.phase = ROLL
        self.turn_player = 0
        self.decider = 0
        self.roll = 0
        self.steps = 0
        self.path: list[int] = []
        self.came_from = NO_SPACE
        self.land_node = NO_SPACE
        self.land_stage = ST_END
        self.queue: list[int] = []
        self.after = AFTER_LAND
        self.return_kind = KANOHI
        self.target = ""  # "rahi" or "makuta" during a challenge
        self.strength = 0
        self.used: list[int] = []
        self.bonus = 0
        self.struck = 0  # the challenge roll, once rolled
        self.victim = -1

    def _roll_for_first_player(self) -> int:
        """MAKUTA-FIRST-PLAYER: everyone rolls the green die; the highest starts (the tied
        highest roll again)."""
        rules = self.game.parts.rules
        faces = self.game.parts.dice[rules.first_player_die]
        rolling = list(range(len(self.players)))
        while True:
            rolls = {seat: self._roll(faces) for seat in rolling}
            best = max(rolls.values())
            said = ", ".join(f"{self._who(s)} {r}" for s, r in rolls.items())
            rolling = [s for s, r in rolls.items() if r == best]
            if len(rolling) == 1:
                self.emit("first_player", f"Rolling the {rules.first_player_die} die "
                          f"({said}): {self._who(rolling[0])} goes first; play passes "
                          "clockwise.", {"rolls": list(rolls.values()),
                                         "first_player": rolling[0]})
                return rolling[0]
            self.emit("first_player_tie", f"Rolling the {rules.first_player_die} die "
                      f"({said}): a tie for highest, those players roll again.",
                      {"rolls": list(rolls.values())})

    # -- the decision ------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.decider

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    def _finish(self, winners: list[int]) -> None:
        (self.winner,) = winners  # the one Toa left in play
        self.phase = OVER

    def _forfeit(self, kind: str, seat: int) -> None:
        """MAKUTA-FORFEIT: with two or more Toa left the game goes on without this one, whose
        tokens go face down to the start space and whose pawn leaves the island; a decision
        the Toa was part of passes on (see the ledger row). With one left, it wins."""
        if len(self.players) - len(self.out) <= 2:
            return super()._forfeit(kind, seat)
        self.out.append(seat)
        left = self._forfeited_tokens(seat)
        self.emit(kind, f"{forfeit_words(kind, self._who(seat))}: the game goes on "
                  f"without {self._who(seat)}"
                  + (", whose tokens are placed face down on the start space." if left
                     else "."), {"seat": seat, "winners": []})
        if seat == self.turn_player:
            self._drop_turn()
            return self._end_turn()
        if seat == self.decider:  # the player to the left of a loser: the next one decides
            self.decider = self._left_of(self.victim)
        elif seat == self.victim and self.phase == STEAL:  # nothing left to take: escape
            return self._start_move()

    def _forfeited_tokens(self, seat: int) -> int:
        """Put the Toa's tokens (its card's, and any it was still collecting) face down on
        the start space; how many there were."""
        tokens = [t for kind in CARD_KINDS for t in self.cards[seat][kind]]
        if seat == self.turn_player:
            tokens += self.queue
            self.queue = []
        for kind in CARD_KINDS:
            self.cards[seat][kind] = []
        for token in tokens:
            self._to_start(token)
        return len(tokens)

    def _drop_turn(self) -> None:
        """Undo what the turn left half done: a board drawn but not laid goes back on top
        of the pile."""
        if self.placing is not None:
            self.pile.append(self.placing)
            self.placing = None
            self.placements = {}

    def _generate_moves(self) -> dict[str, Any]:
        phase = self.phase
        if phase == MOVE:
            return self._step_moves()
        moves: dict[str, Any] = {}
        me = self.decider
        if phase == ROLL:
            moves["roll"] = ROLL_MOVE
            if self._held(me, KANOHI, "levitate") is not None:  # MAKUTA-MIRU
                moves["levitate"] = LEVITATE_MOVE
        elif phase == CHALLENGE:
            moves["roll"] = STRIKE_MOVE
        elif phase == BONUS:
            moves.update(self._bonus_moves(me))
            moves["settle"] = SETTLE_MOVE
        elif phase == PLACE:
            return dict(self.placements)
        elif phase == RETURN:
            ids = self.game.slot_ids["return"][self.return_kind]
            for slot in self._return_candidates(me):
                action, move = ids[slot]
                moves[action] = move
        elif phase in (TAKE, STEAL):
            ids = self.game.slot_ids[phase]
            for kind in CARD_KINDS:
                for slot in range(len(self.cards[self.victim][kind])):
                    action, move = ids[kind][slot]
                    moves[action] = move
        elif phase == START_TOKEN:
            moves["take-start"] = TAKE_START_MOVE
            moves["skip"] = SKIP_MOVE
        elif phase == REVEAL:
            moves["reveal"] = REVEAL_MOVE
            moves["skip"] = SKIP_MOVE
        elif phase == GATE:
            if self._keys_open(me, self.locks[self.land_node]):
                moves["challenge"] = CHALLENGE_MOVE
            moves["skip"] = SKIP_MOVE
        elif phase == AKAKU:
            if self._held(me, KANOHI, "steal") is not None:
                for seat in self._akaku_victims(me):
                    moves[f"akaku:{self.players[seat]}"] = ("akaku", seat)
            moves["skip"] = SKIP_MOVE
        elif phase == LEVITATE:
            here = self.pawns[me]
            for node, name in enumerate(self.island.names):
                if node != here:
                    moves[f"to:{name}"] = ("to", node)
        elif phase == PUT:
            taken = {p for s, p in enumerate(self.pawns) if s != self.victim and s not in self.out}
            for node, name in enumerate(self.island.names):
                if node not in taken and not self._has_token(node):
                    moves[f"put:{name}"] = ("put", node)
        return moves

    def _step_moves(self) -> dict[str, Any]:
        """MAKUTA-MOVE-ORTHOGONAL, MAKUTA-MOVE-NO-DOUBLE-BACK, MAKUTA-MOVE-STOP-EARLY."""
        here = self.pawns[self.turn_player]
        adj, path = self.island.adj, self.path
        moves: dict[str, Any] = {}
        base = 4 * here
        for d in range(4):
            there = adj[base + d]
            if there != NO_SPACE and there not in path:
                moves[MOVE_IDS[d]] = ("move", d, there)
        if self.steps < self.roll and self._may_stop(here):
            moves["stop"] = STOP_MOVE
        return moves

    def _reach(self) -> list[int]:
        """The spaces the steps left of this roll can reach (MAKUTA-MOVE-ORTHOGONAL), walking
        on from the pawn without coming back onto the path (MAKUTA-MOVE-NO-DOUBLE-BACK); for
        the board views to show. Empty when the turn player is not moving."""
        if self.phase != MOVE or not self.steps:
            return []
        adj, seen = self.island.adj, set(self.path)
        frontier = [self.pawns[self.turn_player]]
        found: list[int] = []
        for _ in range(self.steps):
            ahead = []
            for node in frontier:
                for d in range(4):
                    there = adj[4 * node + d]
                    if there != NO_SPACE and there not in seen:
                        seen.add(there)
                        ahead.append(there)
            found += ahead
            frontier = ahead
        return found

    def _may_stop(self, node: int) -> bool:
        """An exact roll is not needed to land on a token or a portal (nor, with a Kanohi
        Akaku, on another Toa's space)."""
        if node in self.items or node in self.locks or node in self.island.out:
            return True
        if node == self.start_node and self.start:
            return True
        me = self.turn_player
        return (self._toa_at(node) > (self.pawns[me] == node)
                and self._held(me, KANOHI, "steal") is not None)

    def _toa_at(self, node: int) -> int:
        """How many pawns of Toa still in play stand on `node`."""
        count = self.pawns.count(node)
        for seat in self.out:
            count -= self.pawns[seat] == node
        return count

    def _perform(self, move: tuple) -> None:
        # Which die an arranged roll meets shows only when it is rolled: an arranged roll
        # larger than that die raises BadSetup there, and the kernel undoes the whole action.
        return HANDLERS[move[0]](self, move)

    # -- turns and movement ------------------------------------------------------------

    def _begin_turn(self, seat: int) -> None:
        """MAKUTA-ORDER: turns pass clockwise; MAKUTA-TURN-LIMIT ends an endless game."""
        self.turn += 1
        self.turn_player = self.decider = seat
        if self.turn > self.options["turn_limit"]:
            self.phase = OVER
            self.emit("draw_game", f"The turn limit ({self.options['turn_limit']}) is "
                      "reached: the game is drawn.", {})
            return
        self.phase = ROLL
        self.target = ""
        self.emit("turn", f"{self._who(seat)}'s turn ({self._die(seat)[0]} die).",
                  {"seat": seat, "turn": self.turn})

    def _end_turn(self) -> None:
        return self._begin_turn(self._left_of(self.turn_player))

    def _do_roll(self, move: tuple) -> None:
        self.path = [self.pawns[self.turn_player]]  # the turn's walk starts here
        return self._start_move()

    def _start_move(self) -> None:
        """MAKUTA-ROLL-MOVE: roll the die in use, then move that many spaces. The spaces
        walked belong to the whole turn, so a second roll (MAKUTA-AKAKU-REROLL) keeps them
        (MAKUTA-MOVE-NO-DOUBLE-BACK)."""
        me = self.turn_player
        die, faces = self._die(me)
        self.roll = self.steps = rolled = self._roll(faces)
        here = self.pawns[me]
        self.came_from = here
        self.emit("roll", f"{self._who(me)} rolls the {die} die: {rolled}.",
                  {"seat": me, "die": die, "roll": rolled})
        if not self._can_step(here):  # MAKUTA-MOVE-BLOCKED: only after a second roll
            self.steps = 0
            self.emit("dead_end", f"{self._who(me)} can go no further without "
                      "doubling back: the roll is lost.",
                      {"seat": me, "unused": rolled})
            return self._end_turn()
        self.phase = MOVE

    def _can_step(self, node: int) -> bool:
        path = self.path
        for there in self.island.adj[4 * node: 4 * node + 4]:
            if there != NO_SPACE and there not in path:
                return True
        return False

    def _do_step(self, move: tuple) -> None:
        me = self.turn_player
        _, d, there = move
        self.came_from = self.pawns[me]
        self.pawns[me] = there
        self.path.append(there)
        self.steps -= 1
        self.emit("step", f"{self._who(me)} moves {DIR_WORDS[d]} to {self._space(there)}.",
                  {"seat": me, "to": self.island.names[there]})
        if not self._move_ends(there):
            return
        if self.steps and there not in self.rahi:  # MAKUTA-MOVE-BLOCKED
            self.emit("dead_end", f"{self._who(me)} can go no further: the other "
                      f"{self.steps} {'space' if self.steps == 1 else 'spaces'} of "
                      "the roll are lost.", {"seat": me, "unused": self.steps})
        return self._arrive(there)

    def _move_ends(self, there: int) -> bool:
        """Whether the move ends by itself on `there`, just stepped onto: a Rahi stops it
        (MAKUTA-RAHI-NO-PASS), so do the last pip and a dead end (MAKUTA-MOVE-BLOCKED)."""
        return there in self.rahi or self.steps == 0 or not self._can_step(there)

    def gestures(self, seat: int) -> dict[str, Any]:
        """For the seat to decide: `walks`, each space this move can end on with the actions
        that walk there, and `previews`, each legal placement's look on the table."""
        if seat != self.decider or self.is_over:
            return {}
        if self.phase == MOVE:
            names = self.island.names
            return {"walks": {names[n]: actions for n, actions in self._walks().items()}}
        if self.phase == PLACE:
            return {"previews": {action: self._preview(move) for action, move in self.placements.items()}}
        return {}

    def _walks(self) -> dict[int, list[str]]:
        """Every space where the move in progress can end, with the fewest legal actions
        that walk there (the steps, then `stop` where the move ends early), so that a board
        view can walk to a space in one gesture. Searched over the rules' own step generation
        (`_step_moves`, `_move_ends`) on this state, put back as it was after each try; at
        most WALK_SEARCH_LIMIT steps are tried (a green die's twelve, on open ground)."""
        me = self.turn_player
        found: dict[int, list[str]] = {}
        walked: list[str] = []
        budget = [WALK_SEARCH_LIMIT]

        def keep(node: int, actions: list[str]) -> None:
            if node not in found or len(actions) < len(found[node]):
                found[node] = list(actions)

        def search(here: int) -> None:
            for action, move in self._step_moves().items():
                if action == "stop":
                    keep(here, [*walked, action])
                    continue
                if budget[0] <= 0:
                    return
                budget[0] -= 1
                there = move[2]
                self.pawns[me] = there
                self.path.append(there)
                self.steps -= 1
                walked.append(action)
                if self._move_ends(there):
                    keep(there, walked)
                else:
                    search(there)
                walked.pop()
                self.steps += 1
                self.path.pop()
                self.pawns[me] = here

        search(self.pawns[me])
        return found

    def _do_stop(self, move: tuple) -> None:
        """MAKUTA-MOVE-STOPPED: once stopped, the rest of the roll is lost."""
        me = self.turn_player
        self.emit("stop", f"{self._who(me)} stops with {self.steps} "
                  f"{'space' if self.steps == 1 else 'spaces'} of the roll unused.",
                  {"seat": me, "unused": self.steps})
        return self._arrive(self.pawns[me])

    def _arrive(self, node: int) -> None:
        self.steps = 0
        self.land_node = node
        self.land_stage = ST_RAHI
        return self._land()

    def _land(self) -> None:
        """MAKUTA-LANDING-ORDER: resolve the space landed on, pausing for each decision."""
        node = self.land_node
        me = self.turn_player
        while True:
            stage = self.land_stage
            self.land_stage = stage + 1
            if stage == ST_RAHI:
                if node in self.rahi:
                    return self._begin_rahi_challenge(node)
            elif stage == ST_PORTAL:
                if self.island.is_open_portal(node) and self._offer_board(node):
                    return
            elif stage == ST_ITEMS:
                found = self.items.pop(node, None)
                if found:
                    self.queue.extend(found)
                    self.after = AFTER_LAND
                    if not self._collect_queue():
                        return
            elif stage == ST_START:
                if node == self.start_node and self.start:  # MAKUTA-START-TAKE
                    self.phase = START_TOKEN
                    return
            elif stage == ST_REVEAL:
                lock = self.locks.get(node)
                if lock is not None and not self.known[lock] & PUBLIC:  # MAKUTA-GATE-REVEAL
                    self.phase = REVEAL
                    return
            elif stage == ST_GATE:
                lock = self.locks.get(node)
                if (lock is not None and self.known[lock] & PUBLIC
                        and len(self.cards[me][KEY]) >= self.game.parts.rules.keys_to_challenge):
                    self.phase = GATE  # MAKUTA-MAKUTA-CHALLENGE
                    return
            elif stage == ST_AKAKU:
                if self.cards[me][KANOHI] and self._akaku_victims(me):  # MAKUTA-AKAKU
                    self.phase = AKAKU
                    return
            else:
                return self._end_turn()

    def _do_skip(self, move: tuple) -> None:
        return self._land()

    # -- Kanohi Miru -------------------------------------------------------------------

    def _do_levitate(self, move: tuple) -> None:
        self.phase = LEVITATE

    def _do_to(self, move: tuple) -> None:
        """MAKUTA-MIRU: levitate to any other space; the Miru goes face down to the start."""
        me = self.turn_player
        miru = self._held(me, KANOHI, "levitate")
        self.cards[me][KANOHI].remove(miru)
        self._to_start(miru, public=True)
        node = move[1]
        self.came_from = self.pawns[me]
        self.pawns[me] = node
        self.path = [self.came_from, node]
        self.emit("levitate", f"{self._who(me)} uses the Kanohi Miru to levitate to "
                  f"{self._space(node)}; the Miru is placed face down on the start space.",
                  {"seat": me, "to": self.island.names[node]})
        return self._arrive(node)

    # -- boards and portals ------------------------------------------------------------

    def _offer_board(self, portal: int) -> bool:
        """MAKUTA-PORTAL-LAND, MAKUTA-BOARD-NO-ROOM: take the next board, if it fits."""
        me = self.turn_player
        if not self.pile:
            self.emit("no_board", f"{self._who(me)} lands on a portal, but every "
                      "board is already on the table.", {"seat": me})
            return False
        board = self.pile[-1]
        options = self.island.placements(portal, board)
        if not options:
            self.emit("no_room", f"{self._who(me)} lands on a portal, but there is no "
                      "room beyond it for a board.", {"seat": me})
            return False
        self.pile.pop()
        self.placing = board
        self.placements = {f"place:{rot}:{q}": ("place", rot, q, x, y) for q, rot, x, y in options}
        self.phase = PLACE
        name = self.game.parts.boards[board].name
        self.emit("board_drawn", f"{self._who(me)} lands on a portal and takes the "
                  f"next board: {name}.", {"seat": me, "board": board})
        return True

    def _do_place(self, move: tuple) -> None:
        _, rot, q, x, y = move
        board, self.placing = self.placing, None
        self.placements = {}
        me = self.turn_player
        name = self.game.parts.boards[board].name
        self.emit("board_laid", f"{self._who(me)} joins {name} portal to portal "
                  f"(turned {rot * 90} degrees, by its portal {q + 1}).",
                  {"seat": me, "board": board, "rot": rot, "portal": q + 1, "at": [x, y]})
        self._lay(board, rot, x, y)
        return self._land()

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

    # -- collecting --------------------------------------------------------------------

    def _collect_queue(self) -> bool:
        """Collect waiting tokens one by one; False when a limit asks for a decision."""
        me = self.turn_player
        queue = self.queue
        while queue:
            token = queue.pop(0)
            self._collect(me, token)
            if self._over_limit(me):
                self.phase = RETURN
                return False
        return True

    def _collect(self, seat: int, token: int) -> None:
        """MAKUTA-COLLECT: the token goes face down on the collector card; only its owner
        knows its face (MAKUTA-CARD-SECRET)."""
        kind = self.game.kind[token]
        self.cards[seat][kind].append(token)
        self.known[token] |= 1 << seat
        label = self._label(token)
        if self.game.parts.tokens[token].die:  # MAKUTA-DIE-PUBLIC
            self.known[token] = EVERYONE
            self.emit("collect", f"{self._who(seat)} collects {label}: everyone sees "
                      f"the {self.game.parts.tokens[token].die} die come into play.",
                      {"seat": seat, "item": KIND_IDS[kind],
                       "token": self.game.views[token]})
            return
        self.emit("collect", f"{self._who(seat)} collects a {KIND_IDS[kind]} token.",
                  {"seat": seat, "item": KIND_IDS[kind]}, seat=seat,
                  secret={"token": self.game.views[token]},
                  secret_text=f"{self._who(seat)} collects a {KIND_IDS[kind]} token: "
                              f"{label}.")

    def _over_limit(self, seat: int) -> bool:
        """MAKUTA-KEY-LIMIT, MAKUTA-KANOHI-LIMIT, MAKUTA-TURAGA-LIMIT. Sets the kind whose
        limit is broken."""
        rules = self.game.parts.rules
        card = self.cards[seat]
        if len(self._speed_masks(seat)) > 1:
            self.return_kind = KANOHI
            return True
        for kind, limit in ((KANOHI, rules.kanohi_limit), (TURAGA, rules.turaga_limit),
                            (KEY, rules.key_limit)):
            if len(card[kind]) > limit:
                self.return_kind = kind
                return True
        return False

    def _return_candidates(self, seat: int) -> list[int]:
        card = self.cards[seat][self.return_kind]
        if self.return_kind == KANOHI and len(self._speed_masks(seat)) > 1:
            tokens = self.game.parts.tokens
            return [i for i, t in enumerate(card) if tokens[t].die]
        return list(range(len(card)))

    def _do_return(self, move: tuple) -> None:
        """The player looked at the new token and forfeits one: face down on the start."""
        _, kind, slot = move
        me = self.turn_player
        token = self.cards[me][kind].pop(slot)
        self._to_start(token)
        label = self._label(token)
        self.emit("forfeit", f"{self._who(me)} places a {KIND_IDS[kind]} token face down "
                  "on the start space.", {"seat": me, "item": KIND_IDS[kind]}, seat=me,
                  secret={"token": self.game.views[token]},
                  secret_text=f"{self._who(me)} places {label} face down on the start "
                              "space.")
        if self._over_limit(me):
            return
        if not self._collect_queue():
            return
        return self._after_collecting()

    def _after_collecting(self) -> None:
        after = self.after
        if after == AFTER_LAND:
            return self._land()
        if after == AFTER_EXTRA_TURN:
            return self._begin_turn(self.turn_player)
        return self._start_move()

    def _show_die(self, seat: int) -> None:
        """MAKUTA-DIE-PUBLIC: the die a Toa rolls shows which speed mask it holds (for
        arranged collector cards; collected speed masks are shown at once)."""
        for token in self._speed_masks(seat):
            self.known[token] = EVERYONE

    # -- the start space ---------------------------------------------------------------

    def _to_start(self, token: int, public: bool = False) -> None:
        """MAKUTA-START-FACE-DOWN."""
        self.start.append(token)
        if public:
            self.known[token] = EVERYONE

    def _do_take_start(self, move: tuple) -> None:
        """MAKUTA-START-TAKE: one token, without looking."""
        me = self.turn_player
        token = self.start.pop(self._randrange(len(self.start)))
        kind = self.game.kind[token]
        # Nobody can tell which of the alike tokens left: what was known of them is lost.
        for other in self.start:
            if self.game.kind[other] == kind:
                self.known[other] = 0
        self.known[token] = 0
        self.emit("take_start", f"{self._who(me)} takes a token from the start space "
                  "without looking.", {"seat": me})
        self.queue.append(token)
        self.after = AFTER_LAND
        if not self._collect_queue():
            return
        return self._land()

    # -- gates and Makuta --------------------------------------------------------------

    def _do_reveal(self, move: tuple) -> None:
        """MAKUTA-GATE-REVEAL: the lock is turned over for everyone, for good."""
        lock = self.locks[self.land_node]
        self.known[lock] = EVERYONE
        code = " / ".join(self.game.parts.tokens[lock].code)
        self.emit("reveal", f"{self._who(self.turn_player)} turns over the lock on the "
                  f"gate: its code is {code}.",
                  {"gate": self.island.names[self.land_node], "lock": self.game.views[lock]})
        return self._land()

    def _keys_open(self, seat: int, lock: int) -> bool:
        """MAKUTA-LOCK-CODE, MAKUTA-KEY-YELLOW: three keys matching the code, yellow wild."""
        tokens = self.game.parts.tokens
        keys = self.cards[seat][KEY]
        if len(keys) < self.game.parts.rules.keys_to_challenge:
            return False
        need = list(tokens[lock].code)
        for key in keys:
            if tokens[key].wild:
                continue
            if tokens[key].name not in need:
                return False
            need.remove(tokens[key].name)
        return True

    def _do_challenge(self, move: tuple) -> None:
        """MAKUTA-MAKUTA-STAGE-ONE: roll the white die, turn the temple that many segments
        clockwise; the segment facing the gate is Makuta's power."""
        me = self.turn_player
        parts = self.game.parts
        for key in self.cards[me][KEY]:
            self.known[key] = EVERYONE  # MAKUTA-KEYS-SHOWN
        rolled = self._roll(parts.dice[parts.rules.temple_die])
        self.temple = (self.temple + rolled) % len(parts.segments)
        segment = self._facing(self.land_node)
        self.target, self.strength = "makuta", segment.power
        self.used, self.bonus, self.struck = [], 0, 0
        self.phase = CHALLENGE
        keys = ", ".join(self._label(k) for k in self.cards[me][KEY])
        self.emit("makuta_challenge", f"{self._who(me)} shows three keys ({keys}) and "
                  f"challenges Makuta! The {parts.rules.temple_die} die rolls {rolled}: the "
                  f"temple turns {rolled} segments clockwise and the {segment.colour} "
                  f"segment faces the gate: Makuta's power is {segment.power}.",
                  {"seat": me, "roll": rolled, "colour": segment.colour,
                   "power": segment.power})

    def _facing(self, gate: int) -> Segment:
        segments = self.game.parts.segments
        return segments[(self.island.gate[gate] - self.temple) % len(segments)]

    # -- challenges --------------------------------------------------------------------

    def _begin_rahi_challenge(self, node: int) -> None:
        """MAKUTA-RAHI-MUST-CHALLENGE, MAKUTA-CHALLENGE-REVEAL."""
        token = self.rahi[node]
        self.known[token] = EVERYONE
        self.target, self.strength = "rahi", self.game.parts.tokens[token].value
        self.used, self.bonus, self.struck = [], 0, 0
        self.phase = CHALLENGE
        self.emit("rahi", f"{self._who(self.turn_player)} must challenge! The Rahi "
                  f"token is turned over: {self._label(token)}.",
                  {"seat": self.turn_player, "rahi": self.game.views[token],
                   "strength": self.strength})

    def _bonus_moves(self, seat: int) -> dict[str, Any]:
        """MAKUTA-CHALLENGE-BONUS: after the roll, any combination of Kanohi and Turaga may
        be shown. A mask's power counts once however many copies are held
        (MAKUTA-MASK-STACK)."""
        tokens = self.game.parts.tokens
        used_names = {tokens[t].name for t in self.used}
        moves: dict[str, Any] = {}
        use_ids = self.game.use_ids
        card = self.cards[seat]
        for token in card[KANOHI]:
            name = tokens[token].name
            if tokens[token].bonus and name not in used_names:
                action, move = use_ids[name]
                moves[action] = move
        for token in card[TURAGA]:
            if token not in self.used:
                action, move = use_ids[tokens[token].name]
                moves[action] = move
        return moves

    def _do_use(self, move: tuple) -> None:
        me = self.turn_player
        token = self._shown(move[1])
        points = self._bonus_of(me, token)
        self.used.append(token)
        self.bonus += points
        self.known[token] = EVERYONE
        self.emit("use", f"{self._who(me)} shows {self._label(token)}: +{points} "
                  f"(bonus {self.bonus}).", {"seat": me, "token": self.game.views[token],
                                              "points": points})

    def _bonus_of(self, seat: int, token: int) -> int:
        """MAKUTA-HAU, MAKUTA-PAKARI, MAKUTA-TURAGA-OWN, MAKUTA-TURAGA-OTHER."""
        t = self.game.parts.tokens[token]
        if t.kind == KANOHI:
            return t.bonus
        rules = self.game.parts.rules
        own = self.game.parts.toa[self.players[seat]].turaga
        return rules.own_turaga_bonus if t.name == own else rules.other_turaga_bonus

    def _do_strike(self, move: tuple) -> None:
        """MAKUTA-CHALLENGE-DIE: a single roll of the die in use; then MAKUTA-BONUS-AFTER-ROLL:
        the challenger adds what it chooses to show, unless the roll alone already wins or
        the collector card holds no Kanohi or Turaga (both plain to the whole table)."""
        me = self.turn_player
        die, faces = self._die(me)
        self.struck = rolled = self._roll(faces)
        self.emit("strike", f"{self._who(me)} rolls the {die} die: {rolled} against "
                  f"{self._against()}'s {self.strength}.",
                  {"seat": me, "die": die, "roll": rolled, "strength": self.strength})
        card = self.cards[me]
        if rolled > self.strength or not (card[KANOHI] or card[TURAGA]):
            return self._settle()
        self.phase = BONUS

    def _do_settle(self, move: tuple) -> None:
        return self._settle()

    def _settle(self) -> None:
        """The roll plus the points shown against the Rahi's or Makuta's strength."""
        me = self.turn_player
        total = self.struck + self.bonus
        self.emit("total", f"{self._who(me)}'s total: {self._sum()} against "
                  f"{self._against()}'s {self.strength}.",
                  {"seat": me, "roll": self.struck, "bonus": self.bonus,
                   "total": total, "strength": self.strength})
        if self.target == "makuta":
            return self._makuta_result(total)
        return self._rahi_result(total)

    def _sum(self) -> str:
        if not self.bonus:
            return str(self.struck)
        return f"{self.struck} + {self.bonus} = {self.struck + self.bonus}"

    def _against(self) -> str:
        return "Makuta" if self.target == "makuta" else "the Rahi"

    def _rahi_result(self, total: int) -> None:
        me = self.turn_player
        node = self.land_node
        if total > self.strength:
            # MAKUTA-RAHI-WIN, MAKUTA-RAHI-WIN-EXTRA-TURN, MAKUTA-RAHI-GUARDED
            token = self.rahi.pop(node)
            self.beaten.append(token)
            guarded = self.under.pop(node, [])
            self.emit("rahi_won", f"{self._who(me)} beats the Rahi! It is removed from "
                      "the board" + (" and what it guarded is collected" if guarded
                                     else "") + f"; {self._who(me)} takes another turn.",
                      {"seat": me})
            self.queue.extend(guarded)
            self.after = AFTER_EXTRA_TURN
            if not self._collect_queue():
                return
            return self._begin_turn(me)
        if total == self.strength:  # MAKUTA-RAHI-DRAW
            self.emit("rahi_draw", f"A draw: {self._who(me)} loses nothing.",
                      {"seat": me})
            return self._move_back()
        self.emit("rahi_lost", f"{self._who(me)} loses the challenge.", {"seat": me})
        if self._ask_take():
            return
        return self._move_back()

    def _makuta_result(self, total: int) -> None:
        me = self.turn_player
        if total > self.strength:  # MAKUTA-MAKUTA-WIN, MAKUTA-OBJECT
            self.winner = me
            self.phase = OVER
            self.emit("win", f"{self._who(me)} beats Makuta and WINS THE GAME!",
                      {"seat": me})
            return
        # MAKUTA-MAKUTA-LOSE: a draw or less loses.
        self.emit("makuta_lost", f"{self._who(me)} loses the challenge against "
                  "Makuta.", {"seat": me})
        if self._ask_take():
            return
        return self._ask_put()

    def _ask_take(self) -> bool:
        """The player to the left chooses which item is lost, if there is one
        (MAKUTA-LEFT-DECIDES)."""
        me = self.turn_player
        if not any(self.cards[me]):
            return False
        self.victim = me
        self.decider = self._left_of(me)
        self.phase = TAKE
        return True

    def _do_take(self, move: tuple) -> None:
        _, kind, slot = move
        loser = self.victim
        token = self.cards[loser][kind].pop(slot)
        chooser = self.decider
        self.decider = loser
        if self.target == "rahi":  # MAKUTA-RAHI-LOSE-ITEM
            self.under.setdefault(self.land_node, []).append(token)
            where = "places it under the Rahi, which stays on the board face down"
        else:
            self._to_start(token)
            where = "places it face down on the start space"
        self.emit("lose_item", f"{self._who(chooser)} takes a {KIND_IDS[kind]} token from "
                  f"{self._who(loser)} and {where}.",
                  {"seat": loser, "chooser": chooser, "item": KIND_IDS[kind]}, seat=loser,
                  secret={"token": self.game.views[token]},
                  secret_text=f"{self._who(chooser)} takes your {self._label(token)} and "
                              f"{where}.")
        if self.target == "rahi":
            return self._move_back()
        return self._ask_put()

    def _move_back(self) -> None:
        """MAKUTA-RAHI-LOSE-BACK: one space back, the way the Toa came; no landing there
        (MAKUTA-MOVE-BACK-NO-LANDING)."""
        me = self.turn_player
        self.pawns[me] = self.came_from
        self.emit("move_back", f"{self._who(me)} moves back to "
                  f"{self._space(self.came_from)}.",
                  {"seat": me, "to": self.island.names[self.came_from]})
        return self._end_turn()

    def _ask_put(self) -> None:
        self.victim = self.turn_player
        self.decider = self._left_of(self.turn_player)
        self.phase = PUT

    def _do_put(self, move: tuple) -> None:
        """The player to the left moves the loser's pawn to any space free of Toa and tokens."""
        loser, chooser = self.victim, self.decider
        self.pawns[loser] = move[1]
        self.decider = loser
        self.emit("put", f"{self._who(chooser)} moves {self._who(loser)} to "
                  f"{self._space(move[1])}.",
                  {"seat": loser, "chooser": chooser, "to": self.island.names[move[1]]})
        return self._end_turn()

    # -- Kanohi Akaku ------------------------------------------------------------------

    def _akaku_victims(self, seat: int) -> list[int]:
        here = self.pawns[seat]
        return [s for s, p in enumerate(self.pawns) if s != seat and p == here and any(self.cards[s])]

    def _do_akaku(self, move: tuple) -> None:
        """MAKUTA-AKAKU: see the other player's tokens and take one; the Akaku goes face down
        to the start space."""
        me = self.turn_player
        victim = self.victim = move[1]
        akaku = self._held(me, KANOHI, "steal")
        self.cards[me][KANOHI].remove(akaku)
        self._to_start(akaku, public=True)
        bit = 1 << me
        for kind in CARD_KINDS:
            for token in self.cards[victim][kind]:
                self.known[token] |= bit
        self.phase = STEAL
        self.emit("akaku", f"{self._who(me)} uses the Kanohi Akaku to see "
                  f"{self._who(victim)}'s tokens; the Akaku is placed face down on the start "
                  "space.", {"seat": me, "victim": victim})

    def _do_steal(self, move: tuple) -> None:
        """MAKUTA-AKAKU-REROLL: take one token, then roll the die again to escape."""
        _, kind, slot = move
        me, victim = self.turn_player, self.victim
        token = self.cards[victim][kind].pop(slot)
        self.emit("steal", f"{self._who(me)} takes a {KIND_IDS[kind]} token from "
                  f"{self._who(victim)} and rolls again to escape.",
                  {"seat": me, "victim": victim, "item": KIND_IDS[kind]}, seat=me,
                  secret={"token": self.game.views[token]},
                  secret_text=f"{self._who(me)} takes {self._label(token)} from "
                              f"{self._who(victim)} and rolls again to escape.")
        self.queue.append(token)
        self.after = AFTER_REROLL
        if not self._collect_queue():
            return
        return self._start_move()

    # -- small helpers -----------------------------------------------------------------

    @property
    def start_node(self) -> int:
        return self.island.by_name[START_NAME]

    def _roll(self, faces: int) -> int:
        if self.forced:
            rolled = self.forced.pop(0)
            if rolled > faces:
                raise BadSetup(f"the arranged die roll {rolled} is more than the {faces} faces "
                               "of the die being rolled; the action is undone")
            return rolled
        return self._randrange(faces) + 1

    def _randrange(self, n: int) -> int:
        return int(self.rng.random() * n)

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

    def _has_token(self, node: int) -> bool:
        return (node in self.items or node in self.rahi or node in self.locks
                or (node == self.start_node and bool(self.start)))

    def _left_of(self, seat: int) -> int:
        """MAKUTA-ORDER: the player to your left is the next seat clockwise still in play
        (MAKUTA-FORFEIT)."""
        n = len(self.players)
        seat = (seat + 1) % n
        while seat in self.out:
            seat = (seat + 1) % n
        return seat

    def _who(self, seat: int) -> str:
        return self.names[seat]

    def _label(self, token: int) -> str:
        return self.game.parts.tokens[token].label

    def _space(self, node: int) -> str:
        name = self.island.names[node]
        return "Toa Landing" if name == START_NAME else name

    # -- words -------------------------------------------------------------------------

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

    def targets(self, action: str) -> dict[str, Any]:
        """What a legal action acts on: `{"space": "2,-3"}` for a step (where it leads), a
        stop, a levitation, a put, a lock turned over or a challenge at a gate;
        `{"placement": [rot, x, y], "portal": Q, "space": portal}` for laying a board (Q is
        the new board's portal, numbered from 1 as the words say, joined to the portal
        `space`); `{"seat": S, "kind": K, "slot": I, "token": face}` for a token of a
        collector card (its face as the deciding seat sees it); `{"token": face}` for a
        Kanohi or Turaga shown; `{"seat": S}` for the Toa an Akaku looks at."""
        move = self._move_table().get(action)
        if move is None:
            return {}
        kind, names = move[0], self.island.names
        if kind == "move":
            return {"space": names[move[2]]}
        if kind in ("to", "put"):
            return {"space": names[move[1]]}
        if kind in ("stop", "take-start", "reveal", "challenge"):
            return {"space": names[self.pawns[self.turn_player]]}
        if kind == "place":
            _, rot, q, x, y = move
            return {"placement": [rot, x, y], "portal": q + 1, "space": names[self.land_node]}
        if kind in ("return", "steal", "take"):
            owner = self.decider if kind == "return" else self.victim
            token = self.cards[owner][move[1]][move[2]]
            return {"seat": owner, "kind": KIND_IDS[move[1]], "slot": move[2],
                    "token": self._face(token, self.decider)}
        if kind == "use":
            return {"token": self.game.views[self._shown(move[1])]}
        if kind == "akaku":
            return {"seat": move[1]}
        return {}

    def automatic_action(self) -> str | None:
        """The one legal action when asking would decide nothing and tell nothing: a step
        with no other way on and no stop, the only way to lay a board, the only token to
        give up, lose or take, the only space to put a pawn on. How many of these there are
        is plain to the whole table. Never a roll (the player rolls the die), and never a
        decision whose narrowing to one comes from something hidden: `settle` alone (no
        Kanohi with a bonus), `skip` alone at a gate (keys that do not fit) or at the Akaku
        (no Akaku held), nor a lone step on another Toa's space by a player with a Kanohi,
        where an Akaku would have let them stop."""
        if self.phase not in AUTOMATIC_PHASES or self.is_over:
            return None
        moves = self._move_table()
        if len(moves) != 1:
            return None
        me = self.decider
        if self.phase == MOVE and self.cards[me][KANOHI] and self._toa_at(self.pawns[me]) > 1:
            return None
        return next(iter(moves))

    def _face(self, token: int, seat: int) -> str:
        """A token's face as `seat` sees it: its view once seen, else its kind."""
        game = self.game
        return game.views[token] if self.known[token] & (1 << seat) else KIND_IDS[game.kind[token]]

    def _shown(self, name: str) -> int:
        """The decider's Kanohi or Turaga of that name, not yet shown in this challenge."""
        tokens = self.game.parts.tokens
        return next(t for k in (KANOHI, TURAGA) for t in self.cards[self.decider][k]
                    if tokens[t].name == name and t not in self.used)

    def _describe_slot(self, verb: str, kind: int, slot: int) -> str:
        owner = self.decider if verb == "return" else self.victim
        token = self.cards[owner][kind][slot]
        bit = 1 << self.decider
        face = self._label(token) if self.known[token] & bit else "face down"
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
            things.append(f"a Rahi of strength {tokens[rahi].value}" if self.known[rahi] & bit
                          else "a face-down Rahi")
        for token in (*self.items.get(node, ()), *([self.locks[node]] if node in self.locks else ())):
            things.append(f"the {self._label(token)}" if self.known[token] & bit
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
            if self.steps == self.roll:
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

    # -- information -------------------------------------------------------------------

    def _observe(self, seat: int | None) -> dict[str, Any]:
        bit = PUBLIC if seat is None else 1 << seat
        views, kinds, known = self.game.views, self.game.kind, self.known

        def face(t: int) -> str:
            return views[t] if known[t] & bit else KIND_IDS[kinds[t]]

        names = self.island.names
        challenge = None
        if self.target:
            challenge = {"target": self.target, "strength": self.strength,
                         "space": names[self.land_node], "used": [face(t) for t in self.used],
                         "bonus": self.bonus, "roll": self.struck,
                         "die": self._die(self.turn_player)[0]}
        temple = None
        if self.island.makuta:
            segments = self.game.parts.segments
            temple = [segments[(g - self.temple) % len(segments)].colour
                      for g in range(len(segments))]
        return {
            "game": self.game.name,
            "seat": seat,
            "players": list(self.players),
            "turn": self.turn,
            "turn_limit": self.options["turn_limit"],
            "turn_player": self.turn_player,
            "current_player": self.current_player,
            "phase": self.phase,
            "boards": [list(p) for p in self.island.placed],
            "pile": len(self.pile),
            "placing": self.placing,
            # Where each legal choice puts something on the island, so that a board view can
            # draw the choices in place without knowing a rule: the space each step leads to,
            # and where each legal placement of the drawn board would lie (turn, x, y).
            "leads_to": {action: names[move[2]] for action, move in self._move_table().items()
                         if move[0] == "move"},
            "placements": {action: [rot, x, y] for action, (_, rot, _q, x, y) in self.placements.items()},
            "reach": [names[n] for n in self._reach()],
            "portals": self._portal_states(self.island, self.island.out),
            "pawns": [names[p] for p in self.pawns],
            "dice": [self._die(s)[0] for s in range(len(self.players))],
            "roll": self.roll,
            "steps_left": self.steps,
            "path": [names[p] for p in self.path],
            "tokens": {names[n]: [face(t) for t in ts] for n, ts in self.items.items()},
            "rahi": {names[n]: face(t) for n, t in self.rahi.items()},
            "under": {names[n]: [face(t) for t in ts] for n, ts in self.under.items() if ts},
            "locks": {names[n]: face(t) for n, t in self.locks.items()},
            "start": [face(t) for t in self.start],
            "waiting": [face(t) for t in self.queue],
            "cards": [{KIND_IDS[k]: [face(t) for t in card[k]] for k in CARD_KINDS}
                      for card in self.cards],
            "bags": {KIND_IDS[k]: len(bag) for k, bag in enumerate(self.bags)},
            "beaten": [views[t] for t in self.beaten],
            "temple": temple,
            "challenge": challenge,
            "returning": KIND_IDS[self.return_kind] if self.phase == RETURN else None,
            "victim": self.victim if self.phase in (STEAL, TAKE, PUT) else None,
            "is_over": self.is_over,
            "winners": self.winners,
        }

    @staticmethod
    def _portal_states(island: Island, portals: Iterable[int]) -> dict[str, str]:
        """Each portal as `joined` (to another board's), `open` (a board may still be laid
        beyond it) or `dead` (no board ever can: drawn closed)."""
        dead = island.dead_portals()
        return {island.names[n]: "joined" if n in island.joined else "dead" if n in dead
                else "open" for n in portals if n in island.out}

    def _preview(self, move: tuple) -> dict[str, Any]:
        """What laying the drawn board so would put on the table, as everyone would see it:
        its portal number (from 1), the face-down tokens on its spaces, the locks laid on
        Makuta's gates, and its portals (joined, open or dead) where they would lie."""
        _, rot, q, x, y = move
        other = self.clone()
        other._events = []  # what the preview would tell is not told
        first = len(other.island)
        other._lay(self.placing, rot, x, y)
        island, kinds = other.island, self.game.kind
        new = range(first, len(island))
        names = island.names
        return {"portal": q + 1,
                "tokens": {names[n]: [KIND_IDS[kinds[t]] for t in other.items[n]]
                           for n in new if n in other.items},
                "rahi": {names[n]: "rahi" for n in new if n in other.rahi},
                "locks": {names[n]: "lock" for n in other.locks if n not in self.locks},
                "portals": self._portal_states(island, new)}

    def _determinize(self, seat: int, rng: random.Random) -> MakutaState:
        """Every token face this seat has not seen is dealt again among the places that hold
        an unseen token of its kind; the board pile is shuffled. Speed masks never land on a
        collector card unseen (the die would show them). What is dealt depends only on what
        the seat sees: the unseen tokens are sorted before they are shuffled."""
        other = self.clone()
        bit = 1 << seat
        tokens = self.game.parts.tokens
        known = other.known
        for kind in range(len(KIND_IDS)):
            places = [p for p in other._places(kind) if not known[p[0][p[1]]] & bit]
            masks = [known[where[key]] for where, key in places]
            pool = sorted(where[key] for where, key in places)
            dealt: list[int] = [-1] * len(places)
            fast = [t for t in pool if tokens[t].die]
            if fast:
                cards = {id(where) for where in other._card_lists()}
                free = [i for i, (where, _) in enumerate(places) if id(where) not in cards]
                for i, token in zip(rng.sample(free, len(fast)), fast, strict=True):
                    dealt[i] = token
            rest = [t for t in pool if not tokens[t].die]
            rng.shuffle(rest)
            it = iter(rest)
            for i, (where, key) in enumerate(places):
                token = dealt[i] if dealt[i] >= 0 else next(it)
                where[key] = token
                known[token] = masks[i]
        other.pile.sort()
        rng.shuffle(other.pile)
        other._reseed(rng)
        return other

    def _card_lists(self) -> list[list[int]]:
        return [card[k] for card in self.cards for k in CARD_KINDS]

    def _places(self, kind: int) -> list[tuple[Any, Any]]:
        """(container, key) of every token of `kind` that is not out of play."""
        places: list[tuple[Any, Any]] = []
        kinds = self.game.kind

        def from_list(items: list[int]) -> None:
            places.extend((items, i) for i, t in enumerate(items) if kinds[t] == kind)

        from_list(self.bags[kind])
        from_list(self.start)
        from_list(self.queue)
        for items in self.items.values():
            from_list(items)
        for items in self.under.values():
            from_list(items)
        for table in (self.rahi, self.locks):
            places.extend((table, n) for n, t in table.items() if kinds[t] == kind)
        if kind in CARD_KINDS:
            for card in self.cards:
                from_list(card[kind])
        return places

    def _copy_into(self, other: MakutaState) -> None:
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
        other.known = list(self.known)
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
        other.roll = self.roll
        other.steps = self.steps
        other.path = list(self.path)
        other.came_from = self.came_from
        other.land_node = self.land_node
        other.land_stage = self.land_stage
        other.queue = list(self.queue)
        other.after = self.after
        other.return_kind = self.return_kind
        other.target = self.target
        other.strength = self.strength
        other.used = list(self.used)
        other.bonus = self.bonus
        other.struck = self.struck
        other.victim = self.victim

    # -- for tests and invariants ------------------------------------------------------

    def token_places(self) -> dict[int, str]:
        """Where every token is: supply, board, under a Rahi, gate, start space, collector
        card, out of play, or waiting to be collected; each in exactly one place."""
        return one_place("token", self._token_places())

    def _token_places(self) -> Iterator[tuple[str, Iterable[int]]]:
        names = self.island.names
        for kind, bag in enumerate(self.bags):
            yield f"bag:{KIND_IDS[kind]}", bag
        for n, ts in self.items.items():
            yield f"space:{names[n]}", ts
        for n, t in self.rahi.items():
            yield f"space:{names[n]}", [t]
        for n, ts in self.under.items():
            yield f"under:{names[n]}", ts
        for n, t in self.locks.items():
            yield f"gate:{names[n]}", [t]
        yield "start", self.start
        for seat, card in enumerate(self.cards):
            for kind in CARD_KINDS:
                yield f"card:{seat}", card[kind]
        yield "beaten", self.beaten
        yield "in hand", self.queue

    def audit(self) -> None:
        one_place("token", self._token_places(), set(range(len(self.game.kind))))
        kinds = self.game.kind
        for kind, bag in enumerate(self.bags):
            assert all(kinds[t] == kind for t in bag), f"a wrong token in the {KIND_IDS[kind]} bag"
        for seat, card in enumerate(self.cards):
            for kind in CARD_KINDS:
                assert all(kinds[t] == kind for t in card[kind]), f"card {seat} mixes kinds"
            if not (self.phase == RETURN and seat == self.turn_player):
                assert not self._over_limit_quiet(seat), f"card {seat} is over a limit"
        assert all(kinds[t] == RAHI for t in self.rahi.values())
        assert all(kinds[t] == LOCK for t in self.locks.values())
        boards = [b for b, *_ in self.island.placed] + self.pile + ([self.placing] if self.placing else [])
        assert sorted(boards) == sorted(self.game.parts.boards), "a board is lost or doubled"
        assert all(0 <= p < len(self.island) for p in self.pawns)

    def _over_limit_quiet(self, seat: int) -> bool:
        rules = self.game.parts.rules
        card = self.cards[seat]
        return (len(self._speed_masks(seat)) > 1 or len(card[KANOHI]) > rules.kanohi_limit
                or len(card[TURAGA]) > rules.turaga_limit or len(card[KEY]) > rules.key_limit)


HANDLERS = {
    "move": MakutaState._do_step,
    "stop": MakutaState._do_stop,
    "roll": MakutaState._do_roll,
    "levitate": MakutaState._do_levitate,
    "to": MakutaState._do_to,
    "place": MakutaState._do_place,
    "return": MakutaState._do_return,
    "take-start": MakutaState._do_take_start,
    "skip": MakutaState._do_skip,
    "reveal": MakutaState._do_reveal,
    "challenge": MakutaState._do_challenge,
    "akaku": MakutaState._do_akaku,
    "steal": MakutaState._do_steal,
    "use": MakutaState._do_use,
    "strike": MakutaState._do_strike,
    "settle": MakutaState._do_settle,
    "take": MakutaState._do_take,
    "put": MakutaState._do_put,
}

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


class _Arranger:
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

    def __init__(self, state: MakutaState, arrangement: Mapping[str, Any]) -> None:
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
                state.known[token] |= 1 << seat
        for name in arrangement.get("revealed", []):
            node = self.space(name)
            token = state.rahi.get(node, state.locks.get(node))
            if token is None:
                raise BadSetup(f"revealed space {name} holds no Rahi or lock")
            state.known[token] = EVERYONE

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


def load_game(components: Any = None, tokens: Any = None, boards: Any = None) -> MakutaGame:
    """The game with our data, or with a user's own data files."""
    return MakutaGame(load(components, tokens, boards))


MakutaGame.state_class = MakutaState
