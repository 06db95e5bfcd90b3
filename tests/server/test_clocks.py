"""Clocks (docs/protocol.md, Pace and clocks): a pace chosen at creation, each person's time
per move and bank, what happens when a clock runs out, and the same clock after a restart
and on a second instance, computed from the times the actions were stored."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from contextlib import ExitStack
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from matanui import games
from matanui.server import clocks, create_app
from matanui.server.clocks import ASIDE, Decision, clock, decisions
from matanui.server.quotas import Limits
from matanui.server.rooms import token_hash
from matanui.server.storage import GameRow, SeatRow, Storage

from .clocked import stored_game
from .conftest import ROOMY
from .helpers import TEST_HOSTS, create, postgres_url, receive_view

PEOPLE = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}]
REALTIME = {"kind": "realtime", "move_seconds": 10, "bank_seconds": 5}
QUICK = Limits(**{**vars(ROOMY), "least_move_seconds": 1})

# -- the clock as a pure function ------------------------------------------------------------


def test_an_untimed_game_has_no_clock():
    assert clock({"kind": "untimed"}, 2, [Decision(0, 0.0)], 1e9) is None


def test_a_seats_first_decision_has_the_move_time_without_the_bank():
    """A player who never makes a first move does not hold the game for the whole bank."""
    now = clock(REALTIME, 2, [Decision(0, None, 100.0), Decision(1, 100.0)], 105.0)
    assert now["seat"] == 1 and now["deadline"] == 100.0 + 10 and now["expired"] is None
    assert clock(REALTIME, 2, [Decision(0, None, 100.0), Decision(1, 100.0)], 110.0)["expired"] == 1


def test_time_beyond_a_first_move_comes_out_of_the_bank():
    decided = [Decision(0, None, 500.0), Decision(1, 500.0, 513.0), Decision(0, 513.0)]
    now = clock(REALTIME, 2, decided, 514.0)
    assert now["banks"] == [5.0, 2.0]  # the first move was stored without a start; seat 1 was 3 s over
    assert now["deadline"] == 513.0 + 10 + 5


def test_a_real_time_move_has_its_move_time_then_the_bank():
    decided = [Decision(0, 0.0, 1.0), Decision(1, 1.0, 2.0), Decision(0, 2.0)]
    now = clock(REALTIME, 2, decided, 5.0)
    assert now == {"kind": "realtime", "seat": 0, "deadline": 2.0 + 10 + 5, "move_seconds": 10.0,
                   "banks": [5.0, 5.0], "expired": None, "absent": False}


def test_time_beyond_the_move_time_comes_out_of_the_bank_and_the_clock_then_runs_out():
    decided = [Decision(0, 0.0, 1.0), Decision(1, 1.0, 2.0), Decision(0, 2.0, 15.0),  # 3 s over
               Decision(1, 15.0, 16.0), Decision(0, 16.0)]
    assert clock(REALTIME, 2, decided, 20.0)["banks"] == [2.0, 5.0]
    assert clock(REALTIME, 2, decided, 16.0 + 12 - 0.01)["expired"] is None
    assert clock(REALTIME, 2, decided, 16.0 + 12)["expired"] == 0


def test_another_seat_resigning_leaves_the_deciding_seats_clock_running_from_where_it_was():
    """Makuta with three: Pohatu resigns while Lewa decides; Lewa's decision still started
    when Kopaka's ended, and Lewa gets no fresh move time."""
    seats = [SeatRow("human", claimed=True, arrived=0.0) for _ in range(3)]
    turns = [(0, False), (1, False), ASIDE]  # Pohatu's resign:0 comes while seat 2 decides
    found = decisions(turns, [10.0, 20.0, 25.0], seats, (2, False), created=0.0)
    assert found[-1] == Decision(2, 20.0)


def test_the_games_first_decision_is_timed_from_its_players_arrival():
    """No first move is free: a player who came and never moves holds the game one move time."""
    seats = [SeatRow("human", claimed=True, arrived=30.0), SeatRow("human", arrived=0.0)]
    assert decisions([], [], seats, (0, False), created=0.0) == [Decision(0, 30.0)]


