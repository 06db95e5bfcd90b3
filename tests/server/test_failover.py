"""Two real `matanui serve` instances on one PostgreSQL, as behind a load balancer: players on
different instances play one game, spectators anywhere see every move, and when the
instance running a game's bots is killed (SIGKILL) the other takes them over, the player
reconnects to it, and no acknowledged action is lost or applied twice.

The instances get a database of their own, emptied first: the one MATANUI_TEST_POSTGRES
names, with "_instances" after its name (.ci/run makes it).
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from websockets.sync.client import connect

from matanui.server import app as _app  # noqa: F401  (its modules add their tables to the metadata)
from matanui.server import storage
from matanui.server.peers import lock_key

from .helpers import postgres_url
from .process import free_port, start_server
from .wire import call, draw_window, views

BOT = {"kind": "bot", "level": "easy"}


@pytest.fixture
def database() -> str:
    url = make_url(postgres_url())
    url = url.set(database=f"{url.database}_instances")
    engine = create_engine(url)
    try:
        with engine.begin() as db:
            for table in reversed(storage.metadata.sorted_tables):  # every table the server makes
                db.execute(text(f"DROP TABLE IF EXISTS {table.name} CASCADE"))
    except OperationalError as exc:
        pytest.fail(f"cannot use the database {url.database} ({exc}); create it as .ci/run does")
    finally:
        engine.dispose()
    return url.render_as_string(hide_password=False)


@pytest.fixture
def servers(database: str) -> Iterator[list[tuple[str, object]]]:
    """Two instances: (base URL, process) each."""
    started = []
    try:
        for _ in range(2):
            port = free_port()
            # The stop-card windows are not what these tests are about: short, yet long enough
            # that a stop card sent just after the drawing (stored first) lands inside its window
            # on a loaded machine (an answer after the close is refused, and fails the test).
            started.append((f"127.0.0.1:{port}", start_server(
                database, port, bot_pace=0.02, extra=("--response-window", "1.0"))))
        yield started
    finally:
        for _, process in started:
            process.kill()
            process.wait(timeout=20)


def play(host: str, game_id: str, token: str | None, seed: int, seen: list[int],
         stop_at: int | None = None) -> dict:
    """Play a seat (or watch, without a token) at random until the game ends or reaches
    `stop_at`; every position's number goes to `seen`."""
    rng = random.Random(seed)
    with connect(f"ws://{host}/ws/games/{game_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token} if token else {"type": "hello"}))
        seat = None
        for view in views(ws):
            seat = view.get("seat", seat)  # the welcome says it
            seen.append(view["at"])
            if view["over"] or (stop_at is not None and view["at"] >= stop_at):
                return view
            draw_window(ws, view, seat)
            if view["legal"]:
                ws.send(json.dumps({"type": "act", "action": rng.choice(view["legal"])["id"],
                                    "at": view["at"]}))
    raise AssertionError("unreachable")


def stored_actions(database: str, game_id: str) -> list[int]:
    engine = create_engine(database)
    try:
        with engine.connect() as db:
            return list(db.scalars(text("SELECT number FROM actions WHERE game_id = :g ORDER BY number"),
                                   {"g": game_id}))
    finally:
        engine.dispose()


def in_threads(*calls) -> list:
    results: list = [None] * len(calls)
    errors: list[BaseException] = []

    def run(index: int, call) -> None:
        try:
            results[index] = call()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=240)
    if errors:
        raise errors[0]
    return results


def test_players_on_two_instances_play_one_game_and_spectators_see_it_all(servers, database):
    (a, _), (b, _) = servers
    game = call(f"http://{a}", "/api/games", {"game": "reconstruct", "seed": 4, "hotseat": True, "seats": [
        {"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}]})
    seen_a, seen_b, watched = [], [], []
    end_a, end_b, end_watch = in_threads(
        lambda: play(a, game["id"], game["seats"][0]["token"], 1, seen_a),
        lambda: play(b, game["id"], game["seats"][1]["token"], 2, seen_b),
        lambda: play(b, game["id"], None, 3, watched))
    assert end_a["over"] and end_b["over"] and end_watch["over"]
    assert end_a["at"] == end_b["at"] == end_watch["at"] > 10
    assert end_a["winners"] == end_b["winners"] == end_watch["winners"]
    assert watched == sorted(set(watched))  # the spectator on B saw each position once, in order
    assert stored_actions(database, game["id"]) == list(range(1, end_a["at"] + 1))
    for host in (a, b):
        assert call(f"http://{host}", f"/api/games/{game['id']}")["status"] == "finished"


def bot_holder(database: str, game_id: str) -> str:
    """The instance running a game's bots: it holds the game's advisory lock, on a connection
    named after it."""
    engine = create_engine(database)
    try:
        with engine.connect() as db:
            names = set(db.scalars(text(
                "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                "WHERE l.locktype = 'advisory' AND l.objid::bigint = :key"),
                {"key": lock_key(game_id) & 0xFFFFFFFF}))
    finally:
        engine.dispose()
    assert len(names) == 1, names
    return names.pop().removeprefix("matanui ")


def test_when_the_instance_running_the_bots_dies_the_other_carries_on(servers, database):
    instances = {call(f"http://{host}", "/api/health")["instance"]: (host, process)
                 for host, process in servers}
    first_host = servers[0][0]
    game = call(f"http://{first_host}", "/api/games", {"game": "reconstruct", "seed": 9, "seats": [
        {"kind": "human", "character": "tahu"}, BOT]})
    token = game["seats"][0]["token"]
    before: list[int] = []
    play(first_host, game["id"], token, 5, before, stop_at=8)
    doomed_host, doomed = instances[bot_holder(database, game["id"])]
    survivor = next(host for host, _ in servers if host != doomed_host)

    watched: list[int] = []
    spectator = threading.Thread(target=play, args=(survivor, game["id"], None, 0, watched))
    spectator.start()
    mid: list[int] = []
    play(doomed_host, game["id"], token, 6, mid, stop_at=max(before) + 6)  # the player is on it
    bots_only = call(f"http://{doomed_host}", "/api/games", {"game": "makuta", "seed": 2, "seats": [BOT] * 4})
    play(doomed_host, bots_only["id"], None, 0, [], stop_at=3)  # its bots have begun
    assert instances[bot_holder(database, bots_only["id"])][0] == doomed_host  # its maker runs them
    doomed.kill()  # SIGKILL: no goodbye, its locks go with its database sessions
    doomed.wait(timeout=20)
    acknowledged = max(mid)

    after: list[int] = []
    end = play(survivor, game["id"], token, 7, after)  # the player reconnects to the survivor
    spectator.join(timeout=60)
    assert after[0] >= acknowledged  # nothing acknowledged was lost
    assert end["over"] and max(watched) == end["at"]
    assert watched == sorted(set(watched))  # nothing applied twice
    assert stored_actions(database, game["id"]) == list(range(1, end["at"] + 1))
    stopped_at = len(stored_actions(database, bots_only["id"]))
    later = play(survivor, bots_only["id"], None, 0, [], stop_at=stopped_at + 5)
    assert later["at"] >= stopped_at + 5  # a game of bots only carries on by itself
