"""A room is one live game on the server: the authoritative state, its seats and the
connections watching it.

The room is the only place where an action is applied. A seat's action is checked (the game
is running, the view was current, the seat is to decide, the action is legal), committed to
the database, applied, and only then broadcast: each connection receives its own seat's
observation and the new events as its seat may see them (spectators: the public view).
Actions of one game are serialised by the room's lock; different games never wait on each
other, and bots think in worker processes (bots.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from matanui.engine import ABORT, Event, Game, IllegalAction, Record, State, forfeit_action, replay
from matanui.engine.forfeits import parse_forfeit

from . import aborts, clocks, hints, ratings
from .bots import BotPool
from .chat import Chat
from .incidents import Incidents, where
from .peers import Peers, Solo
from .presence import Presence
from .protocol import Rejected
from .quotas import Limits
from .replays import setup_events
from .storage import ActionTaken, GameRow, SeatRow, Storage, StorageFailed
from .users import name_of
from .workers import Workers

log = logging.getLogger("matanui.server")

OUTBOX_SIZE = 256  # messages a slow client may fall behind before it is disconnected
# A person's response window (Reconstruct: may they answer with a stop card?) closes this many
# seconds after the answering page drew it, whether or not they could answer: docs/protocol.md,
# "Response windows". DESIGN's floor: a decision stays open at least 8 s from its drawing.
RESPONSE_WINDOW = 8.0
# Seconds a window waits for the answering page to say it drew it ("drawn"): a page that never
# says so (closed, behind a hot-seat cover, on a slow link) cannot hold the game any longer.
DRAW_GRACE = 10.0
# Log entries a welcome carries (the newest) and a `history` answer at most: a welcome stays a
# few kilobytes however long the game (a 3,000-action game's whole log was 419 KB).
LOG_PAGE = 100
# Seconds before the server's own move (a bot's, a window's close) is tried again when the
# database could not save it.
SAVE_RETRY = 5.0
GONE = 4404  # WebSocket close code: no such game, or one this server cannot serve
# How a room tells its lobby that it cannot go on (game id, why, where it failed): the lobby
# serves it no more and gives the refusal its connections are told.
Unservable = Callable[[str, str, str], Rejected]


def legal_entries(state: State) -> list[dict[str, Any]]:
    """The legal actions as the seat to decide is sent them: id, words and what each acts on."""
    return [{"id": a, "text": state.describe(a), "targets": state.targets(a)} for a in state.legal_actions()]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _with_seat(seats: list[SeatRow], seat: int, **changes: Any) -> list[SeatRow]:
    """The seats with one of them changed (the others are the same objects)."""
    return [replace(row, **changes) if i == seat else row for i, row in enumerate(seats)]


def build(record: Record, game: Game | None = None,
          turns: list[tuple[int | None, bool]] | None = None) -> tuple[State, list[Event]]:
    """The state a record describes and every event since its set-up (the log a client is
    sent); the game is found by the record's name and data pack, unless given. `turns`, if
    given, gets who decided each action (clocks.turn_of)."""
    state = replay(replace(record, actions=[]), game=game)
    events = setup_events(state)
    for action in record.actions:
        if turns is not None:
            turns.append(clocks.turn_of(state, action))
        events += state.apply(action)
    return state, events


@dataclass
class Backends:
    """What every room shares: the database, the bot and replay workers, the bots' pace and
    the service's limits."""

    storage: Storage
    bots: BotPool
    replays: Workers
    bot_pace: float = 0.0  # least seconds between a bot's move and the action before it
    limits: Limits = field(default_factory=Limits)
    peers: Peers = field(default_factory=Solo)  # the other instances on the same database
    response_window: float = RESPONSE_WINDOW  # seconds a person's response window stays open
    draw_grace: float = DRAW_GRACE  # the most seconds a window waits for its drawing
    incidents: Incidents = field(default_factory=lambda: Incidents(log))  # faults clients can repeat


