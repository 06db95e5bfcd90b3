"""Chat (docs/protocol.md, "Chat"): lines bounded in length and rate, plain text only,
stored with the game and shown in its replay; players and spectators each have a channel;
no chat where people do not meet (bots only, hot-seat)."""

from __future__ import annotations

import dataclasses
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from matanui.server import chat, create_app
from matanui.server.chat import MAX_CHAT_CHARS
from matanui.server.quotas import Limits

from .conftest import ROOMY, WINDOW
from .helpers import HUMAN_VS_BOT, TEST_HOSTS, create, from_address

PEOPLE = [{"kind": "human", "character": "tahu", "name": "Ana"}, {"kind": "human", "character": "gali"}]


def until(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type `kind` (an error instead fails the test unless asked for)."""
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return message
        assert message["type"] != "error", message


def hello(ws: Any, token: str | None = None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token} if token else {"type": "hello"})
    return until(ws, "welcome")


def say(ws: Any, text: str) -> dict[str, Any]:
    """Say a line; the answer: its chat message, or the error refusing it."""
    ws.send_json({"type": "chat", "text": text})
    while True:
        message = ws.receive_json()
        if message["type"] in ("chat", "error"):
            return message


@pytest.fixture
def game(client: TestClient) -> dict[str, Any]:
    return create(client, seats=PEOPLE)


def tokens(game: dict[str, Any]) -> list[str]:
    return [seat["token"] for seat in game["seats"]]


def test_a_players_line_reaches_the_other_player_and_spectators_named_by_its_seat(client, game):
    ana, gali = tokens(game)
    path = f"/ws/games/{game['id']}"
    with client.websocket_connect(path) as one, client.websocket_connect(path) as two, \
            client.websocket_connect(path) as watcher:
        assert hello(one, ana)["chat"] == []
        hello(two, gali)
        hello(watcher)
        sent = say(one, "  kia ora  ")
        heard, seen = until(two, "chat"), until(watcher, "chat")
        answer = say(two, "hello back")
        assert until(one, "chat") == answer
    assert sent == heard == seen
    [line] = sent["lines"]
    assert set(line) == {"n", "seat", "name", "text", "at", "channel"}
    assert line["text"] == "kia ora" and line["name"] == "Ana" and line["seat"] == 0
    assert line["channel"] == "players" and line["n"] == 1
    assert answer["lines"][0]["name"] == "Gali Nuva" and answer["lines"][0]["n"] == 2


@pytest.mark.parametrize("text", ["", "   ", "x" * (MAX_CHAT_CHARS + 1)])
def test_a_line_empty_after_trimming_or_too_long_is_refused_saying_what_is_allowed(client, game, text):
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        hello(ws, tokens(game)[0])
        refused = say(ws, text)
        assert refused["type"] == "error" and refused["code"] == "bad_chat"
        assert f"1 to {MAX_CHAT_CHARS} characters" in refused["message"]
        assert say(ws, "x" * MAX_CHAT_CHARS)["lines"][0]["text"] == "x" * MAX_CHAT_CHARS


@pytest.mark.parametrize("text", ["line\nbreak", "esc \x1b[31m red", "bell\x07", "rtl \u202e txet",
                                  "zero\u200bwidth", "<b>bold</b>\r"])
def test_a_line_with_a_control_or_format_character_is_refused_and_nothing_is_stored(client, game, text):
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        hello(ws, tokens(game)[0])
        refused = say(ws, text)
        assert refused["type"] == "error" and refused["code"] == "bad_chat"
        assert "hidden character" in refused["message"]
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        assert hello(ws)["chat"] == []


def test_html_is_stored_inert_and_arrives_as_the_same_plain_text(client, game):
    markup = '<script>alert("x")</script><img src=x onerror=alert(1)> &amp; \'quoted\''
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        hello(ws, tokens(game)[0])
        assert say(ws, markup)["lines"][0]["text"] == markup  # the page sets it as text
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        assert hello(ws)["chat"][0]["text"] == markup
    assert client.get(f"/api/games/{game['id']}/replay").json()["chat"][0]["text"] == markup


def test_a_sixth_line_in_ten_seconds_is_refused_with_when_to_try_again_and_the_connection_stays(client, game):
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        hello(ws, tokens(game)[0])
        for number in range(5):
            assert say(ws, f"line {number}")["type"] == "chat"
        refused = say(ws, "one too many")
        assert refused["code"] == "chat_too_fast"
        assert "5 chat lines in the last 10 seconds" in refused["message"]
        assert "try again in" in refused["message"]
        ws.send_json({"type": "history", "before": 0})  # still served
        assert until(ws, "history")["before"] == 0
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        assert [line["text"] for line in hello(ws)["chat"]] == [f"line {n}" for n in range(5)]


def test_a_game_keeps_at_most_its_lines_and_then_says_its_chat_is_full(client, game, monkeypatch):
    """A flood from many connections stops at the game's most lines, not in the server's memory."""
    monkeypatch.setattr(chat, "MOST_LINES", {chat.PLAYERS: 3, chat.SPECTATORS: 2})
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        hello(ws, tokens(game)[0])
        for number in range(3):
            assert say(ws, f"line {number}")["type"] == "chat"
        refused = say(ws, "one more")
        assert refused["code"] == "chat_full" and "3 lines" in refused["message"]


def test_spectators_fill_only_their_own_channel_and_speak_as_one_per_address(client, game, monkeypatch):
    """29 spectator sockets from one address, each within its own rate, once filled the whole
    chat: now the gallery's lines are capped on their own, the players' channel stays open,
    and the spectators of one address share one rate."""
    monkeypatch.setattr(chat, "MOST_LINES", {chat.PLAYERS: 50, chat.SPECTATORS: 3})
    path = f"/ws/games/{game['id']}"
    with ExitStack() as stack:
        crowd = [stack.enter_context(client.websocket_connect(path)) for _ in range(4)]
        for ws in crowd:
            hello(ws)
        told = [say(ws, "boo")["type"] for ws in crowd[:3]]
        assert told == ["chat"] * 3
        crowd[3].send_json({"type": "chat", "text": "boo"})
        full = until(crowd[3], "error")
        assert full["code"] == "chat_full" and "spectators" in full["message"]
        player = stack.enter_context(client.websocket_connect(path))
        hello(player, tokens(game)[0])
        assert say(player, "still ours")["type"] == "chat"


def test_the_spectators_of_one_address_share_one_rate(client, game, monkeypatch):
    backends = client.app.state.lobby.backends
    monkeypatch.setattr(backends, "limits", dataclasses.replace(backends.limits, chat_lines=2))
    path = f"/ws/games/{game['id']}"
    with ExitStack() as stack:
        crowd = [stack.enter_context(client.websocket_connect(path)) for _ in range(3)]
        for ws in crowd:
            hello(ws)
        assert [say(ws, "hi")["type"] for ws in crowd[:2]] == ["chat", "chat"]
        crowd[2].send_json({"type": "chat", "text": "hi"})  # a fresh socket, the same address
        refused = until(crowd[2], "error")
        assert refused["code"] == "chat_too_fast" and "spectators at your address" in refused["message"]


def test_spectators_talk_among_themselves_and_players_never_see_it(client, game):
    path = f"/ws/games/{game['id']}"
    gallery = from_address(client, "10.0.0.1")  # from the players' address it would be a player's
    with client.websocket_connect(path) as player, gallery.websocket_connect(path) as watcher:
        hello(player, tokens(game)[0])
        hello(watcher)
        aside = say(watcher, "who wins?")["lines"][0]
        said = say(player, "my move")  # the player's next chat is its own line, not the aside
        assert until(watcher, "chat") == said
    assert aside["channel"] == "spectators" and aside["name"] == "Spectator" and aside["seat"] is None
    assert said["lines"][0]["channel"] == "players"
    with client.websocket_connect(path) as player, gallery.websocket_connect(path) as watcher:
        assert [line["text"] for line in hello(player, tokens(game)[1])["chat"]] == ["my move"]
        assert [line["text"] for line in hello(watcher)["chat"]] == ["who wins?", "my move"]
    replay = client.get(f"/api/games/{game['id']}/replay").json()
    assert [line["text"] for line in replay["chat"]] == ["my move"]


@pytest.mark.parametrize("spec", [
    {"seats": HUMAN_VS_BOT},
    {"seats": PEOPLE, "hotseat": True},
    {"seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]},
], ids=["against a bot", "hot-seat", "bots only"])
def test_games_where_people_do_not_meet_have_no_chat(client, spec):
    game = create(client, **spec)
    token = next((seat["token"] for seat in game["seats"] if seat["token"]), None)
    for who in (token, None):
        with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            hello(ws, who)
            refused = say(ws, "anyone?")
            assert refused["type"] == "error" and refused["code"] == "no_chat"


def test_the_replay_carries_the_players_chat_with_the_number_of_actions_when_it_was_said(client, game):
    with client.websocket_connect(f"/ws/games/{game['id']}") as one, \
            client.websocket_connect(f"/ws/games/{game['id']}") as two:
        views = [hello(one, tokens(game)[0]), hello(two, tokens(game)[1])]
        say(one, "before any move")
        mover, view = next((ws, v) for ws, v in zip((one, two), views, strict=True) if v["legal"])
        mover.send_json({"type": "act", "action": view["legal"][0]["id"], "at": 0})
        until(mover, "update")
        assert say(mover, "after my move")["type"] == "chat"
    replay = client.get(f"/api/games/{game['id']}/replay").json()
    assert [(line["text"], line["after"]) for line in replay["chat"]] == [("before any move", 0),
                                                                           ("after my move", 1)]


def test_the_welcome_carries_the_newest_hundred_lines(tmp_path):
    limits = Limits(**{**vars(ROOMY), "chat_lines": 1000})
    app = create_app(f"sqlite:///{tmp_path / 'chat.db'}", allowed_hosts=TEST_HOSTS, limits=limits,
                     response_window=WINDOW)
    with TestClient(app) as client:
        game = create(client, seats=PEOPLE)
        with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            hello(ws, tokens(game)[0])
            for number in range(105):
                say(ws, f"{number}")
        with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            lines = hello(ws)["chat"]
    assert [line["n"] for line in lines] == list(range(6, 106))


def test_chat_is_stored_with_the_game_and_survives_a_restart(tmp_path):
    database = f"sqlite:///{tmp_path / 'chat.db'}"

    def server() -> TestClient:
        return TestClient(create_app(database, allowed_hosts=TEST_HOSTS, limits=ROOMY,
                                     response_window=WINDOW))

    with server() as client:
        game = create(client, seats=PEOPLE)
        with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            hello(ws, tokens(game)[1])
            say(ws, "still here tomorrow")
    with server() as client, client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        [line] = hello(ws, tokens(game)[0])["chat"]
    assert line["text"] == "still here tomorrow" and line["name"] == "Gali Nuva"


@pytest.mark.parametrize("message", [{"type": "chat"}, {"type": "chat", "text": 5},
                                     {"type": "chat", "text": "hi", "to": 1}])
def test_a_chat_message_without_its_text_is_refused_as_a_bad_message(client, game, message):
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        hello(ws, tokens(game)[0])
        ws.send_json(message)
        refused = until(ws, "error")
    assert refused["code"] == "bad_message"


def test_a_line_said_on_one_instance_reaches_the_connections_of_another(postgres):
    a, b = postgres
    game = create(a, seats=PEOPLE)
    path = f"/ws/games/{game['id']}"
    with a.websocket_connect(path) as on_a, b.websocket_connect(path) as on_b, \
            b.websocket_connect(path) as watcher_b:
        hello(on_a, tokens(game)[0])
        hello(on_b, tokens(game)[1])
        hello(watcher_b)
        said = say(on_a, "across the wire")
        assert until(on_b, "chat") == until(watcher_b, "chat") == said
        answer = say(on_b, "heard you")
        assert until(on_a, "chat") == answer
    assert [line["n"] for line in said["lines"] + answer["lines"]] == [1, 2]
