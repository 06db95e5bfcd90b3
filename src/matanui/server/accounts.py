"""Optional accounts: a user name and a password, a session cookie, and the seats an account
holds, so that a game started on one device goes on from another. Anonymous play does not
change: nothing here is needed to play, and a request without the cookie is never touched.

- Passwords are hashed with argon2id (argon2-cffi's PasswordHasher, off the event loop, a
  few at once) and rehashed at the next sign-in when its parameters change. The rules are
  NIST SP 800-63B's: 8 to 256 characters, not the user name, not a very common password
  (data/common_passwords.toml); no rules of composition.
- A session is a random id in the cookie `matanui_session` (HttpOnly, SameSite=Lax, Path=/,
  Secure when the request came over HTTPS; a forwarded scheme counts only from a trusted
  proxy, as quotas.py's client address does). The database keeps only the id's hash, so
  any instance accepts any session and a stolen database opens none. Each sign-in starts a
  fresh session (a cookie sent before it is never promoted: session fixation); signing out
  deletes it; a password change deletes every other session of the account and rotates it.
- CSRF: every write a session cookie authenticates must carry X-CSRF-Token, the session's
  own token (GET /api/session gives it), else 403 `csrf` (`Sessions`, the middleware).
- Sign-in throttling: FAILURES_PER_NAME failed sign-ins of one user name from one address,
  or FAILURES_PER_ADDRESS from one address, in FAILURE_WINDOW seconds, then 429 with
  Retry-After. A name is never locked as such: the right password from an address that has
  not failed signs in, whatever others guessed. A refused (throttled) attempt does no work
  (no hash) and counts for nothing. Failures are stored, so the count holds across instances,
  and every failure noted drops the rows older than the window (the table holds one window's
  failures at most). A wrong password and an unknown user name answer alike, after one hash
  verification each.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import math
import re
import secrets
import threading
import time
import tomllib
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Body, Request, Response, WebSocket
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Column, Float, Integer, String, Table, and_, delete, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from starlette.requests import cookie_parser
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from . import aborts
from .document import refusals
from .names import ACCOUNT_NAME, ACCOUNT_NAME_WORDS, account_key, account_name_problem, skeleton
from .protocol import MAX_TOKEN_CHARS, Rejected
from .quotas import Throttled
from .storage import Storage, StorageFailed, metadata
from .users import Account, remember, users_table

if TYPE_CHECKING:
    from .lobby import Lobby
    from .rooms import Room

COOKIE = "matanui_session"
CSRF_HEADER = "X-CSRF-Token"
SESSION_IDLE = 30 * 24 * 3600.0  # a session nobody used for this long is over
SEEN_EVERY = 3600.0  # a session's last use is written at most this often
FAILURE_WINDOW = 15 * 60.0
FAILURES_PER_NAME = 5  # of one user name from one address
FAILURES_PER_ADDRESS = 20  # an address may be a household or a school behind one router
HASHES_AT_ONCE = 2  # argon2 takes 64 MiB a hash: a burst of sign-ins must not take the memory
NAME = ACCOUNT_NAME  # names.py: PRECIS UsernameCaseMapped, narrowed to ASCII
MIN_PASSWORD, MAX_PASSWORD = 8, 256
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
COMMON_PASSWORDS = frozenset(tomllib.loads(
    (Path(__file__).parent / "data" / "common_passwords.toml").read_text("utf-8"))["passwords"])

HASHER = PasswordHasher()  # argon2id with argon2-cffi's current defaults (RFC 9106's second choice)
_hashing = threading.BoundedSemaphore(HASHES_AT_ONCE)  # held by the hashing threads
_dummy_hashes: dict[int, str] = {}  # per hasher: what an unknown name is verified against

sessions_table = Table(
    "sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),  # sha256 of the cookie's value
    Column("user_id", String(32), nullable=False, index=True),
    Column("csrf", String(64), nullable=False),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
)
failures_table = Table(
    "sign_in_failures",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(100), nullable=False, index=True),  # "pair:<name+address hash>", "address:<ip>"
    Column("at", Float, nullable=False),
)


@dataclass(frozen=True)
class Session:
    account: Account
    csrf: str
    id_hash: str


def _hash(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()


# -- the Python API of the other parts ----------------------------------------------------


def session_of(connection: Request | WebSocket) -> Session | None:
    """The session the request's cookie opens (read once by `Sessions`), or None."""
    return connection.scope.get("state", {}).get("session")