@dataclass(eq=False)
class Connection:
    """One WebSocket client of a room: its seat (None: a spectator) and its outbox, which a
    sender task drains so that one slow client never holds up a broadcast."""

    seat: int | None
    session: str | None = None  # the hash of the session that opened the seat (accounts.py), if one did
    client: str = ""  # the address it came from (app.client_of), for the limits shared by an address
    account: str | None = None  # the signed-in account of the socket, if any (a player's other tab?)
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(OUTBOX_SIZE))
    closing: tuple[int, str] | None = None  # the close code and reason, once it is to close

    def send(self, text: str) -> None:
        if self.closing is not None:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:  # the client reconnects for a fresh view
            self.close(4008, "too far behind; reconnect for a fresh view")

    def close(self, code: int, reason: str) -> None:
        """Send what is queued, then close with `code` (its sender task does it)."""
        if self.closing is None:
            self.closing = (code, reason)
            with contextlib.suppress(asyncio.QueueFull):  # full: the sender is not waiting
                self.outbox.put_nowait(None)


def _failed_at(exc: BaseException) -> str:
    """Where a bot failed, as `file.py:line in function`: for an exception of a worker process,
    the innermost frame of its traceback (which comes as text, the exception's cause)."""
    remote = getattr(exc.__cause__, "tb", None)
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', remote) if isinstance(remote, str) else []
    if not frames:
        return where(exc)
    path, line, function = frames[-1]
    return f"{Path(path).name}:{line} in {function}"


