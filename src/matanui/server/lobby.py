"""The lobby: creating games, the list of games (a page at a time), joining a free seat,
rematches, replays, bringing every stored game back when the server starts, and closing
games nobody plays any more.

It knows no rule: games are made with `Game.new_game` and rebuilt with `engine.replay`.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import random
import re
import secrets
import time
from collections.abc import Iterator
from typing import Any

from matanui import games
from matanui.ai import make_agent
from matanui.engine import Game, MatanuiError
from matanui.engine.untrusted import shortened
from matanui.games.packs import PackError, offered
from matanui.games.tutorial import Tutorial, TutorialError, play_on_from

from . import clocks
from .accounts import check_display_name, seat_by, sweep_failures
from .presence import GONE
from .protocol import MAX_SEED, CreateGame, Rejected
from .quotas import EXPIRED, Quotas
from .ratings import person
from .replays import check_viewer, replay_text
from .replays import setup_events as _setup_events
from .rooms import Backends, Room, build, token_hash
from .storage import DamagedRow, GameRow, SeatRow
from .users import name_of

log = logging.getLogger("matanui.server")


def new_token() -> str:
    return secrets.token_urlsafe(24)


def fresh_seed() -> int:
    """A seed nobody can guess: the server draws every deal it is not asked for."""
    return secrets.randbelow(MAX_SEED)


# What _cursor writes: the status's rank (RANKS), created (seconds), the game's id.
CURSOR = r"^[0-2]_[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?_[A-Za-z0-9_-]+$"
ABANDONED = "abandoned"
# The lobby's order of statuses: games being played (or waiting for a joiner) first.
RANKS = {"open": 0, "running": 0, ABANDONED: 1, "finished": 2}


def listed_status(room: Room, now: float) -> str:
    """A game's status as the lobby lists it: Room.status, except that a running game nobody
    plays any more (`_played`) is abandoned."""
    status = room.status()
    return ABANDONED if status == "running" and not _played(room, now) else status


def _played(room: Room, now: float) -> bool:
    """Whether anyone is at a running game. A game is played while it is new (its players may
    still be arriving: `gone_after`), while a person still in it is connected (here or away,
    presence.py), or while a turn-based game waits for its person to move (a day a move: they
    need not stay connected). A game of bots only is played while someone watches it (on this
    instance: watchers of another one are not counted); no person is missed there."""
    if now - room.row.created < room.backends.limits.gone_after:
        return True
    if room.bot_only:
        return bool(room.connections)
    people = [seat for seat, s in enumerate(room.row.seats)
              if s.kind == "human" and seat not in room.state.out]
    return (any(room.presence.of(seat, now) != GONE for seat in people)
            or (room.row.pace["kind"] == "turn_based" and room.state.current_player in people))


def listed(room: Room, now: float | None = None) -> dict[str, Any]:
    """A game as the lobby shows it: its summary with the lobby's status, and whether it is rated."""
    now = time.time() if now is None else now
    return {**room.summary(), "status": listed_status(room, now), "rated": room.rated()}


def _order(room: Room, now: float) -> tuple[int, float, str]:
    """The lobby's order: the statuses by RANKS, each newest first. A game's status may change
    between two pages (its player leaves): it may then be listed twice, or not at all."""
    return RANKS[listed_status(room, now)], -room.row.created, room.id


def _cursor(room: Room, now: float) -> str:
    rank, created, game_id = _order(room, now)
    return f"{rank}_{-created!r}_{game_id}"


def _after(cursor: str) -> tuple[int, float, str]:
    if not re.fullmatch(CURSOR, cursor):
        raise Rejected("bad_cursor", "'before' must be the cursor of the previous page's Link "
                       "header, as given", status=422)
    rank, created, game_id = cursor.split("_", 2)
    return int(rank), -float(created), game_id


