"""One client cannot slow everyone down: limits with clear refusals, replays and bot-only
games off the event loop and at low priority, games nobody plays expire, a paged lobby."""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from matanui import games
from matanui.server import create_app
from matanui.server.quotas import DAY, Limits
from matanui.server.storage import GameRow, SeatRow, Storage

from .conftest import ROOMY
from .helpers import TEST_HOSTS, create, receive_view

BOTS = [{"kind": "bot", "level": "easy"}] * 2
PEOPLE = [{"kind": "human"}, {"kind": "human"}]


@contextmanager
def app(tmp_path, bot_pace: float = 0.0, **limits) -> Iterator[TestClient]:
    settings = {**vars(ROOMY), **limits}
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", limits=Limits(**settings),
                               bot_pace=bot_pace, allowed_hosts=TEST_HOSTS)) as client:
        yield client


def make_first_move(ws, game: dict) -> dict:
    """As seat 0's person: wait for a decision, take its first legal action, and return the
    view that answers it."""
    ws.send_json({"type": "hello", "token": game["seats"][0]["token"]})
    view = receive_view(ws)
    while not view["legal"]:
        view = receive_view(ws)
    ws.send_json({"type": "act", "action": view["legal"][0]["id"], "at": view["at"]})
    return receive_view(ws)


