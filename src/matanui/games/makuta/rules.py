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

from collections.abc import Mapping
from typing import Any

from matanui.engine import BadSetup, Game
from matanui.engine.arrangement import Spec
from matanui.engine.forfeits import ABORT, forfeit_words
from matanui.engine.options import Option, turn_limit

from .components import CARD_KINDS, KANOHI, KEY, KIND_IDS, TURAGA, Components, Segment, load
from .island import DIR_WORDS, NO_SPACE, make_shapes
from .moves import (
    AFTER_EXTRA_TURN,
    AFTER_LAND,
    AFTER_REROLL,
    AKAKU,
    AUTOMATIC_PHASES,
    BONUS,
    CHALLENGE,
    CHALLENGE_MOVE,
    GATE,
    LEVITATE,
    LEVITATE_MOVE,
    MOVE,
    MOVE_IDS,
    OVER,
    PLACE,
    PUT,
    RETURN,
    REVEAL,
    REVEAL_MOVE,
    ROLL,
    ROLL_MOVE,
    SETTLE_MOVE,
    SKIP_MOVE,
    ST_AKAKU,
    ST_GATE,
    ST_ITEMS,
    ST_PORTAL,
    ST_RAHI,
    ST_REVEAL,
    ST_START,
    START_TOKEN,
    STEAL,
    STOP_MOVE,
    STRIKE_MOVE,
    TAKE,
    TAKE_START_MOVE,
    Move,
)
from .setup import EVERYONE, PUBLIC, arrangement_spec
from .view import MakutaView
from .words import MakutaWords

TURNS_PER_PLAYER = 100  # the default turn limit, per player
OPTIONS = {
    "turn_limit": turn_limit("turns (all players' turns together, extra turns included) after "
                             "which the game is drawn", per_player=TURNS_PER_PLAYER),
}
WALK_SEARCH_LIMIT = 20_000  # steps tried to find the walks of one move (see `_walks`)


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