def account_of(connection: Request | WebSocket) -> Account | None:
    """The signed-in account of a request or WebSocket, or None (anonymous)."""
    session = session_of(connection)
    return session.account if session else None


def account_id(connection: Request | WebSocket) -> str | None:
    account = account_of(connection)
    return account.id if account else None


def held_seats(room: Room, account: str | None) -> list[int]:
    """The seats of a game an account holds, the one to decide first."""
    if account is None:
        return []
    seats = [i for i, seat in enumerate(room.row.seats) if seat.account == account]
    return sorted(seats, key=lambda seat: seat != room.state.current_player)


def seats_opened(room: Room, token: str | None, account: str | None) -> list[int]:
    """The seats a caller opens: the token's (Rejected if it opens none), else the account's."""
    return [room.seat_for(token)] if token is not None else held_seats(room, account)


def seat_by(room: Room, token: str | None, account: str | None) -> int:
    """The seat a REST call acts for: its token's, else the one the signed-in account holds."""
    seats = seats_opened(room, token, account)
    if not seats:
        raise Rejected("bad_token", "give the seat's token, or sign in to the account that holds "
                       "the seat", status=403)
    return seats[0]


def hello_seat(websocket: WebSocket, room: Room) -> int:
    """The seat a hello {"account": true} opens; Rejected (the connection watches) if none."""
    account = account_of(websocket)
    if account is None:
        raise Rejected("not_signed_in", "hello with \"account\": true needs the cookie of a "
                       "signed-in account; you are watching")
    seats = held_seats(room, account.id)
    if not seats:
        raise Rejected("no_seat", f"the account {account.name} holds no seat in this game; you "
                       "are watching")
    return seats[0]


# -- the database ------------------------------------------------------------------------