def test_a_friend_who_comes_late_has_the_whole_move_time_from_their_arrival():
    """Seat 0 moved at 10 s; the friend opened the invite at 130 s, after a whole move time:
    their clock starts then, not at 10 s (it had run out before they came)."""
    seats = [SeatRow("human", arrived=0.0), SeatRow("human", arrived=130.0)]
    found = decisions([(0, False)], [10.0], seats, (1, False), created=0.0)
    assert found[-1] == Decision(1, 130.0)
    assert clock(REALTIME, 2, found, 131.0)["expired"] is None
    assert clock(REALTIME, 2, found, 131.0)["deadline"] == 130.0 + 10


def test_a_player_who_has_not_come_has_a_minute_then_their_clock_has_run_out():
    seats = [SeatRow("human", arrived=0.0), SeatRow("human")]
    found = decisions([(0, False)], [10.0], seats, (1, False), created=0.0)
    assert found[-1] == Decision(1, 10.0, absent=True)
    now = clock(REALTIME, 2, found, 69.0)
    assert now["absent"] and now["deadline"] == 10.0 + clocks.NO_SHOW["realtime"] and now["expired"] is None
    assert clock(REALTIME, 2, found, 70.0)["expired"] == 1


def test_a_turn_based_player_who_has_not_come_has_a_day():
    pace = {"kind": "turn_based", "move_seconds": 3 * 86400}
    found = decisions([], [], [SeatRow("human"), SeatRow("human")], (0, False), created=100.0)
    assert clock(pace, 2, found, 100.0)["deadline"] == 100.0 + 86400


def test_a_turn_based_move_has_no_bank():
    pace = {"kind": "turn_based", "move_seconds": 86400}
    decided = [Decision(0, 0.0, 1.0), Decision(1, 1.0, 90_000.0), Decision(0, 90_000.0, 90_001.0),
               Decision(1, 90_001.0)]
    now = clock(pace, 2, decided, 90_002.0)
    assert now["banks"] == [0.0, 0.0] and now["deadline"] == 90_001.0 + 86400
    assert clock(pace, 2, decided, 90_001.0 + 86400)["expired"] == 1


def test_a_decision_stored_without_a_time_is_untimed():
    now = clock(REALTIME, 2, [Decision(0, 0.0, 1.0), Decision(0, None)], 1e9)
    assert now["deadline"] is None and now["expired"] is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.floats(0, 100)), max_size=12), st.floats(0, 50))
def test_banks_never_grow_nor_go_below_nothing(moves, late):
    decided, at = [], 0.0
    for seat, took in moves:
        decided.append(Decision(seat, at, at + took))
        at += took
    pending = [*decided, Decision(moves[-1][0] if moves else 0, at)]
    now = clock(REALTIME, 3, pending, at + late)
    assert all(0.0 <= bank <= 5.0 for bank in now["banks"])
    if now["deadline"] is not None:
        assert now["deadline"] >= at + 10  # a whole move time, whatever the bank


# -- the pace of a new game ---------------------------------------------------------------------


@pytest.mark.parametrize("pace, allowed", [
    ({"kind": "realtime", "move_seconds": 9}, "10 to 3600 seconds"),
    ({"kind": "realtime", "move_seconds": 3601}, "3600"),
    ({"kind": "realtime", "bank_seconds": 3601}, "3600"),
    ({"kind": "realtime", "bank_seconds": -1}, "0"),
    ({"kind": "turn_based", "move_seconds": 3599}, "3600"),
    ({"kind": "turn_based", "move_seconds": 7 * 86400 + 1}, "604800"),
    ({"kind": "blitz"}, "realtime"),
    ({"kind": "untimed", "move_seconds": 5}, "move_seconds"),
])
def test_a_pace_out_of_bounds_is_refused_saying_what_is_allowed(client, pace, allowed):
    before = len(client.get("/api/games").json())
    answer = client.post("/api/games", json={"game": "reconstruct", "seats": PEOPLE, "pace": pace})
    assert answer.status_code == 422, answer.text
    assert allowed in answer.json()["message"]
    assert len(client.get("/api/games").json()) == before


