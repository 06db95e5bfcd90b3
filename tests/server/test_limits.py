"""One client cannot slow everyone down: limits with clear refusals, replays and bot-only
games off the event loop and at low priority, games nobody plays expire, a paged lobby."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from matanui import games
from matanui.server import create_app
from matanui.server.quotas import DAY, Limits
from matanui.server.storage import GameRow, SeatRow, Storage

from .conftest import QUICK_WINDOWS, ROOMY
from .helpers import TEST_HOSTS, create, receive_view
from .process import free_port, start_server

BOTS = [{"kind": "bot", "level": "easy"}] * 2
PEOPLE = [{"kind": "human"}, {"kind": "human"}]


@contextmanager
def app(tmp_path, bot_pace: float = 0.0, trusted_proxies: tuple[str, ...] = (),
        peer: str = "testclient", **limits) -> Iterator[TestClient]:
    """The app with these limits, over the file g.db of `tmp_path`, called from `peer`."""
    settings = {**vars(ROOMY), **limits}
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", limits=Limits(**settings),
                               bot_pace=bot_pace, allowed_hosts=TEST_HOSTS, trusted_proxies=trusted_proxies,
                               **QUICK_WINDOWS),
                    client=(peer, 50000)) as client:
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


def test_refused_creates_use_up_nothing_of_the_quota(tmp_path):
    with app(tmp_path, games_per_minute=2) as client:
        for body in ({"seats": PEOPLE, "seed": 1},                    # a seed where it is refused
                     {"seats": [{"character": "vakama"}, {}]},        # no such character
                     {"seats": PEOPLE, "data": "0" * 16},             # no such data pack
                     {"seats": [{"kind": "open"}, {"kind": "bot"}]}):  # an open seat and no creator
            assert client.post("/api/games", json={"game": "reconstruct", **body}).status_code in (404, 422)
        create(client)
        create(client)  # the refusals above counted for nothing
        refused(client.post("/api/games", json={"game": "reconstruct", "seats": PEOPLE}), 429,
                "too_many_games")


def test_forwarded_for_names_the_client_only_from_a_trusted_proxy(tmp_path):
    """Behind a trusted proxy each forwarded client has its own quota; from any other peer
    the header is ignored, and every made-up address is the one peer."""
    def answers(client, addresses):
        return [client.post("/api/games", json={"game": "reconstruct", "seats": PEOPLE},
                            headers={"x-forwarded-for": address}).status_code for address in addresses]

    with app(tmp_path, games_per_minute=2, trusted_proxies=("10.0.0.9",), peer="10.0.0.9") as proxy:
        assert answers(proxy, ["203.0.113.1"] * 3 + ["203.0.113.2"]) == [201, 201, 429, 201]
    with app(tmp_path, games_per_minute=2, trusted_proxies=("10.0.0.9",), peer="10.0.0.8") as other:
        assert answers(other, [f"203.0.113.{i}" for i in range(3, 7)]) == [201, 201, 429, 429]


def post_in_chunks(client: TestClient, chunks: list[bytes]) -> tuple[int, dict, int]:
    """POST /api/games to the app under test with a body that arrives a chunk at a time, as a
    chunked transfer does (one ASGI message a chunk, no Content-Length): the status, the
    answer and how many chunks the app read."""
    read, status, body = 0, 0, b""

    async def call() -> None:
        answered = anyio.Event()

        async def receive() -> dict:
            nonlocal read
            if read == len(chunks):
                await answered.wait()
                return {"type": "http.disconnect"}
            read += 1
            return {"type": "http.request", "body": chunks[read - 1], "more_body": read < len(chunks)}

        async def send(message: dict) -> None:
            nonlocal status, body
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                body += message.get("body", b"")
                if not message.get("more_body"):
                    answered.set()

        await client.app({"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                          "method": "POST", "scheme": "http", "path": "/api/games",
                          "raw_path": b"/api/games", "query_string": b"", "root_path": "",
                          "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"),
                                      (b"transfer-encoding", b"chunked")],
                          "client": ("testclient", 50000), "server": ("testserver", 80)}, receive, send)

    client.portal.call(call)
    return status, json.loads(body), read


GAME = b'{"game": "reconstruct", "seats": [{}, {"kind": "bot"}]'
KIB = b" " * 1024


def test_a_chunked_body_is_read_only_up_to_the_limit(tmp_path):
    with app(tmp_path) as client:
        status, answer, _ = post_in_chunks(client, [GAME, KIB, b"}"])
        assert status == 201, answer
        # 5 MB of a valid body, padded: refused at the 17th KiB, the rest never read.
        status, answer, read = post_in_chunks(client, [GAME] + [KIB] * 5 * 1024 + [b"}"])
        assert (status, answer.get("error")) == (413, "too_large")
        assert "at most 16384 bytes" in answer["message"] and read <= 17


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A real `matanui serve` (uvicorn) whose one trusted proxy is not on this machine."""
    port = free_port()
    server = start_server(f"sqlite:///{tmp_path_factory.mktemp('db') / 'g.db'}", port,
                          limits=("games_per_minute=3",), extra=("--trusted-proxy", "10.9.9.9"))
    try:
        yield port
    finally:
        server.terminate()
        server.wait(timeout=60)


def post_chunked(port: int, chunks: list[bytes], headers: bytes = b"") -> tuple[int, dict]:
    """POST /api/games over a socket with Transfer-Encoding: chunked, one chunk at a time until
    the server answers (it may answer before the body ends): the status and the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n" + headers + b"\r\n")
        for chunk in chunks:
            if select.select([sock], [], [], 0)[0]:  # answered already
                break
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        else:
            sock.sendall(b"0\r\n\r\n")
        with sock.makefile("rb") as answer:
            status = int(answer.readline().split()[1])
            length = 0
            while (line := answer.readline().strip()):
                name, _, value = line.partition(b":")
                length = int(value) if name.lower() == b"content-length" else length
            return status, json.loads(answer.read(length))


def test_a_real_server_refuses_a_chunked_body_past_the_limit(served):
    status, answer = post_chunked(served, [GAME, KIB, b"}"])
    assert status == 201, answer
    status, answer = post_chunked(served, [GAME] + [KIB] * 5 * 1024 + [b"}"])
    assert (status, answer["error"]) == (413, "too_large")


def test_a_real_server_ignores_forwarded_for_from_a_peer_it_does_not_trust(served):
    """Even from loopback: 127.0.0.1 is not the trusted proxy, so four made-up addresses are
    one client, 127.0.0.1, which may make 3 games a minute."""
    statuses = [post_chunked(served, [GAME, b"}"], b"X-Forwarded-For: 203.0.113.%d\r\n" % i)[0]
                for i in range(4)]
    assert set(statuses) == {201, 429} and statuses[-1] == 429


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