class Book:
    """The accounts, sessions and failed sign-ins in the database; synchronous, called
    through Storage.run."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def user(self, name_key: str) -> Any:
        with self.engine.connect() as db:
            return db.execute(select(users_table).where(users_table.c.name_key == name_key)).first()

    def user_by_id(self, user_id: str) -> Any:
        with self.engine.connect() as db:
            return db.execute(select(users_table).where(users_table.c.id == user_id)).first()

    def add_user(self, user_id: str, name: str, password_hash: str, now: float,
                 created_from: str | None = None) -> str | None:
        """None if added; else the name of the account the new one would be taken for (its
        name is the same once case-mapped, or looks the same: the same skeleton).
        `created_from`: the mark of the address it is created from (address_mark)."""
        u = users_table.c
        try:
            with self.engine.begin() as db:
                like = db.execute(select(u.name).where(u.name_skeleton == skeleton(name))).first()
                if like is not None:
                    return like.name
                db.execute(insert(users_table).values(id=user_id, name=name, name_key=account_key(name),
                                                      name_skeleton=skeleton(name),
                                                      password_hash=password_hash, created=now,
                                                      password_changed=now, created_from=created_from))
        except IntegrityError:
            return self.name_like(name) or name
        return None

    def name_like(self, name: str) -> str | None:
        """The name of an account a new one of `name` would be taken for, or None."""
        u = users_table.c
        with self.engine.connect() as db:
            row = db.execute(select(u.name).where((u.name_key == account_key(name))
                                                  | (u.name_skeleton == skeleton(name)))).first()
        return row.name if row else None

    def account_like(self, name: str) -> tuple[str, str] | None:
        """(id, name) of the account a display name could be taken for: the same name once
        case-mapped, or one that looks the same (the same skeleton); None if there is none."""
        u = users_table.c
        with self.engine.connect() as db:
            row = db.execute(select(u.id, u.name).where((u.name_key == account_key(name))
                                                        | (u.name_skeleton == skeleton(name)))).first()
        return (row.id, row.name) if row else None

    def fill_skeletons(self) -> None:
        """Give the accounts of an older database (no skeleton yet) theirs."""
        u = users_table.c
        with self.engine.begin() as db:
            for row in db.execute(select(u.id, u.name).where(u.name_skeleton.is_(None))).all():
                db.execute(update(users_table).where(u.id == row.id).values(name_skeleton=skeleton(row.name)))

    def set_password(self, user_id: str, password_hash: str, now: float | None) -> None:
        """A new hash; `now` for a new password (None: the same one, rehashed)."""
        changes: dict[str, Any] = {"password_hash": password_hash}
        if now is not None:
            changes["password_changed"] = now
        with self.engine.begin() as db:
            db.execute(update(users_table).where(users_table.c.id == user_id).values(**changes))

    def open_session(self, user_id: str, now: float) -> tuple[str, str]:
        """A new session of the account: its cookie value and its CSRF token."""
        session, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        with self.engine.begin() as db:
            db.execute(insert(sessions_table).values(id_hash=_hash(session), user_id=user_id,
                                                     csrf=csrf, created=now, seen=now))
        return session, csrf

    def session(self, cookie: str, now: float) -> Session | None:
        """The live session a cookie value opens (its last use noted), or None."""
        s, u = sessions_table.c, users_table.c
        id_hash = _hash(cookie)
        with self.engine.begin() as db:
            row = db.execute(select(s.csrf, s.seen, u.id, u.name).join_from(
                sessions_table, users_table, s.user_id == u.id).where(s.id_hash == id_hash)).first()
            if row is None:
                return None
            if row.seen < now - SESSION_IDLE:
                db.execute(delete(sessions_table).where(s.id_hash == id_hash))
                return None
            if row.seen < now - SEEN_EVERY:
                db.execute(update(sessions_table).where(s.id_hash == id_hash).values(seen=now))
        return Session(Account(row.id, row.name), row.csrf, id_hash)

    def session_alive(self, id_hash: str) -> bool:
        """Whether a session (by its hash) has not ended: signed out, or closed by a password
        change (an idle one ends when its cookie is next read)."""
        with self.engine.connect() as db:
            return db.execute(select(sessions_table.c.id_hash)
                              .where(sessions_table.c.id_hash == id_hash)).first() is not None

    def close_session(self, cookie: str) -> None:
        with self.engine.begin() as db:
            db.execute(delete(sessions_table).where(sessions_table.c.id_hash == _hash(cookie)))

    def close_sessions_of(self, user_id: str) -> None:
        with self.engine.begin() as db:
            db.execute(delete(sessions_table).where(sessions_table.c.user_id == user_id))

    def failures(self, keys: list[str], since: float) -> dict[str, list[float]]:
        """The times of each key's failed sign-ins since `since`, oldest first."""
        f = failures_table.c
        found: dict[str, list[float]] = {key: [] for key in keys}
        with self.engine.connect() as db:
            for key, at in db.execute(select(f.key, f.at).where(and_(f.key.in_(keys), f.at >= since))
                                      .order_by(f.at)):
                found[key].append(at)
        return found

    def fail(self, keys: list[str], now: float) -> None:
        """Note a failed sign-in under each key, forgetting every failure too old to count
        (of any key: names and addresses an attacker rotates through leave no rows behind)."""
        f = failures_table.c
        with self.engine.begin() as db:
            db.execute(delete(failures_table).where(f.at < now - FAILURE_WINDOW))
            db.execute(insert(failures_table), [{"key": key, "at": now} for key in keys])

    def forget_failures(self, before: float) -> None:
        """Drop every failed sign-in noted before `before` (the lobby's sweep, each minute)."""
        with self.engine.begin() as db:
            db.execute(delete(failures_table).where(failures_table.c.at < before))

    def forgive(self, keys: list[str], at: float) -> None:
        """Take back the failures `fail` noted at `at` for an attempt that succeeded."""
        f = failures_table.c
        with self.engine.begin() as db:
            db.execute(delete(failures_table).where(and_(f.key.in_(keys), f.at == at)))

    def names(self) -> list[tuple[str, str]]:
        with self.engine.connect() as db:
            return [(row.id, row.name) for row in db.execute(select(users_table.c.id, users_table.c.name))]


