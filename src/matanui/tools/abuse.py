"""Loopback abuse (not a test): play a few attacks on a fresh `matanui serve` with its default
limits (a flood of new games, a flood of sockets, long replays against the lobby, one address's
bot games against another's replies) and print what each attack got. Every loop is bounded in count and time;
only 127.0.0.1 is contacted. Distinct clients are played with `X-Forwarded-For`, which the
server believes only from a --trusted-proxy: the script starts it with 127.0.0.1 as one.

    python -m matanui.tools.abuse --rounds 15
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
import urllib.error
import urllib.request
from itertools import islice
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from matanui import games
from matanui.ai.base import RandomAgent
from matanui.ai.play import moves
from matanui.server.storage import GameRow, SeatRow, Storage
from matanui.tools.load import start_server

HARD_BOTS = [{"kind": "bot", "level": "hard"}] * 6


def call(base: str, path: str, body: dict | None = None, client: str = "10.0.0.1") -> tuple[int, dict, float]:
    """Status, answer and seconds of one HTTP request made as `client`."""
    request = urllib.request.Request(base + path, data=json.dumps(body).encode() if body else None,
                                     headers={"content-type": "application/json",
                                              "x-forwarded-for": client})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response), time.perf_counter() - started
    except urllib.error.HTTPError as error:
        return error.code, {**json.load(error), "retry_after": error.headers.get("retry-after")}, 0.0


def seed_long_game(database: str, actions: int) -> str:
    """A Makuta game of `actions` random actions, written to the database before the server starts."""
    state = games.get("makuta").new_game(7, games.get("makuta").characters()[:6], {"turn_limit": 10_000})
    storage = Storage(database)
    storage.create_game(GameRow(id="long", record=state.record(), seats=[SeatRow("human")] * 6,
                                public=False, hotseat=False))
    seats = [RandomAgent(7)] * 6  # one random stream for all six seats, in the order they act
    for _, action, _ in islice(moves(state, seats), max(actions, 0)):
        storage.append_action("long", len(state.history), action, time.time())
    storage.close()
    return "long"


def create_flood(base: str) -> None:
    answers = [call(base, "/api/games", {"game": "reconstruct", "seats": [{}, {}]}, "10.0.1.1")
               for _ in range(15)]
    refused = [a for a in answers if a[0] == 429]
    first = refused[0][1] if refused else {}
    print(f"create flood: 15 games asked in a row -> {len(answers) - len(refused)} created, "
          f"{len(refused)} refused 429 ({first.get('error')}, Retry-After {first.get('retry_after')} s)")


async def socket_flood(ws_base: str, game: str) -> None:
    opened, codes = [], []
    for _ in range(40):
        ws = await connect(f"{ws_base}/ws/games/{game}", additional_headers={"x-forwarded-for": "10.0.2.1"})
        opened.append(ws)
    for ws in opened:
        try:
            await ws.send(json.dumps({"type": "hello"}))
            await asyncio.wait_for(ws.recv(), 5)
            await asyncio.wait_for(ws.recv(), 0.2)
        except (ConnectionClosed, TimeoutError):
            pass
        codes.append(ws.close_code)
    refused = [c for c in codes if c == 4429]
    print(f"connection flood: 40 sockets from one address -> {len(codes) - len(refused)} kept, "
          f"{len(refused)} closed with 4429 ({opened[-1].close_reason!r})")
    for ws in opened:
        await ws.close()
    flooder = {"x-forwarded-for": "10.0.3.1"}
    async with connect(f"{ws_base}/ws/games/{game}", additional_headers=flooder) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        await ws.recv()
        sent = 0
        try:
            for _ in range(100):
                await ws.send(json.dumps({"type": "act", "action": "pass"}))
                sent += 1
            while True:
                await asyncio.wait_for(ws.recv(), 5)
        except (ConnectionClosed, TimeoutError):
            pass
        print(f"message flood: {sent} messages sent at once -> closed with {ws.close_code} "
              f"({ws.close_reason!r})")


async def replays_vs_lobby(base: str, game: str) -> None:
    async def timed(path: str, client: str) -> tuple[int, float]:
        status, _, seconds = await asyncio.to_thread(call, base, path, None, client)
        return status, seconds

    probes: list[float] = []

    async def probe(until: asyncio.Future) -> None:
        while not until.done():
            for path in ("/api/catalog", "/api/games"):
                probes.append((await timed(path, "10.0.4.9"))[1])
            await asyncio.sleep(0.05)

    replays = asyncio.gather(*(timed(f"/api/games/{game}/replay", f"10.0.4.{i}") for i in range(4)))
    await asyncio.gather(replays, probe(replays))
    answers = replays.result()
    print(f"4 replays of a {game!r} game at once: {[s for s, _ in answers]} in "
          f"{max(t for _, t in answers):.1f} s; meanwhile {len(probes)} catalog/lobby requests: "
          f"median {statistics.median(probes) * 1000:.0f} ms, max {max(probes) * 1000:.0f} ms")


async def bot_replies(base: str, ws_base: str, rounds: int) -> list[float]:
    """Seconds from a person's action to the bot's answer, in a Makuta game against a medium bot."""
    _, created, _ = call(base, "/api/games", {"game": "makuta", "seed": 3, "seats": [
        {"kind": "human"}, {"kind": "bot", "level": "medium"}]}, "10.0.5.1")
    rng, times = random.Random(3), []
    async with connect(f"{ws_base}/ws/games/{created['id']}", max_size=2**24,
                       additional_headers={"x-forwarded-for": "10.0.5.1"}) as ws:
        await ws.send(json.dumps({"type": "hello", "token": created["seats"][0]["token"]}))
        sent, passed = None, False
        while len(times) < rounds:
            view = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if view["type"] not in ("welcome", "update"):
                continue
            if view["over"]:
                break
            if view["current_player"] != 0:
                passed = True  # the bot is to move
                continue
            if sent is not None and passed:
                times.append(time.perf_counter() - sent)
            await asyncio.sleep(0.1)  # a person is slower than the message limit
            await ws.send(json.dumps({"type": "act", "action": rng.choice(view["legal"])["id"],
                                      "at": view["at"]}))
            sent, passed = time.perf_counter(), False
    return times


async def fairness(base: str, ws_base: str, rounds: int) -> None:
    alone = await bot_replies(base, ws_base, rounds)
    answers = [call(base, "/api/games", {"game": "makuta", "seats": HARD_BOTS}, "10.0.6.1")[0]
               for _ in range(6)]
    await asyncio.sleep(3)  # the abuser's bots are thinking
    loaded = await bot_replies(base, ws_base, rounds)
    a, b = statistics.median(alone), statistics.median(loaded)
    print(f"six 6-bot hard Makuta games from one address: answers {answers}")
    print(f"bot reply in someone else's game (Makuta, medium bot, {rounds} rounds each): alone "
          f"median {a * 1000:.0f} ms, with the abuser's games {b * 1000:.0f} ms ({(b / a - 1) * 100:+.0f}%)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="bot replies timed in each phase")
    parser.add_argument("--actions", type=int, default=3000, help="actions of the long game replayed")
    args = parser.parse_args()
    from matanui.tools.load import free_port

    port = free_port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'abuse.db'}"
        long_game = seed_long_game(database, args.actions)
        server = start_server(port, database, 1, lifted=False, extra=("--trusted-proxy", "127.0.0.1"))
        try:
            create_flood(base)
            _, game, _ = call(base, "/api/games", {"game": "reconstruct", "seats": [{}, {}]}, "10.0.1.2")
            asyncio.run(socket_flood(ws_base, game["id"]))
            asyncio.run(replays_vs_lobby(base, long_game))
            asyncio.run(fairness(base, ws_base, args.rounds))
        finally:
            server.terminate()
            server.wait(timeout=60)


if __name__ == "__main__":
    main()
