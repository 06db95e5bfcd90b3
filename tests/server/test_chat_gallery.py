"""A player's other connection is no spectator (chat.py, Room.in_gallery; issue #44): a
connection without a seat token, from the account that holds a seat of the game or from an
address a seat of it was opened from, watches the game but neither reads nor writes the
spectators' channel, as a seat's own connection does not: the gallery cannot coach a player
who opens a second tab. Spectators from elsewhere still talk among themselves."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from .devices import Device, cheap_hashes  # noqa: F401  (the fixture: quick password hashes)
from .helpers import create, from_address
from .test_chat import PEOPLE, hello, say, tokens, until


@pytest.fixture
def game(client: TestClient) -> dict[str, Any]:
    return create(client, seats=PEOPLE)


def texts(lines: list[dict[str, Any]]) -> list[str]:
    return [line["text"] for line in lines]


def test_a_players_second_connection_without_its_token_never_reads_the_spectators_chat(client, game):
    path = f"/ws/games/{game['id']}"
    gallery = from_address(client, "10.0.0.2")
    with client.websocket_connect(path) as seat, gallery.websocket_connect(path) as watcher:
        hello(seat, tokens(game)[0])
        assert hello(watcher)["spectators_chat"] is True
        assert say(watcher, "before the second tab")["lines"][0]["channel"] == "spectators"
        with client.websocket_connect(path) as second_tab:  # the player's address, no token
            welcome = hello(second_tab)
            assert welcome["seat"] is None and welcome["spectators_chat"] is False
            assert welcome["chat"] == []  # the aside said before is not shown either
            say(watcher, "play the red card!")
            said = say(seat, "my move")
            assert until(second_tab, "chat") == said  # the next line it gets is the players'
            refused = say(second_tab, "thanks")
            assert refused["type"] == "error" and refused["code"] == "plays_here"
            assert "neither reads nor writes the spectators' chat" in refused["message"]
            assert "seat's link" in refused["message"]
    with gallery.websocket_connect(path) as watcher:
        assert texts(hello(watcher)["chat"]) == ["before the second tab", "play the red card!", "my move"]


def test_a_watcher_from_the_players_address_stops_reading_the_spectators_chat_once_the_seat_opens(
        client, game):
    path = f"/ws/games/{game['id']}"
    gallery = from_address(client, "10.0.0.3")
    with client.websocket_connect(path) as first_tab, gallery.websocket_connect(path) as watcher:
        assert hello(first_tab)["spectators_chat"] is True  # nobody plays from here yet
        hello(watcher)
        say(watcher, "early aside")
        assert until(first_tab, "chat")["lines"][0]["text"] == "early aside"
        with client.websocket_connect(path) as seat:
            hello(seat, tokens(game)[1])  # the seat opens from this address
            say(watcher, "late aside")
            said = say(seat, "hello table")
            assert until(first_tab, "chat") == said  # the late aside never reached it


def test_a_signed_in_players_tokenless_connection_from_anywhere_is_a_player_too(client, game):
    device = Device(client)
    device.sign_up("Onua_44")
    body = {"game_id": game["id"], "token": tokens(game)[0]}
    assert device.call("POST", "/api/account/claim", json=body).status_code == 200
    path = f"/ws/games/{game['id']}"
    phone, gallery = from_address(client, "10.0.0.4"), from_address(client, "10.0.0.5")
    with gallery.websocket_connect(path) as watcher, \
            phone.websocket_connect(path, headers=device.headers(csrf=False)) as mine:
        hello(watcher)
        say(watcher, "an aside")
        welcome = hello(mine)  # signed in, but without "account": true nor a token: it watches
        assert welcome["seat"] is None and welcome["spectators_chat"] is False
        assert welcome["chat"] == []
        assert say(mine, "hi")["code"] == "plays_here"


def test_spectators_from_elsewhere_still_talk_among_themselves(client, game):
    path = f"/ws/games/{game['id']}"
    one, two = from_address(client, "10.0.0.6"), from_address(client, "10.0.0.7")
    with client.websocket_connect(path) as seat, one.websocket_connect(path) as a, \
            two.websocket_connect(path) as b:
        hello(seat, tokens(game)[0])
        hello(a)
        assert hello(b)["spectators_chat"] is True
        said = say(a, "who wins?")
        assert until(b, "chat") == said and said["lines"][0]["channel"] == "spectators"