def _storage(connection: Request | WebSocket) -> Storage:
    return _app_storage(connection.app)


def _app_storage(app: Any) -> Storage:
    return app.state.lobby.backends.storage


async def _call(storage: Storage, method: str, *args: Any) -> Any:
    return await storage.run(getattr(Book(storage.engine), method), *args)


# -- the sockets of a session ------------------------------------------------------------

SESSION_ENDED = 4401  # WebSocket close code: the session that opened the seat has ended


class SessionSockets:
    """The WebSockets of this instance that opened their seat by a session (hello with
    "account"), so that signing out or changing the password closes them at once; a socket of
    another instance is checked against its session at its next message (`still_signed_in`)."""

    def __init__(self) -> None:
        self._open: dict[Any, tuple[str, str]] = {}  # connection -> (session hash, account id)

    def opened(self, connection: Any, session: Session) -> None:
        self._open[connection] = (session.id_hash, session.account.id)

    def closed(self, connection: Any) -> None:
        self._open.pop(connection, None)

    def end(self, *, session: str | None = None, account: str | None = None) -> None:
        """Close the sockets of a session that ended, or of every session of an account."""
        for connection, (id_hash, owner) in list(self._open.items()):
            if id_hash == session or owner == account:
                self.closed(connection)
                connection.send(json.dumps(ENDED.to_message()))
                connection.close(SESSION_ENDED, "your session ended (signed out or password changed)")


ENDED = Rejected("session_ended", "the session this seat was opened with has ended (signed out, "
                 "or the password was changed): sign in again to play it")


def sockets(connection: Request | WebSocket) -> SessionSockets:
    return connection.app.state.session_sockets


async def still_signed_in(storage: Storage, session: str | None) -> None:
    """Rejected (`session_ended`) if the session a socket opened its seat with has ended."""
    if session is not None and not await _call(storage, "session_alive", session):
        raise ENDED


async def remember_names(storage: Storage) -> None:
    """Learn every account's name (at start: the seat lists show who holds a seat), and give
    the accounts of an older database their skeletons."""
    await _call(storage, "fill_skeletons")
    for user_id, name in await _call(storage, "names"):
        remember(user_id, name)


# -- the middleware: who is signed in, and CSRF ---------------------------------------------


