"""What the database holds cannot stop the server: one malformed row makes that one game
unavailable (one log line, a clear 410, not listed) and the others are served; a damaged
SQLite file, or a file that is no database, is refused at start with one clear message."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from matanui import games
from matanui.server import create_app
from matanui.server.storage import DamagedDatabase, GameRow, SeatRow, Storage

from .conftest import ROOMY
from .helpers import TEST_HOSTS
from .process import free_port

# Each damage is an SQL assignment to one game's row (the actions table for the last).
DAMAGES = {
    "seats_empty": "UPDATE games SET seats = '[]'",
    "seats_not_json": "UPDATE games SET seats = 'not json at all'",
    "seat_unknown_key": """UPDATE games SET seats = '[{"kind": "human", "colour": "red"},
                                                       {"kind": "bot"}]'""",
    "seats_nested_deep": "UPDATE games SET seats = '" + "[" * 5000 + "]" * 5000 + "'",
    "options_a_string": """UPDATE games SET options = '"x"'""",
    "data_a_number": "UPDATE games SET data = '5'",
    "players_null": "UPDATE games SET players = 'null'",
    "touched_soon": "UPDATE games SET touched = 'soon'",
    "created_a_word": "UPDATE games SET created = 'yesterday'",
    "seed_a_word": "UPDATE games SET seed = 'lucky'",
    "bot_level_out_of_bounds": """UPDATE games SET seats = '[{"kind": "human"},
                                      {"kind": "bot", "level": "ismcts@999999999"}]'""",
    "bot_level_unknown": """UPDATE games SET seats = '[{"kind": "human"},
                                                       {"kind": "bot", "level": "sage"}]'""",
    "does_not_replay": "UPDATE actions SET action = 'no such move'",
    "actions_numbered_from_5": "UPDATE actions SET number = number + 4",  # 5 and 6: 1 to 4 are missing
}


def store_game(storage: Storage, game_id: str, actions: int = 2) -> None:
    state = games.get("reconstruct").new_game(3, ["tahu", "gali"])
    storage.create_game(GameRow(id=game_id, record=state.record(), public=False, hotseat=False,
                                seats=[SeatRow("human"), SeatRow("bot", "easy")]))
    for number in range(1, actions + 1):
        action = state.legal_actions()[0]
        state.apply(action)
        storage.append_action(game_id, number, action, time.time())


