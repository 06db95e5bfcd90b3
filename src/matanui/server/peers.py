"""Several server instances on one PostgreSQL: hearing each other and sharing out the bots.

Every write to a game notifies "<instance> <game id>" on PostgreSQL's channel (storage.py),
delivered when its transaction commits. Each instance LISTENs on a connection of its own and,
hearing of a game another instance changed, brings that game's room up to date (new actions,
seats, a rematch) or loads a game it had not seen: any instance serves any game, and every
player and spectator sees every update whichever instance they reach. No broker besides the
database.

The bots of a game move on exactly one instance: the one holding the game's advisory lock
(session-level, on a second connection of its own). An instance that dies loses its session
and its locks with it; every instance looks each ADOPT_EVERY seconds for games whose bot is to
move and whose lock nobody holds, and takes them over. Two instances can still never both
store a move (the actions' key is the optimistic lock, rooms.py), so a lock lost in a
database restart costs at most a refused duplicate bot move.

SQLite has one instance (`matanui serve` refuses a second), which runs every bot: `Solo`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy.engine import make_url

from .redact import scrubbed
from .storage import CHANNEL

if TYPE_CHECKING:
    from .lobby import Lobby

log = logging.getLogger("matanui.server")

ADOPT_EVERY = 1.0  # seconds between looks for games whose bots nobody runs
RECONNECT_AFTER = 1.0
LOCK_SPACE = 0x6D74  # the first key of matanui's advisory locks ("mt"); the second is the game's


def lock_key(game_id: str) -> int:
    """A game's advisory lock key: a signed 32-bit number from its id."""
    return int.from_bytes(hashlib.sha256(game_id.encode()).digest()[:4], "big", signed=True)


class Peers(Protocol):
    async def start(self, lobby: Lobby) -> None: ...
    async def may_run_bots(self, game_id: str) -> bool: ...
    async def release(self, game_id: str) -> None: ...
    async def stop(self) -> None: ...


class Solo:
    """The only instance: every bot is its own, there is nobody to hear."""

    async def start(self, lobby: Lobby) -> None:
        pass

    async def may_run_bots(self, game_id: str) -> bool:
        return True

    async def release(self, game_id: str) -> None:
        pass

    async def stop(self) -> None:
        pass


class PostgresPeers:
    """One of several instances on the PostgreSQL at `url` (an SQLAlchemy URL)."""

    def __init__(self, url: str, instance: str) -> None:
        self.dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self.instance = instance
        self.held: set[str] = set()  # games whose advisory lock this instance holds
        self._locks: Any = None  # the psycopg connection holding them
        self._guard = asyncio.Lock()  # one query at a time on it
        self._tasks: list[asyncio.Task[None]] = []
        self._stopped = False

    async def start(self, lobby: Lobby) -> None:
        self.lobby = lobby
        heard = asyncio.Event()
        self._tasks = [asyncio.create_task(self._listen(heard), name="listen-peers"),
                       asyncio.create_task(self._adopt_forever(), name="adopt-bots")]
        await asyncio.wait_for(heard.wait(), 30)  # listening before the first request is served

    async def stop(self) -> None:
        """Stop listening and release every lock (they go with the session)."""
        self._stopped = True
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        async with self._guard:
            if self._locks is not None:
                await self._locks.close()
                self._locks = None

    async def _connect_locks(self) -> None:
        import psycopg

        self.held.clear()
        self._locks = await psycopg.AsyncConnection.connect(  # named, to be found in pg_locks
            self.dsn, autocommit=True, application_name=f"matanui {self.instance}")

    async def _query(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """One query on the locks connection; a lost connection loses every lock with it."""
        import psycopg

        async with self._guard:
            try:
                if self._locks is None or self._locks.closed:
                    await self._connect_locks()
                cursor = await self._locks.execute(sql, args)
                return await cursor.fetchall()
            except (psycopg.Error, OSError) as exc:
                log.warning("advisory locks: %s; reconnecting", scrubbed(str(exc), self.dsn))
                self._locks = None
                self.held.clear()
                raise

    # -- bots ----------------------------------------------------------------------------

    async def may_run_bots(self, game_id: str) -> bool:
        if self._stopped:
            return False
        if game_id in self.held:
            return True
        try:
            [(taken,)] = await self._query("SELECT pg_try_advisory_lock(%s, %s)", LOCK_SPACE,
                                           lock_key(game_id))
        except Exception:
            return False
        if taken:
            self.held.add(game_id)
        return bool(taken)

    async def release(self, game_id: str) -> None:
        if game_id in self.held and not self._stopped:
            self.held.discard(game_id)
            with contextlib.suppress(Exception):
                await self._query("SELECT pg_advisory_unlock(%s, %s)", LOCK_SPACE, lock_key(game_id))

    async def _adopt_forever(self) -> None:
        while True:
            await asyncio.sleep(ADOPT_EVERY)
            with contextlib.suppress(Exception):
                await self.adopt()

    async def adopt(self) -> None:
        """Wake the bots of games whose bot is to move and whose lock no other instance holds
        (its holder died, or never was): `Room.wake` then takes the lock."""
        waiting = [room for room in self.lobby.rooms.values() if room.server_waiting()]
        if not waiting:
            return
        others = {key for (key,) in await self._query(
            "SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND classid = %s "
            "AND pid <> pg_backend_pid()", LOCK_SPACE)}
        for room in waiting:
            if lock_key(room.id) & 0xFFFFFFFF not in others:
                room.wake()

    # -- hearing the others -------------------------------------------------------------

    async def _refresh(self, game_id: str) -> None:
        try:
            await self.lobby.refresh(game_id)
        except Exception:  # one game's trouble must not deafen the instance to the others
            log.exception("bringing game %s up to date failed", game_id)

    async def _listen(self, heard: asyncio.Event) -> None:
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.dsn, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if heard.is_set():  # a reconnection: what was said meanwhile is lost
                        for game_id in list(self.lobby.rooms):
                            await self._refresh(game_id)
                    heard.set()
                    async for note in conn.notifies():
                        instance, _, game_id = note.payload.partition(" ")
                        if instance != self.instance:
                            await self._refresh(game_id)
            except (psycopg.Error, OSError) as exc:
                log.warning("listening to the other instances: %s; reconnecting",
                            scrubbed(str(exc), self.dsn))
                await asyncio.sleep(RECONNECT_AFTER)
