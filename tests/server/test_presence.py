"""Presence (docs/protocol.md, "Presence"): each seat is here, away or gone, told to everyone
when it changes, the change to gone by a timer."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from matanui.server import create_app
from matanui.server.presence import AWAY, GONE, HERE, Sighting, state_of, store_sightings
from matanui.server.quotas import Limits

from .conftest import ROOMY, WINDOW
from .helpers import HUMAN_VS_BOT, TEST_HOSTS, create
from .test_chat import PEOPLE, hello, tokens, until

GONE_AFTER = 0.6  # seconds: short, so that the timer's change comes quickly


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    limits = Limits(**{**vars(ROOMY), "gone_after": GONE_AFTER})
    database = tmp_path_factory.mktemp("presence") / "matanui.db"
    app = create_app(f"sqlite:///{database}", allowed_hosts=TEST_HOSTS, limits=limits, response_window=WINDOW,
                     draw_grace=0.0)
    with TestClient(app) as client:
        yield client


def presence(message: dict[str, Any]) -> list[str]:
    return [seat["presence"] for seat in message["seats"]]


def seats_until(ws: Any, wanted: list[str]) -> dict[str, Any]:
    """Read `seats` messages until the presence is `wanted`."""
    while True:
        message = until(ws, "seats")
        if presence(message) == wanted:
            return message


def test_a_seat_never_opened_is_gone_and_a_bot_is_here(quick):
    game = create(quick, seats=HUMAN_VS_BOT)
    summary = quick.get(f"/api/games/{game['id']}").json()
    assert presence(summary) == [GONE, HERE]
    assert [seat["online"] for seat in summary["seats"]] == [False, True]


def test_a_hidden_page_makes_its_seat_away_and_a_visible_one_here_again(quick):
    game = create(quick, seats=PEOPLE)
    path = f"/ws/games/{game['id']}"
    with quick.websocket_connect(path) as ana, quick.websocket_connect(path) as watcher:
        hello(watcher)
        assert presence(hello(ana, tokens(game)[0])) == [HERE, GONE]
        ana.send_json({"type": "presence", "visible": False})
        seats_until(watcher, [AWAY, GONE])
        ana.send_json({"type": "presence", "visible": True})
        seats_until(watcher, [HERE, GONE])


def test_a_seat_with_one_visible_page_among_hidden_ones_is_here(quick):
    game = create(quick, seats=PEOPLE)
    path = f"/ws/games/{game['id']}"
    with quick.websocket_connect(path) as tab, quick.websocket_connect(path) as other_tab, \
            quick.websocket_connect(path) as watcher:
        hello(watcher)
        hello(tab, tokens(game)[1])
        hello(other_tab, tokens(game)[1])
        tab.send_json({"type": "presence", "visible": False})
        tab.send_json({"type": "history", "before": 0})
        until(tab, "history")  # the presence message was taken in
        assert presence(quick.get(f"/api/games/{game['id']}").json()) == [GONE, HERE]


def test_a_player_who_leaves_is_away_then_gone_after_the_timeout_told_by_a_timer(quick):
    game = create(quick, seats=PEOPLE)
    path = f"/ws/games/{game['id']}"
    with quick.websocket_connect(path) as watcher:
        hello(watcher)
        with quick.websocket_connect(path) as ana:
            hello(ana, tokens(game)[0])
            seats_until(watcher, [HERE, GONE])
        left = seats_until(watcher, [AWAY, GONE])
        assert left["seats"][0]["online"] is True  # online: true unless gone
        gone = seats_until(watcher, [GONE, GONE])  # nobody sent anything: the timer told
        assert gone["seats"][0]["online"] is False


def test_a_bad_presence_message_is_refused_saying_what_is_allowed(quick):
    game = create(quick, seats=PEOPLE)
    with quick.websocket_connect(f"/ws/games/{game['id']}") as ws:
        hello(ws, tokens(game)[0])
        ws.send_json({"type": "presence", "visible": "no"})
        refused = until(ws, "error")
    assert refused["code"] == "bad_message" and "'visible' must be true" in refused["message"]


@pytest.mark.parametrize(("sightings", "expected"), [
    ([], GONE),
    ([Sighting(0, 1, 1, 0.0, float("inf"))], HERE),
    ([Sighting(0, 0, 2, 0.0, float("inf"))], AWAY),
    ([Sighting(0, 0, 0, 95.0, 0.0)], AWAY),  # left 5 s ago
    ([Sighting(0, 0, 0, 30.0, 0.0)], GONE),  # left 70 s ago
    ([Sighting(0, 1, 1, 30.0, 60.0)], GONE),  # an instance that stopped writing 70 s ago: stale
    ([Sighting(0, 1, 1, 90.0, 60.0)], HERE),  # another instance's fresh row
    ([Sighting(0, 1, 1, 30.0, 60.0), Sighting(0, 0, 1, 0.0, float("inf"))], AWAY),
])
def test_every_instances_word_on_a_seat_is_merged_and_stale_rows_do_not_keep_it_here(sightings, expected):
    assert state_of(sightings, now=100.0, gone_after=60.0) == expected


def test_presence_on_one_instance_is_told_on_another(postgres):
    a, b = postgres
    game = create(a, seats=PEOPLE)
    path = f"/ws/games/{game['id']}"
    with b.websocket_connect(path) as watcher_b:
        hello(watcher_b)
        with a.websocket_connect(path) as ana:
            hello(ana, tokens(game)[0])
            seats_until(watcher_b, [HERE, GONE])
            ana.send_json({"type": "presence", "visible": False})
            seats_until(watcher_b, [AWAY, GONE])
        # Ana's page closes: still away (she left a moment ago), then gone by B's own timer.
        assert presence(b.get(f"/api/games/{game['id']}").json())[0] in (AWAY, GONE)
        seats_until(watcher_b, [GONE, GONE])


def test_an_instance_that_died_does_not_keep_its_seats_here(postgres):
    a, _ = postgres
    game = create(a, seats=PEOPLE)
    storage = a.app.state.lobby.backends.storage
    now = time.time()
    rows = [Sighting(0, 1, 1, now, 1.0),  # another instance, writing still
            Sighting(1, 1, 1, now - 5.0, 1.0)]  # one that wrote 5 s ago and never again
    storage.instance, mine = "deadbeef", storage.instance
    try:
        store_sightings(storage, game["id"], rows, False)
    finally:
        storage.instance = mine
    a.portal.call(a.app.state.lobby.rooms[game["id"]].presence.reload)
    assert presence(a.get(f"/api/games/{game['id']}").json()) == [HERE, GONE]