def test_a_game_with_people_is_real_time_by_default_and_one_against_bots_untimed(client):
    shared = client.get(f"/api/games/{create(client, seats=PEOPLE)['id']}").json()
    assert shared["pace"] == {"kind": "realtime", "move_seconds": 120, "bank_seconds": 300}
    alone = client.get(f"/api/games/{create(client)['id']}").json()
    assert alone["pace"] == {"kind": "untimed"} and alone["to_move"] is not None


def test_the_listing_filters_by_pace(client):
    turn_based = {"kind": "turn_based", "move_seconds": 86400}
    made = create(client, seats=PEOPLE, pace=turn_based)["id"]
    listed = client.get("/api/games", params={"pace": "turn_based", "limit": 200}).json()
    assert made in [g["id"] for g in listed] and all(g["pace"] == turn_based for g in listed)
    assert made not in [g["id"] for g in client.get("/api/games", params={"pace": "untimed"}).json()]
    assert client.get("/api/games", params={"pace": "blitz"}).status_code == 422


def test_the_first_clock_waits_a_minute_for_its_player_then_runs_from_their_arrival(client):
    game = create(client, seats=PEOPLE, pace={"kind": "realtime", "move_seconds": 60, "bank_seconds": 30})
    created = client.get(f"/api/games/{game['id']}").json()["created"]
    first = client.get(f"/api/games/{game['id']}").json()["to_move"]
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        ws.send_json({"type": "hello"})
        waiting = receive_view(ws)["clock"]
        assert waiting["absent"] and waiting["seat"] == first
        assert waiting["deadline"] == pytest.approx(created + clocks.NO_SHOW["realtime"])
    came = time.time()
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        ws.send_json({"type": "hello", "token": game["seats"][first]["token"]})
        running = receive_view(ws)["clock"]
    assert not running["absent"] and came + 60 <= running["deadline"] <= time.time() + 60


# -- running out: a stored game whose person has been deciding for `ago` seconds --------------


def welcome_of(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        return receive_view(ws)


def until(check: Callable[[], Any], seconds: float = 20.0) -> Any:
    deadline = time.monotonic() + seconds
    while not (found := check()):
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.05)
    return found


def app_on(url: str) -> TestClient:
    return TestClient(create_app(url, allowed_hosts=TEST_HOSTS, limits=QUICK))


TEN_SECONDS = {"kind": "realtime", "move_seconds": 10, "bank_seconds": 0}
THREE = ("tahu", "onua", "lewa")


def finished(client: TestClient, game_id: str) -> dict[str, Any]:
    """The game's summary once it is over (the server ended it by itself)."""
    return until(lambda: (g := client.get(f"/api/games/{game_id}").json())["status"] == "finished" and g)


def error_of(ws: Any) -> dict[str, Any]:
    return until(lambda: (m := ws.receive_json())["type"] == "error" and m)


def test_in_a_game_of_three_the_others_may_have_a_bot_take_a_seat_out_of_time(tmp_path):
    url = f"sqlite:///{tmp_path / 'clocks.db'}"
    game_id, tokens, late = stored_game(url, TEN_SECONDS, 12, game="makuta", players=THREE)
    other = (late + 1) % 3
    with app_on(url) as client, client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[other]})
        welcome = receive_view(ws)
        assert welcome["clock"]["expired"] == late and welcome["clock"]["seat"] == late
        ws.send_json({"type": "replace", "seat": late})
        seats = until(lambda: (m := ws.receive_json())["type"] == "seats"
                      and m["seats"][late]["kind"] == "bot" and m["seats"][late])
        assert seats["replaced"] and seats["level"] == "medium"
        view = receive_view(ws)  # the bot moves
        assert view["at"] > welcome["at"]
    with app_on(url) as client:  # stored: a restarted server has the bot play the seat
        assert client.get(f"/api/games/{game_id}").json()["seats"][late]["replaced"]


def test_in_a_two_player_game_no_bot_takes_the_seat_of_a_player_out_of_time(tmp_path):
    url = f"sqlite:///{tmp_path / 'clocks.db'}"
    game_id, tokens, late = stored_game(url, TEN_SECONDS, 12)
    with app_on(url) as client, client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[1 - late]})
        receive_view(ws)
        ws.send_json({"type": "replace", "seat": late})
        refused = error_of(ws)
        assert refused["code"] == "no_replace" and "'wait'" in refused["message"]
        assert client.get(f"/api/games/{game_id}").json()["seats"][late]["kind"] == "human"


