"""Play over the WebSocket with the real app: to the end against a bot, hot-seat, bad input,
reconnecting, rematch and replay."""

from __future__ import annotations

import json
import random
from contextlib import ExitStack, contextmanager

import pytest

from .helpers import create, play_out, receive_view


@contextmanager
def hello(client, game_id, token=None):
    """A connection that has said hello (with a seat token, or none to watch)."""
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", **({"token": token} if token else {})})
        yield ws


def test_a_person_plays_reconstruct_to_the_end_against_a_bot(client):
    created = create(client)
    with hello(client, created["id"], created["seats"][0]["token"]) as ws:
        welcome = receive_view(ws)
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        assert welcome["observation"]["hand"] is not None and welcome["events"]  # the log so far
        final = play_out(ws, random.Random(1), view=welcome)
    assert final["over"] and final["observation"]["is_over"]
    summary = client.get(f"/api/games/{created['id']}").json()
    assert summary["status"] == "finished" and summary["at"] == final["at"]


def test_hot_seat_two_people_share_one_screen(client):
    seats = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "kopaka"}]
    created = create(client, seats=seats, hotseat=True)
    tokens = [s["token"] for s in created["seats"]]
    assert created["hotseat_link"] == f"/games/{created['id']}#tokens={tokens[0]},{tokens[1]}"
    with ExitStack() as stack:
        sockets = [stack.enter_context(hello(client, created["id"], t)) for t in tokens]
        views = [receive_view(ws) for ws in sockets]
        rng = random.Random(2)
        while not views[0]["over"]:
            seat = views[0]["current_player"]
            assert views[seat]["legal"] and not views[1 - seat]["legal"]
            sockets[seat].send_json({"type": "act", "action": rng.choice(views[seat]["legal"])["id"]})
            views = [receive_view(ws) for ws in sockets]


def errors_for(ws, messages):
    """Send each raw message and collect the error code and sentence it gets back."""
    answers = []
    for raw in messages:
        if isinstance(raw, bytes):
            ws.send_bytes(raw)
        else:
            ws.send_text(raw if isinstance(raw, str) else json.dumps(raw))
        answer = ws.receive_json()
        while answer["type"] == "seats":
            answer = ws.receive_json()
        assert answer["type"] == "error", answer
        answers.append((answer["code"], answer["message"]))
    return answers


def test_bad_messages_get_a_clear_error_and_change_nothing(client):
    created = create(client, seats=[{"kind": "human", "character": "tahu"},
                                    {"kind": "human", "character": "lewa"}], seed=11, hotseat=True)
    game_id = created["id"]
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        before_hello = errors_for(ws, [{"type": "act", "action": "pass"},
                                       {"type": "hello", "token": "forged"}])
        assert [code for code, _ in before_hello] == ["hello_first", "bad_token"]
        assert "not valid for this game" in before_hello[1][1] and "you are watching" in before_hello[1][1]
        assert receive_view(ws)["seat"] is None  # told, then watching: no silent downgrade
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": created["seats"][0]["token"]})
        view = receive_view(ws)
        at = view["at"]
        answers = errors_for(ws, [
            b"\x00binary",
            "{not json",
            "[1, 2]",
            {"type": "shout"},
            {"type": "act"},
            {"type": "act", "action": "pass", "at": -1},
            {"type": "act", "action": "pass", "extra": 1},
            {"type": "act", "action": "x" * 5000},
            {"type": "hello"},
            {"type": "act", "action": "pass", "at": at + 3},
        ])
        codes = [code for code, _ in answers]
        assert codes == ["bad_message"] * 7 + ["too_large", "already_hello", "stale"]
        words = " ".join(message for _, message in answers)
        for expected in ("not binary", "not valid JSON", "JSON object",
                         "'hello', 'act', 'drawn', 'history', 'resign', 'abort', 'hint', 'expel', 'wait', "
                         "'replace', 'chat' and 'presence'",
                         "'action' must be", "'at' must be", "unknown field(s) extra", "at most 4096",
                         "game is at action"):
            assert expected in words
        if view["current_player"] != 0:
            [(code, message)] = errors_for(ws, [{"type": "act", "action": "pass"}])
            assert code == "not_your_turn" and "not yours (you play Tahu Nuva)" in message
        else:
            [(code, message)] = errors_for(ws, [{"type": "act", "action": "add:99:head"}])
            assert code == "illegal" and "there is no card #99" in message and "Legal actions:" in message
        with hello(client, game_id) as spectator:
            receive_view(spectator)
            assert errors_for(spectator, [{"type": "act", "action": "pass"}])[0][0] == "spectator"
    assert client.get(f"/api/games/{game_id}").json()["at"] == at


