"""Several server instances on one database (docs/deploy.md): a player whose two tabs reach
two different instances can never get two actions stored at one position, and each instance
answers the load balancer's health check.

The instances are two apps over one database: an SQLite file here (`matanui serve` itself
refuses that, test_serve.py) and PostgreSQL where MATANUI_TEST_POSTGRES names one.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from matanui.server import create_app
from matanui.server.storage import Storage

from .conftest import ROOMY
from .helpers import TEST_HOSTS, create, postgres_url, receive_view

PEOPLE = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}]


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'shared.db'}"
    return postgres_url()


def instance(stack: ExitStack, database: str) -> TestClient:
    return stack.enter_context(TestClient(create_app(database, allowed_hosts=TEST_HOSTS, limits=ROOMY)))


@pytest.fixture
def instances(database: str) -> Iterator[tuple[TestClient, TestClient, dict]]:
    """Instance A, where a two-person game is created, then instance B, started after it."""
    with ExitStack() as stack:
        a = instance(stack, database)
        game = create(a, seats=PEOPLE, seed=8, hotseat=True)  # hot-seat keeps the chosen deal
        b = instance(stack, database)
        yield a, b, game


def test_each_instance_answers_the_health_check(instances):
    for server in instances[:2]:
        answer = server.get("/api/health")
        assert answer.status_code == 200 and answer.json()["status"] == "ok"


def test_two_tabs_on_two_instances_cannot_both_act_at_one_position(instances, database):
    a, b, game = instances
    with a.websocket_connect(f"/ws/games/{game['id']}") as look:
        look.send_json({"type": "hello"})
        to_move = receive_view(look)["current_player"]
    player = game["seats"][to_move]["token"]
    with a.websocket_connect(f"/ws/games/{game['id']}") as tab_a, \
            b.websocket_connect(f"/ws/games/{game['id']}") as tab_b:
        for tab in (tab_a, tab_b):
            tab.send_json({"type": "hello", "token": player})
        view_a, view_b = receive_view(tab_a), receive_view(tab_b)
        assert view_a["at"] == view_b["at"] == 0
        mine, other = view_a["legal"][0]["id"], view_b["legal"][-1]["id"]
        assert mine != other

        tab_a.send_json({"type": "act", "action": mine, "at": 0})
        assert receive_view(tab_a)["at"] == 1
        tab_b.send_json({"type": "act", "action": other, "at": 0})  # B has not heard of it yet
        answers = []
        while not answers or answers[-1]["type"] != "error":
            answers.append(tab_b.receive_json())
        caught_up, refused = [answer for answer in answers if answer["type"] != "seats"]

    assert caught_up["type"] == "update" and caught_up["at"] == 1  # B took A's action in
    assert refused["type"] == "error" and refused["code"] == "stale"
    assert "at action 1" in refused["message"]  # caught up by the refused append, or by NOTIFY
    storage = Storage(database)
    try:
        stored = storage.actions_after(game["id"], 0)
        assert [action for action, _ in stored] == [mine]  # stored once, and only A's
    finally:
        storage.close()
    assert b.get(f"/api/games/{game['id']}").json()["at"] == 1


def test_the_health_check_says_unavailable_while_the_database_does_not_answer(tmp_path):
    def unreachable() -> None:
        raise OperationalError("SELECT 1", {}, ConnectionRefusedError("connection refused"))

    app = create_app(f"sqlite:///{tmp_path / 'alone.db'}", allowed_hosts=TEST_HOSTS, limits=ROOMY)
    with TestClient(app) as server:
        server.app.state.lobby.backends.storage.ping = unreachable
        answer = server.get("/api/health")
    assert answer.status_code == 503 and answer.json()["status"] == "unavailable"
