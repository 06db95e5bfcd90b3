"""A stored game whose clock runs: for the tests of clocks, on the server and in the browser."""

from __future__ import annotations

import json
import random
import secrets
import time
from contextlib import ExitStack
from typing import Any

from websockets.sync.client import connect

from matanui import games
from matanui.server.aborts import MOVES_BEFORE_RESULT
from matanui.server.clocks import turn_of
from matanui.server.rooms import token_hash
from matanui.server.storage import GameRow, SeatRow, Storage

from .wire import draw_window, views


def stored_game(url: str, pace: dict[str, Any], ago: float, seed: int = 3, game: str = "reconstruct",
                players: tuple[str, ...] = ("tahu", "gali"),
                arrived: bool = True) -> tuple[str, list[str], int]:
    """A game of people in the database at `url`, played at random until every seat has made
    two decisions (it can no longer be aborted, aborts.py) and a person is deciding again, for
    `ago` seconds now (every earlier move took no time): its id, the seats' tokens, and the
    seat deciding. Every player came long ago, unless not `arrived`."""
    state = games.get(game).new_game(seed, list(players), {})
    start, rng, made = state.record(), random.Random(seed), [0] * len(players)
    while True:
        seat, by_rule = turn_of(state)
        if not by_rule and seat is not None and min(made) >= MOVES_BEFORE_RESULT:
            break
        if not by_rule and seat is not None:
            made[seat] += 1
        state.apply(rng.choice(state.legal_actions()))
    tokens = [secrets.token_urlsafe(8) for _ in players]
    game_id = secrets.token_urlsafe(6)
    long_ago = time.time() - 1000
    storage = Storage(url)
    try:
        storage.create_game(GameRow(id=game_id, record=start, pace=pace, public=False, hotseat=False,
                                    seats=[SeatRow("human", token_hash=token_hash(t), claimed=True,
                                                   arrived=long_ago if arrived else None)
                                           for t in tokens], created=long_ago))
        for number, action in enumerate(state.history, start=1):
            last = number == len(state.history)
            storage.append_action(game_id, number, action, time.time() - (ago if last else 1000))
    finally:
        storage.close()
    return game_id, tokens, seat


def hand_over(port: int, game_id: str, tokens: list[str], seed: int = 3) -> int:
    """Play a served game's decisions at random, each over its seat's websocket, until every
    seat has made two (the game can no longer be aborted) and a person's timed decision
    begins now: that seat. Its clock starts at this real moment, however slowly the server and
    the pages started."""
    rng = random.Random(seed)
    made = [0] * len(tokens)
    url = f"ws://127.0.0.1:{port}/ws/games/{game_id}"
    with ExitStack() as stack:
        probe, *sockets = (stack.enter_context(connect(url)) for _ in range(len(tokens) + 1))
        probe.send(json.dumps({"type": "hello"}))
        for ws, token in zip(sockets, tokens, strict=True):
            ws.send(json.dumps({"type": "hello", "token": token}))
        streams = [views(ws) for ws in sockets]
        for watched in views(probe):
            running, seat = watched["clock"], watched["current_player"]
            if min(made) >= MOVES_BEFORE_RESULT and running["seat"] is not None and running["deadline"]:
                return running["seat"]
            assert not watched["over"], "the game ended before every seat had made two moves"
            if seat is None:
                continue
            mine = next(view for view in streams[seat] if view["at"] >= watched["at"])
            if mine["at"] != watched["at"] or not mine["legal"]:
                continue  # the probe is behind, or the server takes this decision
            draw_window(sockets[seat], mine, seat)
            if mine.get("closes_at") is None:  # a response window's answer is nobody's move
                made[seat] += 1
            action = rng.choice(mine["legal"])["id"]
            sockets[seat].send(json.dumps({"type": "act", "action": action, "at": mine["at"]}))
    raise AssertionError("the connection closed before the turn passed")