def test_unknown_games_are_refused_on_the_websocket(client):
    with client.websocket_connect("/ws/games/nope") as ws:
        assert ws.receive_json()["code"] == "unknown_game"


def test_reconnecting_to_a_seat_resumes_it(client):
    created = create(client, seed=21)
    token = created["seats"][0]["token"]
    rng = random.Random(3)
    with hello(client, created["id"], token) as ws:
        middle = play_out(ws, rng, until=6)
    with hello(client, created["id"], token) as ws:
        again = receive_view(ws)
        assert again["type"] == "welcome" and again["at"] >= middle["at"]
        assert again["observation"]["hand"] is not None
        assert play_out(ws, rng, view=again)["over"]


def test_rematch_keeps_the_seats_and_their_tokens(client):
    created = create(client, seed=8)
    token = created["seats"][0]["token"]
    with hello(client, created["id"], token) as ws:
        play_out(ws, random.Random(4))
        response = client.post(f"/api/games/{created['id']}/rematch", json={"token": "forged"})
        assert response.status_code == 403
        rematch = client.post(f"/api/games/{created['id']}/rematch", json={"token": token}).json()
        while (message := ws.receive_json())["type"] != "rematch":
            pass
    assert message["game_id"] == rematch["id"] and rematch["players"] == ["tahu", "gali"]
    again = client.post(f"/api/games/{created['id']}/rematch", json={"token": token}).json()
    assert again["id"] == rematch["id"]
    with hello(client, rematch["id"], token) as ws:
        assert receive_view(ws)["seat"] == 0


def test_replay_steps_through_a_game_and_hides_what_the_viewer_may_not_see(client):
    created = create(client, seed=13)
    token = created["seats"][0]["token"]
    replay = f"/api/games/{created['id']}/replay"
    with hello(client, created["id"], token) as ws:
        middle = play_out(ws, random.Random(5), until=8)
        public = client.get(replay).json()
        last = public["game"]["at"]
        assert len(public["frames"]) == last + 1 >= middle["at"] + 1
        assert all(o["hand"] is None for o in public["observations"])
        assert all(f["action"] is None for f in public["frames"][1:])  # running: ids stay private
        assert "record" not in public  # its seed would tell every hidden card
        steps = {"from": 0, "to": last}
        assert all(o["hand"] is None for o in client.get(replay, params=steps).json()["observations"])
        for asked in ({"seat": 0}, {"seat": 0, **steps}):
            assert client.get(replay, params=asked).status_code == 403
        mine = client.get(replay, params={"seat": 0, **steps}, headers={"x-seat-token": token}).json()
        assert mine["observations"][-1]["hand"] is not None
        play_out(ws, random.Random(5), view=middle)
    done = client.get(replay, params={"seat": 1}).json()
    assert done["record"]["actions"] == [f["action"] for f in done["frames"][1:]]
    assert client.get(replay, params={"seat": 7}).status_code == 404  # no such seat


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_bots_play_each_other_to_the_end_and_spectators_watch(client, level):
    seats = [{"kind": "bot", "level": level}, {"kind": "bot", "level": level}]
    created = create(client, seats=seats, seed=30)
    with hello(client, created["id"]) as spectator:
        view = receive_view(spectator)
        while not view["over"]:
            view = receive_view(spectator)
            assert view["observation"]["hand"] is None and view["legal"] == []
