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
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

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
    create_engine,
    event,
    insert,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from matanui.engine import Record

T = TypeVar("T")

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
)

actions_table = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("number", Integer, primary_key=True),  # 1-based, in the order applied
    Column("action", Text, nullable=False),
)


@dataclass
class SeatRow:
    """One seat as stored: a person (with the hash of their secret token) or a bot."""

    kind: str  # "human" (a token was issued), "open" (offered in the lobby, no token yet) or "bot"
    level: str | None = None  # bot level: easy, medium, hard
    token_hash: str | None = None
    claimed: bool = False
    name: str | None = None  # the display name, given at creation or later (absent in older databases)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level, "token_hash": self.token_hash,
                "claimed": self.claimed, "name": self.name}


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

    @property
    def active(self) -> float:
        """When anyone last did something to the game (its creation, else its latest action)."""
        return self.touched if self.touched is not None else self.created


class ActionTaken(Exception):
    """Another server process stored this game's action at that number first. The actions
    table's key (game, number) is the optimistic lock that lets several servers share one
    database: of two appends at one position exactly one commits."""


class Storage:
    """The database behind the server. Every method is synchronous; call them through `run`."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = create_engine(url, future=True)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        _add_missing_columns(self.engine)
        self.inline = self.engine.dialect.name == "sqlite"
        self.shared = self.engine.dialect.name == "postgresql"  # several instances may use it
        self.instance = secrets.token_hex(6)  # this process, in its notifications
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="matanui-db")

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        """Run one storage call: inline for SQLite, else on the database thread, in order."""
        if self.inline:
            return call(*args)
        return await asyncio.get_running_loop().run_in_executor(self._thread, call, *args)

    def close(self) -> None:
        self._thread.shutdown(wait=True)
        self.engine.dispose()

    # -- writes ------------------------------------------------------------------------

    def create_game(self, row: GameRow) -> None:
        record = row.record
        with self.engine.begin() as db:
            db.execute(insert(games_table).values(
                id=row.id, game=record.game, rules_version=record.rules_version, seed=record.seed,
                players=record.players, options=record.options, arrangement=record.arrangement,
                seats=[s.to_dict() for s in row.seats], public=row.public, hotseat=row.hotseat,
                created=row.created, finished=False, rematch=None, data=record.data,
            ))
            self._changed(db, row.id)

    def append_action(self, game_id: str, number: int, action: str, at: float) -> None:
        """Commit action `number` (1-based) of a game, taken at time `at`; ActionTaken if
        another process committed an action at `number` first."""
        try:
            with self.engine.begin() as db:
                db.execute(insert(actions_table).values(game_id=game_id, number=number, action=action))
                db.execute(update(games_table).where(games_table.c.id == game_id).values(touched=at))
                self._changed(db, game_id)
        except IntegrityError:
            if len(self.actions_after(game_id, number - 1)) > 0:
                raise ActionTaken(f"action {number} of game {game_id} is stored already") from None
            raise

    def mark_finished(self, game_id: str) -> None:
        with self.engine.begin() as db:
            db.execute(update(games_table).where(games_table.c.id == game_id).values(finished=True))
            self._changed(db, game_id)

    def set_seats(self, game_id: str, seats: list[SeatRow]) -> None:
        with self.engine.begin() as db:
            db.execute(update(games_table).where(games_table.c.id == game_id)
                       .values(seats=[s.to_dict() for s in seats]))
            self._changed(db, game_id)

    def set_rematch(self, game_id: str, rematch_id: str) -> None:
        with self.engine.begin() as db:
            db.execute(update(games_table).where(games_table.c.id == game_id).values(rematch=rematch_id))
            self._changed(db, game_id)

    def _changed(self, db: Connection, game_id: str) -> None:
        """Tell the other instances (PostgreSQL delivers it when the transaction commits)."""
        if self.shared:
            db.execute(text("SELECT pg_notify(:channel, :payload)"),
                       {"channel": CHANNEL, "payload": f"{self.instance} {game_id}"})

    # -- reads -------------------------------------------------------------------------

    def ping(self) -> None:
        """Raise unless the database answers (the health check)."""
        with self.engine.connect() as db:
            db.execute(text("SELECT 1"))

    def actions_after(self, game_id: str, count: int) -> list[str]:
        """A game's stored actions after its first `count`, in order."""
        actions = actions_table.c
        with self.engine.connect() as db:
            return list(db.scalars(select(actions.action)
                                   .where(actions.game_id == game_id, actions.number > count)
                                   .order_by(actions.number)))

    def load_game(self, game_id: str, now: float, unstarted_ttl: float, started_ttl: float) -> GameRow | None:
        """One stored game with its actions, unless it is unknown or has expired."""
        games = games_table.c
        with self.engine.connect() as db:
            row = db.execute(select(games_table).where(
                games.id == game_id, _unexpired(now, unstarted_ttl, started_ttl))).mappings().first()
        return None if row is None else _game_row(row, self.actions_after(game_id, 0))

    def load_games(self, now: float, unstarted_ttl: float, started_ttl: float) -> list[GameRow]:
        """Every stored game that has not expired, with its actions, oldest first: finished
        games, started ones with an action in the last `started_ttl` seconds, and unstarted
        ones created in the last `unstarted_ttl` seconds. Expired games stay in the database."""
        games = games_table.c
        kept = select(games.id).where(_unexpired(now, unstarted_ttl, started_ttl))
        with self.engine.connect() as db:
            actions: dict[str, list[str]] = {}
            for game_id, action in db.execute(
                select(actions_table.c.game_id, actions_table.c.action)
                .where(actions_table.c.game_id.in_(kept))
                .order_by(actions_table.c.game_id, actions_table.c.number)
            ):
                actions.setdefault(game_id, []).append(action)
            rows = db.execute(select(games_table).where(games.id.in_(kept))
                              .order_by(games.created)).mappings().all()
        return [_game_row(row, actions.get(row["id"], [])) for row in rows]


def _unexpired(now: float, unstarted_ttl: float, started_ttl: float) -> Any:
    games = games_table.c
    return or_(games.finished,
               and_(games.touched.is_not(None), games.touched >= now - started_ttl),
               and_(games.touched.is_(None), games.created >= now - unstarted_ttl))


def _game_row(row: Any, actions: list[str]) -> GameRow:
    seats = [SeatRow(**seat) for seat in row["seats"]]
    # The seats' display names are the record's: narration names the players by them.
    record = Record(game=row["game"], rules_version=row["rules_version"], seed=row["seed"],
                    players=list(row["players"]), options=dict(row["options"]),
                    arrangement=row["arrangement"], actions=actions, data=row["data"],
                    names=[seat.name for seat in seats])
    return GameRow(id=row["id"], record=record, seats=seats, public=row["public"],
                   hotseat=row["hotseat"], created=row["created"], finished=row["finished"],
                   rematch=row["rematch"], touched=row["touched"])


def _add_missing_columns(engine: Engine) -> None:
    """Bring a database made by an older version up to the tables above (new columns only)."""
    present = {column["name"] for column in inspect(engine).get_columns("games")}
    with engine.begin() as db:
        for column in games_table.columns:
            if column.name not in present:
                kind = column.type.compile(engine.dialect)
                db.execute(text(f"ALTER TABLE games ADD COLUMN {column.name} {kind}"))


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
