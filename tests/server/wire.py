"""Talking to a real `matanui serve` as a client would: its JSON API and its websocket views."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any


def call(base: str, path: str, body: dict | None = None) -> dict:
    """GET `path` (POST `body`, where given) on the server at `base` ("http://host:port")."""
    request = urllib.request.Request(base + path, data=json.dumps(body).encode() if body else None,
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def views(ws: Any) -> Iterator[dict[str, Any]]:
    """The stream of welcomes and updates of one connection; an error message fails the test."""
    while True:
        message = json.loads(ws.recv(timeout=30))
        assert message["type"] != "error", message
        if message["type"] in ("welcome", "update"):
            yield message


def draw_window(ws: Any, view: dict[str, Any], seat: int | None) -> None:
    """Say the response window is on the screen, as a page does once it has drawn it for the
    answering `seat` (whatever it holds): the server times the window from this, else from
    its draw grace."""
    if view.get("closes_at") is not None and seat is not None and view["current_player"] == seat:
        ws.send(json.dumps({"type": "drawn", "at": view["at"]}))