def refused(response, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    assert response.json()["error"] == code
    return response.json()["message"]


def closed_with(ws) -> tuple[dict, int]:
    """The error a refused connection gets, and its close code."""
    message = ws.receive_json()
    with pytest.raises(WebSocketDisconnect) as closing:
        ws.receive_json()
    return message, closing.value.code


def test_games_created_per_minute_are_limited_with_429_and_retry_after(tmp_path):
    with app(tmp_path, games_per_minute=2) as client:
        create(client)
        create(client)
        response = client.post("/api/games", json={"game": "reconstruct", "seats": PEOPLE})
        assert "2 games in the last minute" in refused(response, 429, "too_many_games")
        assert 1 <= int(response.headers["retry-after"]) <= 60


def test_the_server_keeps_a_bounded_number_of_open_games(tmp_path):
    with app(tmp_path, open_games=1) as client:
        create(client, seats=PEOPLE)
        response = client.post("/api/games", json={"game": "reconstruct", "seats": PEOPLE})
        refused(response, 503, "server_full")
        assert int(response.headers["retry-after"]) > 0


def test_bot_only_games_are_capped_per_client_and_in_total(tmp_path):
    with app(tmp_path, bot_games_per_client=1, bot_games=1, bot_pace=30.0) as client:
        create(client, seats=BOTS)
        response = client.post("/api/games", json={"game": "reconstruct", "seats": BOTS})
        assert "wait for one to end" in refused(response, 429, "too_many_bot_games")
        create(client, seats=PEOPLE)  # games with people are not bot-only games
    with app(tmp_path, bot_games_per_client=5, bot_games=1, bot_pace=30.0) as client:
        response = client.post("/api/games", json={"game": "reconstruct", "seats": BOTS})
        refused(response, 503, "bot_games_full")  # the one above, loaded again, is running


def test_connections_per_client_and_per_game_are_limited_with_close_code_4429(tmp_path):
    with app(tmp_path, sockets_per_client=2) as client:
        game = create(client, seats=PEOPLE)["id"]
        with client.websocket_connect(f"/ws/games/{game}"), client.websocket_connect(f"/ws/games/{game}"):
            with client.websocket_connect(f"/ws/games/{game}") as third:
                message, code = closed_with(third)
        assert (message["code"], code) == ("too_many_connections", 4429)
        with client.websocket_connect(f"/ws/games/{game}") as again:  # the others closed
            again.send_json({"type": "hello"})
            assert receive_view(again)["type"] == "welcome"
    with app(tmp_path, sockets_per_game=1) as client:
        game = create(client, seats=PEOPLE)["id"]
        with client.websocket_connect(f"/ws/games/{game}"):
            with client.websocket_connect(f"/ws/games/{game}") as second:
                message, code = closed_with(second)
        assert (message["code"], code) == ("game_crowded", 4429)


def test_a_connection_sending_too_fast_is_told_and_closed(tmp_path):
    with app(tmp_path, messages_per_second=3) as client:
        game = create(client, seats=PEOPLE)
        with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            ws.send_json({"type": "hello", "token": game["seats"][0]["token"]})
            receive_view(ws)
            for _ in range(5):
                ws.send_json({"type": "act", "action": "nonsense"})
            codes = []
            with pytest.raises(WebSocketDisconnect) as closing:
                while True:
                    codes.append(ws.receive_json().get("code"))
        assert codes[-1] == "too_fast" and closing.value.code == 4429


def test_replays_are_built_off_the_event_loop_at_low_priority(tmp_path):
    """With the replay worker frozen, four replays wait and the lobby still answers: the
    replays are not built on the loop. The worker runs at the lowest CPU priority."""
    with app(tmp_path, replays_per_client=4) as client:
        game = create(client, seats=BOTS)["id"]
        assert client.get(f"/api/games/{game}/replay").status_code == 200  # starts the worker
        workers = client.app.state.lobby.backends.replays.pids()
        assert workers and all(os.getpriority(os.PRIO_PROCESS, pid) == 19 for pid in workers)
        answers: list[int] = []
        replays = [threading.Thread(target=lambda: answers.append(
            client.get(f"/api/games/{game}/replay").status_code)) for _ in range(4)]
        for pid in workers:
            os.kill(pid, signal.SIGSTOP)
        try:
            for replay in replays:
                replay.start()
            time.sleep(0.5)
            assert client.get("/api/catalog").status_code == 200
            assert client.get("/api/games").status_code == 200
            assert all(replay.is_alive() for replay in replays) and not answers
        finally:
            for pid in workers:
                os.kill(pid, signal.SIGCONT)
        for replay in replays:
            replay.join(timeout=60)
        assert answers == [200] * 4


def test_replays_at_once_are_limited_per_client(tmp_path):
    with app(tmp_path, replays_per_client=1) as client:
        game = create(client, seats=BOTS)["id"]
        client.get(f"/api/games/{game}/replay")
        quotas = client.app.state.quotas
        with quotas.replay("testclient"):  # one being built
            response = client.get(f"/api/games/{game}/replay")
        refused(response, 429, "too_many_replays")
        assert client.get(f"/api/games/{game}/replay").status_code == 200


def test_bot_only_games_never_hold_up_a_persons_bot(tmp_path):
    """Bots of bot-only games run in their own workers at the lowest priority: frozen, they
    hold nothing up; a person's bot answers from the normal-priority workers."""
    with app(tmp_path) as client:
        watched = create(client, seats=BOTS)["id"]
        with client.websocket_connect(f"/ws/games/{watched}") as ws:
            ws.send_json({"type": "hello"})
            while not receive_view(ws)["at"]:
                pass
        bots = client.app.state.lobby.backends.bots
        background = bots.background.pids()
        assert background and all(os.getpriority(os.PRIO_PROCESS, pid) == 19 for pid in background)
        for pid in background:
            os.kill(pid, signal.SIGSTOP)
        try:
            game = create(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
            with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
                view = make_first_move(ws, game)
                while not view["legal"] and not view["over"]:
                    view = receive_view(ws)  # the bot's answer comes
            assert view["at"] >= 2
            ours = os.getpriority(os.PRIO_PROCESS, 0)  # the server's own priority (0 unless run under nice)
            assert all(os.getpriority(os.PRIO_PROCESS, pid) == ours for pid in bots.people.pids())
        finally:
            for pid in background:
                os.kill(pid, signal.SIGCONT)


def test_games_nobody_plays_expire_and_finished_ones_stay_replayable(tmp_path):
    with app(tmp_path) as client:
        unstarted = create(client, seats=PEOPLE)
        started = create(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
        finished = create(client, seats=BOTS)["id"]
        with client.websocket_connect(f"/ws/games/{finished}") as ws:
            ws.send_json({"type": "hello"})
            while not receive_view(ws)["over"]:
                pass
        with client.websocket_connect(f"/ws/games/{started['id']}") as ws:
            make_first_move(ws, started)
        lobby = client.app.state.lobby
        with client.websocket_connect(f"/ws/games/{unstarted['id']}") as watcher:
            watcher.send_json({"type": "hello"})
            receive_view(watcher)
            assert client.portal.call(lobby.sweep, time.time() + 2 * DAY) == [unstarted["id"]]
            with pytest.raises(WebSocketDisconnect) as closing:
                while True:
                    watcher.receive_json()
        assert closing.value.code == 4410
        listed = {g["id"] for g in client.get("/api/games").json()}
        assert unstarted["id"] not in listed and started["id"] in listed
        assert client.get(f"/api/games/{unstarted['id']}").status_code == 404
        assert client.portal.call(lobby.sweep, time.time() + 31 * DAY) == [started["id"]]
        assert client.get(f"/api/games/{finished}/replay").json()["game"]["status"] == "finished"


def test_expired_games_are_not_loaded_at_start(tmp_path):
    storage = Storage(f"sqlite:///{tmp_path / 'g.db'}")
    old = time.time() - 2 * DAY

    def stored(game_id: str, created: float) -> None:
        record = games.get("reconstruct").new_game(1, ["tahu", "gali"]).record()
        storage.create_game(GameRow(id=game_id, record=record, seats=[SeatRow("human")] * 2,
                                    public=False, hotseat=False, created=created))

    stored("stale", old)
    stored("fresh", time.time())
    stored("played", old)
    storage.append_action("played", 1, games.get("reconstruct").new_game(1, ["tahu", "gali"])
                          .legal_actions()[0], time.time() - DAY)
    storage.close()
    with app(tmp_path) as client:
        assert set(client.app.state.lobby.rooms) == {"fresh", "played"}


def test_the_lobby_list_comes_a_page_at_a_time(tmp_path):
    with app(tmp_path, page_size=3) as client:
        made = [create(client, seats=PEOPLE)["id"] for _ in range(5)]
        seen, url = [], "/api/games?limit=2"
        while url:
            response = client.get(url)
            seen += [g["id"] for g in response.json()]
            link = re.match(r"<([^>]+)>; rel=\"next\"", response.headers.get("link", ""))
            url = link.group(1) if link else None
        assert seen == made[::-1]  # newest first, each once
        assert len(client.get("/api/games").json()) == 3  # never more than the page size
        refused(client.get("/api/games?limit=4"), 422, "bad_request")
        refused(client.get("/api/games?before=nonsense"), 422, "bad_cursor")
