"""A welcome is bounded however long the game: it carries the newest part of the log, and the
rest comes on request, a page at a time. Hellos (each answered by a welcome) are limited per
client: a reconnect loop is closed with 4429."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from matanui.server import create_app
from matanui.server.rooms import LOG_PAGE, build
from matanui.server.storage import Storage
from matanui.tools.abuse import seed_long_game

from .conftest import ROOMY
from .helpers import TEST_HOSTS, create, receive_view

ACTIONS = 1500


@pytest.fixture(scope="module")
def long_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str, list[Any]]]:
    """A server holding a Makuta game of ACTIONS actions, and that game's whole public log."""
    database = f"sqlite:///{tmp_path_factory.mktemp('long') / 'long.db'}"
    game_id = seed_long_game(database, ACTIONS)
    storage = Storage(database)
    [row], _ = storage.load_games(0.0, 1e12, 1e12)
    storage.close()
    _, events = build(row.record)
    with TestClient(create_app(database, allowed_hosts=TEST_HOSTS, limits=ROOMY)) as client:
        yield client, game_id, [e.view(None) for e in events]


def test_a_welcome_carries_the_newest_log_entries_and_says_how_many_came_before(long_game):
    client, game_id, log = long_game
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello"})
        text = ws.receive_text()
    welcome = json.loads(text)
    assert welcome["type"] == "welcome" and welcome["at"] == ACTIONS
    assert welcome["log_total"] == len(log) > LOG_PAGE
    assert welcome["log_from"] == len(log) - LOG_PAGE and welcome["events"] == log[-LOG_PAGE:]
    assert len(text.encode()) < 32_000  # the whole log would be about 200 KB


def test_the_earlier_log_comes_a_page_at_a_time_on_request(long_game):
    client, game_id, log = long_game
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello"})
        welcome = receive_view(ws)
        told, before = welcome["events"], welcome["log_from"]
        while before > 0:
            ws.send_json({"type": "history", "before": before})
            while (page := ws.receive_json())["type"] != "history":
                pass
            assert page["before"] == before and page["from"] == max(0, before - LOG_PAGE)
            assert len(page["events"]) == before - page["from"] <= LOG_PAGE
            told, before = page["events"] + told, page["from"]
    assert told == log


@pytest.mark.parametrize("before", [-1, "10", 1.5, None, 10**6])
def test_a_bad_history_request_is_refused_and_the_connection_stays(long_game, before):
    client, game_id, _ = long_game
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello"})
        receive_view(ws)
        ws.send_json({"type": "history", "before": before})
        while (answer := ws.receive_json())["type"] == "seats":
            pass
        assert (answer["type"], answer["code"]) == ("error", "bad_message")
        assert "'before'" in answer["message"]
        ws.send_json({"type": "history", "before": 0})  # still open
        assert ws.receive_json() | {"log_total": 0} == {"type": "history", "from": 0, "before": 0,
                                                        "log_total": 0, "events": []}


def test_hellos_past_the_limit_of_a_client_are_closed_with_4429(tmp_path):
    limits = replace(ROOMY, hellos_per_minute=20)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}", allowed_hosts=TEST_HOSTS,
                               limits=limits)) as client:
        game = create(client)
        welcomed, refused = 0, []
        for _ in range(4):  # 8 sockets reconnecting, round after round
            for _ in range(8):
                with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
                    ws.send_json({"type": "hello"})
                    first = ws.receive_json()
                    if first["type"] == "welcome":
                        welcomed += 1
                        continue
                    with pytest.raises(WebSocketDisconnect) as closed:
                        ws.receive_json()
                    refused.append((first["code"], closed.value.code))
        assert welcomed == 20
        assert refused == [("too_many_hellos", 4429)] * 12
        assert client.get("/api/health").status_code == 200  # HTTP is not held up
