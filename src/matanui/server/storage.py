"""Persistence: a game is its record (seed, players, options, actions) plus its seats.

SQLAlchemy Core over two tables, `games` and `actions` (one row per accepted action, keyed by
game and number, so an action can never be stored twice). SQLite (one file) by default, any
SQLAlchemy URL otherwise (PostgreSQL: `postgresql+psycopg://...`).

The calls are synchronous and go through `Storage.run`, in the order they are made. SQLite
runs in WAL mode with synchronous=NORMAL: a commit appends to the log without waiting for the
disk (about a tenth of a millisecond), so it runs inline on the event loop; handing it to a
thread cost more than the write (the GIL hops measured as most of the round trip under load,
see docs/performance.md). A committed action survives the server being killed (what the
restart test checks); only a power cut can lose the last commits. Other databases (PostgreSQL)
answer over the network, so their calls run on one dedicated thread and the loop never waits.

Nothing the database holds or does stops the server: a call that fails (a full disk, a server
gone) raises `StorageFailed`, a refusal the client is told (nothing was saved) and the health
check reports; one row this matanui cannot read makes that one game unavailable
(`DamagedRow`); an SQLite file that is damaged, or no database at all, is refused when the
server starts (`DamagedDatabase`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, Json, StringConstraints, ValidationError
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    cast,
    create_engine,
    delete,
    event,
    insert,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError

from matanui.ai import make_agent
from matanui.engine import MatanuiError, Record, RecordError
from matanui.engine.untrusted import printable

from .incidents import Incidents
from .protocol import Pace, Rejected

T = TypeVar("T")
log = logging.getLogger("matanui.server")

# Seconds a failed write keeps the health check at 503 unless a write succeeds meanwhile (the
# health check's own probe writes too: this is for writes it might not meet, and it forgets so
# that an instance nobody writes to is not kept out of a load balancer for ever).
FAILURE_MEMORY = 30.0

UNTIMED = {"kind": "untimed"}  # the pace of a game stored before games had one
CHANNEL = "matanui_games"  # PostgreSQL: each write to a game notifies "<instance> <game id>"

metadata = MetaData()

games_table = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("rules_version", String(16), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("players", JSON, nullable=False),
    Column("options", JSON, nullable=False),
    Column("arrangement", JSON, nullable=True),
    Column("seats", JSON, nullable=False),  # [{"kind", "level", "token_hash", "claimed", "name"}]
    Column("public", Boolean, nullable=False),
    Column("hotseat", Boolean, nullable=False),
    Column("created", Float, nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    Column("rematch", String(32), nullable=True),
    Column("touched", Float, nullable=True),  # time of the latest action (NULL: none yet)
    Column("data", JSON, nullable=True),  # the data pack played: {"name", "hash"}; NULL: built in
    Column("pace", JSON, nullable=True),  # {"kind", "move_seconds", "bank_seconds"}; NULL: untimed
    Column("hints", Boolean, nullable=True),  # every person agreed to hints at creation; NULL: no
    Column("rated", Boolean, nullable=True),  # created rated (ratings.py); NULL: no
    # When the answering seat's page drew the response window at position drawn_number (rooms.py)
    Column("drawn_number", Integer, nullable=True),
    Column("drawn_at", Float, nullable=True),
    # The seats that offer (or accepted) a rematch not made yet, as "0,2" (lobby.py); null: none
    Column("rematch_offers", String(64), nullable=True),
    # The position at which a player chose to wait for a seat out of time (clocks.py); null: none
    Column("waited", Integer, nullable=True),
)

actions_table = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("number", Integer, primary_key=True),  # 1-based, in the order applied
    Column("action", Text, nullable=False),
    Column("at", Float, nullable=True),  # when it was stored (the clocks); NULL in older databases
)

probes_table = Table(  # the health check's write: one row per server instance, rewritten
    "probes",
    metadata,
    Column("instance", String(16), primary_key=True),
    Column("at", Float, nullable=False),
)
JSON_COLUMNS = frozenset(c.name for c in games_table.columns if isinstance(c.type, JSON))


@dataclass
class SeatRow:
    """One seat as stored: a person (with the hash of their secret token) or a bot."""

    kind: str  # "human" (a token was issued), "open" (offered in the lobby, no token yet) or "bot"
    level: str | None = None  # bot level: easy, medium, hard (None: medium)
    token_hash: str | None = None
    claimed: bool = False
    name: str | None = None  # the display name, given at creation or later (absent in older databases)
    account: str | None = None  # the id of the account that holds this seat (None: anonymous)
    replaced: bool = False  # a person's seat that a bot took over when their clock ran out
    arrived: float | None = None  # when its player first opened it in this game (clocks.py)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level, "token_hash": self.token_hash,
                "claimed": self.claimed, "name": self.name, "account": self.account,
                "replaced": self.replaced, "arrived": self.arrived}

    @property
    def bot(self) -> str:
        """The agent a bot seat is played by (ai/registry.py's names)."""
        return self.level or "medium"


@dataclass
class GameRow:
    """A stored game: its record without the actions, and its seats."""

    id: str
    record: Record
    seats: list[SeatRow]
    public: bool
    hotseat: bool
    created: float = field(default_factory=time.time)
    finished: bool = False
    rematch: str | None = None
    touched: float | None = None  # time of the latest action; None before the first
    pace: dict[str, Any] = field(default_factory=lambda: dict(UNTIMED))  # protocol.Pace as JSON
    times: list[float | None] = field(default_factory=list)  # when each action was stored
    hints: bool = False  # hints for every seat, agreed by every person at creation (hints.py)
    rated: bool = False  # created rated: its result counts if its seats do (ratings.py)
    window_drawn: tuple[int, float] | None = None  # (position, when its window was drawn)
    rematch_offers: list[int] = field(default_factory=list)  # seats offering a rematch (lobby.py)
    waited: int | None = None  # the position at which the others chose to wait for a late seat

    @property
    def active(self) -> float:
        """When anyone last did something to the game (its creation, else its latest action)."""
        return self.touched if self.touched is not None else self.created


class StorageFailed(Rejected):
    """The database failed a call (a full disk, a damaged file, a server gone): nothing of it
    was stored. `reason` is the database's own words, e.g. "database or disk is full"."""

    def __init__(self, reason: str, write: bool) -> None:
        super().__init__("not_saved" if write else "database_unavailable",
                         f"the database failed ({reason}); nothing was saved or changed: try again "
                         "in a while", status=503)
        self.reason = reason


class DamagedRow(MatanuiError):
    """A stored game this matanui cannot read (a field of the wrong kind, seats that are not
    its players', a record that does not replay): that one game is not served."""

    def __init__(self, game_id: str, reason: str) -> None:
        self.game_id = game_id
        self.reason = printable(reason)[:300]
        super().__init__(f"game {game_id!r} cannot be served: {self.reason}")


class DamagedDatabase(MatanuiError):
    """An SQLite file that is damaged or is not a database: refused when the server starts."""


class ActionTaken(Exception):
    """Another server process stored this game's action at that number first. The actions
    table's key (game, number) is the optimistic lock that lets several servers share one
    database: of two appends at one position exactly one commits."""


def _write(method: Callable[..., T]) -> Callable[..., T]:
    """A write to the database: a failure is raised as StorageFailed (nothing was stored) and
    kept for the health check until a write succeeds."""

    @functools.wraps(method)
    def write(self: Storage, *args: Any) -> T:
        try:
            result = method(self, *args)
        except (SQLAlchemyError, OSError) as exc:
            raise self._failed(method.__name__, exc, write=True) from None
        self._write_failed = None
        return result

    return write


class Storage:
    """The database behind the server. Every method is synchronous; call them through `run`."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = create_engine(url, future=True)
        self.inline = self.engine.dialect.name == "sqlite"
        if self.inline:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            metadata.create_all(self.engine)
            _add_missing_columns(self.engine)
            if self.inline:
                _check_sqlite_file(self.engine)
        except DBAPIError as exc:
            if self.inline and _damaged(exc):
                self.engine.dispose()
                raise _refused(url, _reason(exc)) from None
            raise
        self.shared = self.engine.dialect.name == "postgresql"  # several instances may use it
        self.instance = secrets.token_hex(6)  # this process, in its notifications
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="matanui-db")
        self._incidents = Incidents(log)
        self._write_failed: tuple[float, str] | None = None  # when and why the latest write failed

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        """Run one storage call: inline for SQLite, else on the database thread, in order. A
        database that fails it raises StorageFailed."""
        try:
            if self.inline:
                return call(*args)
            return await asyncio.get_running_loop().run_in_executor(self._thread, call, *args)
        except (SQLAlchemyError, OSError) as exc:
            raise self._failed(getattr(call, "__name__", "call"), exc, write=False) from None

    def _failed(self, what: str, exc: Exception, write: bool) -> StorageFailed:
        reason = _reason(exc)
        if write:
            self._write_failed = (time.monotonic(), reason)
        self._incidents.report(f"database {type(exc).__name__}", logging.WARNING,
                               f"the database failed ({what}): {reason}")
        return StorageFailed(reason, write)

    def failing(self) -> str | None:
        """Why the latest write failed, if it did in the last FAILURE_MEMORY seconds and none
        has succeeded since; else None."""
        if self._write_failed is None or time.monotonic() - self._write_failed[0] > FAILURE_MEMORY:
            return None
        return self._write_failed[1]

    def close(self) -> None:
        self._thread.shutdown(wait=True)
        self.engine.dispose()

    # -- writes ------------------------------------------------------------------------

    @_write
    def create_game(self, row: GameRow) -> None:
        record = row.record
        with self.engine.begin() as db:
            db.execute(insert(games_table).values(
                id=row.id, game=record.game, rules_version=record.rules_version, seed=record.seed,
                players=record.players, options=record.options, arrangement=record.arrangement,
                seats=[s.to_dict() for s in row.seats], public=row.public, hotseat=row.hotseat,
                created=row.created, finished=False, rematch=None, data=record.data, pace=row.pace,
                hints=row.hints, rated=row.rated, touched=row.created if record.actions else None,
            ))
            if record.actions:  # a game begun where a tutorial ended
                db.execute(insert(actions_table), [{"game_id": row.id, "number": number, "action": action,
                                                    "at": row.created}
                                                   for number, action in enumerate(record.actions, start=1)])
            self._changed(db, row.id)

    @_write
    def append_action(self, game_id: str, number: int, action: str, at: float) -> None:
        """Commit action `number` (1-based) of a game, taken at time `at`; ActionTaken if
        another process committed an action at `number` first."""
        try:
            with self.engine.begin() as db:
                db.execute(insert(actions_table).values(game_id=game_id, number=number, action=action, at=at))
                db.execute(update(games_table).where(games_table.c.id == game_id).values(touched=at))
                self._changed(db, game_id)
        except IntegrityError:
            if len(self.actions_after(game_id, number - 1)) > 0:
                raise ActionTaken(f"action {number} of game {game_id} is stored already") from None
            raise

    @_write
    def mark_finished(self, game_id: str) -> None:
        self._update_game(game_id, finished=True)

    @_write
    def set_seats(self, game_id: str, seats: list[SeatRow]) -> None:
        self._update_game(game_id, seats=[s.to_dict() for s in seats])

    @_write
    def set_window_drawn(self, game_id: str, number: int, at: float) -> None:
        """The answering page drew the response window at position `number` at `at`."""
        self._update_game(game_id, drawn_number=number, drawn_at=at)

    @_write
    def set_unrated(self, game_id: str) -> None:
        """A game created rated will not be: a seat was not an account's at its first action."""
        self._update_game(game_id, rated=False)

    @_write
    def set_waited(self, game_id: str, number: int) -> None:
        """The players chose at position `number` to wait for a seat whose clock ran out."""
        self._update_game(game_id, waited=number)

    @_write
    def set_rematch_offers(self, game_id: str, seats: list[int]) -> None:
        """The seats that now offer a rematch of the game (none: the offer is withdrawn)."""
        self._update_game(game_id, rematch_offers=",".join(map(str, seats)) or None)

    @_write
    def set_rematch(self, game_id: str, rematch_id: str) -> None:
        self._update_game(game_id, rematch=rematch_id)

    def _update_game(self, game_id: str, **values: Any) -> None:
        """Change these columns of one game's row, and tell the other instances."""
        with self.engine.begin() as db:
            db.execute(update(games_table).where(games_table.c.id == game_id).values(**values))
            self._changed(db, game_id)

    def _changed(self, db: Connection, game_id: str) -> None:
        """Tell the other instances (PostgreSQL delivers it when the transaction commits)."""
        if self.shared:
            db.execute(text("SELECT pg_notify(:channel, :payload)"),
                       {"channel": CHANNEL, "payload": f"{self.instance} {game_id}"})

    # -- reads -------------------------------------------------------------------------

    def ping(self) -> None:
        """Raise unless the database answers and takes a write (the health check): this
        instance's row of `probes` rewritten and committed. A read would answer on a full disk,
        and a write rolled back never reaches the disk."""
        probes = probes_table.c
        with self.engine.begin() as db:
            db.execute(delete(probes_table).where(probes.instance == self.instance))
            db.execute(insert(probes_table).values(instance=self.instance, at=time.time()))

    def actions_after(self, game_id: str, count: int) -> list[tuple[str, float | None]]:
        """A game's stored actions after its first `count`, in order, each with when it was
        stored (None: by an older matanui)."""
        actions = actions_table.c
        with self.engine.connect() as db:
            return [(action, at) for action, at in db.execute(
                select(actions.action, actions.at).where(actions.game_id == game_id, actions.number > count)
                .order_by(actions.number))]

    def load_game(self, game_id: str, now: float, unstarted_ttl: float, started_ttl: float) -> GameRow | None:
        """One stored game with its actions, unless it is unknown or has expired; DamagedRow
        if its row cannot be read."""
        games = games_table.c
        with self.engine.connect() as db:
            row = db.execute(select(*_raw_columns()).where(
                games.id == game_id, _unexpired(now, unstarted_ttl, started_ttl))).mappings().first()
        return None if row is None else _game_row(row, self._numbered_actions(game_id))

    def _numbered_actions(self, game_id: str) -> list[tuple[int, str, float | None]]:
        """A game's stored actions with their numbers and times, in order."""
        actions = actions_table.c
        with self.engine.connect() as db:
            return [(number, action, at) for number, action, at in db.execute(
                select(actions.number, actions.action, actions.at).where(actions.game_id == game_id)
                .order_by(actions.number))]

    def load_games(self, now: float, unstarted_ttl: float,
                   started_ttl: float) -> tuple[list[GameRow], list[DamagedRow]]:
        """Every stored game that has not expired, with its actions, oldest first: finished
        games, started ones with an action in the last `started_ttl` seconds, and unstarted
        ones created in the last `unstarted_ttl` seconds. Expired games stay in the database.
        Beside them, the rows that cannot be read, each with why."""
        games = games_table.c
        kept = select(games.id).where(_unexpired(now, unstarted_ttl, started_ttl))
        with self.engine.connect() as db:
            actions: dict[str, list[tuple[int, str, float | None]]] = {}
            for game_id, number, action, at in db.execute(
                select(actions_table.c.game_id, actions_table.c.number, actions_table.c.action,
                       actions_table.c.at)
                .where(actions_table.c.game_id.in_(kept))
                .order_by(actions_table.c.game_id, actions_table.c.number)
            ):
                actions.setdefault(game_id, []).append((number, action, at))
            rows = db.execute(select(*_raw_columns()).where(games.id.in_(kept))
                              .order_by(games.created)).mappings().all()
        loaded, damaged = [], []
        for row in rows:
            try:
                loaded.append(_game_row(row, actions.get(row["id"], [])))
            except DamagedRow as exc:
                damaged.append(exc)
        return loaded, damaged


def _unexpired(now: float, unstarted_ttl: float, started_ttl: float) -> Any:
    games = games_table.c
    return or_(games.finished,
               and_(games.touched.is_not(None), games.touched >= now - started_ttl),
               and_(games.touched.is_(None), games.created >= now - unstarted_ttl))


class _StoredSeat(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    kind: Literal["human", "open", "bot"]
    level: str | None = None
    token_hash: str | None = None
    claimed: bool = False
    name: str | None = None
    account: str | None = None
    replaced: bool = False
    arrived: float | int | None = None


class _StoredGame(BaseModel):
    """What a games row must hold besides its record's fields (which Record.from_dict checks);
    JSON columns arrive as their text, decoded here."""

    model_config = ConfigDict(strict=True, allow_inf_nan=False)

    id: str
    seats: Json[Annotated[list[_StoredSeat], Field(min_length=1)]]
    players: Json[Any]
    options: Json[Any]
    arrangement: Json[Any] | None
    data: Json[Any] | None
    public: bool
    hotseat: bool
    created: float
    finished: bool
    rematch: str | None
    touched: float | None
    pace: Json[Pace] | None
    hints: bool | None
    rated: bool | None = None
    drawn_number: int | None = None
    drawn_at: float | None = None
    rematch_offers: Annotated[str, StringConstraints(pattern=r"^\d{1,2}(,\d{1,2})*$")] | None = None
    waited: int | None = None


def _raw_columns() -> list[Any]:
    """The games table's columns, its JSON ones read as their text: each row is decoded and
    checked on its own, so that one damaged row cannot fail the reading of the others."""
    return [cast(c, Text).label(c.name) if c.name in JSON_COLUMNS else c for c in games_table.columns]


def _game_row(row: Any, numbered: list[tuple[int, str, float | None]]) -> GameRow:
    """A games row and its numbered actions as a GameRow; DamagedRow if any of it is not as
    stored."""
    game_id = str(row["id"])
    try:
        stored = _StoredGame.model_validate(dict(row))
        record = Record.from_dict({"game": row["game"], "rules_version": row["rules_version"],
                                   "seed": row["seed"], "players": stored.players,
                                   "options": stored.options, "arrangement": stored.arrangement,
                                   "actions": _in_order(game_id, numbered), "data": stored.data})
    except ValidationError as exc:
        raise DamagedRow(game_id, "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
                                            for e in exc.errors()[:3])) from None
    except RecordError as exc:
        raise DamagedRow(game_id, str(exc)) from None
    if len(stored.seats) != len(record.players):
        raise DamagedRow(game_id, f"it has {len(stored.seats)} seats for {len(record.players)} players")
    seats = [SeatRow(**seat.model_dump()) for seat in stored.seats]
    _check_bots(game_id, record.game, seats)
    # The seats' display names are the record's: narration names the players by them.
    record.names = [seat.name for seat in seats]
    return GameRow(id=stored.id, record=record, seats=seats, public=stored.public,
                   hotseat=stored.hotseat, created=stored.created, finished=stored.finished,
                   rematch=stored.rematch, touched=stored.touched,
                   pace=stored.pace.model_dump() if stored.pace else dict(UNTIMED),
                   times=[at for _, _, at in numbered], hints=bool(stored.hints), rated=bool(stored.rated),
                   window_drawn=None if stored.drawn_number is None or stored.drawn_at is None
                   else (stored.drawn_number, stored.drawn_at),
                   rematch_offers=[int(seat) for seat in (stored.rematch_offers or "").split(",") if seat],
                   waited=stored.waited)


def _in_order(game_id: str, numbered: list[tuple[int, str, float | None]]) -> list[str]:
    """The actions, which must be numbered 1 to n: served with a gap, a game would be another
    game, its next move stored under a number behind the gap, and after a restart it would
    not replay (every move since lost). DamagedRow names the first number missing."""
    for expected, (number, *_) in enumerate(numbered, start=1):
        if number != expected:
            raise DamagedRow(game_id, f"its stored actions must be numbered from 1 without a gap, but "
                             f"action {expected} is missing (the next stored is number {number})")
    return [action for _, action, _ in numbered]


def _check_bots(game_id: str, game: str, seats: list[SeatRow]) -> None:
    """Each bot seat names an agent within the bounds every source of a bot's name shares
    (ai/registry.py's make_agent, the one check): a level such as `ismcts@999999999` would
    otherwise be served, and fail at the bot's turn."""
    for number, seat in enumerate(seats):
        if seat.kind == "bot":
            try:
                make_agent(seat.bot, game, outside_code=False)
            except MatanuiError as exc:
                raise DamagedRow(game_id, f"seat {number} is a bot that cannot play: {exc}") from None


def _reason(exc: BaseException) -> str:
    """The database's own words for a failure, on one short line (SQLAlchemy adds the
    statement and a link)."""
    lines = str(exc.orig if isinstance(exc, DBAPIError) else exc).strip().splitlines()
    return printable(lines[0] if lines else type(exc).__name__)[:200]


def _damaged(exc: DBAPIError) -> bool:
    """The SQLite file is not a database, or its pages are garbled."""
    return getattr(exc.orig, "sqlite_errorname", "") in ("SQLITE_NOTADB", "SQLITE_CORRUPT")


def _refused(url: str, reason: str) -> DamagedDatabase:
    return DamagedDatabase(f"the database file {make_url(url).database} is damaged or is not an SQLite "
                           f"database ({reason}); matanui does not serve from it. Restore it from a "
                           "backup, or start with another --database (docs/deploy.md)")


def _check_sqlite_file(engine: Engine) -> None:
    """Refuse an SQLite file whose pages are garbled: SQLite's quick_check reads every page
    once (1.5 s for a 240 MB file on the development machine) and says what it found wrong."""
    with engine.connect() as db:
        found = [line for (line,) in db.execute(text("PRAGMA quick_check"))]
    if found != ["ok"]:
        raise _refused(str(engine.url), "; ".join(found[:3]))


def _add_missing_columns(engine: Engine) -> None:
    """Bring a database made by an older version up to the tables above (new nullable
    columns only)."""
    with engine.begin() as db:
        for table in metadata.sorted_tables:
            present = {column["name"] for column in inspect(db).get_columns(table.name)}
            for column in table.columns:
                if column.name not in present:
                    kind = column.type.compile(engine.dialect)
                    db.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}"))


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
