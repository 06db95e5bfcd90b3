"""A database that cannot write (a full disk) changes nothing and stops nobody: the actor is
told that the move was not saved and nothing is applied or broadcast, the socket stays open,
a new game is refused with 503, and /api/health answers 503 while writes fail."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from matanui.server import create_app, rooms
from matanui.server.storage import Storage

from .conftest import ROOMY, WINDOW
from .helpers import TEST_HOSTS, create, receive_view

PEOPLE = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "lewa"}]
FULL = "database or disk is full"


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'full.db'}", allowed_hosts=TEST_HOSTS, limits=ROOMY,
                     response_window=WINDOW)
    with TestClient(app) as test_client:
        yield test_client


def storage_of(client: TestClient) -> Storage:
    return client.app.state.lobby.backends.storage


@contextmanager
def disk_full(client: TestClient, writes: tuple[str, ...] = ("INSERT", "UPDATE", "DELETE"),
              calls: set[int] | None = None) -> Iterator[list[int]]:
    """The server's database fails statements that begin with one of `writes` as SQLite fails
    on a full disk (all of them, or only the `calls`-th ones, 1-based); reads work. Yields the
    numbers of the statements met so far."""
    met: list[int] = []

    def refuse(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith(writes):
            met.append(len(met) + 1)
            if calls is None or met[-1] in calls:
                raise sqlite3.OperationalError(FULL)

    engine = storage_of(client).engine
    event.listen(engine, "before_cursor_execute", refuse)
    try:
        yield met
    finally:
        event.remove(engine, "before_cursor_execute", refuse)


def answer(ws: Any) -> dict[str, Any]:
    while (message := ws.receive_json())["type"] == "seats":
        pass
    return message


def first_move(client: TestClient, seats: list[dict[str, Any]] = PEOPLE) -> tuple[dict[str, Any], Any]:
    """A new game whose first seat moves first, and a connection of that seat (a context)."""
    created = create(client, seats=seats, seed=4, hotseat=True, options={"first_player": 0})
    return created, client.websocket_connect(f"/ws/games/{created['id']}")


def test_a_move_that_cannot_be_saved_is_refused_and_nothing_is_applied(client):
    created, connection = first_move(client)
    with client.websocket_connect(f"/ws/games/{created['id']}") as spectator:
        spectator.send_json({"type": "hello"})
        receive_view(spectator)
        with disk_full(client), connection as player:
            player.send_json({"type": "hello", "token": created["seats"][0]["token"]})  # its claim fails too
            move = receive_view(player)["legal"][0]["id"]
            player.send_json({"type": "act", "action": move, "at": 0})
            refused = answer(player)
            assert refused["type"] == "error" and refused["code"] == "not_saved"
            assert "not saved" in refused["message"] and FULL in refused["message"]
            assert len(client.app.state.lobby.rooms[created["id"]].state.history) == 0
            assert client.get(f"/api/games/{created['id']}").json()["at"] == 0
            player.send_json({"type": "act", "action": move, "at": 0})  # the socket stays open
            assert answer(player)["code"] == "not_saved"
        with client.websocket_connect(f"/ws/games/{created['id']}") as player:
            player.send_json({"type": "hello", "token": created["seats"][0]["token"]})
            receive_view(player)
            player.send_json({"type": "act", "action": move, "at": 0})  # the disk has room again
            assert receive_view(player)["at"] == 1
        update = receive_view(spectator)  # the spectator was told of the stored move only
        assert update["type"] == "update" and update["at"] == 1


def test_creating_a_game_on_a_full_disk_answers_503_and_adds_nothing(client):
    before = client.get("/api/games").json()
    with disk_full(client):
        answered = client.post("/api/games", json={"game": "reconstruct", "seats": PEOPLE})
    assert answered.status_code == 503
    assert answered.json()["error"] == "not_saved" and FULL in answered.json()["message"]
    assert client.get("/api/games").json() == before


def test_joining_on_a_full_disk_answers_503_and_the_seat_stays_open(client):
    game = client.post("/api/games", json={"game": "reconstruct", "seats": [{}, {}], "public": True}).json()
    with disk_full(client):
        assert client.post(f"/api/games/{game['id']}/join", json={"name": "Kai"}).status_code == 503
    seats = client.get(f"/api/games/{game['id']}").json()["seats"]
    assert [(s["kind"], s["name"]) for s in seats] == [("human", None), ("open", None)]
    assert client.post(f"/api/games/{game['id']}/join", json={"name": "Kai"}).status_code == 200


def test_health_answers_503_while_writes_fail_and_200_once_they_succeed(client):
    assert client.get("/api/health").status_code == 200
    with disk_full(client):
        unwell = client.get("/api/health")
    assert unwell.status_code == 503
    assert unwell.json()["status"] == "unavailable" and FULL in unwell.json()["message"]
    assert client.get("/api/health").status_code == 200


def test_health_answers_503_after_a_move_failed_to_save_though_its_own_write_succeeds(client):
    created, connection = first_move(client)
    with disk_full(client, writes=("INSERT INTO ACTIONS",)), connection as player:  # the probe writes
        player.send_json({"type": "hello", "token": created["seats"][0]["token"]})
        player.send_json({"type": "act", "action": receive_view(player)["legal"][0]["id"]})
        assert answer(player)["code"] == "not_saved"
        assert client.get("/api/health").status_code == 503


def test_a_bot_move_that_cannot_be_saved_is_tried_again(client, monkeypatch):
    monkeypatch.setattr(rooms, "SAVE_RETRY", 0.05)
    created, connection = first_move(client, [PEOPLE[0], {"kind": "bot", "level": "easy"}])
    with disk_full(client, writes=("INSERT INTO ACTIONS",), calls={2, 3}) as met, connection as player:
        player.send_json({"type": "hello", "token": created["seats"][0]["token"]})
        player.send_json({"type": "act", "action": receive_view(player)["legal"][0]["id"]})
        assert receive_view(player)["at"] == 1
        assert receive_view(player)["at"] == 2  # the bot's move, saved at its third try
    assert met[:3] == [1, 2, 3] and storage_of(client).failing() is None