class Sessions:
    """Reads the session cookie of API requests and WebSockets once (`session_of`), and
    refuses a write the cookie authenticates unless it carries the session's CSRF token.
    A request whose cookie opens no session is anonymous, as if it had none."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not scope["path"].startswith(("/api/", "/ws/")):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        cookie = cookie_parser(headers.get("cookie", "")).get(COOKIE)
        session = None
        if cookie and len(cookie) <= MAX_TOKEN_CHARS:
            try:
                session = await _call(_app_storage(scope["app"]), "session", cookie, time.time())
            except StorageFailed as exc:
                if scope["type"] == "http":
                    await JSONResponse({"error": exc.code, "message": exc.message}, 503)(scope, receive, send)
                    return
        scope.setdefault("state", {})["session"] = session
        if session is not None:
            remember(session.account.id, session.account.name)
            problem = _csrf_problem(scope, headers.get(CSRF_HEADER.lower()), session)
            if problem:
                await JSONResponse({"error": "csrf", "message": problem}, 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _csrf_problem(scope: Scope, header: str | None, session: Session) -> str | None:
    if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
        return None
    if header is None:
        return (f"this request carries the session cookie but no {CSRF_HEADER} header; every "
                "write of a signed-in browser sends the session's token (GET /api/session gives it)")
    if not hmac.compare_digest(header.encode("utf-8", "replace"), session.csrf.encode()):
        return (f"the {CSRF_HEADER} header is not this session's token; GET /api/session gives "
                "the right one (it changes at each sign-in)")
    return None


CSRF_WORDS = (f"csrf: the request carries a session cookie but not its {CSRF_HEADER} "
              "(GET /api/session gives it); nothing was changed")


def declare_csrf(document: dict[str, Any]) -> dict[str, Any]:
    """Every write of the OpenAPI document may be refused for CSRF (in place)."""
    for path in document.get("paths", {}).values():
        for method, operation in path.items():
            if method.upper() in SAFE_METHODS:
                continue
            responses = operation.setdefault("responses", {})
            if "403" in responses:
                responses["403"]["description"] += f"; {CSRF_WORDS}"
            else:
                responses["403"] = {"description": CSRF_WORDS, "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
    return document


# -- passwords ---------------------------------------------------------------------------


def _name_problem(name: str) -> str | None:
    """What is wrong with a new user name by itself (names.py, saying which character), or None."""
    return account_name_problem(name)


def _password_problem(password: str) -> str | None:
    """What is wrong with a new password (NIST SP 800-63B) by itself, or None: its length as
    typed, the comparison after normalisation. (Being the user name is `_same_as_name`.)"""
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in password):
        return ("password: control characters cannot be typed at sign-in; use letters, digits, "
                "spaces and punctuation")
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        return (f"password: {MIN_PASSWORD} to {MAX_PASSWORD} characters (it has {len(password)}); "
                "a few words make a good one")
    if _normal(password).casefold() in COMMON_PASSWORDS:
        return "password: it is one of the most common passwords, the first an attacker tries; choose another"
    return None


def _same_as_name(password: str, name: str) -> None:
    """NIST's context-specific words: the password is not the user name. A conflict of two
    fields (409), not a field outside its rule: no schema of one field can say it."""
    if _normal(password).casefold() == name.casefold():
        raise Rejected("password_is_name", "password: it must not be the user name; choose another",
                       status=409)


def _normal(password: str) -> str:
    """NIST: passwords are compared after Unicode normalisation (NFKC), so that the same
    password typed on two keyboards is the same."""
    return unicodedata.normalize("NFKC", password)


def _guarded(call: Any, *args: Any) -> Any:
    with _hashing:
        return call(*args)


async def _hash_password(password: str) -> str:
    return await asyncio.to_thread(_guarded, HASHER.hash, password)


async def _verify(password_hash: str | None, password: str) -> bool:
    """Whether `password` is the one hashed; with no hash (an unknown user name), a
    verification against a dummy hash all the same, so the answer takes as long."""
    if password_hash is None:
        if id(HASHER) not in _dummy_hashes:
            _dummy_hashes[id(HASHER)] = await _hash_password(secrets.token_urlsafe(16))
        password_hash = _dummy_hashes[id(HASHER)]
    try:
        return await asyncio.to_thread(_guarded, HASHER.verify, password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


# -- throttling --------------------------------------------------------------------------


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def address_mark(address: str) -> str:
    """What an account keeps of the address it was created from: a hash, compared only with
    another account's (two accounts of one address do not rate each other, ratings.py)."""
    return hashlib.sha256(f"matanui-account-address\0{address[:80]}".encode()).hexdigest()[:40]


def _keys(name: str, request: Request) -> list[str]:
    """The throttle's keys of a sign-in: the user name from this address, and the address."""
    address = _client(request)[:80]
    pair = hashlib.sha256(f"{name.casefold()}\0{address}".encode()).hexdigest()[:40]
    return [f"pair:{pair}", f"address:{address}"]


async def _attempt(storage: Storage, keys: list[str], now: float) -> None:
    """Refuse an attempt, Throttled, whose keys have reached their limit of failures: it does
    no work and counts for nothing. Else count it as a failure before its password is checked
    (`forgive` takes it back when it succeeds), so that guesses sent at once, to one instance
    or several, each count the others: one that finds the limit reached once it is noted is
    taken back and refused."""
    _past_limit(await _call(storage, "failures", keys, now - FAILURE_WINDOW), keys, now, noted=False)
    await _call(storage, "fail", keys, now)
    try:
        _past_limit(await _call(storage, "failures", keys, now - FAILURE_WINDOW), keys, now, noted=True)
    except Throttled:
        await _call(storage, "forgive", keys, now)
        raise


