"""Hints over the WebSocket: `{"type": "hint"}` answers the move a strong player would make in
the asking seat's place, with a reason, in games against bots, hot-seat games and games whose
people agreed to hints at creation (docs/protocol.md, "Hints")."""

from __future__ import annotations

from contextlib import ExitStack

from .helpers import create, receive_view
from .test_play import hello

TWO_PEOPLE = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "kopaka"}]


def answer(ws):
    """The next hint or error, past any views that come first."""
    while True:
        message = ws.receive_json()
        if message["type"] in ("hint", "error"):
            return message


def my_decision(ws, seat):
    view = receive_view(ws)
    while not (view["legal"] and view["current_player"] == seat and not view["closes_at"]):
        view = receive_view(ws)
    return view


def test_a_player_against_a_bot_asks_for_a_hint_and_gets_a_legal_move_with_a_reason(client):
    created = create(client)
    with hello(client, created["id"], created["seats"][0]["token"]) as ws:
        view = my_decision(ws, 0)
        ws.send_json({"type": "hint"})
        hint = answer(ws)
    assert hint["type"] == "hint", hint
    assert hint["at"] == view["at"]
    assert hint["action"] in {entry["id"] for entry in view["legal"]}
    assert hint["words"] and hint["reason"] and 0 <= hint["chance"] <= 1
    summary = client.get(f"/api/games/{created['id']}").json()
    assert summary["hints"] is True


def test_asking_again_at_the_same_position_gives_the_same_hint(client):
    created = create(client)
    with hello(client, created["id"], created["seats"][0]["token"]) as ws:
        my_decision(ws, 0)
        ws.send_json({"type": "hint"})
        first = answer(ws)
        ws.send_json({"type": "hint"})
        assert answer(ws) == first


def test_a_game_between_two_people_on_their_own_screens_gives_no_hints(client):
    created = create(client, seats=TWO_PEOPLE)
    with ExitStack() as stack:
        sockets = [stack.enter_context(hello(client, created["id"], s["token"])) for s in created["seats"]]
        welcome = receive_view(sockets[0])
        assert welcome["hints"] is False
        sockets[0].send_json({"type": "hint"})
        refused = answer(sockets[0])
    assert refused["code"] == "no_hints"
    assert "games against bots, hot-seat games and games whose people all agreed" in refused["message"]
    assert client.get(f"/api/games/{created['id']}").json()["hints_agreed"] is False


def test_a_game_whose_people_all_agreed_at_creation_gives_every_seat_hints_and_says_so(client):
    created = create(client, seats=TWO_PEOPLE, hints=True)
    with ExitStack() as stack:
        sockets = [stack.enter_context(hello(client, created["id"], s["token"])) for s in created["seats"]]
        views = [receive_view(ws) for ws in sockets]
        assert all(view["hints"] and view["hints_agreed"] for view in views)
        deciding = views[0]["current_player"]
        sockets[deciding].send_json({"type": "hint"})
        assert answer(sockets[deciding])["type"] == "hint"
    summary = client.get(f"/api/games/{created['id']}").json()
    assert summary["hints"] is True and summary["hints_agreed"] is True


def test_a_hot_seat_game_gives_hints_to_the_seat_to_decide_and_not_to_the_other(client):
    created = create(client, seats=TWO_PEOPLE, hotseat=True)
    with ExitStack() as stack:
        sockets = [stack.enter_context(hello(client, created["id"], s["token"])) for s in created["seats"]]
        views = [receive_view(ws) for ws in sockets]
        assert views[0]["hints"] is True
        deciding = views[0]["current_player"]
        sockets[1 - deciding].send_json({"type": "hint"})
        assert answer(sockets[1 - deciding])["code"] == "not_your_turn"
        sockets[deciding].send_json({"type": "hint"})
        assert answer(sockets[deciding])["type"] == "hint"


def test_a_spectator_and_a_hint_with_fields_are_refused(client):
    created = create(client)
    with hello(client, created["id"]) as ws:
        receive_view(ws)
        ws.send_json({"type": "hint"})
        assert answer(ws)["code"] == "spectator"
    with hello(client, created["id"], created["seats"][0]["token"]) as ws:
        receive_view(ws)
        ws.send_json({"type": "hint", "seat": 1})
        refused = answer(ws)
    assert refused["code"] == "bad_message" and "'hint' message has: type" in refused["message"]


def test_a_hint_that_cannot_be_worked_out_is_refused_and_the_game_goes_on(client, monkeypatch):
    async def broken(*args):
        raise RuntimeError("the worker died")

    monkeypatch.setattr(client.app.state.lobby.backends.bots, "hint", broken)
    created = create(client)
    with hello(client, created["id"], created["seats"][0]["token"]) as ws:
        view = my_decision(ws, 0)
        ws.send_json({"type": "hint"})
        refused = answer(ws)
        assert refused["code"] == "hint_failed" and "the game goes on" in refused["message"]
        ws.send_json({"type": "act", "action": view["legal"][0]["id"], "at": view["at"]})
        assert receive_view(ws)["at"] > view["at"]
