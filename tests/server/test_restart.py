"""Kill the server in the middle of games (SIGKILL: no goodbye), start it again on the same
database: every acknowledged action is still there, seats resume, bots carry on."""

from __future__ import annotations

import json
import random

from websockets.sync.client import connect

from .process import free_port, start_server
from .wire import call, draw_window, views


def test_a_killed_server_loses_nothing_it_acknowledged(tmp_path):
    database = f"sqlite:///{tmp_path / 'matanui.db'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(database, port, bot_pace=0.05)
    try:
        bot = {"kind": "bot", "level": "easy"}
        human = [{"kind": "human", "character": "tahu"}, bot]
        played = [call(base, "/api/games", {"game": "reconstruct", "seats": human, "seed": s})
                  for s in (1, 2)]
        watched = call(base, "/api/games", {"game": "reconstruct", "seats": [bot, bot], "seed": 3})
        acknowledged: dict[str, int] = {}
        rng = random.Random(0)
        for created in played:
            with connect(f"ws://127.0.0.1:{port}/ws/games/{created['id']}") as ws:
                ws.send(json.dumps({"type": "hello", "token": created["seats"][0]["token"]}))
                for view in views(ws):
                    acknowledged[created["id"]] = view["at"]
                    if view["at"] >= 10 or view["over"]:
                        break
                    draw_window(ws, view, 0)  # as its page would: the window counts from now
                    if view["legal"]:
                        ws.send(json.dumps({"type": "act", "action": rng.choice(view["legal"])["id"],
                                            "at": view["at"]}))
        with connect(f"ws://127.0.0.1:{port}/ws/games/{watched['id']}") as ws:
            ws.send(json.dumps({"type": "hello"}))
            for view in views(ws):
                acknowledged[watched["id"]] = view["at"]
                if view["at"] >= 5:
                    break
    finally:
        server.kill()
        server.wait(timeout=20)

    server = start_server(database, port)
    try:
        for game_id, at in acknowledged.items():
            assert call(base, f"/api/games/{game_id}")["at"] >= at
        created = played[0]
        with connect(f"ws://127.0.0.1:{port}/ws/games/{created['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": created["seats"][0]["token"]}))
            for view in views(ws):
                assert view["at"] >= acknowledged[created["id"]]
                if view["over"]:
                    break
                draw_window(ws, view, 0)
                if view["legal"]:
                    ws.send(json.dumps({"type": "act", "action": view["legal"][0]["id"], "at": view["at"]}))
        with connect(f"ws://127.0.0.1:{port}/ws/games/{watched['id']}") as ws:
            ws.send(json.dumps({"type": "hello"}))
            assert any(view["over"] for view in views(ws))  # its bots went on by themselves
    finally:
        server.terminate()
        server.wait(timeout=20)
