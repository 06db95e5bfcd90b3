"""The contract every game keeps (docs/architecture.md, "The contract"): a `Game` makes `State`s.

A concrete game subclasses both. The base `State` owns the parts that are the same for every
game: move caching, legality checks, history, records and the seeded generator. A game
implements the abstract hooks:

- `_generate_moves()`: an ordered dict from action id to whatever the game needs to carry
  the action out (computed once per decision and cached);
- `_perform(move)`: carry out a legal move, return the events;
- `_observe(seat)` and `_determinize(seat, rng)`, behind the kernel's checked `observation`
  and `determinize`;
- `current_player`, `is_over`, `winners`, `describe`, `_copy_into` (for `clone`).

The kernel guards the contract against bad input once, for every game: `apply` refuses
anything that is not a legal action string or a forfeit (`resign:<seat>`, `timeout:<seat>`,
`abort:<seat>`: engine/forfeits.py; a game that plays on without the seat overrides
`_forfeit`, every game says how it ends in `_finish`), `observation` and `determinize` anything that is
not a seat of this game, and an action that fails part-way is rolled back.
"""

from __future__ import annotations

import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Self

from .arrangement import Spec, arrangement_words, read_arrangement
from .errors import BadSeat, BadSetup, IllegalAction
from .events import Event
from .forfeits import ABORT, forfeit_words, parse_forfeit
from .options import Option, check_options, parse_options
from .untrusted import SHORT, shortened

if TYPE_CHECKING:
    from .record import Record


