"""A load benchmark on loopback (not a test): N concurrent games, each a scripted client
(seat 0, choosing at random) against a bot, on a real `matanui serve` in its own process (or
on several instances sharing one PostgreSQL, clients spread over them in turn).

It reports accepted actions per second (people's and bots'), the 50th/99th percentile of
an action's round trip (from the client sending `act` to the `update` that carries it), the
50th/95th/99th percentile of the bot's reply (from that update to the next, which carries the
bot's action: its thinking, its wait for a worker and the transport), and how many `hard`
moves the server played as the heuristic because their second was spent waiting. Every
loop is bounded in count and time and stops by itself; only 127.0.0.1 is contacted.

    python -m matanui.tools.load --games 200 --seconds 60 --think 1
    python -m matanui.tools.load --instances 2 --database postgresql+psycopg://USER:PW@127.0.0.1/DB
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import connect


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)  # seconds, one per scripted action
    replies: list[float] = field(default_factory=list)  # seconds, one per bot reply to one
    accepted: int = 0  # every accepted action the clients saw (theirs and the bots')
    games: int = 0
    errors: int = 0


def create_game(base: str, game: str, level: str, seed: int) -> dict:
    body = {"game": game, "seed": seed, "seats": [{"kind": "human"}, {"kind": "bot", "level": level}]}
    request = urllib.request.Request(f"{base}/api/games", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


async def play_games(base: str, ws_base: str, game: str, level: str, think: float, deadline: float,
                     seed: int, tally: Tally) -> None:
    """One client: play whole games, one after another, until the deadline, thinking about
    `think` seconds (0.5x to 1.5x) before each of its actions."""
    rng = random.Random(seed)
    while time.monotonic() < deadline:
        created = await asyncio.to_thread(create_game, base, game, level, rng.randrange(2**31))
        async with connect(f"{ws_base}/ws/games/{created['id']}", max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": created["seats"][0]["token"]}))
            sent_at: float | None = None
            asked_at: float | None = None  # when the update of our action left the bot to move
            seen = None
            while time.monotonic() < deadline:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
                if message["type"] == "error":
                    tally.errors += 1
                    continue
                if message["type"] not in ("welcome", "update"):
                    continue
                if seen is not None:
                    tally.accepted += message["at"] - seen
                seen = message["at"]
                if message["type"] == "update":
                    now = time.perf_counter()
                    if asked_at is not None:
                        tally.replies.append(now - asked_at)
                        asked_at = None
                    if sent_at is not None:
                        tally.latencies.append(now - sent_at)
                        sent_at = None
                        if not message["over"] and not message["legal"]:
                            asked_at = now
                if message["over"]:
                    tally.games += 1
                    break
                if message["legal"]:
                    if think:
                        await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                    action = rng.choice(message["legal"])["id"]
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "action": action, "at": message["at"]}))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port: int, database: str, workers: int, lifted: bool = True,
                 extra: tuple[str, ...] = ()) -> subprocess.Popen:
    """`matanui serve` on 127.0.0.1:port; `lifted`: without the limits scripted clients reach
    (they act faster than people and create many games); `extra`: more options of serve."""
    lift = ("messages_per_second=1000", "games_per_minute=100000", "sockets_per_client=100000",
            "hellos_per_minute=100000")
    limits = [f"--limit={limit}" for limit in lift] if lifted else []
    process = subprocess.Popen([sys.executable, "-m", "matanui.cli", "serve", "--port", str(port),
                                "--database", database, "--bot-pace", "0", "--bot-workers", str(workers),
                                *limits, *extra])
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/catalog", timeout=2)
            return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("the server did not start")


def bot_counts(base: str) -> dict[str, int]:
    """The server's bot counters (/api/health), read before it stops."""
    with urllib.request.urlopen(f"{base}/api/health", timeout=30) as response:
        return json.load(response).get("bots", {})


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run(args: argparse.Namespace, bases: list[str]) -> Tally:
    tally = Tally()
    deadline = time.monotonic() + args.seconds
    await asyncio.gather(*(play_games(base, base.replace("http://", "ws://"), args.game, args.level,
                                      args.think, deadline, seed, tally)
                           for seed, base in zip(range(args.games), itertools.cycle(bases))))
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to keep playing")
    parser.add_argument("--game", default="reconstruct")
    parser.add_argument("--level", default="easy", help="the bots' level")
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds a scripted client "
                        "waits before acting (0: act at once, the server's saturation)")
    parser.add_argument("--port", type=int, default=0, help="default: a free one")
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--running", action="store_true", help="use a server already running on "
                        "127.0.0.1:--port (started with --bot-pace 0) instead of starting one")
    parser.add_argument("--database", help="the servers' database (default: a fresh SQLite file)")
    parser.add_argument("--instances", type=int, default=1, help="servers to start on --database "
                        "(more than one needs PostgreSQL)")
    args = parser.parse_args()
    if args.instances > 1 and not (args.database or "").startswith("postgresql"):
        parser.error("--instances above 1 needs --database postgresql+psycopg://...")
    ports = [args.port] if args.running else [args.port or free_port()] + [
        free_port() for _ in range(args.instances - 1)]
    with tempfile.TemporaryDirectory() as folder:
        database = args.database or f"sqlite:///{Path(folder) / 'load.db'}"
        servers = [] if args.running else [start_server(port, database, args.bot_workers) for port in ports]
        try:
            started = time.monotonic()
            bases = [f"http://127.0.0.1:{port}" for port in ports]
            tally = asyncio.run(run(args, bases))
            elapsed = time.monotonic() - started
            counts = [bot_counts(base) for base in bases]
        finally:
            for server in servers:
                server.terminate()
                server.wait(timeout=30)
    lat = tally.latencies
    print(f"{args.games} concurrent {args.game} games (scripted client thinking {args.think} s vs "
          f"{args.level} bot) on {len(ports)} instance(s), "
          f"{elapsed:.1f} s, {tally.games} games finished, {tally.errors} errors")
    print(f"accepted actions: {tally.accepted} ({tally.accepted / elapsed:,.0f}/s); "
          f"scripted actions timed: {len(lat)}")
    if lat:
        p50, p99 = percentile(lat, 0.5) * 1000, percentile(lat, 0.99) * 1000
        print(f"round trip: p50 {p50:.1f} ms, p99 {p99:.1f} ms, mean {statistics.fmean(lat) * 1000:.1f} ms")
    if tally.replies:
        p50, p95, p99 = (percentile(tally.replies, share) * 1000 for share in (0.5, 0.95, 0.99))
        print(f"bot reply ({len(tally.replies)} timed): p50 {p50:.0f} ms, p95 {p95:.0f} ms, "
              f"p99 {p99:.0f} ms, max {max(tally.replies) * 1000:.0f} ms")
    timed = sum(c.get("timed_moves", 0) for c in counts)
    if timed:
        print(f"timed bot moves: {timed}, of which played as the heuristic for lack of time: "
              f"{sum(c.get('hurried_moves', 0) for c in counts)}")


if __name__ == "__main__":
    main()
