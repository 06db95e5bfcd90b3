"""Ratings of accounts, one Glicko-2 rating per account and game (arena/glicko2.py).

A game is rated when it finishes if it was created rated, every seat is a person's seat held by
an account from before its first action (a seat a bot took over when its clock ran out still
counts for its account), no account holds two seats, it is neither hot-seat nor made with hints
for everyone, and it was not aborted (aborts.py). Games against bots stay unrated: a bot's
strength is measured in the arena, not learned from people (docs/ratings.md).

A rated game still counts for nothing (it is noted, `counted` false, and changes no rating)
when two of its accounts were created from one address, or have played RATED_PAIR_GAMES rated
games together in the last week: so that one person with a few accounts, or two friends
trading wins, cannot buy a rating (`Counting`, from quotas.Limits).

A rating is provisional (shown "1500?", and off the leaderboard) until it has PROVEN_GAMES
rated games against PROVEN_OPPONENTS different accounts and its RD is at most PROVISIONAL_RD.

Each finished game is one rating period for its players (lichess does the same); the time
since a player's previous rated game first widens their deviation, a fraction of a period per
RATING_PERIOD. Two seats: the usual win, loss or draw. Makuta with 3 to 6 seats: each winner
beats each other player, one Glicko-2 game per pair in the one period; the players who did
not win are not compared with each other (the game ends when one Toa finishes: it never says
how the others stood, and a draw would claim they were equal).

Exactly once, with any number of instances: the game's id is the primary key of
`rated_games`, written first in the same transaction as the new ratings, so a second
instance's (or a second call's) insert fails and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from matanui.arena.glicko2 import Rating, Result, idle, rate
from matanui.engine import State

from .aborts import aborted
from .quotas import Limits
from .storage import GameRow, SeatRow, Storage, StorageFailed, metadata
from .users import users_table

log = logging.getLogger("matanui.server")

RATING_PERIOD = 7 * 24 * 3600.0  # seconds: a week without a rated game widens the RD by one period
PROVISIONAL_RD = 110.0  # a rating this unsure is marked provisional (lichess's threshold)
PROVEN_GAMES = 10  # rated games a rating needs before it is no longer provisional...
PROVEN_OPPONENTS = 5  # ... against at least this many different accounts
SEAT_CACHE_SECONDS = 30.0  # how long a seat's shown account name and rating may lag the database
ATTEMPTS = 3  # a new account's first rating row, inserted by two instances at once: retried

ratings_table = Table(  # each account's current rating in each game
    "ratings",
    metadata,
    Column("account", String(32), ForeignKey("users.id"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("last", Float, nullable=False),  # when the latest rated game finished
)

rated_games_table = Table(  # one row per rated game: its id is what makes a rating happen once
    "rated_games",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("at", Float, nullable=False),
    # False: rated, but it changed no rating (Counting); NULL: it counted (older databases too)
    Column("counted", Boolean, nullable=True),
)

rating_history_table = Table(  # each rated game's result and new rating, per account
    "rating_history",
    metadata,
    Column("game_id", String(32), ForeignKey("rated_games.game_id"), primary_key=True),
    Column("account", String(32), ForeignKey("users.id"), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("score", Float, nullable=False),  # over the pairs it was in: 1 won them all, 0 lost them all
    Column("rating", Float, nullable=False),  # after the game
    Column("rd", Float, nullable=False),
    Column("before", Float, nullable=False),  # the rating before it
    Column("at", Float, nullable=False),
)


def person(seat: SeatRow) -> bool:
    """A person's seat: one they hold, or one a bot took over from them (they left: they lose,
    `pairs`)."""
    return seat.kind == "human" or (seat.kind == "bot" and seat.replaced)


def counts_for_ratings(row: GameRow) -> bool:
    """Whether this game's seats and settings make it a rated game, finished or not (the
    module's rule, less the game's end): the lobby marks such a game Rated while it runs."""
    accounts = [seat.account for seat in row.seats]
    return (row.rated and not row.hotseat and not row.hints
            and all(person(seat) and seat.account for seat in row.seats)
            and len(set(accounts)) == len(accounts))


def is_rated(row: GameRow, state: State) -> bool:
    """Whether this finished game changes its players' ratings (the module's rule)."""
    return state.is_over and bool(state.history) and not aborted(state.history) and counts_for_ratings(row)


def provisional(rd: float, games: int, opponents: int) -> bool:
    """Whether a rating is still provisional (the module's rule)."""
    return rd > PROVISIONAL_RD or games < PROVEN_GAMES or opponents < PROVEN_OPPONENTS


def opponents_of(account: Any, game: Any) -> Any:
    """A scalar subquery: how many different accounts `account` has played rated games of
    `game` against (its arguments are SQL expressions or values)."""
    mine, theirs = rating_history_table.alias(), rating_history_table.alias()
    return (select(func.count(func.distinct(theirs.c.account)))
            .select_from(mine.join(theirs, mine.c.game_id == theirs.c.game_id))
            .where(mine.c.account == account, mine.c.game == game, theirs.c.account != account)
            .scalar_subquery())


def pairs(winners: Sequence[int], seats: int, left: Collection[int] = ()) -> list[tuple[int, int, float]]:
    """(seat, opponent, score) for every comparison the result makes, from both sides. A seat
    that `left` the game (resigned, out of time, or taken over by a bot) loses to every seat
    that did not, and is not compared with another that left. Among the seats that stayed: no
    winner or every one a winner is a draw between every pair; else each winner beats each
    seat that did not win, and those are not compared among themselves."""
    stayed = [seat for seat in range(seats) if seat not in left]
    found = [pair for gone in sorted(left) for other in stayed
             for pair in ((other, gone, 1.0), (gone, other, 0.0))]
    won = set(winners) & set(stayed)
    if not won or len(won) == len(stayed):
        return found + [(a, b, 0.5) for a in stayed for b in stayed if a != b]
    return found + [pair for w in sorted(won) for other in stayed if other not in won
                    for pair in ((w, other, 1.0), (other, w, 0.0))]


def updated(before: Sequence[Rating], winners: Sequence[int], left: Collection[int] = ()) -> list[Rating]:
    """Every seat's rating after the game, each from the ratings all had before it."""
    results: list[list[Result]] = [[] for _ in before]
    for seat, opponent, score in pairs(winners, len(before), left):
        results[seat].append(Result(before[opponent], score))
    return [rate(rating, mine) if mine else rating for rating, mine in zip(before, results, strict=True)]


@dataclass(frozen=True)
class Standing:
    """An account's rating in one game as the database holds it."""

    rating: Rating
    games: int
    last: float

    def now(self, at: float) -> Rating:
        """The rating at time `at`: its deviation widened for the time since its last game."""
        return idle(self.rating, max(0.0, at - self.last) / RATING_PERIOD)


def _standings(db: Connection, game: str, accounts: Sequence[str], lock: bool) -> dict[str, Standing]:
    r = ratings_table.c
    query = select(ratings_table).where(r.game == game, r.account.in_(sorted(accounts)))
    rows = db.execute(query.with_for_update() if lock else query).mappings()
    return {row["account"]: Standing(Rating(row["rating"], row["rd"], row["volatility"]), row["games"],
                                     row["last"]) for row in rows}


@dataclass(frozen=True)
class Counting:
    """When a rated game changes ratings (the module's rule): at most `pair_games` rated games
    of the same two accounts in `pair_seconds`, and none between accounts created from one
    address unless `one_address`."""

    pair_games: int = 3
    pair_seconds: float = RATING_PERIOD
    one_address: bool = False

    @classmethod
    def of(cls, limits: Limits) -> Counting:
        return cls(limits.rated_pair_games, limits.rated_pair_seconds, bool(limits.rated_one_address))


def why_not_counted(db: Connection, accounts: Sequence[str], at: float, rule: Counting) -> str | None:
    """Why a rated game of these accounts, finished at `at`, changes no rating (None: it does)."""
    u = users_table.c
    marks = [mark for mark in db.scalars(select(u.created_from).where(u.id.in_(accounts))) if mark]
    if not rule.one_address and len(set(marks)) < len(marks):
        return "two of its accounts were created from one address"
    mine, theirs = rating_history_table.alias(), rating_history_table.alias()
    both = mine.join(theirs, mine.c.game_id == theirs.c.game_id)
    for i, first in enumerate(accounts):
        for second in accounts[i + 1:]:
            together = db.scalar(select(func.count()).select_from(both)
                                 .where(mine.c.account == first, theirs.c.account == second,
                                        mine.c.at > at - rule.pair_seconds)) or 0
            if together >= rule.pair_games:
                return (f"two of its players had played {together} rated games together in the last "
                        f"{rule.pair_seconds / 86400:g} days, the most that count")
    return None


def record_game(storage: Storage, game_id: str, game: str, accounts: Sequence[str],
                winners: Sequence[int], at: float, left: Collection[int] = (),
                rule: Counting = Counting()) -> bool:
    """(Synchronous: through `storage.run`.) Rate a finished game whose seats are held by
    `accounts`; False if it was rated already (by this or another instance). Its seats'
    rating changes are then `changes_of` it; none when `rule` says it does not count (then
    `counted` says False)."""
    for _ in range(ATTEMPTS):
        try:
            with storage.engine.begin() as db:
                db.execute(insert(rated_games_table).values(game_id=game_id, game=game, at=at))
                known = _standings(db, game, accounts, lock=True)  # held until the commit
                if why_not_counted(db, accounts, at, rule) is None:
                    _rate(db, game_id, game, accounts, winners, at, left, known)
                else:
                    db.execute(update(rated_games_table).where(rated_games_table.c.game_id == game_id)
                               .values(counted=False))
                storage._changed(db, game_id)
            return True
        except IntegrityError:
            with storage.engine.connect() as db:
                if db.scalar(select(rated_games_table.c.game_id)
                             .where(rated_games_table.c.game_id == game_id)) is not None:
                    return False
    raise StorageFailed(f"game {game_id} could not be rated in {ATTEMPTS} attempts", write=True)


def _rate(db: Connection, game_id: str, game: str, accounts: Sequence[str],
          winners: Sequence[int], at: float, left: Collection[int], known: dict[str, Standing]) -> None:
    before = [known[a].now(at) if a in known else Rating() for a in accounts]
    after = updated(before, winners, left)
    scores: dict[int, list[float]] = {}
    for seat, _, score in pairs(winners, len(accounts), left):
        scores.setdefault(seat, []).append(score)
    r = ratings_table.c
    for seat, account in enumerate(accounts):
        new = after[seat]
        values = {"rating": new.rating, "rd": new.rd, "volatility": new.volatility, "last": at}
        if account in known:
            db.execute(update(ratings_table).where(r.account == account, r.game == game)
                       .values(games=known[account].games + 1, **values))
        else:
            db.execute(insert(ratings_table).values(account=account, game=game, games=1, **values))
        mine = scores.get(seat, [0.5])
        db.execute(insert(rating_history_table).values(
            game_id=game_id, account=account, game=game, seat=seat, score=sum(mine) / len(mine),
            rating=new.rating, rd=new.rd, before=before[seat].rating, at=at))


def counted(storage: Storage, game_id: str) -> bool | None:
    """(Synchronous.) Whether a rated game changed its players' ratings (None: not rated yet)."""
    g = rated_games_table.c
    with storage.engine.connect() as db:
        row = db.execute(select(g.counted).where(g.game_id == game_id)).first()
    return None if row is None else row.counted is not False


def changes_of(storage: Storage, game_id: str) -> list[dict[str, Any]] | None:
    """(Synchronous.) Each seat's rating before and after a rated game, seat by seat, rounded
    as the leaderboard shows them (None: the game is not rated, or not yet)."""
    h = rating_history_table.c
    with storage.engine.connect() as db:
        rows = db.execute(select(h.seat, h.before, h.rating).where(h.game_id == game_id)
                          .order_by(h.seat)).all()
    return [{"seat": seat, "before": round(before), "after": round(after)}
            for seat, before, after in rows] or None


# -- what the seats show: each account's name and rating, cached per storage -----------------

@dataclass
class _Shown:
    name: str | None
    rating: dict[str, float] | None
    at: float


class SeatDirectory:
    """The account name and rating each seat shows (`Room.seats_public`), read from the
    database in the background: a seat not known yet shows null until it is read, then the
    room announces its seats again. Entries are read again after SEAT_CACHE_SECONDS, and at
    once after a game of theirs is rated here."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.shown: dict[tuple[str, str], _Shown] = {}
        self.reading: set[tuple[str, str]] = set()
        self.tasks: set[asyncio.Task[None]] = set()  # the reads under way (kept from the collector)

    def seat(self, account: str | None, game: str, announce: Callable[[], None]) -> dict[str, Any]:
        if account is None:
            return {"account": None, "rating": None}
        key = (account, game)
        shown = self.shown.get(key)
        if (shown is None or time.time() - shown.at > SEAT_CACHE_SECONDS) and key not in self.reading:
            self._read_later(key, announce)
        return {"account": shown.name if shown else None, "rating": shown.rating if shown else None}

    def forget(self, accounts: Sequence[str], game: str) -> None:
        for account in accounts:
            self.shown.pop((account, game), None)

    def _read_later(self, key: tuple[str, str], announce: Callable[[], None]) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not serving (a synchronous caller): shown when next asked
            return
        self.reading.add(key)
        task = loop.create_task(self._read(key, announce))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _read(self, key: tuple[str, str], announce: Callable[[], None]) -> None:
        try:
            shown = await self.storage.run(self._lookup, *key)
        except StorageFailed:
            return
        finally:
            self.reading.discard(key)
        old = self.shown.get(key)
        self.shown[key] = shown
        if old is None or (old.name, old.rating) != (shown.name, shown.rating):
            announce()

    def _lookup(self, account: str, game: str) -> _Shown:
        now = time.time()
        with self.storage.engine.connect() as db:
            name = db.scalar(select(users_table.c.name).where(users_table.c.id == account))
            standing = _standings(db, game, [account], lock=False).get(account)
            met = db.scalar(select(opponents_of(account, game))) or 0 if standing else 0
        rating = standing.now(now) if standing else Rating()
        unsure = provisional(rating.rd, standing.games if standing else 0, met)
        return _Shown(name, {"rating": round(rating.rating, 1), "rd": round(rating.rd, 1),
                             "provisional": unsure}, now)


_directories: weakref.WeakKeyDictionary[Storage, SeatDirectory] = weakref.WeakKeyDictionary()


def directory(storage: Storage) -> SeatDirectory:
    if storage not in _directories:
        _directories[storage] = SeatDirectory(storage)
    return _directories[storage]


def seats_shown(storage: Storage, seats: Sequence[SeatRow], game: str,
                announce: Callable[[], None]) -> list[dict[str, Any]]:
    """Each seat's {"account": name | None, "rating": {"rating", "rd"} | None} (spec'd seat keys)."""
    shown = directory(storage)
    return [shown.seat(seat.account, game, announce) for seat in seats]


async def game_over(storage: Storage, row: GameRow, state: State,
                    rule: Counting = Counting()) -> list[dict[str, Any]] | None:
    """A room's game has just finished (here, or on another instance which told us): rate it
    if it is rated and not rated yet; its seats' rating changes (None: unrated, or it did not
    count by `rule`). A database failure leaves it unrated, and is logged."""
    if not is_rated(row, state):
        return None
    accounts = [seat.account for seat in row.seats if seat.account]
    left = set(state.out) | {number for number, seat in enumerate(row.seats) if seat.replaced}
    try:
        await storage.run(record_game, storage, row.id, state.game.name, accounts, state.winners,
                          row.touched or time.time(), left, rule)
    except StorageFailed as exc:
        log.warning("game %s was not rated: %s", row.id, exc.message)
        return None
    directory(storage).forget(accounts, state.game.name)
    return await storage.run(changes_of, storage, row.id)
