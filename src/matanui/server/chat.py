"""A game's chat: lines its people say, stored with the game, told to who may read them.

Two channels. "players": the seats write, everyone (players and spectators) reads.
"spectators": spectators write and read; players never see it, so the table cannot be
coached from the gallery. A player's connection without its seat (a second tab opened
without the token) is no spectator: from the account that holds a seat, or from an address
a seat was opened from, it reads the players' channel only and writes neither
(Room.in_gallery; refused with "plays_here"). A game has chat only where people meet: not
hot-seat (one screen) and with at least two seats that are not bots; anywhere else a line is
refused ("no_chat").

A line is 1 to MAX_CHAT_CHARS characters after trimming, with no hidden character (a
control such as a newline or ESC, a format character such as a bidirectional override:
engine/untrusted.py's one definition); each connection says at most `Limits.chat_lines`
lines in `Limits.chat_seconds`, and the spectators of one address together as many (so a
crowd of sockets is one voice). Each channel keeps its own most lines (MOST_LINES): the
gallery can fill its own, never the players'. Lines are stored in the `chat` table numbered per game
(`n`), with `after` = the number of actions the game had when it was said (the replay shows
it from that step on). Several instances: a line stored on one reaches the others through
the games channel (Storage._changed); each instance reads the lines after the last it has.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
import weakref
from collections import deque
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, Text, func, insert, select
from sqlalchemy.exc import IntegrityError

from matanui.engine.untrusted import first_hidden, printable

from .names import blank, describe
from .protocol import Rejected
from .storage import Storage, StorageFailed, _write, metadata

if TYPE_CHECKING:
    from .rooms import Connection, Room

MAX_CHAT_CHARS = 500
CHAT_PAGE = 100  # the newest lines a welcome carries
PLAYERS, SPECTATORS = "players", "spectators"
# The most lines one game keeps per channel (the room holds them all, for welcomes and the
# replay): a long game of friendly chat says a few hundred; a flood stops here, not in the
# server's memory, and spectators cannot fill the players' channel.
MOST_LINES = {PLAYERS: 2_000, SPECTATORS: 500}
SPECTATOR_NAME = "Spectator"
STORE_TRIES = 5  # two instances numbering a line alike: the second tries the next number

chat_table = Table(
    "chat",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("n", Integer, primary_key=True),  # 1-based, in the order stored
    Column("seat", Integer, nullable=True),  # None: a spectator
    Column("channel", String(16), nullable=False),
    Column("name", String(64), nullable=False),  # the speaker's name when it was said
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("after", Integer, nullable=False),  # the game's number of actions when it was said
)


@dataclass(frozen=True)
class ChatLine:
    n: int
    seat: int | None
    channel: str
    name: str
    text: str
    at: float
    after: int

    def to_message(self) -> dict[str, Any]:
        """The line as clients are sent it live (a replay adds `after`)."""
        return {"n": self.n, "seat": self.seat, "name": self.name, "text": self.text,
                "at": self.at, "channel": self.channel}

    def readable_by(self, gallery: bool) -> bool:
        """Spectators (the gallery: Room.in_gallery) read both channels; players only theirs."""
        return gallery or self.channel == PLAYERS


def checked_text(text: str) -> str:
    """A line as stored: no hidden character (as given), then trimmed, 1 to MAX_CHAT_CHARS characters;
    Rejected("bad_chat") saying what is allowed otherwise, Rejected("blank_chat") for a line of
    only invisible characters (names.py's `blank`: U+3164 HANGUL FILLER, U+2800 BRAILLE
    PATTERN BLANK...), which would show as an empty line from someone."""
    trimmed = text.strip()
    allowed = (f"a chat line is 1 to {MAX_CHAT_CHARS} characters of plain text on one line (no "
               "control character such as a newline or ESC, no format character such as a "
               "bidirectional override or a zero-width space)")
    at = first_hidden(text)  # as given: a newline or CR at an end is refused, not trimmed away
    if at is not None:
        raise Rejected("bad_chat", f"the line holds the hidden character {printable(text[at])} at "
                       f"character {at + 1}; {allowed}")
    if not 0 < len(trimmed) <= MAX_CHAT_CHARS:
        raise Rejected("bad_chat", f"the line is {len(trimmed)} characters after trimming; {allowed}")
    if blank(trimmed):
        raise Rejected("blank_chat", f"the line shows as nothing: its {len(trimmed)} characters are "
                       f"all invisible ({describe(trimmed[0])} first: a default-ignorable character "
                       "or a blank glyph); a chat line says something that can be read")
    return trimmed


@_write
def store_line(storage: Storage, game_id: str, line: ChatLine) -> None:
    """Store a line under the game's next number (`line.n` is ignored) and tell the other
    instances."""
    chat = chat_table.c
    values = {k: v for k, v in asdict(line).items() if k != "n"}
    for attempt in range(STORE_TRIES):
        try:
            with storage.engine.begin() as db:
                last = db.scalar(select(func.max(chat.n)).where(chat.game_id == game_id)) or 0
                db.execute(insert(chat_table).values(game_id=game_id, n=last + 1, **values))
                storage._changed(db, game_id)
            return
        except IntegrityError:  # another instance took that number a moment ago
            if attempt == STORE_TRIES - 1:
                raise


def lines_after(storage: Storage, game_id: str, n: int) -> list[ChatLine]:
    """A game's stored lines after number `n`, in order."""
    chat = chat_table.c
    with storage.engine.connect() as db:
        rows = db.execute(select(chat.n, chat.seat, chat.channel, chat.name, chat.text, chat.at,
                                 chat.after).where(chat.game_id == game_id, chat.n > n)
                          .order_by(chat.n)).all()
    return [ChatLine(*row) for row in rows]


