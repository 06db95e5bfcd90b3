"""`matanui serve --data-dir`: a club's server offers its members' data packs in the lobby."""

from __future__ import annotations

import json
import random
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient

from matanui.games import packs
from matanui.server import create_app
from tests.test_packs import OTHER_DECK, pack

from .conftest import QUICK_WINDOWS, ROOMY
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
                     data_dir=str(folder / "packs"), **QUICK_WINDOWS)
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


def test_serve_skips_each_unreadable_or_unwinnable_pack_with_one_line_and_serves_the_rest(tmp_path):
    """Non-UTF-8, a folder in a file's place, TOML nested 5,000 deep, a lock no Toa could
    open: each pack is printed once and skipped; the server starts and offers the good one."""
    import urllib.request

    from tests.test_packs import UNREADABLE, UNWINNABLE, unreadable_pack

    from .process import free_port, start_server

    folder = tmp_path / "packs"
    kinds = ["non-UTF-8 actions.toml", "a folder as actions.toml", "arrays 5,000 deep"]
    for number, kind in enumerate(kinds):
        unreadable_pack(folder / f"bad-{number}", kind)
    game, files, _ = UNWINNABLE["a lock needing more keys than a Toa may hold"]
    pack(folder / "bad-3", game, **files)
    pack(folder / "good", "reconstruct", actions=OTHER_DECK)
    port = free_port()
    process = start_server(f"sqlite:///{tmp_path / 'games.db'}", port, extra=("--data-dir", str(folder)))
    try:
        catalog = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/catalog").read())
    finally:
        process.terminate()
        output = process.communicate(timeout=30)[0].decode()
    assert [p["name"] for g in catalog for p in g["packs"]] == ["my cards"]
    lines = [line for line in output.splitlines() if line.startswith("data pack bad-")]
    assert len(lines) == 4, output
    for number, words in enumerate([UNREADABLE[k][2] for k in kinds] + ["rules.keys_to_challenge is 100"]):
        assert lines[number].startswith(f"data pack bad-{number}: not offered: ") and words in lines[number]
    assert "Traceback" not in output and 'offering data pack "my cards" for reconstruct' in output
