"""The same service on PostgreSQL: a real server that .ci/run starts on loopback and names in
MATANUI_TEST_POSTGRES. A whole game is played, the app is stopped and started again, and the
game comes back exactly where it stood."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from matanui.server import create_app

from .conftest import QUICK_WINDOWS, ROOMY
from .helpers import TEST_HOSTS, create, play_out, postgres_url


@pytest.fixture(name="postgres_url")
def postgres() -> str:
    return postgres_url()


def quick_app(postgres_url: str) -> TestClient:
    return TestClient(create_app(postgres_url, allowed_hosts=TEST_HOSTS, limits=ROOMY, **QUICK_WINDOWS))


def test_games_are_stored_in_postgresql_and_come_back_after_a_restart(postgres_url):
    with quick_app(postgres_url) as client:
        finished = create(client, seed=41)
        running = create(client, seed=42)
        with client.websocket_connect(f"/ws/games/{finished['id']}") as ws:
            ws.send_json({"type": "hello", "token": finished["seats"][0]["token"]})
            end = play_out(ws, random.Random(6))
        with client.websocket_connect(f"/ws/games/{running['id']}") as ws:
            ws.send_json({"type": "hello", "token": running["seats"][0]["token"]})
            middle = play_out(ws, random.Random(7), until=5)
        before = client.get(f"/api/games/{running['id']}/replay").json()
    with quick_app(postgres_url) as client:
        assert client.get(f"/api/games/{finished['id']}").json()["at"] == end["at"]
        after = client.get(f"/api/games/{running['id']}/replay").json()
        assert after["frames"][: len(before["frames"])] == before["frames"]  # nothing lost
        assert len(before["frames"]) > middle["at"]
        with client.websocket_connect(f"/ws/games/{running['id']}") as ws:
            ws.send_json({"type": "hello", "token": running["seats"][0]["token"]})
            assert play_out(ws, random.Random(8))["over"]