@pytest.fixture(scope="module")
def damaged(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A database of one good game and one game per damage, each damaged its own way."""
    path = tmp_path_factory.mktemp("rows") / "rows.db"
    storage = Storage(f"sqlite:///{path}")
    for game_id in ("good", *DAMAGES):
        store_game(storage, game_id)
    storage.close()
    with closing(sqlite3.connect(path)) as db, db:
        for game_id, damage in DAMAGES.items():
            column = "game_id" if " actions " in damage else "id"
            db.execute(f"{damage} WHERE {column} = ?", (game_id,))
    return f"sqlite:///{path}"


@pytest.fixture(scope="module")
def served(damaged: str) -> tuple[TestClient, list[logging.LogRecord]]:
    """The server started on the damaged database, and what it logged while starting."""
    lines: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = lines.append  # type: ignore[method-assign]
    logger = logging.getLogger("matanui.server")
    logger.addHandler(handler)
    try:
        with TestClient(create_app(damaged, allowed_hosts=TEST_HOSTS, limits=ROOMY)) as client:
            yield client, list(lines)
    finally:
        logger.removeHandler(handler)


def test_a_server_starts_on_a_database_with_damaged_rows_and_lists_the_good_game(served):
    client, _ = served
    listing = client.get("/api/games")
    assert listing.status_code == 200 and [g["id"] for g in listing.json()] == ["good"]
    assert client.get("/api/games/good").json()["at"] == 2


@pytest.mark.parametrize("game_id", DAMAGES)
def test_a_damaged_row_makes_only_its_game_unavailable_with_one_line(served, game_id):
    client, lines = served
    answer = client.get(f"/api/games/{game_id}")
    assert answer.status_code == 410
    body = answer.json()
    assert body["error"] == "unavailable_game" and "cannot be served" in body["message"]
    told = [line.getMessage() for line in lines if repr(game_id) in line.getMessage()]
    assert len(told) == 1 and "\n" not in told[0] and all(line.exc_info is None for line in lines)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        assert ws.receive_json()["code"] == "unavailable_game"


def test_each_damage_is_named_in_its_answer(served):
    client, _ = served
    said = {game_id: client.get(f"/api/games/{game_id}").json()["message"] for game_id in DAMAGES}
    assert "seats" in said["seats_empty"] and "seats" in said["seats_not_json"]
    assert "colour" in said["seat_unknown_key"] and "options" in said["options_a_string"]
    assert "'data'" in said["data_a_number"] and "'players'" in said["players_null"]
    assert "touched" in said["touched_soon"] and "'seed'" in said["seed_a_word"]
    assert "no such move" in said["does_not_replay"]
    assert "ismcts@999999999" in said["bot_level_out_of_bounds"]
    assert "100,000" in said["bot_level_out_of_bounds"]  # the bounds of every source of a bot's name
    assert "seat 1" in said["bot_level_unknown"] and "'sage'" in said["bot_level_unknown"]
    assert "action 1 is missing" in said["actions_numbered_from_5"]


def test_a_game_whose_action_numbers_have_a_gap_is_not_served_or_moved_in(served):
    """Served as if whole, its next move would be stored under a number already behind the
    gap, and the game would not replay after a restart: every move since would be lost."""
    client, _ = served
    with client.websocket_connect("/ws/games/actions_numbered_from_5") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json().get("code") == "unavailable_game"


def garble_pages(path: Path, first: int, last: int) -> None:
    """Write random bytes over pages `first` to `last` (1-based, 4 KiB each) of a file."""
    rng = random.Random(22)
    with path.open("r+b") as file:
        file.seek((first - 1) * 4096)
        file.write(bytes(rng.randrange(256) for _ in range((last - first + 1) * 4096)))


def big_database(path: Path) -> None:
    """A database of a few hundred KB: a game and many rows of padding actions."""
    storage = Storage(f"sqlite:///{path}")
    store_game(storage, "g")
    storage.close()
    with closing(sqlite3.connect(path)) as db, db:  # closed: its log is written into the file
        db.executemany("INSERT INTO actions (game_id, number, action) VALUES ('g', ?, ?)",
                       [(n, "x" * 40) for n in range(3, 5000)])
    assert path.stat().st_size > 40 * 4096 and not Path(f"{path}-wal").exists()


def test_a_file_with_garbled_pages_is_refused_at_start_with_one_message(tmp_path):
    path = tmp_path / "garbled.db"
    big_database(path)
    garble_pages(path, 20, 29)
    with pytest.raises(DamagedDatabase, match="is damaged or is not an SQLite database"):
        Storage(f"sqlite:///{path}")
    app = create_app(f"sqlite:///{path}", allowed_hosts=TEST_HOSTS)
    with pytest.raises(DamagedDatabase), TestClient(app):
        pass


def garbled(path: Path) -> None:
    big_database(path)
    garble_pages(path, 20, 29)


@pytest.mark.parametrize("spoil", [
    garbled,
    lambda path: path.write_bytes(random.Random(1).randbytes(8192)),
    lambda path: path.write_bytes(b"SQLite format 3\x00" + bytes(8176)),
], ids=["pages_20_to_29_garbled", "random_bytes", "a_header_and_zeros"])
def test_matanui_serve_refuses_a_damaged_file_with_one_message_and_exit_code_2(tmp_path, spoil):
    path = tmp_path / "spoilt.db"
    spoil(path)
    served = subprocess.run([sys.executable, "-m", "matanui.cli", "serve", "--port", str(free_port()),
                             "--database", f"sqlite:///{path}"], capture_output=True, text=True, timeout=60)
    said = " ".join((served.stdout + served.stderr).split())
    assert served.returncode == 2, said
    assert f"the database file {path} is damaged or is not an SQLite database" in said
    assert "Traceback" not in said and "serving" not in said


def test_a_damaged_row_never_fails_the_listing_for_everyone(served):
    client, _ = served
    for page in (client.get("/api/games", params={"limit": 1}), client.get("/api/games?game=reconstruct")):
        assert page.status_code == 200, page.text
    assert json.loads(client.get("/api/health").text)["status"] == "ok"
