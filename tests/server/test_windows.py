"""The server's own turns for people (docs/protocol.md, "Decisions the server takes for a
person": "no click where there is nothing to decide, unless skipping it would leak a
secret"): a Reconstruct response window closes by itself after the same time whether or not
the person holds a stop card, so neither the other player's clock nor any message tells them
which it was; a person's early "let it take effect" is held until the window closes; a stop
card is played at once. The time counts from the moment the answering page drew the window
(its `drawn` message), never from before: a page still playing out the moves before it loses
none of its time; a page that never draws it holds the game no longer than the draw grace."""

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


# The most a window here waits for its drawing, in the tests of the drawing.
GRACE = 1.5


def serving(tmp_path_factory: pytest.TempPathFactory, window: float, grace: float = 0.0):
    database = tmp_path_factory.mktemp("windows") / "matanui.db"
    app = create_app(f"sqlite:///{database}", allowed_hosts=TEST_HOSTS, limits=ROOMY, response_window=window,
                     draw_grace=grace)
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory):
    yield from serving(tmp_path_factory, WINDOW)


@pytest.fixture(scope="module")
def patient_client(tmp_path_factory: pytest.TempPathFactory):
    yield from serving(tmp_path_factory, LONG_WINDOW)


@pytest.fixture(scope="module")
def drawing_client(tmp_path_factory: pytest.TempPathFactory):
    yield from serving(tmp_path_factory, WINDOW, GRACE)


def two_people(client: TestClient, seed: int) -> tuple[dict, dict]:
    people = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}]
    # Hot-seat: a game of two people keeps a chosen deal only when both are at one screen.
    created = create(client, seats=people, seed=seed, options={"first_player": 0}, hotseat=True)
    return created["id"], created["seats"]


def window_after_a_card(client: TestClient, answer, seed: int, drawn_after: float | None = None,
                        ) -> tuple[float, list[str], dict]:
    """Seat 0 plays a card; seat 1 answers at once with `answer(legal ids)` (None: nothing),
    after saying it drew the window `drawn_after` seconds after it came (None: never says).
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
        assert answer_view["window_seconds"] == pytest.approx(client.app.state.lobby.backends.response_window)
        if drawn_after is not None:
            time.sleep(drawn_after)
            second.send_json({"type": "drawn", "at": answer_view["at"]})
            moved = second.receive_json()
            assert moved["type"] == "window" and moved["closes_at"] < answer_view["closes_at"]
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


def test_a_window_lasts_its_time_from_the_moment_it_was_drawn(drawing_client):
    """Drawn 0.5 s after it came, the window closes its whole time after that, not after
    the card: the time the page spent playing out the moves before it is not the person's."""
    waited, _, closed = window_after_a_card(drawing_client, lambda legal: None, NO_STOP, drawn_after=0.5)
    assert waited >= 0.5 + WINDOW * 0.8
    assert waited < GRACE + WINDOW  # the drawing, not the grace, started its time
    assert closed["events"][0]["kind"] == "add"


def test_a_window_never_drawn_waits_no_longer_than_the_grace(drawing_client):
    """A page that never says it drew the window (closed, hidden behind a cover) holds it
    for the draw grace and then the window's own time, and no longer."""
    waited, _, closed = window_after_a_card(drawing_client, lambda legal: None, NO_STOP)
    assert waited >= (GRACE + WINDOW) * 0.8
    assert closed["events"][0]["kind"] == "add"


def test_a_drawing_the_same_for_both_hands_gives_the_same_window(drawing_client):
    """With or without a stop card, the same drawing gives the same wait: its close tells
    the card's player nothing."""
    without, _, _ = window_after_a_card(drawing_client, lambda legal: None, NO_STOP, drawn_after=0.2)
    held, _, _ = window_after_a_card(drawing_client, lambda legal: "allow", A_STOP, drawn_after=0.2)
    assert abs(without - held) < WINDOW * 0.5


def test_only_the_answering_seat_draws_its_window(drawing_client):
    """The card's player saying it drew the window moves nothing: it is not their answer."""
    game, seats = two_people(drawing_client, NO_STOP)
    url = f"/ws/games/{game}"
    with drawing_client.websocket_connect(url) as first, drawing_client.websocket_connect(url) as second:
        first.send_json({"type": "hello", "token": seats[0]["token"]})
        second.send_json({"type": "hello", "token": seats[1]["token"]})
        view = receive_view(first)
        receive_view(second)
        card = next(a for a in view["legal"] if a["targets"].get("kind") in ("add", "remove"))
        first.send_json({"type": "act", "action": card["id"], "at": view["at"]})
        window = receive_view(first)
        receive_view(second)
        first.send_json({"type": "drawn", "at": window["at"]})
        first.send_json({"type": "drawn", "at": window["at"] + 5})  # no such position: nothing
        closed = receive_view(first)  # the next message is the close, after the whole grace
        assert closed["closes_at"] is None


@pytest.mark.parametrize("message", [{"type": "drawn"}, {"type": "drawn", "at": -1},
                                     {"type": "drawn", "at": "3"}, {"type": "drawn", "at": 1, "seat": 0}])
def test_a_bad_drawn_message_is_refused_with_what_is_allowed(client, message):
    game, seats = two_people(client, NO_STOP)
    with client.websocket_connect(f"/ws/games/{game}") as ws:
        ws.send_json({"type": "hello", "token": seats[0]["token"]})
        receive_view(ws)
        ws.send_json(message)
        while (answer := ws.receive_json())["type"] != "error":
            pass
        assert answer["code"] == "bad_message"
        assert "'at'" in answer["message"] or "unknown field" in answer["message"]
