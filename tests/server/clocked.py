"""A stored game whose clock runs: for the tests of clocks, on the server and in the browser."""

from __future__ import annotations

import random
import secrets
import time
from typing import Any

from matanui import games
from matanui.server.clocks import turn_of
from matanui.server.rooms import token_hash
from matanui.server.storage import GameRow, SeatRow, Storage


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