def _past_limit(found: dict[str, list[float]], keys: list[str], now: float, noted: bool) -> None:
    """Throttled if the failures before this attempt (`noted`: the last one is its own) reach a
    key's limit, saying when to try again."""
    for key, limit, whose in ((keys[0], FAILURES_PER_NAME, "for this user name from your address"),
                              (keys[1], FAILURES_PER_ADDRESS, "from your address")):
        times = found[key][:-1] if noted else found[key]
        if len(times) >= limit:
            wait = max(1, math.ceil(times[len(times) - limit] + FAILURE_WINDOW - now))
            when = time.strftime("%H:%M UTC", time.gmtime(now + wait))
            raise Throttled("too_many_sign_ins", f"{len(times)} failed sign-ins {whose} in the last "
                            f"{int(FAILURE_WINDOW // 60)} minutes; try again in {math.ceil(wait / 60)} "
                            f"minute(s), after {when}", retry_after=wait)


# -- the endpoints -----------------------------------------------------------------------


# The rules as the document states them; checked in code, whose refusals say which rule.
NAME_RULE = {"pattern": f"^{NAME.pattern}$"}


def _not_common() -> str:
    """A pattern (ECMA and Python alike) that no common password matches, whatever its case."""
    def any_case(word: str) -> str:
        return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else re.escape(c) for c in word)
    return f"(?!(?:{'|'.join(any_case(word) for word in sorted(COMMON_PASSWORDS))})$)"


PASSWORD_RULE = {"minLength": MIN_PASSWORD, "maxLength": MAX_PASSWORD,
                 "pattern": f"^{_not_common()}[^\\x00-\\x1f\\x7f-\\x9f]*$"}  # nor control characters
PASSWORD_WORDS = (f"{MIN_PASSWORD} to {MAX_PASSWORD} characters, no control characters; not the "
                  "user name, not one of the most common passwords")


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=64)
    password: str = Field(max_length=1024)


class NewAccount(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=64, json_schema_extra=NAME_RULE,
                      description=f"{ACCOUNT_NAME_WORDS}; unique whatever the case, and not "
                      "confusable with an existing user name (UTS #39 skeletons: I, l and 1, O "
                      "and 0, a Cyrillic а and a Latin a are alike)")
    password: str = Field(max_length=1024, json_schema_extra=PASSWORD_RULE, description=PASSWORD_WORDS)


class NewPassword(BaseModel):
    model_config = ConfigDict(extra="forbid")

    old: str = Field(max_length=1024)
    new: str = Field(max_length=1024, json_schema_extra=PASSWORD_RULE, description=PASSWORD_WORDS)