class MakutaState(MakutaWords, MakutaView):
    """The state machine: each decision's legal moves and what each move does."""

    # -- set-up ------------------------------------------------------------------------

    def _set_up(self, arrangement: Mapping[str, Any]) -> None:
        self._lay_out(arrangement)
        first = arrangement.get("first_player")
        if first is None:
            first = self._roll_for_first_player()
        self._begin_turn(first)

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
        self.winner = winners[0] if winners else None  # the one Toa left in play (none: aborted)
        self.phase = OVER

    def _forfeit(self, kind: str, seat: int) -> None:
        """MAKUTA-FORFEIT: with two or more Toa left the game goes on without this one, whose
        tokens go face down to the start space and whose pawn leaves the island; a decision
        the Toa was part of passes on (see the ledger row). With one left, it wins."""
        if kind == ABORT or len(self.players) - len(self.out) <= 2:
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

    def _generate_moves(self) -> dict[str, Move]:
        phase = self.phase
        if phase == MOVE:
            return self._step_moves()
        moves: dict[str, Move] = {}
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
            return_ids = self.game.slot_ids["return"][self.return_kind]
            for slot in self._return_candidates(me):
                action, move = return_ids[slot]
                moves[action] = move
        elif phase in (TAKE, STEAL):
            ids_by_kind = self.game.slot_ids[phase]
            for kind in CARD_KINDS:
                for slot in range(len(self.cards[self.victim][kind])):
                    action, move = ids_by_kind[kind][slot]
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

    def _step_moves(self) -> dict[str, Move]:
        """MAKUTA-MOVE-ORTHOGONAL, MAKUTA-MOVE-NO-DOUBLE-BACK, MAKUTA-MOVE-STOP-EARLY."""
        here = self.pawns[self.turn_player]
        adj, path = self.island.adj, self.path
        moves: dict[str, Move] = {}
        base = 4 * here
        for d in range(4):
            there = adj[base + d]
            if there != NO_SPACE and there not in path:
                moves[MOVE_IDS[d]] = ("move", d, there)
        if self.steps < self.move_roll and self._may_stop(here):
            moves["stop"] = STOP_MOVE
        return moves

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

    def _perform(self, move: Move) -> None:
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
        self.foe = ""
        self.emit("turn", f"{self._who(seat)}'s turn ({self._die(seat)[0]} die).",
                  {"seat": seat, "turn": self.turn})

    def _end_turn(self) -> None:
        return self._begin_turn(self._left_of(self.turn_player))

    def _do_roll(self, move: Move) -> None:
        self.path = [self.pawns[self.turn_player]]  # the turn's walk starts here
        return self._start_move()

    def _start_move(self) -> None:
        """MAKUTA-ROLL-MOVE: roll the die in use, then move that many spaces. The spaces
        walked belong to the whole turn, so a second roll (MAKUTA-AKAKU-REROLL) keeps them
        (MAKUTA-MOVE-NO-DOUBLE-BACK)."""
        me = self.turn_player
        die, faces = self._die(me)
        self.move_roll = self.steps = rolled = self._roll(faces)
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

    def _do_step(self, move: Move) -> None:
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

    def _do_stop(self, move: Move) -> None:
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
                if lock is not None and not self.seen_by[lock] & PUBLIC:  # MAKUTA-GATE-REVEAL
                    self.phase = REVEAL
                    return
            elif stage == ST_GATE:
                lock = self.locks.get(node)
                if (lock is not None and self.seen_by[lock] & PUBLIC
                        and len(self.cards[me][KEY]) >= self.game.parts.rules.keys_to_challenge):
                    self.phase = GATE  # MAKUTA-MAKUTA-CHALLENGE
                    return
            elif stage == ST_AKAKU:
                if self.cards[me][KANOHI] and self._akaku_victims(me):  # MAKUTA-AKAKU
                    self.phase = AKAKU
                    return
            else:
                return self._end_turn()

    def _do_skip(self, move: Move) -> None:
        return self._land()

    # -- Kanohi Miru -------------------------------------------------------------------

    def _do_levitate(self, move: Move) -> None:
        self.phase = LEVITATE

    def _do_to(self, move: Move) -> None:
        """MAKUTA-MIRU: levitate to any other space; the Miru goes face down to the start."""
        me = self.turn_player
        miru = self._held_for_move(me, KANOHI, "levitate")
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

    def _do_place(self, move: Move) -> None:
        _, rot, q, x, y = move
        board, self.placing = self._drawn_board(), None
        self.placements = {}
        me = self.turn_player
        name = self.game.parts.boards[board].name
        self.emit("board_laid", f"{self._who(me)} joins {name} portal to portal "
                  f"(turned {rot * 90} degrees, by its portal {q + 1}).",
                  {"seat": me, "board": board, "rot": rot, "portal": q + 1, "at": [x, y]})
        self._lay(board, rot, x, y)
        return self._land()

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
        self.seen_by[token] |= 1 << seat
        label = self._label(token)
        if self.game.parts.tokens[token].die:  # MAKUTA-DIE-PUBLIC
            self.seen_by[token] = EVERYONE
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

    def _do_return(self, move: Move) -> None:
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

    # -- the start space ---------------------------------------------------------------

    def _to_start(self, token: int, public: bool = False) -> None:
        """MAKUTA-START-FACE-DOWN."""
        self.start.append(token)
        if public:
            self.seen_by[token] = EVERYONE

    def _do_take_start(self, move: Move) -> None:
        """MAKUTA-START-TAKE: one token, without looking."""
        me = self.turn_player
        token = self.start.pop(self._randrange(len(self.start)))
        kind = self.game.kind[token]
        # Nobody can tell which of the alike tokens left: what was known of them is lost.
        for other in self.start:
            if self.game.kind[other] == kind:
                self.seen_by[other] = 0
        self.seen_by[token] = 0
        self.emit("take_start", f"{self._who(me)} takes a token from the start space "
                  "without looking.", {"seat": me})
        self.queue.append(token)
        self.after = AFTER_LAND
        if not self._collect_queue():
            return
        return self._land()

    # -- gates and Makuta --------------------------------------------------------------

    def _do_reveal(self, move: Move) -> None:
        """MAKUTA-GATE-REVEAL: the lock is turned over for everyone, for good."""
        lock = self.locks[self.land_node]
        self.seen_by[lock] = EVERYONE
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

    def _do_challenge(self, move: Move) -> None:
        """MAKUTA-MAKUTA-STAGE-ONE: roll the white die, turn the temple that many segments
        clockwise; the segment facing the gate is Makuta's power."""
        me = self.turn_player
        parts = self.game.parts
        for key in self.cards[me][KEY]:
            self.seen_by[key] = EVERYONE  # MAKUTA-KEYS-SHOWN
        rolled = self._roll(parts.dice[parts.rules.temple_die])
        self.temple = (self.temple + rolled) % len(parts.segments)
        segment = self._facing(self.land_node)
        self.foe, self.strength = "makuta", segment.power
        self.used, self.bonus, self.challenge_roll = [], 0, 0
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
        self.seen_by[token] = EVERYONE
        self.foe, self.strength = "rahi", self.game.parts.tokens[token].value
        self.used, self.bonus, self.challenge_roll = [], 0, 0
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

    def _do_use(self, move: Move) -> None:
        me = self.turn_player
        token = self._shown(move[1])
        points = self._bonus_of(me, token)
        self.used.append(token)
        self.bonus += points
        self.seen_by[token] = EVERYONE
        self.emit("use", f"{self._who(me)} shows {self._label(token)}: +{points} "
                  f"(bonus {self.bonus}).", {"seat": me, "token": self.game.views[token],
                                              "points": points})

    def _do_strike(self, move: Move) -> None:
        """MAKUTA-CHALLENGE-DIE: a single roll of the die in use; then MAKUTA-BONUS-AFTER-ROLL:
        the challenger adds what it chooses to show, unless the roll alone already wins or
        the collector card holds no Kanohi or Turaga (both plain to the whole table)."""
        me = self.turn_player
        die, faces = self._die(me)
        self.challenge_roll = rolled = self._roll(faces)
        self.emit("strike", f"{self._who(me)} rolls the {die} die: {rolled} against "
                  f"{self._against()}'s {self.strength}.",
                  {"seat": me, "die": die, "roll": rolled, "strength": self.strength})
        card = self.cards[me]
        if rolled > self.strength or not (card[KANOHI] or card[TURAGA]):
            return self._settle()
        self.phase = BONUS

    def _do_settle(self, move: Move) -> None:
        return self._settle()

    def _settle(self) -> None:
        """The roll plus the points shown against the Rahi's or Makuta's strength."""
        me = self.turn_player
        total = self.challenge_roll + self.bonus
        self.emit("total", f"{self._who(me)}'s total: {self._sum()} against "
                  f"{self._against()}'s {self.strength}.",
                  {"seat": me, "roll": self.challenge_roll, "bonus": self.bonus,
                   "total": total, "strength": self.strength})
        if self.foe == "makuta":
            return self._makuta_result(total)
        return self._rahi_result(total)

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

    def _do_take(self, move: Move) -> None:
        _, kind, slot = move
        loser = self.victim
        token = self.cards[loser][kind].pop(slot)
        chooser = self.decider
        self.decider = loser
        if self.foe == "rahi":  # MAKUTA-RAHI-LOSE-ITEM
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
        if self.foe == "rahi":
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

    def _do_put(self, move: Move) -> None:
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

    def _do_akaku(self, move: Move) -> None:
        """MAKUTA-AKAKU: see the other player's tokens and take one; the Akaku goes face down
        to the start space."""
        me = self.turn_player
        victim = self.victim = move[1]
        akaku = self._held_for_move(me, KANOHI, "steal")
        self.cards[me][KANOHI].remove(akaku)
        self._to_start(akaku, public=True)
        bit = 1 << me
        for kind in CARD_KINDS:
            for token in self.cards[victim][kind]:
                self.seen_by[token] |= bit
        self.phase = STEAL
        self.emit("akaku", f"{self._who(me)} uses the Kanohi Akaku to see "
                  f"{self._who(victim)}'s tokens; the Akaku is placed face down on the start "
                  "space.", {"seat": me, "victim": victim})

    def _do_steal(self, move: Move) -> None:
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


def load_game(components: Any = None, tokens: Any = None, boards: Any = None) -> MakutaGame:
    """The game with our data, or with a user's own data files."""
    return MakutaGame(load(components, tokens, boards))


MakutaGame.state_class = MakutaState
