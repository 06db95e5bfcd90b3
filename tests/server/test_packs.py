"""`matanui serve --data-dir`: a club's server offers its members' data packs in the lobby."""

from __future__ import annotations

import random
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient

from matanui.games import packs
from matanui.server import create_app
from tests.test_packs import OTHER_DECK, pack

from .conftest import ROOMY
from .helpers import TEST_HOSTS, create, play_out, receive_view


@pytest.fixture
def library(tmp_path):
    pack(tmp_path / "packs" / "deck", "reconstruct", actions=OTHER_DECK)
    pack(tmp_path / "packs" / "broken", "reconstruct", actions="[[card]]\nid = = 1\n")
    yield tmp_path
    packs.install_library(None)  # later tests see no packs


@contextmanager
def server(folder):
    app = create_app(f"sqlite:///{folder / 'matanui.db'}", allowed_hosts=TEST_HOSTS, limits=ROOMY,
                     data_dir=str(folder / "packs"))
    with TestClient(app) as client:
        yield client


def test_a_game_on_an_offered_pack_is_played_stored_and_replayed_with_its_data(library):
    with server(library) as client:
        entry = next(g for g in client.get("/api/catalog").json() if g["id"] == "reconstruct")
        assert [p["name"] for p in entry["packs"]] == ["my cards"]  # the broken pack is not offered
        data = entry["packs"][0]
        book = client.get(f"/api/catalog/reconstruct?data={data['hash']}").json()
        assert book["components"]["cards"]["8"]["kind"] == "remove"
        assert client.get("/api/catalog/reconstruct").json()["components"]["cards"]["8"]["kind"] == "stop"
        assert client.get("/api/catalog/reconstruct?data=feed").status_code == 404

        created = create(client, data=data["hash"])
        with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
            ws.send_json({"type": "hello", "token": created["seats"][0]["token"]})
            welcome = receive_view(ws)
            assert welcome["data"] == data
            final = play_out(ws, random.Random(2), view=welcome)  # the bot plays on the pack too
        assert final["over"]
        listed = client.get("/api/games", params={"game": "reconstruct"}).json()
        assert listed[0]["id"] == created["id"] and listed[0]["data"] == data
        assert client.get(f"/api/games/{created['id']}/replay").json()["game"]["data"] == data
        seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
        refused = client.post("/api/games", json={"game": "reconstruct", "data": "feed", "seats": seats})
        assert refused.status_code == 404 and "no data pack with hash 'feed'" in refused.json()["message"]
    with server(library) as client:  # restarted: the stored game comes back on its pack
        assert client.get(f"/api/games/{created['id']}").json()["data"] == data
