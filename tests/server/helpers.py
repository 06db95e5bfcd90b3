"""Driving the service as a client would: create games, say hello, play to the end."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from matanui.server.protocol import CreateGame, Rejected
from matanui.server.security import DEFAULT_ALLOWED_HOSTS

# The service answers only to the Host names it is given (DNS rebinding); Starlette's test
# client calls itself "testserver".
TEST_HOSTS = (*DEFAULT_ALLOWED_HOSTS, "testserver")

HUMAN_VS_BOT = [{"kind": "human", "character": "tahu"}, {"kind": "bot", "level": "easy", "character": "gali"}]


def create(client: TestClient, seats: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    """A new game; one whose seats are all the creator's is dealt from seed 5 unless told
    otherwise (the server deals a game anyone else plays in itself)."""
    body = {"game": "reconstruct", "seats": seats or HUMAN_VS_BOT, **extra}
    if not CreateGame.model_validate(body).shared:
        body.setdefault("seed", 5)
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def receive_view(ws: Any, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The next welcome or update (errors fail the test); every message goes to `log`."""
    while True:
        message = ws.receive_json()
        if log is not None:
            log.append(message)
        assert message["type"] != "error", message
        if message["type"] in ("welcome", "update"):
            return message


def play_out(ws: Any, rng: random.Random, log: list[dict[str, Any]] | None = None,
             until: int | None = None, view: dict[str, Any] | None = None) -> dict[str, Any]:
    """Answer every decision of this seat at random until the game ends (or reaches `until`),
    starting from `view` (the last one received) or the next one to come."""
    view = view or receive_view(ws, log)
    while not view["over"] and (until is None or view["at"] < until):
        # A response window closes by itself a moment later (rooms.py): an answer sent now
        # could cross it, so a scripted player lets it (test_windows.py plays the answers).
        if view["legal"] and not view.get("closes_at"):
            ws.send_json({"type": "act", "action": rng.choice(view["legal"])["id"], "at": view["at"]})
        view = receive_view(ws, log)
    return view


def postgres_url() -> str:
    """The PostgreSQL that MATANUI_TEST_POSTGRES names. Without one the test is skipped here
    and fails in CI, where .ci/run starts one: a test of several instances never passes unrun."""
    url = os.environ.get("MATANUI_TEST_POSTGRES")
    if not url:
        if os.environ.get("CI"):
            pytest.fail("CI must set MATANUI_TEST_POSTGRES (.ci/run starts PostgreSQL)")
        pytest.skip("no PostgreSQL here: set MATANUI_TEST_POSTGRES to a postgresql+psycopg:// URL")
    return url


def from_address(client: TestClient, host: str) -> TestClient:
    """The same running app as `client` (on its event loop too), reached from another address."""
    other = TestClient(client.app, base_url=str(client.base_url), client=(host, 50000))
    other.portal = client.portal
    return other


def until_it_counts(client: TestClient, game_id: str, seed: int = 1) -> None:
    """Play random legal moves (as the server would for whoever is to decide) until the game
    can no longer be aborted: every player has made two moves of their own (aborts.py)."""
    room = client.app.state.lobby.rooms[game_id]
    rng = random.Random(seed)
    while room.abortable():
        state = room.state
        try:
            client.portal.call(room.act, state.current_player, rng.choice(state.legal_actions()),
                               len(state.history), True)
        except Rejected:  # the server's own turn (a window closing) came first: look again
            pass
    assert not room.state.is_over, "the game ended before it counted"
