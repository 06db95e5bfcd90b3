"""A replay over HTTP in two parts (`GET /api/games/{id}/replay`): the first answer carries
every step's frame but only the first positions, however long the game; the positions of
further steps come by range (`from`, `to`), each the one the record gives, as the viewer may
see it, in whatever order they are asked for; a bad range is refused saying what is allowed."""

from __future__ import annotations

import time
from typing import Any

import pytest

from matanui.engine import Record, replay
from matanui.server.replays import FIRST_POSITIONS, MOST_POSITIONS

from .helpers import create

BOTS = [{"kind": "bot", "level": "easy"}] * 2
LONG = 300  # actions


@pytest.fixture(scope="module")
def long_game(client) -> tuple[str, dict[str, Any]]:
    """A finished Masks game of two bots of at least LONG actions, and its first answer."""
    for seed in range(1, 20):
        game_id = create(client, seats=BOTS, game="masks", seed=seed)["id"]
        deadline = time.time() + 120
        while (summary := client.get(f"/api/games/{game_id}").json())["status"] != "finished":
            assert time.time() < deadline
            time.sleep(0.2)
        if summary["at"] >= LONG:
            return game_id, client.get(f"/api/games/{game_id}/replay").json()
    raise AssertionError(f"no Masks game of {LONG} actions")


def positions(client, game_id: str, start: int, stop: int, **params: Any) -> list[dict[str, Any]]:
    answer = client.get(f"/api/games/{game_id}/replay", params={"from": start, "to": stop, **params})
    assert answer.status_code == 200, answer.text
    assert answer.json()["from"] == start
    return answer.json()["observations"]


def test_the_first_answer_has_every_frame_but_only_the_first_positions(long_game):
    _, first = long_game
    record = Record.from_dict(first["record"])
    assert len(first["frames"]) == len(record.actions) + 1 >= LONG + 1
    assert first["from"] == 0 and len(first["observations"]) == FIRST_POSITIONS
    state = replay(Record(**{**vars(record), "actions": []}))
    assert first["observations"][0] == state.observation(None)
    for frame, action in zip(first["frames"][1:], record.actions, strict=True):
        state.apply(action)
        assert frame["action"] == action and frame["turn"] == state.observation(None)["turn"]


def test_the_positions_of_any_range_are_the_records_in_any_order(client, long_game):
    game_id, first = long_game
    record = Record.from_dict(first["record"])
    last = len(record.actions)
    asked = [(0, 5), (60, 159), (160, 170), (100, 120), (last - 3, last), (171, 171)]
    for start, stop in asked:
        got = positions(client, game_id, start, stop, seat=1)
        assert got == [replay(record, at).observation(1) for at in range(start, stop + 1)]
    assert positions(client, game_id, 0, FIRST_POSITIONS - 1) == first["observations"]


@pytest.mark.parametrize("params", [{"from": 5, "to": 4}, {"from": 0, "to": 100_000},
                                    {"from": 0, "to": MOST_POSITIONS}, {"from": 3}, {"to": 3}])
def test_a_bad_range_is_refused_saying_what_is_allowed(client, long_game, params):
    game_id, first = long_game
    answer = client.get(f"/api/games/{game_id}/replay", params=params)
    assert answer.status_code == 422
    assert answer.json()["error"] == "bad_range"
    last = len(first["frames"]) - 1
    assert f"from and to are steps 0 to {last}" in answer.json()["message"]
    assert f"at most {MOST_POSITIONS} steps at a time" in answer.json()["message"]


def test_a_negative_step_is_refused_by_the_request_check(client, long_game):
    game_id, _ = long_game
    answer = client.get(f"/api/games/{game_id}/replay", params={"from": -1, "to": 3})
    assert answer.status_code == 422 and "from" in answer.json()["message"]


def test_a_running_games_positions_by_range_keep_each_seats_secrets(client):
    created = create(client)  # a person against a bot: the game waits on the person
    token = created["seats"][0]["token"]
    replay_url = f"/api/games/{created['id']}/replay"
    assert all(o["hand"] is None for o in positions(client, created["id"], 0, 0))
    assert client.get(replay_url, params={"from": 0, "to": 0, "seat": 0}).status_code == 403
    wrong = {"x-seat-token": "not-a-token"}
    assert client.get(replay_url, params={"from": 0, "to": 0, "seat": 0}, headers=wrong).status_code == 403
    mine = client.get(replay_url, params={"from": 0, "to": 0, "seat": 0}, headers={"x-seat-token": token})
    assert mine.json()["observations"][0]["hand"] is not None
    theirs = client.get(replay_url, params={"from": 0, "to": 0, "seat": 1}, headers={"x-seat-token": token})
    assert theirs.status_code == 403  # one seat's token opens no other seat's view
    assert client.get(replay_url, params={"from": 0, "to": 0, "seat": 7}).status_code == 404
