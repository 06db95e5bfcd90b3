"""Whether each seat's player is here, away or gone (docs/protocol.md, "Presence").

here: a connection of the seat whose page is visible (each page says so with a `presence`
message; a connection that has said nothing counts as visible). away: connected but every
page of it hidden, or the last connection left less than `Limits.gone_after` seconds ago.
gone: nobody for `gone_after` or more, or never. Bots are always here.

One instance knows its own connections. Where several instances share PostgreSQL, each
keeps one row per game and seat in the `presence` table (its connections, the visible ones,
and `at`: when it last said so): rewritten with a notification when its counts change, and
every `gone_after / 3` seconds without one while it has connections. Another instance's row
with connections counts only while its `at` is fresh: an instance that died stops rewriting
its rows, so its seats go to away, then gone, as if its players had left when it died.
A timer announces each change that only time makes (away becoming gone, a row going stale).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, delete, insert, select

from .storage import Storage, StorageFailed, _write, metadata

if TYPE_CHECKING:
    from .rooms import Connection, Room

HERE, AWAY, GONE = "here", "away", "gone"

presence_table = Table(
    "presence",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("instance", String(16), primary_key=True),
    Column("visible_connections", Integer, nullable=False),
    Column("connections", Integer, nullable=False),
    Column("at", Float, nullable=False),  # when this instance last wrote this row
)


@dataclass(frozen=True)
class Sighting:
    """One instance's word on one seat: its connections (the visible ones) as of `at`."""

    seat: int
    visible: int
    connections: int
    at: float
    fresh_for: float  # seconds its connections count after `at` (this instance's own: for ever)


def state_of(sightings: list[Sighting], now: float, gone_after: float) -> str:
    """here, away or gone, from every instance's word on one seat."""
    live = [s for s in sightings if s.connections and now - s.at < s.fresh_for]
    if any(s.visible for s in live):
        return HERE
    last = max((s.at for s in sightings), default=None)
    return AWAY if live or (last is not None and now - last < gone_after) else GONE


@_write
def store_sightings(storage: Storage, game_id: str, rows: list[Sighting], notify: bool) -> None:
    """This instance's rows of one game, rewritten; the other instances told if `notify`."""
    table = presence_table.c
    with storage.engine.begin() as db:
        for row in rows:
            db.execute(delete(presence_table).where(table.game_id == game_id, table.seat == row.seat,
                                                    table.instance == storage.instance))
            db.execute(insert(presence_table).values(
                game_id=game_id, seat=row.seat, instance=storage.instance, visible_connections=row.visible,
                connections=row.connections, at=row.at))
        if notify:
            storage._changed(db, game_id)


def others_sightings(storage: Storage, game_id: str, fresh_for: float) -> list[Sighting]:
    """The other instances' rows of one game."""
    table = presence_table.c
    with storage.engine.connect() as db:
        rows = db.execute(select(table.seat, table.visible_connections, table.connections, table.at)
                          .where(table.game_id == game_id, table.instance != storage.instance)).all()
    return [Sighting(seat, visible, connections, at, fresh_for) for seat, visible, connections, at in rows]


