"""Fair deals: whoever creates a game someone else plays in cannot choose its seed (they could
rebuild the deal offline and read the other hands), and the seed the server draws is told to
no one, on any surface, until the game is over; games whose every seat is the creator's keep
a chosen seed, so they stay repeatable."""

from __future__ import annotations

import json
import random
from contextlib import ExitStack

import pytest

from .helpers import create, play_out, receive_view

TAHU, ONUA = {"kind": "human", "character": "tahu"}, {"kind": "human", "character": "onua"}
BOT = {"kind": "bot", "level": "easy", "character": "gali"}


def seed_of(client, game_id: str) -> int:
    return client.app.state.lobby.rooms[game_id].state.seed


@pytest.mark.parametrize("body", [
    {"seats": [TAHU, ONUA]},                                     # an invite
    {"seats": [TAHU, {**ONUA, "kind": "open"}]},                 # an open seat
    {"seats": [TAHU, ONUA], "public": True},                     # open by the shorthand
], ids=["invite", "open-seat", "public"])
def test_a_chosen_seed_is_refused_where_anyone_else_holds_a_seat(client, body):
    before = client.get("/api/games?limit=200").json()
    response = client.post("/api/games", json={"game": "reconstruct", "seed": 424242, **body})
    assert response.status_code == 422, response.text
    assert response.json()["error"] == "bad_request"
    assert "read the other players' hands" in response.json()["message"]
    assert "leave it out and the server deals" in response.json()["message"]
    assert client.get("/api/games?limit=200").json() == before  # nothing was made


@pytest.mark.parametrize("body", [
    {"seats": [TAHU, BOT]},                                      # alone against a bot
    {"seats": [TAHU, ONUA], "hotseat": True},                    # one screen for both
    {"seats": [BOT, {**BOT, "character": "tahu"}]},              # bots only
    {"seats": [TAHU, BOT], "public": True},                      # public, but no seat to offer
], ids=["solo", "hotseat", "bots", "public-solo"])
def test_games_whose_every_seat_is_the_creators_keep_a_chosen_seed(client, body):
    created = client.post("/api/games", json={"game": "reconstruct", "seed": 424242, **body})
    assert created.status_code == 201, created.text
    assert seed_of(client, created.json()["id"]) == 424242


def texts_of_every_surface(client, game: dict, sockets: list) -> list[str]:
    """What anyone may read of a running game: its summary, the lobby's list, the public and
    each seat's replay, and every frame its sockets got so far."""
    game_id = game["id"]
    replays = [client.get(f"/api/games/{game_id}/replay").text] + [
        client.get(f"/api/games/{game_id}/replay", params={"seat": seat["seat"]},
                   headers={"x-seat-token": seat["token"]}).text for seat in game["seats"]]
    return [client.get(f"/api/games/{game_id}").text, client.get("/api/games?limit=200").text,
            *replays, *(json.dumps(frame) for frames in sockets for frame in frames)]


def test_a_shared_game_is_dealt_from_a_secret_seed_revealed_only_when_it_is_over(client):
    game = create(client, seats=[TAHU, ONUA])
    other = create(client, seats=[TAHU, ONUA])
    seed = seed_of(client, game["id"])
    assert seed != seed_of(client, other["id"])  # drawn afresh, not the helper's 5
    tokens = [seat["token"] for seat in game["seats"]]
    with ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(f"/ws/games/{game['id']}"))
                   for _ in range(3)]
        for ws, token in zip(sockets, [*tokens, None], strict=True):
            ws.send_json({"type": "hello", **({"token": token} if token else {})})
        logs: list[list[dict]] = [[], [], []]
        views = [receive_view(ws, log) for ws, log in zip(sockets, logs, strict=True)]
        rng, looked = random.Random(3), False
        while not views[0]["over"]:
            if views[0]["at"] >= 6 and not looked:  # midway: nothing anyone can read names the seed
                assert all(str(seed) not in text for text in texts_of_every_surface(client, game, logs))
                looked = True
            seat = views[0]["current_player"]
            if views[seat]["legal"] and not views[seat].get("closes_at"):
                sockets[seat].send_json({"type": "act", "action": rng.choice(views[seat]["legal"])["id"],
                                         "at": views[seat]["at"]})
            views = [receive_view(ws, log) for ws, log in zip(sockets, logs, strict=True)]
        assert looked and all(str(seed) not in json.dumps(frame) for log in logs for frame in log)
    finished = client.get(f"/api/games/{game['id']}/replay").json()
    assert finished["record"]["seed"] == seed  # the finished game's record tells it


def test_a_rematch_is_dealt_from_a_fresh_secret_seed(client):
    game = create(client, seed=424242)
    token = game["seats"][0]["token"]
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        ws.send_json({"type": "hello", "token": token})
        play_out(ws, random.Random(4))
    rematch = client.post(f"/api/games/{game['id']}/rematch", json={"token": token}).json()
    seed = seed_of(client, rematch["id"])
    assert seed != 424242
    assert str(seed) not in json.dumps(rematch)
    assert str(seed) not in client.get(f"/api/games/{rematch['id']}/replay").text