def test_the_late_player_cannot_choose_for_their_own_seat_nor_a_seat_not_run_out(tmp_path):
    url = f"sqlite:///{tmp_path / 'clocks.db'}"
    game_id, tokens, late = stored_game(url, TEN_SECONDS, 12)
    with app_on(url) as client, client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[late]})
        receive_view(ws)
        for message, code in [({"type": "expel", "seat": late}, "own_clock"),
                              ({"type": "wait", "seat": late}, "own_clock"),
                              ({"type": "expel", "seat": 1 - late}, "not_expired"),
                              ({"type": "expel", "seat": 9}, "bad_message")]:
            ws.send_json(message)
            answer = error_of(ws)
            assert answer["code"] == code, answer
        assert not client.get(f"/api/games/{game_id}").json()["winners"]


def test_when_a_clock_runs_out_after_both_moved_the_other_player_may_claim_the_win(tmp_path):
    url = f"sqlite:///{tmp_path / 'clocks.db'}"
    game_id, tokens, late = stored_game(url, TEN_SECONDS, 12)
    with app_on(url) as client, client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[1 - late]})
        receive_view(ws)
        ws.send_json({"type": "expel", "seat": late})
        view = receive_view(ws)
        assert view["over"] and view["winners"] == [1 - late] and not view["aborted"]
        assert view["events"][-1]["kind"] == "timeout"


def test_when_nobody_chooses_within_the_grace_the_player_out_of_time_loses(tmp_path):
    url = f"sqlite:///{tmp_path / 'clocks.db'}"
    game_id, _, late = stored_game(url, TEN_SECONDS, 21)
    with app_on(url) as client:
        summary = finished(client, game_id)
        assert summary["winners"] == [1 - late] and not summary["aborted"]
        assert summary["seats"][late]["kind"] == "human"  # no bot took it


def test_the_others_may_wait_for_a_player_out_of_time_who_may_then_still_move(tmp_path):
    url = f"sqlite:///{tmp_path / 'clocks.db'}"
    game_id, tokens, late = stored_game(url, TEN_SECONDS, 12)
    with app_on(url) as client:
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "token": tokens[1 - late]})
            receive_view(ws)
            ws.send_json({"type": "wait", "seat": late})
            told = until(lambda: (m := ws.receive_json())["type"] == "clock" and m)
            assert told["clock"]["waited"] and told["clock"]["expired"] == late
        time.sleep(9)  # past the grace (10 s from the deadline, which was 2 s ago)
        assert client.get(f"/api/games/{game_id}").json()["status"] == "running"
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "token": tokens[late]})
            view = receive_view(ws)
            ws.send_json({"type": "act", "action": view["legal"][0]["id"], "at": view["at"]})
            assert receive_view(ws)["at"] == view["at"] + 1


def no_show_game(url: str, ago: float) -> tuple[str, list[str]]:
    """A real-time game of two people created `ago` seconds ago that nobody has come to."""
    state = games.get("reconstruct").new_game(3, ["tahu", "gali"], {})
    tokens = [secrets.token_urlsafe(8) for _ in range(2)]
    game_id = secrets.token_urlsafe(6)
    storage = Storage(url)
    try:
        storage.create_game(GameRow(id=game_id, record=state.record(), pace=TEN_SECONDS, public=False,
                                    hotseat=False, created=time.time() - ago,
                                    seats=[SeatRow("human", token_hash=token_hash(t)) for t in tokens]))
    finally:
        storage.close()
    return game_id, tokens


def test_a_game_nobody_came_to_is_aborted_a_minute_and_a_grace_after_its_creation(tmp_path):
    url = f"sqlite:///{tmp_path / 'clocks.db'}"
    game_id, _ = no_show_game(url, 1000)
    with app_on(url) as client:
        summary = finished(client, game_id)
        assert summary["aborted"] and summary["winners"] == []


