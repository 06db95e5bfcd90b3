"""What one client may ask of the service, so that no client can slow everyone down.

A client is its IP address (the one a trusted proxy names, app.py). Rates (games created a
minute, messages a second) are counted by the `limits` package in moving windows, a game
only once it is made, so a refused request uses up nothing; what is held at once
(connections, replays being built, bot-only games) is counted here while it is held. A
refusal is `Throttled`: HTTP 429
with `Retry-After` when the client asked too much, 503 when the whole server is full; on a
WebSocket, an error message and then close code 4429 with the reason. docs/protocol.md lists
every limit and docs/performance.md what the abuse script (`python -m matanui.tools.abuse`)
got from each.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from limits import RateLimitItem, RateLimitItemPerHour, RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from .protocol import REALTIME_LEAST_MOVE, Rejected

TOO_MANY = 4429  # WebSocket close code: a limit of this page (the reason says which)
EXPIRED = 4410  # WebSocket close code: the game expired, nobody played it for too long
HOUR = 3600.0
DAY = 24 * HOUR


@dataclass(frozen=True)
class Limits:
    """Every limit of the service; `create_app(limits=...)` and `matanui serve` set them."""

    games_per_minute: int = 10  # games (and rematches) one client creates a minute
    open_games: int = 5_000  # unfinished games the server keeps at once
    bot_games_per_client: int = 2  # unfinished bot-only games one client has at once
    bot_games: int = 16  # unfinished bot-only games on the server at once
    sockets_per_client: int = 32  # open WebSocket connections of one client
    sockets_per_game: int = 64  # open WebSocket connections to one game
    messages_per_second: int = 20  # WebSocket messages one connection sends a second
    replays_per_client: int = 2  # replays one client has being built at once
    replays: int = 8  # replays being built (or waiting to be) at once on the server
    unstarted_ttl: float = DAY  # a game with no action expires after this many seconds
    started_ttl: float = 30 * DAY  # a started game with no new action for this long expires
    sweep_every: float = 60.0  # seconds between looks for expired games
    page_size: int = 200  # most games one GET /api/games answers
    hellos_per_minute: int = 60  # WebSocket hellos (each answered by a welcome) of one client
    accounts_per_hour: int = 10  # accounts one client creates (each costs a password hash)
    least_move_seconds: int = REALTIME_LEAST_MOVE  # a real-time game's shortest move (tests lower it)
    chat_lines: int = 5  # chat lines one connection says in `chat_seconds` (chat.py)
    chat_seconds: float = 10.0
    gone_after: float = 60.0  # seconds without a connection before a seat is "gone" (presence.py)
    # Rated games (ratings.py, docs/ratings.md): between the same two accounts, at most this many
    # count in `rated_pair_seconds`; accounts created from one address never rate each other,
    # unless `rated_one_address` is 1 (a club whose players share one address).
    rated_pair_games: int = 3
    rated_pair_seconds: float = 7 * DAY
    rated_one_address: int = 0


class Throttled(Rejected):
    """A limit reached: nothing was done; try again after `retry_after` seconds."""

    def __init__(self, code: str, message: str, *, status: int = 429, retry_after: int = 60) -> None:
        super().__init__(code, message, status=status)
        self.retry_after = retry_after


class Quotas:
    """The counters of one server."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._rates = MovingWindowRateLimiter(MemoryStorage())
        self._creates = RateLimitItemPerMinute(limits.games_per_minute)
        self._messages = RateLimitItemPerSecond(limits.messages_per_second)
        self._sockets: Counter[str] = Counter()
        self._game_sockets: Counter[str] = Counter()
        self._replays: Counter[str] = Counter()
        self._creating: Counter[str] = Counter()

    # -- rates -------------------------------------------------------------------------

    def _wait(self, item: RateLimitItem, *key: str) -> int:
        reset = self._rates.get_window_stats(item, *key).reset_time
        return max(1, math.ceil(reset - time.time()))

    @contextmanager
    def creating(self, client: str) -> Iterator[None]:
        """Hold a place for one game `client` is making while the block runs; Throttled past its
        games a minute (those made and those being made). The game counts only if the block
        ends without an exception: a refused request uses up nothing."""
        if not self._rates.test(self._creates, "create", client, cost=self._creating[client] + 1):
            wait = self._wait(self._creates, "create", client)
            raise Throttled("too_many_games", f"you have created {self.limits.games_per_minute} "
                            f"games in the last minute, the most allowed; try again in {wait} s",
                            retry_after=wait)
        with _held(self._creating, client):
            yield
        self._rates.hit(self._creates, "create", client)

    def _count(self, item: RateLimitItem, kind: str, client: str, code: str, what: str) -> None:
        """Count one `kind` of `client`; Throttled (`code`, "`what` ... in the last <window>")
        past the `item`'s amount."""
        if not self._rates.hit(item, kind, client):
            wait = self._wait(item, kind, client)
            raise Throttled(code, f"{what} in the last {item.GRANULARITY.name}, the most allowed; "
                            f"try again in {wait} s", retry_after=wait)

    def hello(self, client: str) -> None:
        """Count a WebSocket hello of `client` (each is answered with a welcome, the largest
        message: a reconnect loop must not draw them without end); Throttled past its hellos
        a minute."""
        most = self.limits.hellos_per_minute
        self._count(RateLimitItemPerMinute(most), "hello", client, "too_many_hellos",
                    f"{most} connections from your address said hello")

    def new_account(self, client: str, count: bool = True) -> None:
        """Count an account `client` is about to create (its password hash is the costly part:
        a loop of sign-ups must not keep the server hashing); Throttled past its accounts an
        hour. Not `count`: only whether it may, checked before anything else is looked at, so
        that a client past its quota learns nothing (not even whether a name is taken)."""
        most = self.limits.accounts_per_hour
        item = RateLimitItemPerHour(most)
        if not count and self._rates.test(item, "account", client):
            return
        self._count(item, "account", client, "too_many_accounts",
                    f"{most} accounts were created from your address")

    def message(self, connection: str) -> None:
        """Count a WebSocket message; Throttled past the messages a second of a connection."""
        if not self._rates.hit(self._messages, "message", connection):
            raise Throttled("too_fast", f"more than {self.limits.messages_per_second} messages a "
                            "second; reconnect and send fewer", retry_after=1)

    # -- what is held at once ----------------------------------------------------------

    @contextmanager
    def socket(self, client: str, game_id: str) -> Iterator[None]:
        """Hold one WebSocket connection of `client` to a game while the block runs."""
        if self._sockets[client] >= self.limits.sockets_per_client:
            raise Throttled("too_many_connections", f"at most {self.limits.sockets_per_client} "
                            "connections from one address; close some", retry_after=10)
        if self._game_sockets[game_id] >= self.limits.sockets_per_game:
            raise Throttled("game_crowded", f"this game has {self.limits.sockets_per_game} "
                            "connections, the most allowed; try later", retry_after=10)
        with _held(self._sockets, client), _held(self._game_sockets, game_id):
            yield

    @contextmanager
    def replay(self, client: str) -> Iterator[None]:
        """Hold one replay being built for `client` while the block runs."""
        if self._replays[client] >= self.limits.replays_per_client:
            raise Throttled("too_many_replays", f"at most {self.limits.replays_per_client} replays "
                            "at once per address; wait for the ones you asked for", retry_after=5)
        if self._replays.total() >= self.limits.replays:
            raise Throttled("replays_busy", "the server is building as many replays as it may; "
                            "try again in a few seconds", status=503, retry_after=5)
        with _held(self._replays, client):
            yield

    def check_new_game(self, client: str, open_games: int, bot_only: bool, bot_games: int,
                       client_bot_games: int) -> None:
        """Refuse a game past the server's open games or the bot-only games' caps."""
        limits = self.limits
        if open_games >= limits.open_games:
            raise Throttled("server_full", f"the server has {limits.open_games} unfinished games, "
                            "the most it keeps; try later", status=503, retry_after=600)
        if bot_only and client_bot_games >= limits.bot_games_per_client:
            raise Throttled("too_many_bot_games", f"you have {client_bot_games} unfinished games of "
                            f"bots only, the most allowed ({limits.bot_games_per_client}); wait "
                            "for one to end, or take a seat in it", retry_after=60)
        if bot_only and bot_games >= limits.bot_games:
            raise Throttled("bot_games_full", f"the server runs {limits.bot_games} games of bots "
                            "only, the most it may; try later", status=503, retry_after=60)


@contextmanager
def _held(counter: Counter[str], key: str) -> Iterator[None]:
    counter[key] += 1
    try:
        yield
    finally:
        counter[key] -= 1
        if counter[key] <= 0:
            del counter[key]