class Game(ABC):
    """A game's front door: its name, its variants, and how to start a state."""

    name: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str] = "1"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    # The data pack this game object was built from ({"name", "hash"}), or None for the
    # built-in data. A game built from a pack is its own object; its name stays the game's.
    data: Mapping[str, str] | None = None

    @classmethod
    def players_words(cls) -> str:
        """How many players the game is for, as a message says it: "exactly 2", "2 to 6"."""
        if cls.min_players == cls.max_players:
            return f"exactly {cls.min_players}"
        return f"{cls.min_players} to {cls.max_players}"

    @abstractmethod
    def characters(self) -> list[str]:
        """The characters a seat may play (the `players` names `new_game` accepts)."""

    def character_name(self, character: str) -> str:
        """The name a person reads for a character id ("pohatu_nuva" -> "Pohatu Nuva"): what a
        player is called who gave no display name. Games override it; the id by default."""
        return character

    @abstractmethod
    def options_schema(self) -> Mapping[str, Option]:
        """Each option this game accepts, typed, with its default and help (engine/options.py):
        the one place a game declares them."""

    def parse_options(self, pairs: Sequence[str]) -> dict[str, Any]:
        """Options as a command line gives them (`["turn_limit=50"]`), read by their schema."""
        return parse_options(self.name, self.options_schema(), pairs)

    def option_help(self) -> dict[str, str]:
        """Each option this game accepts, with the values it allows, its default and its use."""
        return {key: option.describe() for key, option in self.options_schema().items()}

    def arrangement_spec(self) -> Spec:
        """Each key an arrangement may have, its shape and what it allows
        (engine/arrangement.py); `new_game` reads an arrangement by it. None by default."""
        return {}

    @property
    def arrangement_keys(self) -> dict[str, str]:
        """Each key an arrangement may have, with the words saying what it allows."""
        return arrangement_words(self.arrangement_spec())

    state_class: ClassVar[type[State]]

    def new_game(
        self,
        seed: int,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        arrangement: Mapping[str, Any] | None = None,
        names: Sequence[str | None] | None = None,
    ) -> State:
        """A new game. `players` names the characters in seat order. `arrangement` fixes
        what would otherwise be random (pile orders, hands, positions, first player), as the
        rulebook demo rounds do; it must be JSON-safe so that records can carry it. `names`
        gives each seat's display name for narration and words (None, or an entry None or
        blank: the character's name); names never change the rules, the randomness, the
        legal actions or any observation.

        A game supplies `state_class`, `_check_players`, `options_schema` and the state's
        `_set_up`; this method is the same for all of them."""
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BadSetup(f"the seed must be a whole number, not {seed!r}")
        if arrangement is not None and not isinstance(arrangement, Mapping):
            raise BadSetup(f"the arrangement must be a mapping (a JSON object), not {arrangement!r}")
        checked_players = self._check_players(self._player_names(players))
        if options is not None and not isinstance(options, Mapping):
            raise BadSetup(f"the options must be a mapping (a JSON object), not {options!r:.80}")
        checked_options = check_options(self.name, self.options_schema(), options or {},
                                        len(checked_players))
        state = self.state_class.__new__(self.state_class)
        state._init_common(self, seed, checked_players, checked_options, arrangement)
        given = read_arrangement(self.name, arrangement or {}, self.arrangement_spec(),
                                 len(checked_players))
        state.names = self.display_names(checked_players, names)
        state._set_up(given)
        return state

    def _player_names(self, players: Any) -> tuple[str, ...]:
        """`players` as a tuple of names, or BadSetup if it is not a list of strings."""
        allowed = ", ".join(self.characters())
        if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
            raise BadSetup(f"players must be a list of character names ({allowed}), "
                           f"not {players!r:.80}")
        for name in players:
            if not isinstance(name, str):
                raise BadSetup(f"players must name characters as strings ({allowed}); "
                               f"{name!r:.80} is a {type(name).__name__}")
        return tuple(players)

    def display_names(self, players: Sequence[str], names: Any = None) -> tuple[str, ...]:
        """Each seat's name as every surface says it: the display name given, else its
        character's; BadSetup if `names` is not a list of strings (or None) with one entry
        per player. Renderers call it too, so that a view without names says the same."""
        defaults = tuple(self.character_name(p) for p in players)
        if names is None:
            return defaults
        if isinstance(names, (str, bytes)) or not isinstance(names, Sequence) \
                or len(names) != len(players):
            raise BadSetup(f"names must be a list of {len(players)} display names (strings, or "
                           f"null for the character's name), one per player, not {names!r:.80}")
        for name in names:
            if name is not None and not isinstance(name, str):
                raise BadSetup(f"a display name is a string (or null for the character's name), "
                               f"not {type(name).__name__} {name!r:.80}")
        return tuple(name.strip() if name and name.strip() else default
                     for name, default in zip(names, defaults, strict=True))

    # How a game's set-up messages word the seating, each with {allowed} (the characters),
    # {name} (the one in question) and {count} (players_words()) to fill in.
    seating_words = "{count} characters from: {allowed}"
    not_a_character = "{name!r} is not a character of this game; choose from: {allowed}"
    same_character = "two players chose {name}; each player chooses a different character"

    def _check_players(self, players: Sequence[str]) -> tuple[str, ...]:
        """The players, checked against `characters()` and the player counts: one seat per
        character, each a character of the game; BadSetup in the game's words otherwise."""
        characters = self.characters()
        allowed = ", ".join(characters)
        if not self.min_players <= len(players) <= self.max_players:
            raise BadSetup(f"{self.name} is for {self.players_words()} players; name "
                           + self.seating_words.format(allowed=allowed, count=self.players_words()))
        for name in players:
            if name not in characters:
                raise BadSetup(self.not_a_character.format(name=name, allowed=allowed))
        for seat, name in enumerate(players):
            if name in players[:seat]:
                raise BadSetup(self.same_character.format(name=name, allowed=allowed))
        return tuple(players)

    def arrange(
        self,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        *,
        names: Sequence[str | None] | None = None,
        **arrangement: Any,
    ) -> State:
        """Shorthand for scenario tests and tutorials: a game set up as arranged."""
        return self.new_game(seed, players, options, arrangement, names)