def test_a_player_who_came_may_abort_while_the_other_has_not_come(tmp_path):
    url = f"sqlite:///{tmp_path / 'clocks.db'}"
    game_id, tokens = no_show_game(url, 5)
    with app_on(url) as client, client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[1]})
        assert receive_view(ws)["abortable"]
        ws.send_json({"type": "abort"})
        view = receive_view(ws)
        assert view["over"] and view["aborted"] and view["winners"] == []


def test_the_expiry_told_names_the_seat_even_when_the_deadline_passes_between_two_readings(monkeypatch):
    """The watcher reads the time once per wake: a clock read just before the deadline and a
    test made just after it must not tell the others of an expiry that names no seat (which
    left them without the Replace/Expel choice). The time here steps over the deadline
    between one reading and the next, as a loaded machine's clock may."""
    started = [Decision(0, 0.0, 1.0), Decision(1, 1.0)]
    deadline = clock(REALTIME, 2, started, 0.0)["deadline"]
    readings = iter([deadline - 0.001])  # the first reading is before it; every later one after

    def fake_time() -> float:
        return next(readings, deadline + 0.001)

    told: list[dict[str, Any]] = []
    room = SimpleNamespace(broadcast_all=told.append)
    monkeypatch.setattr(clocks, "time", SimpleNamespace(time=fake_time))
    monkeypatch.setattr(clocks, "room_clock", lambda _room, now=None: clock(
        REALTIME, 2, started, fake_time() if now is None else now))

    async def watch_until_told() -> None:
        watcher = asyncio.create_task(clocks._watch(room))
        while not told and not watcher.done():
            await asyncio.sleep(0.001)
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)

    asyncio.run(asyncio.wait_for(watch_until_told(), timeout=5))
    assert [message["clock"]["expired"] for message in told] == [1]


def test_a_restarted_server_computes_the_same_clock(tmp_path):
    url = f"sqlite:///{tmp_path / 'clocks.db'}"
    game_id, _, late = stored_game(url, REALTIME, 3)
    with app_on(url) as client:
        first = welcome_of(client, game_id)["clock"]
    with app_on(url) as client:
        assert welcome_of(client, game_id)["clock"] == first
    assert first["seat"] == late and first["expired"] is None
    assert first["deadline"] == pytest.approx(time.time() - 3 + 15, abs=2)


@pytest.fixture
def postgres() -> str:
    return postgres_url()


def test_two_instances_compute_the_same_clock_and_hear_of_the_replacing_bot(postgres):
    game_id, tokens, late = stored_game(postgres, TEN_SECONDS, 12, game="makuta", players=THREE)
    with ExitStack() as stack:
        a, b = (stack.enter_context(app_on(postgres)) for _ in range(2))
        assert welcome_of(a, game_id)["clock"] == welcome_of(b, game_id)["clock"]
        watcher = stack.enter_context(b.websocket_connect(f"/ws/games/{game_id}"))
        watcher.send_json({"type": "hello"})
        assert receive_view(watcher)["clock"]["expired"] == late
        with a.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "token": tokens[(late + 1) % 3]})
            receive_view(ws)
            ws.send_json({"type": "replace", "seat": late})
            until(lambda: (m := watcher.receive_json())["type"] == "seats" and m["seats"][late]["replaced"])


def test_a_choice_to_wait_is_kept_by_every_instance(postgres):
    """The others wait on instance A; B, which may be the one to end the game at the grace's
    end, reads the choice from the database and leaves the late player's seat alone."""
    game_id, tokens, late = stored_game(postgres, TEN_SECONDS, 12)
    with ExitStack() as stack:
        a, b = (stack.enter_context(app_on(postgres)) for _ in range(2))
        welcome_of(b, game_id)  # B serves the game too
        with a.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "token": tokens[1 - late]})
            receive_view(ws)
            ws.send_json({"type": "wait", "seat": late})
            until(lambda: (m := ws.receive_json())["type"] == "clock" and m["clock"]["waited"])
        b.portal.call(b.app.state.lobby.refresh, game_id)
        assert welcome_of(b, game_id)["clock"]["waited"]
        time.sleep(9)  # past the grace
        for instance in (a, b):
            assert instance.get(f"/api/games/{game_id}").json()["status"] == "running"
