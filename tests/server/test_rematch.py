"""A rematch between people, as on lichess: one side offers, the others see the offer and
accept or decline; the game is made once every person at the table has agreed, and both
follow to the same new game. An offer stands while its seat is connected. A rated game says
so in its welcome and, once over, tells each seat's rating change."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .helpers import create, receive_view
from .test_ratings import PEOPLE, account, finish, held_by, instance, storage_of


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    with ExitStack() as stack:
        yield instance(stack, f"sqlite:///{tmp_path / 'rematch.db'}")


def finished_game(client: TestClient, accounts: list[str | None] | None = None) -> tuple[str, list[str]]:
    game = create(client, seats=PEOPLE)
    room = held_by(client, game["id"], accounts or [None, None])
    finish(client, room)
    return game["id"], [seat["token"] for seat in game["seats"]]


def seated(client: TestClient, stack: ExitStack, game_id: str, token: str) -> Any:
    ws = stack.enter_context(client.websocket_connect(f"/ws/games/{game_id}"))
    ws.send_json({"type": "hello", "token": token})
    return ws, receive_view(ws)


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while (message := ws.receive_json())["type"] != kind:
        pass
    return message


def rematch(client: TestClient, game_id: str, token: str) -> Any:
    return client.post(f"/api/games/{game_id}/rematch", json={"token": token})


def test_one_offers_the_other_sees_it_and_accepts_and_both_go_to_the_same_game(client):
    game_id, tokens = finished_game(client)
    with ExitStack() as stack:
        (first, _), (second, _) = (seated(client, stack, game_id, token) for token in tokens)
        offered = rematch(client, game_id, tokens[0])
        assert offered.status_code == 202 and offered.json() == {"offered_by": [0]}
        assert next_of(second, "rematch_offer")["seats"] == [0]
        _, again = seated(client, stack, game_id, tokens[1])
        assert again["rematch_offers"] == [0] and again["rematch"] is None  # a welcome tells it too
        made = rematch(client, game_id, tokens[1])
        assert made.status_code == 200
        new_id = made.json()["id"]
        assert next_of(first, "rematch")["game_id"] == next_of(second, "rematch")["game_id"] == new_id
    assert rematch(client, game_id, tokens[0]).json()["id"] == new_id  # asking again: the same game


def test_a_declined_offer_stands_no_more_and_asking_again_is_a_new_offer(client):
    game_id, tokens = finished_game(client)
    with ExitStack() as stack:
        first, _ = seated(client, stack, game_id, tokens[0])
        seated(client, stack, game_id, tokens[1])
        rematch(client, game_id, tokens[0])
        declined = client.post(f"/api/games/{game_id}/rematch/decline", json={"token": tokens[1]})
        assert declined.json() == {"declined_by": 1}
        told = next_of(first, "rematch_offer")
        while told["seats"]:  # the offer itself came first
            told = next_of(first, "rematch_offer")
        assert told == {"type": "rematch_offer", "seats": [], "declined_by": 1}
        assert rematch(client, game_id, tokens[1]).status_code == 202  # no game made from it
    refused = client.post(f"/api/games/{game_id}/rematch/decline", json={"token": "forged"})
    assert refused.status_code == 403


def test_an_offer_leaves_with_its_player(client):
    game_id, tokens = finished_game(client)
    with ExitStack() as stack:
        seated(client, stack, game_id, tokens[0])
        assert rematch(client, game_id, tokens[0]).status_code == 202
    with ExitStack() as stack:  # the offering player has gone: accepting is only an offer
        seated(client, stack, game_id, tokens[1])
        answer = rematch(client, game_id, tokens[1])
        assert answer.status_code == 202 and answer.json() == {"offered_by": [1]}


def test_a_rated_game_says_so_and_tells_each_rating_change_at_its_end(client):
    storage = storage_of(client)
    (a, _), (b, _) = account(storage), account(storage)
    game = create(client, seats=PEOPLE, rated=True)
    tokens = [seat["token"] for seat in game["seats"]]
    with ExitStack() as stack:
        ws, welcome = seated(client, stack, game["id"], tokens[0])
        assert welcome["rated"] is False  # anonymous seats: not rated
        room = held_by(client, game["id"], [a, b])
        _, welcome = seated(client, stack, game["id"], tokens[0])
        assert welcome["rated"] is True and welcome["rating_changes"] is None
        finish(client, room)
        changes = next_of(ws, "rated")["changes"]
    assert [c["seat"] for c in changes] == [0, 1]
    winners = room.state.winners
    for change in changes:
        moved = change["after"] - change["before"]
        assert change["before"] == 1500
        assert moved > 0 if change["seat"] in winners else moved < 0 or not winners
    with ExitStack() as stack:  # opened later: the welcome carries them, read from the database
        client.app.state.lobby.rooms[game["id"]].rating_changes = None
        _, welcome = seated(client, stack, game["id"], tokens[1])
        assert welcome["rating_changes"] == changes


def test_against_a_bot_the_rematch_is_made_at_once(client):
    game = create(client)
    token = game["seats"][0]["token"]
    finish(client, client.app.state.lobby.rooms[game["id"]])
    assert rematch(client, game["id"], token).status_code == 200