class Claim(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game_id: str = Field(max_length=100)
    token: str = Field(max_length=MAX_TOKEN_CHARS, description="The seat's secret token this browser holds")


class SessionState(BaseModel):
    account: str | None = Field(description="The signed-in user name; null when signed out")
    csrf: str | None = Field(description=f"Send it as {CSRF_HEADER} with every write")


class Claimed(BaseModel):
    game_id: str
    seat: int


class AccountGame(BaseModel):
    game_id: str
    game: str
    title: str
    seat: int
    character: str
    status: str = Field(description="open, running or finished")
    aborted: bool = Field(False, description="finished without a result: aborted before each "
                          "player had made two moves (docs/ratings.md)")
    your_turn: bool
    created: float
    link: str = Field(description="The game page; it opens the account's seat by the session")


SIGNED_IN = {401: "not_signed_in: this needs the cookie of a signed-in account"}
STORAGE = {503: "database_unavailable: the database failed; nothing was changed"}
THROTTLED = {429: "too_many_sign_ins: too many failed sign-ins of this user name from your "
                  "address, or from your address, in the last 15 minutes (Retry-After says when "
                  "to try again)"}

router = APIRouter(tags=["accounts"])


def _lobby(request: Request) -> Lobby:
    return request.app.state.lobby


async def _start_session(request: Request, response: Response, user_id: str, name: str) -> SessionState:
    """A fresh session for the account, in the cookie; the session the request came with (if
    any) ends: a session id is never carried across a sign-in."""
    storage = _storage(request)
    old = request.cookies.get(COOKIE)
    if old and len(old) <= MAX_TOKEN_CHARS:
        await _call(storage, "close_session", old)
    cookie, csrf = await _call(storage, "open_session", user_id, time.time())
    response.set_cookie(COOKIE, cookie, max_age=int(SESSION_IDLE), path="/", httponly=True,
                        samesite="lax", secure=request.url.scheme == "https")
    remember(user_id, name)
    return SessionState(account=name, csrf=csrf)


def _signed_in(request: Request) -> Session:
    session = session_of(request)
    if session is None:
        raise Rejected("not_signed_in", "sign in first (POST /api/session)", status=401)
    return session


@router.post("/api/account", status_code=201, response_model=SessionState,
             summary="Create an account and sign in (the session cookie is set)",
             responses=refusals({409: "name_taken: an account has that user name (whatever the "
                                      "case), or one that looks like it (the message names it); "
                                      "password_is_name: the password is the user name",
                                 429: "too_many_accounts: this address created as many accounts in "
                                      "the last hour as it may (Retry-After says when to try again)",
                                 422: "bad_request: the user name or password breaks a rule (the "
                                      "message says which and what is allowed)", **STORAGE}))
async def create_account(request: Request, response: Response,
                         body: Annotated[NewAccount, Body()]) -> SessionState:
    problem = _name_problem(body.name) or _password_problem(body.password)
    if problem:
        raise Rejected("bad_request", problem, status=422)
    _same_as_name(body.password, body.name)
    storage, quotas = _storage(request), request.app.state.quotas
    quotas.new_account(_client(request), count=False)  # past the quota: 429, whatever the name
    like = await _call(storage, "name_like", body.name)
    if like is not None:
        raise _taken(body.name, like)
    quotas.new_account(_client(request))
    user_id = secrets.token_hex(16)
    password_hash = await _hash_password(_normal(body.password))
    like = await _call(storage, "add_user", user_id, body.name, password_hash, time.time(),
                       address_mark(_client(request)))
    if like is not None:
        raise _taken(body.name, like)
    return await _start_session(request, response, user_id, body.name)


async def sweep_failures(storage: Storage, now: float) -> None:
    """Forget the failed sign-ins too old to count, on the lobby's timer: the table holds at
    most one window's failures even when nobody signs in."""
    with contextlib.suppress(StorageFailed):
        await _call(storage, "forget_failures", now - FAILURE_WINDOW)


async def check_display_name(storage: Storage, name: str | None, account: str | None) -> None:
    """Rejected when a display name could be taken for an account other than `account` (the
    signed-in one giving it): nobody plays as "Tahu" beside the account tahu but its holder."""
    if not name or not name.strip():
        return
    like = await _call(storage, "account_like", name.strip())
    if like is not None and like[0] != account:
        raise Rejected("name_taken", f"the display name {name.strip()} looks like the account "
                       f"{like[1]}'s name, so the others could take you for them; choose another "
                       f"name (or sign in as {like[1]} if that is you)", status=409)


def _taken(name: str, like: str) -> Rejected:
    if account_key(like) == account_key(name):
        return Rejected("name_taken", f"the user name {name} is taken (names are the same whatever "
                        "the case); choose another", status=409)
    return Rejected("name_taken", f"the user name {name} looks like the account {like}'s (the same "
                    "once lookalike characters are folded: I, l and 1; O and 0; a Latin and a "
                    "Cyrillic a...), so others could take one for the other; choose another", status=409)


@router.post("/api/session", response_model=SessionState, summary="Sign in (a fresh session cookie)",
             responses=refusals({401: "bad_credentials: no account has that user name and password",
                                 **THROTTLED, **STORAGE}))
async def sign_in(request: Request, response: Response,
                  body: Annotated[Credentials, Body()]) -> SessionState:
    storage, now = _storage(request), time.time()
    keys = _keys(body.name, request)
    await _attempt(storage, keys, now)
    user = await _call(storage, "user", account_key(body.name))
    password = _normal(body.password)
    if not await _verify(user.password_hash if user else None, password) or user is None:
        raise Rejected("bad_credentials", "no account has that user name and password (names are "
                       "the same whatever the case; passwords are not)", status=401)
    await _call(storage, "forgive", keys, now)
    if HASHER.check_needs_rehash(user.password_hash):
        await _call(storage, "set_password", user.id, await _hash_password(password), None)
    return await _start_session(request, response, user.id, user.name)


@router.get("/api/session", response_model=SessionState,
            summary="Who is signed in, and the CSRF token every write of theirs sends")
async def get_session(request: Request) -> SessionState:
    session = session_of(request)
    return SessionState(account=session.account.name if session else None,
                        csrf=session.csrf if session else None)


@router.delete("/api/session", response_model=SessionState,
               summary="Sign out: the session ends here and on every instance",
               responses=refusals(STORAGE))
async def sign_out(request: Request, response: Response) -> SessionState:
    cookie = request.cookies.get(COOKIE)
    if cookie and len(cookie) <= MAX_TOKEN_CHARS:
        await _call(_storage(request), "close_session", cookie)
        sockets(request).end(session=_hash(cookie))
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")
    return SessionState(account=None, csrf=None)


@router.post("/api/account/password", response_model=SessionState,
             summary="Change the password: every other session of the account ends, this one "
             "gets a fresh cookie and CSRF token",
             responses=refusals({**SIGNED_IN,
                                 403: "wrong_password: the old password is not the account's",
                                 409: "password_is_name: the new password is the user name",
                                 422: "bad_request: the new password breaks a rule (the message "
                                      "says which)", **THROTTLED, **STORAGE}))
async def change_password(request: Request, response: Response,
                          body: Annotated[NewPassword, Body()]) -> SessionState:
    session = _signed_in(request)
    storage, now, account = _storage(request), time.time(), session.account
    keys = _keys(account.name, request)
    await _attempt(storage, keys, now)
    user = await _call(storage, "user_by_id", account.id)
    if user is None or not await _verify(user.password_hash, _normal(body.old)):
        raise Rejected("wrong_password", "the old password is not this account's; nothing changed",
                       status=403)
    await _call(storage, "forgive", keys, now)
    problem = _password_problem(body.new)
    if problem:
        raise Rejected("bad_request", problem, status=422)
    _same_as_name(body.new, account.name)
    await _call(storage, "set_password", account.id, await _hash_password(_normal(body.new)), now)
    await _call(storage, "close_sessions_of", account.id)
    sockets(request).end(account=account.id)  # this device's too: its page reconnects signed in
    return await _start_session(request, response, account.id, account.name)


@router.get("/api/account/games", response_model=list[AccountGame],
            summary="Every game the account holds a seat in: your turn first, then running "
            "games, then finished ones, each newest first",
            responses=refusals(SIGNED_IN))
async def account_games(request: Request) -> list[AccountGame]:
    account = _signed_in(request).account
    found = []
    for room in _lobby(request).rooms.values():
        state = room.state
        for seat, row in enumerate(room.row.seats):
            if row.account == account.id:
                found.append(AccountGame(
                    game_id=room.id, game=state.game.name, title=state.game.title, seat=seat,
                    character=state.players[seat], status=room.status(), created=room.row.created,
                    aborted=aborts.aborted(state.history),
                    your_turn=not state.is_over and state.current_player == seat,
                    link=f"/games/{room.id}"))
    return sorted(found, key=lambda g: (not g.your_turn, g.status == "finished", -g.created, g.seat))


@router.post("/api/account/claim", response_model=Claimed,
             summary="Put a seat this browser holds (its token) under the signed-in account",
             responses=refusals({**SIGNED_IN,
                                 403: "bad_token: the token opens no seat of this game",
                                 404: "unknown_game: there is no such game",
                                 409: "held: another account holds this seat",
                                 410: "unavailable_game: the stored game cannot be served",
                                 503: "not_saved: the database failed the write; nothing changed"}))
async def claim(request: Request, body: Annotated[Claim, Body()]) -> Claimed:
    account = _signed_in(request).account
    room = await _lobby(request).find(body.game_id)
    seat = room.seat_for(body.token)
    holder = room.row.seats[seat].account
    if holder not in (None, account.id):
        raise Rejected("held", "another account holds this seat; it stays theirs", status=409)
    if holder is None:
        await room.hold(seat, account.id)
    return Claimed(game_id=room.id, seat=seat)