class Lobby:
    def __init__(self, backends: Backends, quotas: Quotas) -> None:
        self.backends = backends
        self.quotas = quotas
        self.rooms: dict[str, Room] = {}
        self.unavailable: dict[str, str] = {}  # stored games not served, each with why
        self._sweeper: asyncio.Task[None] | None = None

    # -- start and stop ----------------------------------------------------------------

    async def load(self) -> None:
        """Rebuild every stored game that has not expired from its record, let bots whose
        turn it is move, and start looking for games that expire."""
        storage, limits = self.backends.storage, self.backends.limits
        rows, damaged = await storage.run(storage.load_games, time.time(), limits.unstarted_ttl,
                                          limits.started_ttl)
        for problem in damaged:
            self._unavailable(problem)
        for row in rows:
            self._rebuild(row)
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="expire-games")

    def _rebuild(self, row: GameRow, wake: bool = True) -> Room | None:
        """Open a stored game's room, its state rebuilt from its record (None: not served);
        `wake` lets its bot move if one is to."""
        turns: list[tuple[int | None, bool]] = []
        try:
            state, events = build(row.record, turns=turns)
        except MatanuiError as exc:  # e.g. made with older rules: kept in the database, not served
            self._unavailable(DamagedRow(row.id, f"its record does not replay: {exc}"))
            return None
        return self._open(row, state, events, wake=wake, turns=turns)

    def _unavailable(self, problem: DamagedRow, at: str | None = None) -> None:
        """A stored game that cannot be served (its row or record is damaged, it was made with
        other rules, or its bot cannot move, failing `at`): it stays in the database, is not
        listed, and asking for it says why. One log line."""
        log.warning("%s%s (it stays in the database, not listed)", problem, f"; failed at {at}" if at else "")
        self.unavailable[problem.game_id] = problem.reason

    def _cannot_serve(self, game_id: str, reason: str, at: str) -> Rejected:
        """A served game that cannot go on (Room._cannot_go_on): unavailable from now on, like a
        damaged row; the refusal its connections are told."""
        self.rooms.pop(game_id, None)
        self._unavailable(DamagedRow(game_id, reason), at)
        return self._missing(game_id)

    async def refresh(self, game_id: str) -> None:
        """Another instance changed or made this game: bring its room up to date, or open it."""
        storage, limits = self.backends.storage, self.backends.limits
        try:
            row = await storage.run(storage.load_game, game_id, time.time(), limits.unstarted_ttl,
                                    limits.started_ttl)
        except DamagedRow as problem:
            self._unavailable(problem)
            return
        if row is None:
            return
        room = self.rooms.get(game_id)
        if room is None:  # made elsewhere: its bots are the maker's unless it dies (peers.py)
            self._rebuild(row, wake=False)
        else:
            await room.refresh(row)

    async def find(self, game_id: str) -> Room:
        """The room of a game; when other instances share the database, brought up to what it
        holds first (another instance may have made the game, or moved in it, a moment ago:
        its notification may still be on the way). Rejected if there is none."""
        if self.backends.storage.shared:
            room = self.rooms.get(game_id)
            if room is None:
                await self.refresh(game_id)
            else:
                await room.catch_up()
        return self.room(game_id)

    def _open(self, row: GameRow, state: Any, events: list[Any], owner: str | None = None,
              wake: bool = True, turns: list[tuple[int | None, bool]] | None = None) -> Room:
        room = self.rooms[row.id] = Room(row, state, events, self.backends, self._cannot_serve, owner,
                                         turns)
        if wake:
            room.wake()
        else:  # every instance tells its own connections when a clock runs out
            clocks.watch(room)
        return room

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
        for room in self.rooms.values():
            await room.stop()

    # -- expiry ------------------------------------------------------------------------

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.backends.limits.sweep_every)
            await self.sweep(time.time())
            await sweep_failures(self.backends.storage, time.time())

    async def sweep(self, now: float) -> list[str]:
        """Close the games nobody has played for too long (see Room.expires); they leave the
        lobby and memory, stay in the database, and are not loaded again."""
        expired = [room for room in self.rooms.values() if (room.expires() or now) < now]
        for room in expired:
            del self.rooms[room.id]
            await room.stop(EXPIRED, "nobody played this game for too long; it has expired")
        return [room.id for room in expired]

    # -- finding -----------------------------------------------------------------------

    def room(self, game_id: str) -> Room:
        room = self.rooms.get(game_id)
        if room is None:
            raise self._missing(game_id)
        return room

    def _missing(self, game_id: str) -> Rejected:
        """Why there is no room for `game_id`: it cannot be served (410), or there is no such game."""
        if game_id in self.unavailable:
            return Rejected("unavailable_game", f"game {shortened(game_id)} is in the database but "
                            f"cannot be served: {self.unavailable[game_id]}", status=410)
        return Rejected("unknown_game", f"there is no game {shortened(game_id)} (a game nobody plays "
                        "expires); GET /api/games lists them", status=404)

    def listing(self, limit: int, before: str | None, game: str | None = None,
                now: float | None = None, pace: str | None = None) -> tuple[list[dict[str, Any]], str | None]:
        """One page of games (of `game` only, when named; of that `pace` kind only, when
        named) in the lobby's order (`_order`: open and running games, then abandoned ones,
        then finished ones, each newest first), starting after the cursor `before`; and the
        cursor of the next page (None: no more). A game past its expiry is not listed, even
        before the next sweep closes it."""
        if game is not None and game not in games.names():
            raise Rejected("unknown_game", games.unknown(game), status=422)
        now = time.time() if now is None else now
        rooms: Any = (room for room in self.rooms.values()
                      if (game is None or room.state.game.name == game)
                      and (pace is None or room.row.pace["kind"] == pace) and (room.expires() or now) >= now)
        if before is not None:
            start = _after(before)
            rooms = (room for room in rooms if _order(room, now) > start)
        page = heapq.nsmallest(limit + 1, rooms, key=lambda room: _order(room, now))
        more = _cursor(page[limit - 1], now) if len(page) > limit else None
        return [listed(room, now) for room in page[:limit]], more

    # -- creating ----------------------------------------------------------------------

    @contextlib.contextmanager
    def _admitting(self, client: str, bot_only: bool) -> Iterator[None]:
        """Refuse a new game past the server's caps or the client's rate (quotas.py); the game
        counts against the client's rate only if the block makes it."""
        live = [room for room in self.rooms.values() if not room.state.is_over]
        bots = [room for room in live if room.bot_only]
        self.quotas.check_new_game(client, len(live), bot_only, len(bots),
                                   sum(room.owner == client for room in bots))
        with self.quotas.creating(client):
            yield

    async def create(self, spec: CreateGame, client: str,
                     account: str | None = None) -> tuple[Room, list[str | None]]:
        """A new game of `client` and the secret token of each human seat (None for bots). The
        creator's seats (the first person's, every person's in hot-seat) go under the
        signed-in `account`, if any."""
        for seat in spec.seats:
            await check_display_name(self.backends.storage, seat.name, account)
        with self._admitting(client, all(seat.kind == "bot" for seat in spec.seats)):
            kinds = self._seat_kinds(spec)
            creator = kinds.index("human") if "human" in kinds else None
            # The creator's seat is called by the account's name unless given another (in
            # hot-seat, where the account holds every seat, each keeps its character's).
            names = [seat.name or (name_of(account) if i == creator and not spec.hotseat else None)
                     for i, seat in enumerate(spec.seats)]
            try:
                players = self._characters(spec)
                for seat in spec.seats:
                    if seat.kind == "bot":
                        make_agent(seat.level, spec.game, outside_code=False)
                state = self._game(spec).new_game(self._seed(spec), players, spec.options, names=names)
            except MatanuiError as exc:
                raise Rejected("bad_game", str(exc), status=422) from None
            tokens = [new_token() if kind == "human" else None for kind in kinds]
            seats = [SeatRow(kind=kind, level=seat.level if kind == "bot" else None,
                             token_hash=token_hash(token) if token else None, name=name,
                             account=account if kind == "human" and (spec.hotseat or i == creator) else None)
                     for i, (seat, kind, token, name) in enumerate(zip(spec.seats, kinds, tokens, names,
                                                                       strict=True))]
            row = GameRow(id=secrets.token_urlsafe(6), record=state.record(), seats=seats,
                          public="open" in kinds, hotseat=spec.hotseat, hints=spec.hints,
                          rated=spec.rated,
                          pace=clocks.pace_of(spec, self.backends.limits.least_move_seconds))
            await self._store(row)
        return self._open(row, state, _setup_events(state), client), tokens

    async def play_on(self, tutorial: Tutorial, level: str, client: str,
                      account: str | None = None) -> tuple[Room, list[str | None]]:
        """A game against `level` bots for a learner who finished `tutorial`: from where it
        ended, if its game goes on there, else a fresh deal of the same characters and options.
        The learner's seat is the only person's, so the game gives hints (hints.py)."""
        with self._admitting(client, False):
            try:
                state = play_on_from(tutorial, fresh_seed())
            except TutorialError as error:
                raise Rejected("tutorial_broken", str(error), status=500) from None
            learner = tutorial.learner
            token = new_token()
            seats = [SeatRow(kind="human", token_hash=token_hash(token), name=name_of(account),
                             account=account) if i == learner else SeatRow(kind="bot", level=level)
                     for i in range(len(state.players))]
            record = state.record()
            record.names = [seat.name for seat in seats]
            now = time.time()
            row = GameRow(id=secrets.token_urlsafe(6), record=record, seats=seats, public=False,
                          hotseat=False, created=now, times=[now] * len(record.actions))
            await self._store(row)
            turns: list[tuple[int | None, bool]] = []
            state, events = build(record, turns=turns)
        return self._open(row, state, events, client, turns=turns), [token if i == learner else None
                                                                     for i in range(len(seats))]

    @staticmethod
    def _game(spec: CreateGame) -> Game:
        """The game on the data pack asked for; a pack this server does not offer is not found."""
        try:
            return offered(spec.game, spec.data)
        except PackError as exc:
            raise Rejected("unknown_data", str(exc), status=404) from None

    @staticmethod
    def _seed(spec: CreateGame) -> int:
        """The deal's seed: the one asked for where every seat is the creator's (alone against
        bots, hot-seat, bots only), else one only the server knows until the game is over.
        Whoever chose the seed could rebuild the deal and read every other player's hand, so
        a seed is refused where anyone else holds a seat (an invite, an open seat)."""
        if spec.seed is None:
            return fresh_seed()
        if spec.shared:
            raise Rejected("bad_request", "seed: a chosen seed would let its chooser rebuild the "
                           "deal and read the other players' hands, so it is allowed only where "
                           "every seat is yours (alone against bots, hot-seat, bots only); leave "
                           "it out and the server deals", status=422)
        return spec.seed

    async def _store(self, row: GameRow) -> None:
        storage = self.backends.storage
        await storage.run(storage.create_game, row)

    @staticmethod
    def _seat_kinds(spec: CreateGame) -> list[str]:
        """Each seat's kind; `public` without named open seats opens every person's seat
        but the creator's (the first)."""
        kinds = [seat.kind for seat in spec.seats]
        if spec.public and "open" not in kinds:
            humans = [i for i, kind in enumerate(kinds) if kind == "human"]
            for index in humans[1:]:
                kinds[index] = "open"
        if "open" in kinds and spec.hotseat:
            raise Rejected("bad_game", "a hot-seat game is played at one screen and has no open "
                           "seats; make the seats people or bots", status=422)
        if "open" in kinds and "human" not in kinds:
            raise Rejected("bad_game", "an open game needs one person's seat for its creator "
                           '(kind "human") besides the open ones', status=422)
        return kinds

    @staticmethod
    def _characters(spec: CreateGame) -> list[str]:
        """The named characters, and for unnamed seats ones drawn from those left."""
        game = games.get(spec.game)
        allowed = game.characters()
        if not game.min_players <= len(spec.seats) <= game.max_players:
            raise Rejected("bad_game", f"{spec.game} is for {game.players_words()} players, "
                           f"not {len(spec.seats)}", status=422)
        named = [s.character for s in spec.seats if s.character]
        for name in named:
            if name not in allowed:
                raise Rejected("bad_game", f"{shortened(name)} is not a character of {spec.game}; "
                               f"choose from: {', '.join(allowed)}", status=422)
        rest = [c for c in allowed if c not in named]
        random.SystemRandom().shuffle(rest)
        return [s.character or rest.pop() for s in spec.seats]

    # -- seats -------------------------------------------------------------------------

    async def join(self, game_id: str, name: str | None = None,
                   account: str | None = None) -> tuple[int, str]:
        """Take the first open seat of a public game, under the display name `name` if one is
        given: a token is issued for it now, and it is a person's seat from then on. A seat
        whose token was issued at creation (the creator's, an invite) is never offered, used
        or not."""
        room = await self.find(game_id)
        if not room.row.public:
            raise Rejected("not_public", "this game's seats are taken by invite link only", status=403)
        if room.state.is_over:
            raise Rejected("game_over", "the game is over", status=409)
        await check_display_name(self.backends.storage, name, account)
        token = new_token()
        seat = await room.take_open_seat(token_hash(token), name, account)
        if seat is not None:
            return seat, token
        raise Rejected("no_free_seat", "every human seat of this game is taken; watch it instead",
                       status=409)

    async def set_name(self, game_id: str, token: str | None, name: str | None,
                       account: str | None = None) -> int:
        """The seat a token (else the signed-in `account`) opens takes the display name `name`
        (None: its character's name); its seat number. Rejected for a token that opens no
        seat, and nothing changes."""
        room = await self.find(game_id)
        seat = seat_by(room, token, account)
        await check_display_name(self.backends.storage, name, room.row.seats[seat].account or account)
        await room.set_name(seat, name)
        return seat

    async def rematch(self, game_id: str, token: str | None, client: str,
                      account: str | None = None) -> Room | list[int]:
        """The seat offers a rematch, or accepts the one offered: once every person at the
        table has (`rematch_offers`), the rematch is made, with the same seats, characters and
        options and a new seed. Each seat keeps its token, so everyone follows with the link
        they have; asking again gives the same rematch. Until then, the seats offering it: an
        offer stands while its seat is connected (a stale offer is no offer)."""
        room = await self.find(game_id)
        seat = seat_by(room, token, account)
        if room.row.rematch is not None:
            return await self.find(room.row.rematch)
        if not room.state.is_over:
            raise Rejected("not_over", "a rematch is offered once the game is over", status=409)
        offers = sorted({seat, *(s for s in room.row.rematch_offers if room.presence.connected(s))})
        people = {number for number, s in enumerate(room.row.seats) if person(s)}
        if not room.row.hotseat and not people <= set(offers):
            await room.offer_rematch(offers)
            return offers
        with self._admitting(client, room.bot_only):
            old = room.state
            state = old.game.new_game(fresh_seed(), old.players, old.options,
                                      names=[s.name for s in room.row.seats])
            # A seat a bot took over when its player's clock ran out is theirs again.
            seats = [SeatRow("human" if s.replaced else s.kind, None if s.replaced else s.level,
                             s.token_hash, s.claimed, s.name, s.account) for s in room.row.seats]
            row = GameRow(id=secrets.token_urlsafe(6), record=state.record(), seats=seats,
                          public=room.row.public, hotseat=room.row.hotseat, pace=dict(room.row.pace),
                          hints=room.row.hints, rated=room.row.rated)
            await self._store(row)
        room.row.rematch = row.id
        storage = self.backends.storage
        await storage.run(storage.set_rematch, room.id, row.id)
        new_room = self._open(row, state, _setup_events(state), client)
        room.broadcast_all({"type": "rematch", "game_id": row.id})
        return new_room

    async def decline_rematch(self, game_id: str, token: str | None, account: str | None = None) -> int:
        """The seat declines the rematch offered (or withdraws its own offer): no offer stands."""
        room = await self.find(game_id)
        seat = seat_by(room, token, account)
        if room.row.rematch is not None:
            raise Rejected("rematch_made", "the rematch is made already: it cannot be declined, "
                           "only left unplayed", status=409)
        await room.offer_rematch([], declined_by=seat)
        return seat

    # -- replays -----------------------------------------------------------------------

    async def replay_json(self, game_id: str, seat: int | None, token: str | None, client: str,
                          account: str | None = None) -> str:
        """A game's replay as one viewer may see it (replays.py, `check_viewer`): every step's
        words and events and the first positions, as JSON text built in a replay worker; the
        other positions come by range (`replays.positions_json`)."""
        room = await self.find(game_id)
        state = room.state
        check_viewer(room, seat, token, account)
        await room.chat.load()
        with self.quotas.replay(client):
            return await self.backends.replays.run(replay_text, state.record().to_dict(), seat,
                                                   state.is_over, room.summary(), room.chat.replay_lines())