class Chat:
    """The chat of one room: its lines (all of them, read from the database once), who may
    say what, and each connection's rate."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.lines: list[ChatLine] = []
        self.loaded = False
        self._lock = asyncio.Lock()
        self._said: weakref.WeakKeyDictionary[Connection, deque[float]] = weakref.WeakKeyDictionary()
        self._said_from: dict[str, deque[float]] = {}  # the spectators' lines by address

    # -- reading -----------------------------------------------------------------------

    async def load(self) -> None:
        """Read the stored lines, once (before the first welcome that carries them)."""
        if not self.loaded:
            await self.sync()

    async def sync(self) -> list[ChatLine]:
        """Take in the lines stored since the last one here (by any instance) and tell the
        connections; the new lines."""
        storage = self.room.backends.storage
        async with self._lock:
            last = self.lines[-1].n if self.lines else 0
            new = await storage.run(lines_after, storage, self.room.id, last)
            self.lines.extend(new)
            self.loaded = True
        if new:
            self._tell(new)
        return new

    def readable(self, gallery: bool, limit: int = CHAT_PAGE) -> list[dict[str, Any]]:
        """The newest `limit` lines a connection may read (`gallery`: a spectator's), oldest first."""
        lines = [line for line in self.lines if line.readable_by(gallery)]
        return [line.to_message() for line in lines[-limit:]]

    def replay_lines(self) -> list[dict[str, Any]]:
        """The players' lines, each with `after`, for a replay."""
        return [{**line.to_message(), "after": line.after} for line in self.lines if line.channel == PLAYERS]

    def _tell(self, lines: list[ChatLine]) -> None:
        texts: dict[bool, str | None] = {}
        for connection in self.room.connections:
            gallery = self.room.in_gallery(connection)
            if gallery not in texts:
                shown = [line.to_message() for line in lines if line.readable_by(gallery)]
                texts[gallery] = json.dumps({"type": "chat", "lines": shown}) if shown else None
            text = texts[gallery]
            if text is not None:
                connection.send(text)

    # -- saying ------------------------------------------------------------------------

    def refusal(self) -> Rejected | None:
        """Why this game has no chat, or None."""
        room = self.room
        if room.row.hotseat:
            return Rejected("no_chat", "a hot-seat game is played at one screen: it has no chat")
        if sum(seat.kind != "bot" for seat in room.row.seats) < 2:
            return Rejected("no_chat", "this game has no chat: every seat but one is a bot (chat is "
                            "for games of two or more people)")
        return None

    async def say(self, connection: Connection, text: str) -> None:
        """Store and tell one line of `connection` (a seat: the players' channel; a spectator:
        theirs). Rejected, changing nothing, for a game without chat, a line that is not
        allowed, a connection past its rate, or a database that fails."""
        refusal = self.refusal()
        if refusal is not None:
            raise refusal
        room, seat = self.room, connection.seat
        if seat is None and not room.in_gallery(connection):
            raise Rejected("plays_here", "you play in this game (your account holds a seat of it, or "
                           "a seat of it was opened from your address): a connection of yours without "
                           "the seat's token watches, but neither reads nor writes the spectators' "
                           "chat; open the game with your seat's link (or signed in) to chat with "
                           "the table")
        text = checked_text(text)
        await self.load()
        channel = SPECTATORS if seat is None else PLAYERS
        most = MOST_LINES[channel]
        if sum(line.channel == channel for line in self.lines) >= most:
            raise Rejected("chat_full", f"this game's {channel}' chat holds {most} lines, the most "
                           "it keeps; nothing more can be said in it")
        said = self._count(connection)
        line = ChatLine(0, seat, channel,
                        SPECTATOR_NAME if seat is None else room.state.names[seat],
                        text, time.time(), len(room.state.history))
        storage = room.backends.storage
        try:
            await storage.run(store_line, storage, room.id, line)
        except StorageFailed:  # nothing was stored: the line does not count
            for times in said:
                times.pop()
            raise
        await self.sync()

    def _count(self, connection: Connection) -> list[deque[float]]:
        """Count one line of `connection`, and of its address if it is a spectator; Rejected
        ("chat_too_fast", saying when to try again) past `chat_lines` in the last
        `chat_seconds` of either. The connection stays open. The counts it was added to."""
        limits = self.room.backends.limits
        now = time.monotonic()
        counts = [(self._said.setdefault(connection, deque()), "you have")]
        if connection.seat is None:
            counts.append((self._said_from.setdefault(connection.client, deque()),
                           "the spectators at your address have"))
        for said, who in counts:
            while said and said[0] <= now - limits.chat_seconds:
                said.popleft()
            if len(said) >= limits.chat_lines:
                wait = max(1, math.ceil(said[0] + limits.chat_seconds - now))
                raise Rejected("chat_too_fast", f"{who} sent {limits.chat_lines} chat lines in the "
                               f"last {limits.chat_seconds:g} seconds, the most allowed; try again in "
                               f"{wait} s (nothing was sent)")
        for said, _ in counts:
            said.append(now)
        return [said for said, _ in counts]
