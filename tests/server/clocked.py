"""A stored game whose clock runs: for the tests of clocks, on the server and in the browser."""

from __future__ import annotations

import json
import random
import secrets
import time
from typing import Any

from websockets.sync.client import connect

from matanui import games
from matanui.server.clocks import turn_of
from matanui.server.rooms import token_hash
from matanui.server.storage import GameRow, SeatRow, Storage

from .wire import views


def stored_game(url: str, pace: dict[str, Any], ago: float, seed: int = 3) -> tuple[str, list[str], int]:
    """A two-person Reconstruct game in the database at `url`, played at random until a person
    who has decided before is deciding again, for `ago` seconds now (every earlier move took no
    time): its id, the seats' tokens, and the seat deciding."""
    state = games.get("reconstruct").new_game(seed, ["tahu", "gali"], {})
    start, rng, decided = state.record(), random.Random(seed), set()
    while True:
        seat, by_rule = turn_of(state)
        if not by_rule and seat in decided:
            break
        if not by_rule:
            decided.add(seat)
        state.apply(rng.choice(state.legal_actions()))
    tokens = [secrets.token_urlsafe(8) for _ in range(2)]
    game_id = secrets.token_urlsafe(6)
    storage = Storage(url)
    try:
        storage.create_game(GameRow(id=game_id, record=start, pace=pace, public=False, hotseat=False,
                                    seats=[SeatRow("human", token_hash=token_hash(t), claimed=True)
                                           for t in tokens], created=time.time() - 1000))
        for number, action in enumerate(state.history, start=1):
            last = number == len(state.history)
            storage.append_action(game_id, number, action, time.time() - (ago if last else 1000))
    finally:
        storage.close()
    return game_id, tokens, seat


def hand_over(port: int, game_id: str, tokens: list[str], seed: int = 3) -> int:
    """Play a served game's timed decisions at random, over the websocket of the seat whose
    clock runs, until another person's timed decision begins now: that seat. Its clock starts
    at this real moment, however slowly the server and the pages started."""
    rng = random.Random(seed)
    with connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}") as probe:
        probe.send(json.dumps({"type": "hello"}))
        deciding = next(views(probe))["clock"]["seat"]
    with connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": tokens[deciding]}))
        for view in views(ws):
            running = view["clock"]
            if running["seat"] not in (None, deciding) and running["deadline"] is not None:
                return running["seat"]
            if view["legal"]:
                action = rng.choice(view["legal"])["id"]
                ws.send(json.dumps({"type": "act", "action": action, "at": view["at"]}))
    raise AssertionError("the connection closed before the turn passed")