class Room:
    def __init__(self, row: GameRow, state: State, events: list[Event], backends: Backends,
                 unservable: Unservable, owner: str | None = None,
                 turns: list[tuple[int | None, bool]] | None = None) -> None:
        self.row = row
        self.unservable = unservable
        self.owner = owner  # the address that created it (None: loaded at start)
        self.state = state
        self.events = events  # every event since the set-up, for the log of (re)connecting clients
        self.last_events: list[Event] = []  # those of the latest action applied here (the `Last move`)
        self.backends = backends
        self.connections: set[Connection] = set()
        # The addresses a seat of this game was opened from (here): a watcher from one is a player
        self.seated_from: set[str] = set()
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self.turns = turns or []  # who decided each action (clocks.turn_of), beside row.times
        self.clock_task: asyncio.Task[None] | None = None
        # The response window's drawing: (the position, when the answering page drew it), and
        # the wake-up of the task that closes it when that moves its close.
        self.window_drawn: tuple[int, float] | None = row.window_drawn
        self.window_moved = asyncio.Event()
        self.chat = Chat(self)
        self.presence = Presence(self)
        # Each seat's rating before and after, once the finished game is rated (ratings.py)
        self.rating_changes: list[dict[str, Any]] | None = None
        self.counted: bool | None = None  # False: rated, but it counted for nothing (ratings.Counting)

    @property
    def id(self) -> str:
        return self.row.id

    # -- seats -------------------------------------------------------------------------

    def seat_for(self, token: str) -> int:
        """The seat a token opens, compared in constant time; Rejected if none."""
        wanted = token_hash(token)
        found = None
        for seat, row in enumerate(self.row.seats):
            if row.token_hash is not None and hmac.compare_digest(row.token_hash, wanted):
                found = seat
        if found is None:
            raise Rejected("bad_token", "this invite link is not valid for this game (its seat "
                           "token opens no seat); you are watching", status=403)
        return found

    def seats_public(self) -> list[dict[str, Any]]:
        now = time.time()
        presence = [self.presence.of(seat, now) for seat in range(len(self.row.seats))]
        shown = ratings.seats_shown(self.backends.storage, self.row.seats, self.state.game.name,
                                    self.announce_seats)
        return [{"kind": s.kind, "level": s.level if s.kind == "bot" else None, "claimed": s.claimed,
                 "online": presence[seat] != "gone", "presence": presence[seat], "name": s.name,
                 "out": seat in self.state.out, "replaced": s.replaced,
                 **shown[seat], "account": name_of(s.account) or shown[seat]["account"]}
                for seat, s in enumerate(self.row.seats)]

    async def offer_rematch(self, seats: list[int], declined_by: int | None = None) -> None:
        """The seats offering a rematch now (lobby.py): stored, and told to every connection."""
        self.row.rematch_offers = seats
        storage = self.backends.storage
        await storage.run(storage.set_rematch_offers, self.id, seats)
        self._tell_offers(declined_by)

    def _tell_offers(self, declined_by: int | None = None) -> None:
        self.broadcast_all({"type": "rematch_offer", "seats": self.row.rematch_offers,
                            **({} if declined_by is None else {"declined_by": declined_by})})

    async def claim(self, seat: int) -> None:
        """Mark a seat as opened by its token (the lobby shows who has come), and when its
        player first came to this game: its clock runs from then (clocks.py). Only a mark:
        while the database fails it is kept here and saved with the seats' next change."""
        row = self.row.seats[seat]
        if not row.claimed or row.arrived is None:
            row.claimed, row.arrived = True, time.time()
            with contextlib.suppress(StorageFailed):
                await self.save_seats()
            clocks.watch(self)  # a clock waiting for this player starts now

    async def save_seats(self) -> None:
        await self.backends.storage.run(self.backends.storage.set_seats, self.id, self.row.seats)

    async def _store_seats(self, seats: list[SeatRow]) -> None:
        """(Under the lock.) Store `seats`, then make them the room's and retell the story if a
        display name changed (see `_retell`); a database failure (StorageFailed) changes nothing."""
        await self.backends.storage.run(self.backends.storage.set_seats, self.id, seats)
        self.row.seats = seats
        if self._names_stale():
            self._retell()

    async def set_name(self, seat: int, name: str | None) -> None:
        """Give a seat its display name (None: its character's name), stored with the seats;
        the story is retold with it."""
        async with self.lock:
            if self.row.seats[seat].name == name:
                return
            await self._store_seats(_with_seat(self.row.seats, seat, name=name))
        self.announce_seats()

    async def hold(self, seat: int, account: str) -> None:
        """Put a seat under an account (accounts.py's claim), stored with the seats."""
        async with self.lock:
            # Called by the account's name from now on, unless the seat was given one.
            name = self.row.seats[seat].name or name_of(account)
            await self._store_seats(_with_seat(self.row.seats, seat, account=account, name=name))
        self.announce_seats()

    async def take_open_seat(self, hashed_token: str, name: str | None,
                             account: str | None = None) -> int | None:
        """Give the first open seat to a joiner: a person's seat from now on, opened by the
        token whose hash is given, under the display name `name` (and the signed-in
        `account`, if any). None: no seat is open."""
        async with self.lock:
            seat = next((i for i, s in enumerate(self.row.seats) if s.kind == "open"), None)
            if seat is None:
                return None
            await self._store_seats(_with_seat(self.row.seats, seat, kind="human",
                                               name=name or (name_of(account) if account else None),
                                               token_hash=hashed_token, claimed=True, account=account,
                                               arrived=time.time()))
        self.announce_seats()
        return seat

    def _retell(self) -> None:
        """Rebuild the state and its log with the seats' display names, and send every
        connection a fresh welcome. Names change no rule and no chance: the same actions give
        the same game, only its narration and words name the players anew."""
        record = replace(self.state.record(), names=[s.name for s in self.row.seats])
        self.state, self.events = build(record, self.state.game)
        self.last_events = []  # told anew: the page falls back to the newest event
        for connection in self.connections:
            connection.send(json.dumps(self.welcome(connection.seat, self.in_gallery(connection))))

    def _names_stale(self) -> bool:
        """The state's names are not (or no longer) the seats' display names."""
        given = self.state.game.display_names(self.state.players, [s.name for s in self.row.seats])
        return given != self.state.names

    @property
    def bot_only(self) -> bool:
        """No person plays in this game: its bots run in the background lane."""
        return all(s.kind == "bot" for s in self.row.seats)

    def expires(self) -> float | None:
        """When this game expires if nobody acts (None: finished games never do)."""
        if self.state.is_over:
            return None
        limits = self.backends.limits
        return self.row.active + (limits.started_ttl if self.state.history else limits.unstarted_ttl)

    def status(self) -> str:
        if self.state.is_over:
            return "finished"
        open_seat = any(s.kind == "open" for s in self.row.seats)
        return "open" if self.row.public and open_seat else "running"

    def summary(self) -> dict[str, Any]:
        state = self.state
        return {"id": self.id, "game": state.game.name, "title": state.game.title,
                "players": list(state.players), "options": state.options, "seats": self.seats_public(),
                "status": self.status(), "at": len(state.history), "hotseat": self.row.hotseat,
                "hints": hints.offered(self.row), "hints_agreed": self.row.hints,
                "public": self.row.public, "winners": state.winners, "aborted": aborts.aborted(state.history),
                "created": self.row.created,
                "rematch": self.row.rematch, "data": state.game.data, "pace": self.row.pace,
                "to_move": state.current_player}

    # -- what a connection sees --------------------------------------------------------

    def view(self, seat: int | None, events: list[Event]) -> dict[str, Any]:
        """The position as `seat` may see it, with `events` as that seat may see them."""
        state = self.state
        # A decision the server takes itself (an automatic action) is offered to no one: a
        # client could only race the server to it.
        deciding = seat is not None and seat == state.current_player and self._server_turn() != "automatic"
        return {"at": len(state.history), "current_player": state.current_player,
                "observation": state.observation(seat), "legal": legal_entries(state) if deciding else [],
                "gestures": state.gestures(seat) if deciding else {},
                "events": [e.view(seat) for e in events], "over": state.is_over,
                "winners": state.winners, "aborted": aborts.aborted(state.history),
                "abortable": self.abortable(), **self.window_times(), "clock": clocks.room_clock(self)}

    def in_gallery(self, connection: Connection) -> bool:
        """Whether the connection is of the gallery: it reads and writes the spectators' chat.
        A seat's connection is not, nor one without a seat that is a player's all the same (a
        second tab without the token): one whose signed-in account holds a seat of this game,
        or from an address a seat of it was opened from on this instance. Players never read
        the spectators' channel; people watching from a player's address lose it too."""
        if connection.seat is not None or connection.client in self.seated_from:
            return False
        return connection.account is None or all(s.account != connection.account for s in self.row.seats)

    def welcome(self, seat: int | None, gallery: bool | None = None) -> dict[str, Any]:
        """Everything a (re)connecting client needs: the game, its seats, the view, and the
        newest LOG_PAGE entries of the log (`log_from`: the index of the first; `history`
        messages bring the earlier ones). `gallery`: whether the connection reads the
        spectators' chat (in_gallery; by default, any connection without a seat)."""
        gallery = seat is None if gallery is None else gallery
        state = self.state
        start = max(0, len(self.events) - LOG_PAGE)
        return {"type": "welcome", "game_id": self.id, "game": state.game.name,
                "title": state.game.title, "data": state.game.data, "seat": seat,
                "players": list(state.players),
                "seats": self.seats_public(), "rematch": self.row.rematch,
                "rematch_offers": self.row.rematch_offers,
                "hints": hints.offered(self.row), "hints_agreed": self.row.hints, "rated": self.rated(),
                "rating_changes": self.rating_changes,
                "created": self.row.created, "finished": self.row.touched if state.is_over else None,
                "last_events": [e.view(seat) for e in self.last_events],
                "log_from": start, "log_total": len(self.events), "chat": self.chat.readable(gallery),
                "spectators_chat": gallery,
                **self.view(seat, self.events[start:])}

    def history(self, seat: int | None, before: int) -> dict[str, Any]:
        """The log entries before `before`, at most LOG_PAGE of them, as `seat` may see them."""
        total = len(self.events)
        if before > total:
            raise Rejected("bad_message", f"'before' must be at most {total}, the entries of the "
                           "log so far")
        start = max(0, before - LOG_PAGE)
        return {"type": "history", "from": start, "before": before, "log_total": total,
                "events": [e.view(seat) for e in self.events[start:before]]}

    def join(self, connection: Connection) -> None:
        if connection.seat is not None and connection.client:
            self.seated_from.add(connection.client)
        self.connections.add(connection)
        self.window_moved.set()  # a window's close may depend on who is connected
        self.presence.joined(connection)
        connection.send(json.dumps(self.welcome(connection.seat, self.in_gallery(connection))))
        self.announce_seats()

    def leave(self, connection: Connection) -> None:
        self.connections.discard(connection)
        self.window_moved.set()
        self.presence.left(connection)
        self.announce_seats()

    def announce_seats(self) -> None:
        self.broadcast_all({"type": "seats", "seats": self.seats_public()})
        self.presence.announced()

    def broadcast_all(self, message: dict[str, Any]) -> None:
        """A message that is the same for every seat (nothing secret in it)."""
        text = json.dumps(message)
        for connection in self.connections:
            connection.send(text)

    def _broadcast_update(self, events: list[Event]) -> None:
        texts: dict[int | None, str] = {}
        for connection in self.connections:
            text = texts.get(connection.seat)
            if text is None:
                text = texts[connection.seat] = json.dumps(
                    {"type": "update", **self.view(connection.seat, events)})
            connection.send(text)

    # -- acting ------------------------------------------------------------------------

    async def act(self, seat: int, action: str, at: int | None, by_server: bool = False) -> None:
        """Check, commit, apply and broadcast one action of `seat`; Rejected changes nothing.
        A person's pass at a response window is taken when the window closes, not sooner
        (`by_server`: the server's own turn, which is never held). Forfeits: `forfeit`."""
        async with self.lock:
            state = self.state
            number = len(state.history)
            if not by_server and action == state.response_window() and seat == state.current_player \
                    and (at is None or at == number):
                return  # the window's own close lets it pass, at the same time as any other
            self._check_open(at)
            if not by_server:
                self.check_played_by_person(seat)
            if seat != state.current_player:
                raise Rejected("not_your_turn", f"it is {state.names[state.current_player]}'s decision, "
                               f"not yours (you play {state.names[seat]})", status=409)
            if not state.is_legal(action):
                if parse_forfeit(action) is not None:
                    raise Rejected("illegal", f"{action[:40]!r} is not an action to send: to resign, "
                                   'send {"type": "resign"}', status=422)
                try:
                    state.apply(action)  # raises IllegalAction, saying why, and changes nothing
                except IllegalAction as exc:
                    raise Rejected("illegal", str(exc), status=422) from None
                raise AssertionError(f"{action!r} was neither legal nor refused")
            await self._commit(action)
        self.wake()

    async def forfeit(self, seat: int, kind: str, at: int | None = None) -> None:
        """`seat` resigns, its time ran out or it aborts the game (`kind`: "resign", "timeout"
        or "abort"), whoever is to decide: committed like any action (`resign:<seat>`, ...).
        While the game may be aborted (aborts.py) a resign or a timeout is an abort; an abort
        after that is refused. Rejected when the game is over, the seat is out already or
        (given `at`) the position moved on, and then nothing changes."""
        async with self.lock:
            self._check_open(at)
            if not self.state.may_forfeit(seat):
                raise Rejected("out", f"{self.state.names[seat]} is out of this game already "
                               "(resigned or out of time); you can still watch", status=409)
            if self.abortable():
                kind = ABORT
            elif kind == ABORT:
                raise Rejected("not_abortable", "every player has made "
                               f"{aborts.MOVES_BEFORE_RESULT} moves: the game can no longer be "
                               "aborted; resign instead if you want to stop", status=409)
            await self._commit(forfeit_action(kind, seat))
        self.wake()

    def abortable(self) -> bool:
        """Whether the game may still be aborted (aborts.py)."""
        return aborts.abortable(self.state, self.turns, self.row.seats)

    def check_played_by_person(self, seat: int) -> None:
        """Rejected when a bot took this person's seat (their clock ran out): its token still
        opens the seat, to watch, but no longer acts, resigns or chooses for it."""
        if self.row.seats[seat].kind == "bot":
            raise Rejected("replaced", f"a bot plays {self.state.names[seat]} now (the clock ran "
                           "out and it took the seat); you are watching", status=409)

    def _check_open(self, at: int | None) -> None:
        """Rejected unless the game goes on and, when `at` is given, the client saw its
        latest position."""
        number = len(self.state.history)
        if self.state.is_over:
            raise Rejected("game_over", "the game is over; no more actions are taken (ask for a "
                           "rematch instead)", status=409)
        if at is not None and at != number:
            raise Rejected("stale", f"you acted on the position after action {at}, but the game "
                           f"is at action {number}; look at the new position and act again",
                           status=409)

    async def _commit(self, action: str) -> None:
        """Store, apply and broadcast an action already checked (under the room's lock)."""
        state = self.state
        number = len(state.history)
        storage = self.backends.storage
        now = time.time()
        if number == 0 and self.row.rated and not ratings.counts_for_ratings(self.row):
            # Created rated, but a seat is not a signed-in account's as play begins: it stays
            # unrated, whoever signs in later (ratings.py, "When a game counts").
            await storage.run(storage.set_unrated, self.id)
            self.row.rated = False
        try:
            await storage.run(storage.append_action, self.id, number + 1, action, now)
        except ActionTaken:  # another server took this position: catch up, then refuse
            await self._catch_up()
            raise Rejected("stale", f"another action reached the game first at action {number}; "
                           f"it is now at action {len(state.history)}: look at the new position "
                           "and act again", status=409) from None
        except StorageFailed as exc:  # nothing stored: nothing applied, nobody told
            raise Rejected("not_saved", f"your move was not saved: the database failed "
                           f"({exc.reason}); nothing was applied, so the game is as it was: try "
                           "again in a while", status=503) from None
        self.row.touched = now
        events = self._apply(action, now)
        await self._applied(events)
        if state.is_over:  # a mark for expiry only: the record itself says the game is over
            with contextlib.suppress(StorageFailed):
                await storage.run(storage.mark_finished, self.id)

    async def catch_up(self) -> None:
        """Apply and broadcast the actions another server process stored for this game since
        this room's latest one (several servers on one database)."""
        async with self.lock:
            await self._catch_up()

    async def _catch_up(self) -> None:
        storage = self.backends.storage
        actions = await storage.run(storage.actions_after, self.id, len(self.state.history))
        if actions:
            events = [event for action, at in actions for event in self._apply(action, at)]
            # Stored elsewhere a moment ago: a response window it opened counts from now here
            # (a little late, never early: a window may not close before its time).
            self.row.touched = time.time()
            await self._applied(events)

    def _apply(self, action: str, at: float | None) -> list[Event]:
        """Apply one stored action (stored at `at`), noting who decided it for the clocks."""
        self.turns.append(clocks.turn_of(self.state, action))
        self.row.times.append(at)
        return self.state.apply(action)

    async def _applied(self, events: list[Event]) -> None:
        """Actions are applied to the state: keep their events and tell every connection; a
        finished game's bots are done (their lock is let go)."""
        self.events.extend(events)
        self.last_events = events
        self.window_moved.set()  # a window being waited out is over (or its seat changed)
        self._broadcast_update(events)
        if self.state.is_over and not self.row.finished:
            self.row.finished = True
            await self.backends.peers.release(self.id)
            self.rating_changes = await ratings.game_over(self.backends.storage, self.row, self.state,
                                                          ratings.Counting.of(self.backends.limits))
            if self.rated() and not self.rating_changes:  # rated, and it counted for nothing?
                storage = self.backends.storage
                self.counted = await storage.run(ratings.counted, storage, self.id)
            if self.rating_changes:
                self.broadcast_all({"type": "rated", "changes": self.rating_changes})

    def rated(self) -> bool:
        """Whether the game is rated: a finished one changed its players' ratings, an
        unfinished one will when it ends (ratings.py)."""
        if self.state.is_over:
            return ratings.is_rated(self.row, self.state) and self.counted is not False
        return ratings.counts_for_ratings(self.row)

    async def load_rating_changes(self) -> None:
        """A finished rated game's rating changes, read once (for the welcome's end dialog)."""
        if self.rating_changes is None and self.state.is_over and self.rated():
            storage = self.backends.storage
            self.rating_changes = await storage.run(ratings.changes_of, storage, self.id)
            if self.rating_changes is None:
                self.counted = await storage.run(ratings.counted, storage, self.id)

    async def refresh(self, row: GameRow) -> None:
        """Take in what another instance stored for this game (`row`, read just now): its new
        actions, seats and rematch; tell the connections, and wake a bot if one is to move."""
        async with self.lock:
            done = len(self.state.history)
            if row.record.actions[done:]:
                await self._applied([event for action, at in zip(row.record.actions[done:], row.times[done:],
                                                                 strict=True)
                                     for event in self._apply(action, at)])
                self.row.touched = row.touched
            if [s.to_dict() for s in row.seats] != [s.to_dict() for s in self.row.seats]:
                self.row.seats = row.seats
                if self._names_stale():
                    self._retell()
                self.announce_seats()
            if row.rematch is not None and self.row.rematch is None:
                self.row.rematch = row.rematch
                self.broadcast_all({"type": "rematch", "game_id": row.rematch})
            if row.rematch_offers != self.row.rematch_offers:
                self.row.rematch_offers = row.rematch_offers
                self._tell_offers()
            # Both only move one way, so a row read before a newer one never undoes it: a game
            # once unrated stays so, a wait is for the latest position chosen.
            self.row.rated = self.row.rated and row.rated
            if row.waited is not None and (self.row.waited is None or row.waited > self.row.waited):
                self.row.waited = row.waited
            if row.window_drawn is not None and row.window_drawn != self.window_drawn \
                    and row.window_drawn[0] == len(self.state.history):
                self._take_drawing(row.window_drawn)
        await self.chat.sync()  # lines and presence another instance stored (chat.py, presence.py)
        await self.presence.reload()
        self.window_moved.set()  # a connection elsewhere may have come or gone: a window's close
        self.wake()

    # -- the server's own turns: bots, and decisions nobody need be asked ------------------

    def window_closes(self) -> float | None:
        """When the response window a person is at closes (seconds since 1970), else None.
        It lasts `response_window` from the moment the answering seat's page drew it (its
        "drawn" message), whatever the person holds; until the page says so, from the action
        that opened it (`touched`, stored) plus `draw_grace`, the longest it waits for the
        drawing. With nobody of that seat connected to any instance, nothing will be drawn: it
        counts from the opening."""
        state = self.state
        seat = state.current_player
        if seat is None or self.row.seats[seat].kind == "bot" or state.response_window() is None:
            return None
        opened = self.row.touched or self.row.created
        drawn = self.window_drawn
        if drawn is not None and drawn[0] == len(state.history):
            start = drawn[1]
        elif not self.presence.connected(seat):
            start = opened
        else:
            start = opened + self.backends.draw_grace
        return start + self.backends.response_window

    def window_times(self) -> dict[str, float | None]:
        """A view's window fields: `closes_at` (None: no window) and `window_seconds`, how long
        it lasts from its drawing (the answering page counts down from there)."""
        closes = self.window_closes()
        seconds = None if closes is None else self.backends.response_window
        return {"closes_at": closes, "window_seconds": seconds}

    async def drawn(self, seat: int, at: int) -> None:
        """`seat`'s page drew the response window at position `at`: it lasts from now (no
        sooner than it opened, no later than `draw_grace` after). Only the first drawing of
        the answering seat counts; any other (stale, another seat's, no window) changes
        nothing. Every connection is told when it closes now (a `window` message): the
        drawing's moment says nothing of what the answering seat holds. Where instances share
        the database it is stored, so the instance that closes the window (and every other)
        hears of it (`refresh`); unstored, they count from the draw grace."""
        state = self.state
        if seat != state.current_player or at != len(state.history) or self._server_turn() != "window":
            return
        if self.window_drawn is not None and self.window_drawn[0] == at:
            return
        opened = self.row.touched or self.row.created
        self._take_drawing((at, min(max(time.time(), opened), opened + self.backends.draw_grace)))
        storage = self.backends.storage
        if storage.shared:
            with contextlib.suppress(StorageFailed):
                await storage.run(storage.set_window_drawn, self.id, *self.window_drawn)

    def _take_drawing(self, drawn: tuple[int, float]) -> None:
        self.window_drawn = drawn
        self.window_moved.set()
        self.broadcast_all({"type": "window", "at": drawn[0], **self.window_times()})

    async def _wait_for_window(self, number: int) -> None:
        """Sleep until the window at position `number` closes, waking when its drawing moves
        the close (or the position moves on: a stop card was played)."""
        while len(self.state.history) == number:
            closes = self.window_closes()
            left = 0.0 if closes is None else closes - time.time()
            if left <= 0:
                return
            self.window_moved.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.window_moved.wait(), left)

    def server_waiting(self) -> bool:
        """The server is to take the next decision (a bot's, a window to close, an action
        nobody need be asked about) and is not already at it here."""
        return self._server_turn() is not None and (self.bot_task is None or self.bot_task.done())

    def _server_turn(self) -> str | None:
        """What the server does next: "bot", "window", "automatic", or None (a person decides)."""
        state = self.state
        seat = state.current_player
        if seat is None:
            return None
        if self.row.seats[seat].kind == "bot":
            return "bot"
        if state.response_window() is not None:
            return "window"
        return "automatic" if state.automatic_action() is not None else None

    def wake(self) -> None:
        """Start the server's turns if it is to decide and is not at it already."""
        if self.server_waiting():
            self.bot_task = asyncio.create_task(self._server_turns(), name=f"bots-{self.id}")
        clocks.watch(self)

    async def _server_turns(self) -> None:
        if not await self.backends.peers.may_run_bots(self.id):
            return  # another instance runs this game's bots; its moves reach us as updates
        while True:
            turn = self._server_turn()
            if turn is None:
                return
            number = len(self.state.history)
            seat = self.state.current_player
            if turn == "bot":
                action = await self._bot_choice(seat)
            elif turn == "window":
                await self._wait_for_window(number)
                if len(self.state.history) != number:
                    continue  # the person answered (a stop card) before it closed
                action = self.state.response_window()
            else:
                action = self.state.automatic_action()
            if action is None:
                return
            try:
                await self.act(seat, action, at=number, by_server=True)
            except Rejected as exc:
                if exc.code == "not_saved":  # the database failed: the move is chosen again later
                    await asyncio.sleep(SAVE_RETRY)
                    continue
                if exc.code == "stale":  # the game moved on while it thought (a forfeit, another
                    continue             # instance): decide again from where it is now
                log.error("server move %r refused in game %s: %s", action, self.id, exc.message)
                return

    async def _bot_choice(self, seat: int) -> str | None:
        """The bot's action, no sooner than `bot_pace` after the action before it; None if the
        bot failed: the game cannot go on, and is served no more (`_cannot_go_on`)."""
        loop = asyncio.get_running_loop()
        record = vars(self.state.record())  # a shallow dict: Record.to_dict deep-copies
        started = loop.time()
        try:
            action = await self.backends.bots.choose(self.id, record, seat, self.row.seats[seat].bot,
                                                     background=self.bot_only)
        except Exception as exc:  # a bot that cannot be built, or a bug: never a silent wait
            await self._cannot_go_on(f"the bot playing {self.state.names[seat]} cannot move: "
                                     f"{type(exc).__name__}: {exc}", _failed_at(exc))
            return None
        delay = self.backends.bot_pace - (loop.time() - started)
        if delay > 0:
            await asyncio.sleep(delay)
        return action

    async def _cannot_go_on(self, reason: str, at: str) -> None:
        """Serve this game no more (it stays in the database, the actions so far kept): the
        lobby logs one line and answers 410 from now on, as for a damaged row; every connection
        is sent that refusal and closed (GONE)."""
        message = json.dumps(self.unservable(self.id, reason, at).to_message())
        for connection in self.connections:
            connection.send(message)
            connection.close(GONE, "this game cannot be served any more")
        await self.backends.peers.release(self.id)

    async def stop(self, code: int | None = None, reason: str = "") -> None:
        """Stop the bots; with a `code`, close every connection with it."""
        if code is not None:
            for connection in self.connections:
                connection.close(code, reason)
        self.presence.stop()
        if self.bot_task is not None:
            self.bot_task.cancel()
            await asyncio.gather(self.bot_task, return_exceptions=True)
        await clocks.stop(self)
        await self.backends.peers.release(self.id)

