"""The server's own turns for people (docs/protocol.md, "Decisions the server takes for a
person": "no click where there is nothing to decide, unless skipping it would leak a
secret"): a Reconstruct response window closes by itself after the same time whether or not
the person holds a stop card, so neither the other player's clock nor any message tells them
which it was; a person's early "let it take effect" is held until the window closes; a stop
card is played at once."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from matanui.server import create_app

from .conftest import ROOMY
from .helpers import TEST_HOSTS, create, receive_view

WINDOW = 0.6
# Where the answer must land inside the window, a window a loaded machine cannot let close
# before the answer is read (at 0.6 s, one CI run's stop arrived after it had closed).
LONG_WINDOW = 5.0
# Seeds where seat 0 (a person, first) can play a card and seat 1 (a person) then holds no
# stop card (11) or one (1).
NO_STOP, A_STOP = 11, 1


def serving(tmp_path_factory: pytest.TempPathFactory, window: float):
    database = tmp_path_factory.mktemp("windows") / "matanui.db"
    app = create_app(f"sqlite:///{database}", allowed_hosts=TEST_HOSTS, limits=ROOMY, response_window=window)
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory):
    yield from serving(tmp_path_factory, WINDOW)


@pytest.fixture(scope="module")
def patient_client(tmp_path_factory: pytest.TempPathFactory):
    yield from serving(tmp_path_factory, LONG_WINDOW)


def two_people(client: TestClient, seed: int) -> tuple[dict, dict]:
    people = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}]
    # Hot-seat: a game of two people keeps a chosen deal only when both are at one screen.
    created = create(client, seats=people, seed=seed, options={"first_player": 0}, hotseat=True)
    return created["id"], created["seats"]


def window_after_a_card(client: TestClient, answer, seed: int) -> tuple[float, list[str], dict]:
    """Seat 0 plays a card; seat 1 answers at once with `answer(legal ids)` (None: nothing).
    The seconds until seat 0 saw the window close, seat 1's legal ids there, and that view."""
    game, seats = two_people(client, seed)
    url = f"/ws/games/{game}"
    with client.websocket_connect(url) as first, client.websocket_connect(url) as second:
        first.send_json({"type": "hello", "token": seats[0]["token"]})
        second.send_json({"type": "hello", "token": seats[1]["token"]})
        view = receive_view(first)
        receive_view(second)
        card = next(a for a in view["legal"] if a["targets"].get("kind") in ("add", "remove"))
        first.send_json({"type": "act", "action": card["id"], "at": view["at"]})
        opened = time.monotonic()
        window = receive_view(first)
        answer_view = receive_view(second)
        assert window["closes_at"] is not None and answer_view["closes_at"] == window["closes_at"]
        legal = [a["id"] for a in answer_view["legal"]]
        action = answer(legal)
        if action:
            second.send_json({"type": "act", "action": action, "at": answer_view["at"]})
        closed = receive_view(first)
        return time.monotonic() - opened, legal, closed


def test_a_window_with_no_stop_card_closes_by_itself_after_the_window(client):
    waited, legal, closed = window_after_a_card(client, lambda legal: None, NO_STOP)
    assert legal == ["allow"]  # nothing to choose: the page shows no click
    assert waited >= WINDOW * 0.8
    assert closed["closes_at"] is None
    assert closed["events"][0]["kind"] == "add"


def test_letting_it_pass_early_is_held_until_the_window_closes(client):
    waited, legal, closed = window_after_a_card(client, lambda legal: "allow", A_STOP)
    assert any(a.startswith("stop:") for a in legal)
    assert waited >= WINDOW * 0.8  # the same time as when there was nothing to choose
    assert closed["events"][0]["kind"] == "add"


def test_a_stop_card_is_played_at_once(patient_client):
    stop = lambda legal: next(a for a in legal if a.startswith("stop:"))  # noqa: E731
    waited, _, closed = window_after_a_card(patient_client, stop, A_STOP)
    assert waited < LONG_WINDOW * 0.8
    assert closed["events"][0]["kind"] == "stop"