class Presence:
    """The presence of one room's seats."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self._visible: dict[Connection, bool] = {}  # this instance's seated connections
        self._left: dict[int, float] = {}  # when a seat's last connection here left
        self._others: list[Sighting] = []  # the other instances' rows, as last read
        self._shown: list[str] | None = None  # the states last announced
        self._dirty: set[int] = set()  # seats whose row is to be rewritten
        self._tasks: set[asyncio.Task[None]] = set()
        self._writer: asyncio.Task[None] | None = None
        self._beat: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None

    @property
    def _gone_after(self) -> float:
        return self.room.backends.limits.gone_after

    @property
    def _shared(self) -> bool:
        return self.room.backends.storage.shared

    # -- what clients are told ---------------------------------------------------------

    def of(self, seat: int, now: float | None = None) -> str:
        if self.room.row.seats[seat].kind == "bot":
            return HERE
        now = time.time() if now is None else now
        return state_of([*self._mine(seat, now), *(s for s in self._others if s.seat == seat)],
                        now, self._gone_after)

    def connected(self, seat: int) -> bool:
        """Whether any connection of `seat` is open, here or (by a fresh row) elsewhere."""
        now = time.time()
        return any(s.connections and now - s.at < s.fresh_for
                   for s in [*self._mine(seat, now), *(s for s in self._others if s.seat == seat)])

    def _mine(self, seat: int, now: float) -> list[Sighting]:
        flags = [visible for connection, visible in self._visible.items() if connection.seat == seat]
        if flags:
            return [Sighting(seat, sum(flags), len(flags), now, float("inf"))]
        left = self._left.get(seat)
        return [] if left is None else [Sighting(seat, 0, 0, left, 0.0)]

    def _states(self) -> list[str]:
        now = time.time()
        return [self.of(seat, now) for seat in range(len(self.room.row.seats))]

    # -- what changes it ---------------------------------------------------------------

    def joined(self, connection: Connection) -> None:
        if connection.seat is not None:
            self._visible[connection] = True
            self._changed(connection.seat)

    def left(self, connection: Connection) -> None:
        if self._visible.pop(connection, None) is not None:
            assert connection.seat is not None
            if not any(c.seat == connection.seat for c in self._visible):
                self._left[connection.seat] = time.time()
            self._changed(connection.seat)

    def seen(self, connection: Connection, visible: bool) -> None:
        """A page says whether it is visible; announced if the seat's presence changed."""
        if connection.seat is not None and self._visible.get(connection) != visible:
            self._visible[connection] = visible
            self._changed(connection.seat)
            self.announce_if_changed()

    async def reload(self) -> None:
        """Read the other instances' rows (one of them changed), and announce any change."""
        if self._shared:
            storage = self.room.backends.storage
            with contextlib.suppress(StorageFailed):
                self._others = await storage.run(others_sightings, storage, self.room.id,
                                                 self._gone_after)
        self.announce_if_changed()

    def announce_if_changed(self) -> None:
        """Tell everyone the seats if any presence changed since last told, and set the timer
        for the next change that only time makes."""
        states = self._states()
        if self._shown is not None and states != self._shown:
            self.room.announce_seats()
        self.announced(states)

    def announced(self, states: list[str] | None = None) -> None:
        """The seats were just announced (Room.announce_seats): remember what they said."""
        self._shown = states or self._states()
        self._set_timer()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        for task in (*self._tasks, self._writer, self._beat):
            if task is not None:
                task.cancel()

    # -- time --------------------------------------------------------------------------

    def _set_timer(self) -> None:
        """Wake when the next sighting stops counting (an away seat becomes gone, a row of
        another instance goes stale)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        now = time.time()
        ends = [at + self._gone_after for at in [*self._left.values(), *(s.at for s in self._others)]]
        upcoming = [end for end in ends if end > now]
        if upcoming:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(min(upcoming) - now + 0.01, self._on_time)

    def _on_time(self) -> None:
        self._timer = None
        self._spawn(self.reload())

    def _spawn(self, work: object) -> None:
        task = asyncio.get_running_loop().create_task(work)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- the table (several instances) -------------------------------------------------

    def _changed(self, seat: int) -> None:
        if not self._shared:
            return
        self._dirty.add(seat)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_dirty())
        if self._visible and (self._beat is None or self._beat.done()):
            self._beat = asyncio.get_running_loop().create_task(self._heartbeat())

    async def _write_dirty(self) -> None:
        """Rewrite the rows of the seats that changed, in order, telling the others."""
        while self._dirty:
            seats, self._dirty = sorted(self._dirty), set()
            await self._store(seats, notify=True)

    async def _heartbeat(self) -> None:
        """While this instance has connections, keep its rows fresh (no notification: nothing
        changed that the others must hear now)."""
        while self._visible:
            await asyncio.sleep(self._gone_after / 3)
            await self._store(sorted({c.seat for c in self._visible if c.seat is not None}), notify=False)

    async def _store(self, seats: list[int], notify: bool) -> None:
        now = time.time()
        rows = [next(iter(self._mine(seat, now)), Sighting(seat, 0, 0, now, 0.0)) for seat in seats]
        storage = self.room.backends.storage
        with contextlib.suppress(StorageFailed):  # only a mark: the next change writes it again
            await storage.run(store_sightings, storage, self.room.id, rows, notify)
