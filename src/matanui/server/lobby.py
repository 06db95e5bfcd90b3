"""The lobby: creating games, the list of games, joining a free seat, rematches, replays, and
bringing every stored game back when the server starts.

It knows no rule: games are made with `Game.new_game` and rebuilt with `engine.replay`.
"""

from __future__ import annotations

import logging
import random
import secrets
from typing import Any

from matanui import games
from matanui.ai import make_agent
from matanui.engine import Event, MatanuiError, Record, State, replay

from .protocol import MAX_SEED, CreateGame, Rejected
from .rooms import Backends, Room, token_hash
from .storage import GameRow, SeatRow

log = logging.getLogger("matanui.server")

RECENT_FINISHED = 20  # finished games the lobby lists (for replays and rematches)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def _setup_events(state: State) -> list[Event]:
    return list(getattr(state, "setup_events", []))


class Lobby:
    def __init__(self, backends: Backends) -> None:
        self.backends = backends
        self.rooms: dict[str, Room] = {}

    # -- start and stop ----------------------------------------------------------------

    async def load(self) -> None:
        """Rebuild every stored game from its record, and let bots whose turn it is move."""
        storage = self.backends.storage
        for row in await storage.run(storage.load_games):
            try:
                state = replay(Record(row.record.game, row.record.rules_version, row.record.seed,
                                      row.record.players, row.record.options, row.record.arrangement))
                events = _setup_events(state)
                for action in row.record.actions:
                    events += state.apply(action)
            except MatanuiError as exc:  # e.g. made with older rules: kept in the database, not served
                log.warning("game %s is not served: %s", row.id, exc)
                continue
            self._open(row, state, events)

    def _open(self, row: GameRow, state: State, events: list[Event]) -> Room:
        room = self.rooms[row.id] = Room(row, state, events, self.backends)
        room.wake_bot()
        return room

    async def stop(self) -> None:
        for room in self.rooms.values():
            await room.stop()

    # -- finding -----------------------------------------------------------------------

    def room(self, game_id: str) -> Room:
        room = self.rooms.get(game_id)
        if room is None:
            raise Rejected("unknown_game", f"there is no game {game_id!r}; GET /api/games lists them",
                           status=404)
        return room

    def listing(self) -> list[dict[str, Any]]:
        """Open and running games, newest first, then the latest finished ones."""
        rooms = sorted(self.rooms.values(), key=lambda r: r.row.created, reverse=True)
        live = [r.summary() for r in rooms if not r.state.is_over]
        done = [r.summary() for r in rooms if r.state.is_over][:RECENT_FINISHED]
        return live + done

    # -- creating ----------------------------------------------------------------------

    async def create(self, spec: CreateGame) -> tuple[Room, list[str | None]]:
        """A new game and the secret token of each human seat (None for bots)."""
        try:
            game = games.get(spec.game)
            players = self._characters(spec)
            for seat in spec.seats:
                if seat.kind == "bot":
                    make_agent(seat.level, spec.game)
            seed = spec.seed if spec.seed is not None else random.SystemRandom().randrange(MAX_SEED)
            state = game.new_game(seed, players, spec.options)
        except MatanuiError as exc:
            raise Rejected("bad_game", str(exc)) from None
        kinds = self._seat_kinds(spec)
        tokens = [new_token() if kind == "human" else None for kind in kinds]
        seats = [SeatRow(kind=kind, level=seat.level if kind == "bot" else None,
                         token_hash=token_hash(token) if token else None)
                 for seat, kind, token in zip(spec.seats, kinds, tokens, strict=True)]
        row = GameRow(id=secrets.token_urlsafe(6), record=state.record(), seats=seats,
                      public="open" in kinds, hotseat=spec.hotseat)
        await self._store(row)
        return self._open(row, state, _setup_events(state)), tokens

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
                           "seats; make the seats people or bots")
        if "open" in kinds and "human" not in kinds:
            raise Rejected("bad_game", "an open game needs one person's seat for its creator "
                           '(kind "human") besides the open ones')
        return kinds

    @staticmethod
    def _characters(spec: CreateGame) -> list[str]:
        """The named characters, and for unnamed seats ones drawn from those left."""
        game = games.get(spec.game)
        allowed = game.characters()
        if not game.min_players <= len(spec.seats) <= game.max_players:
            raise Rejected("bad_game", f"{spec.game} is for {game.min_players} to {game.max_players} "
                           f"players, not {len(spec.seats)}")
        named = [s.character for s in spec.seats if s.character]
        for name in named:
            if name not in allowed:
                raise Rejected("bad_game", f"{name!r} is not a character of {spec.game}; choose from: "
                               f"{', '.join(allowed)}")
        rest = [c for c in allowed if c not in named]
        random.SystemRandom().shuffle(rest)
        return [s.character or rest.pop() for s in spec.seats]

    # -- seats -------------------------------------------------------------------------

    async def join(self, game_id: str) -> tuple[int, str]:
        """Take the first open seat of a public game: a token is issued for it now, and it is
        a person's seat from then on. A seat whose token was issued at creation (the
        creator's, an invite) is never offered, used or not."""
        room = self.room(game_id)
        if not room.row.public:
            raise Rejected("not_public", "this game's seats are taken by invite link only", status=403)
        if room.state.is_over:
            raise Rejected("game_over", "the game is over", status=409)
        for seat, row in enumerate(room.row.seats):
            if row.kind == "open":
                token = new_token()
                row.kind, row.token_hash = "human", token_hash(token)
                row.claimed = True
                await room.save_seats()
                room.announce_seats()
                return seat, token
        raise Rejected("no_free_seat", "every human seat of this game is taken; watch it instead",
                       status=409)

    async def rematch(self, game_id: str, token: str) -> Room:
        """The same seats, characters and options, a new seed. Each seat keeps its token, so
        everyone follows with the link they have; asking twice gives the same rematch."""
        room = self.room(game_id)
        room.seat_for(token)
        if room.row.rematch is not None:
            return self.room(room.row.rematch)
        if not room.state.is_over:
            raise Rejected("not_over", "a rematch is offered once the game is over", status=409)
        old = room.state
        state = old.game.new_game(random.SystemRandom().randrange(MAX_SEED), old.players, old.options)
        seats = [SeatRow(s.kind, s.level, s.token_hash, s.claimed) for s in room.row.seats]
        row = GameRow(id=secrets.token_urlsafe(6), record=state.record(), seats=seats,
                      public=room.row.public, hotseat=room.row.hotseat)
        await self._store(row)
        room.row.rematch = row.id
        storage = self.backends.storage
        await storage.run(storage.set_rematch, room.id, row.id)
        new_room = self._open(row, state, _setup_events(state))
        room.broadcast_all({"type": "rematch", "game_id": row.id})
        return new_room

    # -- replays -----------------------------------------------------------------------

    def replay_frames(self, game_id: str, seat: int | None, token: str | None) -> dict[str, Any]:
        """Every position of a game as one viewer may see it, to step through forwards and back.

        Anyone sees the public view; a seat's own view needs its token while the game runs,
        and is open to all once the game is over (nothing is secret any more)."""
        room = self.room(game_id)
        state = room.state
        if seat is not None:
            if not 0 <= seat < len(state.players):
                raise Rejected("bad_seat", f"seat must be 0 to {len(state.players) - 1}, or absent for "
                               "the public view")
            if not state.is_over and (token is None or room.seat_for(token) != seat):
                raise Rejected("bad_token", "while the game runs, a seat's replay needs that seat's "
                               "token", status=403)
        record = state.record()
        step = replay(Record(record.game, record.rules_version, record.seed, record.players,
                             record.options, record.arrangement))
        frames = [{"action": None, "text": "Set-up",
                   "events": [e.view(seat) for e in _setup_events(step)],
                   "observation": step.observation(seat)}]
        for action in record.actions:
            actor = step.current_player
            # An action id or its words may name what only the actor knew (a card from the hand):
            # shown to the actor, and to everyone once the game is over.
            shown = state.is_over or seat == actor
            text = f"Player {actor + 1}: " + (step.describe(action) if shown else "decides.")
            events = step.apply(action)
            frames.append({"action": action if shown else None, "actor": actor, "text": text,
                           "events": [e.view(seat) for e in events], "observation": step.observation(seat)})
        summary = room.summary()
        result: dict[str, Any] = {"game": summary, "seat": seat, "frames": frames}
        if state.is_over:
            result["record"] = record.to_dict()
        return result
