"""What the database holds, and starting on a database with a game this matanui cannot replay
(test_rows.py: rows and files that are damaged)."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from matanui import games
from matanui.server import create_app
from matanui.server.quotas import DAY
from matanui.server.storage import GameRow, SeatRow, Storage

from .helpers import TEST_HOSTS, create


def test_a_game_that_no_longer_replays_is_unavailable_not_fatal(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    storage = Storage(url)
    record = games.get("reconstruct").new_game(1, ["tahu", "gali"]).record()
    record.rules_version = "0"  # made by an older matanui
    storage.create_game(GameRow(id="old", record=record, seats=[SeatRow("bot", "easy")] * 2,
                                public=False, hotseat=False))
    storage.close()
    with TestClient(create_app(url, allowed_hosts=TEST_HOSTS)) as client:
        refused = client.get("/api/games/old")
        assert refused.status_code == 410 and "rules version 0" in refused.json()["message"]
        created = create(client)
        assert client.get(f"/api/games/{created['id']}").status_code == 200


def test_each_accepted_action_is_one_row_and_tokens_are_stored_hashed(tmp_path):
    url = f"sqlite:///{tmp_path / 'g.db'}"
    with TestClient(create_app(url, allowed_hosts=TEST_HOSTS)) as client:
        created = create(client, seats=[{"kind": "bot", "level": "easy"}] * 2)
        human = create(client)
        with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
            ws.send_json({"type": "hello"})
            while not (message := ws.receive_json()).get("over"):
                pass
    storage = Storage(url)
    loaded, damaged = storage.load_games(time.time(), DAY, DAY)
    rows = {row.id: row for row in loaded}
    storage.close()
    assert damaged == []
    assert len(rows[created["id"]].record.actions) == message["at"] and rows[created["id"]].finished
    token = human["seats"][0]["token"]
    stored = rows[human["id"]].seats[0]
    assert stored.token_hash and token not in stored.token_hash and len(stored.token_hash) == 64