class State(ABC):
    """One position of one game. Mutable: `apply` changes it in place."""

    game: Game
    seed: int
    players: tuple[str, ...]
    # Each seat's name in narration and words: its display name, else its character's name.
    names: tuple[str, ...]
    options: dict[str, Any]
    arrangement: dict[str, Any] | None
    history: list[str]
    rng: random.Random
    # The seats that resigned or whose time ran out, in order (engine/forfeits.py).
    out: list[int]

    # The move table for the current decision, or None when it must be rebuilt.
    _moves: dict[str, Any] | None
    # The events of the action being performed (or of the set-up): `emit` adds to it and
    # `apply` hands it back, so no game passes an events list down by hand.
    _events: list[Event]
    # What the set-up told (a game's opening narration): the events emitted by `_set_up`.
    setup_events: list[Event]

    def _init_common(
        self,
        game: Game,
        seed: int,
        players: Sequence[str],
        options: Mapping[str, Any],
        arrangement: Mapping[str, Any] | None,
    ) -> None:
        self.game = game
        self.seed = seed
        self.players = tuple(players)
        self.options = dict(options)
        self.arrangement = dict(arrangement) if arrangement else None
        self.history = []
        self.rng = random.Random(seed)
        self._moves = None
        # The set-up's emits land in setup_events; the first `apply` starts a fresh list.
        self._events = self.setup_events = []
        self.out = []

    # -- the decision ------------------------------------------------------------------

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat that must decide now, or None once the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abstractmethod
    def winners(self) -> list[int]:
        """Winning seats (empty while playing, or for a drawn game)."""

    @property
    def num_players(self) -> int:
        return len(self.players)

    def returns(self) -> list[float]:
        """+1 for each winner, -1 for each other seat; all 0 while playing or in a draw."""
        if not self.is_over or not self.winners:
            return [0.0] * len(self.players)
        won = self.winners
        return [1.0 if seat in won else -1.0 for seat in range(len(self.players))]

    def _move_table(self) -> dict[str, Any]:
        """The current decision's move table (action id -> move), built once per decision
        and kept until the next `apply`. A game that builds the table while performing a
        move (to see whether a choice is needed at all) hands it over with `_keep_moves`."""
        moves = self._moves
        if moves is None:
            moves = self._moves = self._generate_moves() if not self.is_over else {}
        return moves

    def _keep_moves(self, moves: dict[str, Any]) -> None:
        """`moves` is the table of the decision the move being performed leads to."""
        self._moves = moves

    # legal_actions, is_legal and apply repeat _move_table's three lines rather than call it:
    # they run at every step of every playout, and the call would cost each step about 70 ns
    # (1-2% of `matanui bench`).
    def legal_actions(self) -> list[str]:
        """Stable, readable action ids, in a fixed order."""
        moves = self._moves
        if moves is None:
            moves = self._moves = self._generate_moves() if not self.is_over else {}
        return list(moves)

    def is_legal(self, action: str) -> bool:
        moves = self._moves
        if moves is None:
            moves = self._moves = self._generate_moves() if not self.is_over else {}
        return action in moves

    def apply(self, action: str) -> list[Event]:
        """Carry out a legal action and return the events it caused. An illegal action raises
        IllegalAction, saying why, and leaves the state unchanged."""
        moves = self._moves
        if moves is None:
            moves = self._moves = self._generate_moves() if not self.is_over else {}
        if type(action) is not str:
            raise IllegalAction(self._why_not_an_action(action))
        move = moves.get(action)  # move values are never None
        if move is None:
            return self._apply_forfeit(action)
        self._moves = None
        self.history.append(action)
        events: list[Event] = []
        self._events = events
        try:
            self._perform(move)
        except BaseException:
            self._roll_back()
            raise
        return events

    # -- forfeits ----------------------------------------------------------------------

    def may_forfeit(self, seat: int) -> bool:
        """May `seat` resign (or be timed out) now: a seat of this game, still in play, in a
        game that is not over. Whoever is to decide does not matter."""
        return (type(seat) is int and 0 <= seat < len(self.players) and seat not in self.out
                and not self.is_over)

    def _apply_forfeit(self, action: str) -> list[Event]:
        """`apply` for an action that is not legal: a forfeit carried out, else the reason
        it is not legal. Off the hot path: ordinary actions never come here."""
        forfeit = parse_forfeit(action) if len(action) <= SHORT else None
        if forfeit is None:
            raise IllegalAction(self._why_illegal(action) if len(action) <= SHORT
                                else self._why_too_long(action))
        kind, seat = forfeit
        if not (seat is not None and self.may_forfeit(seat)):
            raise IllegalAction(self._why_no_forfeit(action, seat))
        self._moves = None
        self.history.append(action)
        events: list[Event] = []
        self._events = events
        try:
            self._forfeit(kind, seat)
        except BaseException:
            self._roll_back()
            raise
        return events

    def _why_no_forfeit(self, action: str, seat: int | None) -> str:
        last = len(self.players) - 1
        if seat is None or seat > last:
            return (f"{action!r} names no seat of this game: a forfeit is `resign:<seat>`, "
                    f"`timeout:<seat>` or `abort:<seat>` with a seat from 0 to {last}.")
        if self.is_over:
            return f"{action!r} is not possible: the game is over."
        return f"{action!r} is not possible: {self.names[seat]} is out of this game already."

    def in_play(self) -> list[int]:
        """The seats still in play (not out), in seat order."""
        return [seat for seat in range(len(self.players)) if seat not in self.out]

    def emit(
        self,
        kind: str,
        text: str,
        fields: dict[str, Any] | None = None,
        *,
        seat: int | None = None,
        secret: dict[str, Any] | None = None,
        secret_text: str | None = None,
    ) -> Event:
        """Record an event of the action being performed (or of the set-up, which a game
        keeps as its opening narration); `apply` returns them in the order emitted."""
        event = Event(kind, text, fields, seat, secret, secret_text)
        self._events.append(event)
        return event

    def _forfeit(self, kind: str, seat: int) -> None:
        """Take `seat` out of the game. By default the game ends and every seat still in
        play wins; a game where play can go on without the seat overrides this. An abort ends
        every game at once, with no winner and nobody out."""
        if kind == ABORT:
            self._finish([])
            self.emit(kind, f"{forfeit_words(kind, self.names[seat])}: it ends without a result.",
                      {"seat": seat, "winners": []})
            return
        self.out.append(seat)
        left = self.in_play()
        self._finish(left)
        who = " and ".join(self.names[s] for s in left)
        verb = "wins" if len(left) == 1 else "win"
        self.emit(kind, f"{forfeit_words(kind, self.names[seat])}: {who} {verb} the game.",
                  {"seat": seat, "winners": left})

    @abstractmethod
    def _finish(self, winners: list[int]) -> None:
        """End the game now with these winners, the seats still in play after a forfeit, or
        none (an abort): afterwards `is_over` is true and `winners` are these."""

    def _roll_back(self) -> None:
        """Undo an action whose `_perform` failed part-way (a bug, or an interrupt): the state
        is rebuilt from its record without that action, so neither the position nor the
        history keeps a trace of it. A determinized state has no record; it only forgets the
        action, and its search must discard it."""
        self.history.pop()
        self._moves = None
        if self.seed < 0:
            return
        before = self.game.new_game(self.seed, self.players, self.options, self.arrangement,
                                    self.names)
        for action in self.history:
            before.apply(action)
        self.rng = before.rng
        self.out = before.out
        before._copy_into(self)

    def _why_not_an_action(self, action: Any) -> str:
        legal = ", ".join(self.legal_actions()) or "none (the game is over)"
        return (f"an action is one of the legal action id strings, not {type(action).__name__} "
                f"{action!r:.80}. Legal actions: {legal}.")

    def _why_too_long(self, action: str) -> str:
        """No action id is longer than SHORT characters, so a longer string is quoted shortened:
        a message never carries a megabyte back to whoever sent it."""
        legal = ", ".join(self.legal_actions()) or "none (the game is over)"
        return (f"{shortened(action)} is not an action id (no action id is longer than {SHORT} "
                f"characters). Legal actions: {legal}.")

    def _why_illegal(self, action: str) -> str:
        """The message for an illegal action: who decides now, why not (the game's
        `_why_not`, where it can say) and the legal actions."""
        if self.is_over:
            return f"{action!r} is not legal: the game is over."
        legal = ", ".join(self.legal_actions())
        reason = self._why_not(action)
        why = f": {reason}" if reason else ""
        return f"{action!r} is not legal for {self._deciding_words()}{why}. Legal actions: {legal}."

    def _deciding_words(self) -> str:
        """Who decides now, as the why-not message says it ("Tahu Nuva now")."""
        seat = self.current_player
        return f"{self.names[seat]} now" if seat is not None else "anyone now"

    def _why_not(self, action: str) -> str | None:
        """Why `action`, not a legal action id now, is not (None: nothing more to say than
        the legal actions). Games override it with the rule that forbids it."""
        return None

    @abstractmethod
    def _generate_moves(self) -> dict[str, Any]: ...

    @abstractmethod
    def _perform(self, move: Any) -> None:
        """Carry out a legal move, telling what happened with `emit`."""

    @abstractmethod
    def describe(self, action: str) -> str:
        """The words a person reads for an action id."""

    def targets(self, action: str) -> dict[str, Any]:
        """What a legal action acts on, as JSON-safe structured data beside its words (the
        card, the space, the placement: `{"card": 27, "part": "head"}`), so that no interface
        ever parses an action id. Empty for an action that points at nothing on the table.
        Games override it; the keys each game uses are listed in docs/protocol.md."""
        return {}

    def automatic_action(self) -> str | None:
        """The one legal action that the seat to decide need not be asked about, because it
        is the only one and taking it reveals nothing hidden and chooses nothing (an
        interface may take it for a person); None when the seat must be asked. A game
        overrides it with the decisions that qualify; by default every decision is asked."""
        return None

    def gestures(self, seat: int) -> dict[str, Any]:
        """For the seat to decide: what its interface may offer as one gesture beyond a single
        action, JSON-safe (Quest for Makuta: every space a move can end on, with the actions
        that walk there; a drawn board's look in each placement). Empty for any other seat
        and by default. Worked out on request only, never by `observation`: agents do not
        need it and their hot path does not pay for it."""
        return {}

    def response_window(self) -> str | None:
        """At a decision whose very choices are secret (may this player answer at all?), the
        action that lets it pass; else None. An interface must close such a window the same
        way whether or not there was anything to choose (docs/protocol.md: the server holds
        it open for a fixed time), or the other player learns what this one holds."""
        return None

    # -- information -------------------------------------------------------------------

    def observation(self, seat: int | None) -> dict[str, Any]:
        """JSON-safe: all that `seat` may know and nothing more (None: spectators). A seat
        that is not one of this game's raises BadSeat: a seat taken from outside must never
        reach another seat's secrets (Python's `hand[-1]` would). Every observation has the
        seats' characters (`players`, which the interfaces name seats by) and who is `out`,
        whatever the game's `_observe` gives."""
        observation = self._observe(None if seat is None else self.seat_index(seat))
        if "players" not in observation:
            observation["players"] = list(self.players)
        observation["out"] = list(self.out)
        return observation

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A full state that agrees with `seat`'s observation, its hidden parts resampled
        from `rng` (and its own generator reseeded from `rng`, so the future is unknown too).
        For the same `rng` state the result must depend only on that observation (sort a
        hidden pool before shuffling it), so that an agent's decision cannot either."""
        return self._determinize(self.seat_index(seat), rng)

    def seat_index(self, seat: Any) -> int:
        """`seat` as a seat number of this game (0 to players - 1), or BadSeat saying which
        are allowed. Integers of other types (numpy's) are accepted; bools are not."""
        last = len(self.players) - 1
        try:
            index = None if isinstance(seat, bool) else operator.index(seat)
        except TypeError:
            index = None
        if index is None or not 0 <= index <= last:
            raise BadSeat(f"a seat is a whole number from 0 to {last} (or None to watch), "
                          f"not {seat!r:.80}")
        return index

    @abstractmethod
    def _observe(self, seat: int | None) -> dict[str, Any]:
        """The game's observation for a checked seat (see `observation`)."""

    @abstractmethod
    def _determinize(self, seat: int, rng: random.Random) -> Self:
        """The game's determinization for a checked seat (see `determinize`)."""

    # -- copies and records ------------------------------------------------------------

    def clone(self) -> Self:
        """An independent copy: applying actions to one never changes the other."""
        other = object.__new__(type(self))
        other.game = self.game
        other.seed = self.seed
        other.players = self.players
        other.names = self.names
        other.options = self.options  # never mutated after creation
        other.arrangement = self.arrangement
        other.history = list(self.history)
        other.out = list(self.out)
        other.rng = random.Random(0)  # a constant seed: seeding from the OS costs ~15 µs a clone
        other.rng.setstate(self.rng.getstate())
        other._moves = None
        other.setup_events = self.setup_events  # never changed after the set-up
        self._copy_into(other)
        return other

    def _set_up(self, arrangement: Mapping[str, Any]) -> None:
        """Lay out a new game (called once by `Game.new_game`), with the arrangement's keys
        as `Game.arrangement_spec` read them (only the keys given)."""
        raise NotImplementedError

    @abstractmethod
    def _copy_into(self, other: Self) -> None:
        """Copy this game's own fields into `other` (deep enough to be independent)."""

    def record(self) -> Record:
        from .record import Record

        return Record(
            game=self.game.name,
            rules_version=self.game.rules_version,
            seed=self.seed,
            players=list(self.players),
            options=dict(self.options),
            arrangement=dict(self.arrangement) if self.arrangement else None,
            actions=list(self.history),
            data=dict(self.game.data) if self.game.data else None,
            names=list(self.names) if self.names != self.game.display_names(self.players) else None,
        )

    @abstractmethod
    def audit(self) -> None:
        """Raise AssertionError if anything is lost or duplicated (every card and token in
        exactly one place). Invariant tests call it after every step."""

    def _reseed(self, rng: random.Random) -> None:
        """Cut a determinized state loose from the truth (used by `determinize`): a fresh
        generator drawn from `rng`, and no seed, arrangement or history, from which the true
        hidden state could be rebuilt. Such a state is a hypothesis and has no record."""
        self.rng = random.Random(rng.getrandbits(64))
        self.seed = -1
        self.arrangement = None
        self.history = []
