"""A message quotes what a client sent shortened (engine/untrusted.py's `shortened`): its
first characters, an ellipsis and its length. A 50,000-character game id is answered in a few
hundred bytes on every route, never echoed whole."""

from __future__ import annotations

import pytest

from .helpers import create

LONG = "a" * 50_000
TOKEN = {"token": "t", "name": "Ana"}
# Each route that names a game, a tutorial's game, a data pack or a seat the client chose.
ROUTES = {
    "game": ("GET", f"/api/games/{LONG}", None),
    "join": ("POST", f"/api/games/{LONG}/join", None),
    "name": ("POST", f"/api/games/{LONG}/name", TOKEN),
    "rematch": ("POST", f"/api/games/{LONG}/rematch", {"token": "t"}),
    "replay": ("GET", f"/api/games/{LONG}/replay", None),
    "tutorial": ("GET", f"/api/tutorials/{LONG}/1", None),
    "tutorial_step": ("GET", f"/api/tutorials/{LONG}/1/steps/0", None),
    "tutorial_move": ("POST", f"/api/tutorials/{LONG}/1/moves", {"at": 0, "action": "pass"}),
    "picture_book": ("GET", f"/api/catalog/{LONG}", None),
    "data_pack": ("GET", f"/api/catalog/reconstruct?data={LONG}", None),
    "rules_page": ("GET", f"/rules/{LONG}", None),
}


def short_refusal(answer, status: int) -> str:
    assert answer.status_code == status, answer.text[:300]
    assert len(answer.content) < 1000, f"{len(answer.content):,} bytes: {answer.text[:200]}"
    return answer.json()["message"]


@pytest.mark.parametrize("route", ROUTES)
def test_a_long_id_is_quoted_shortened_with_its_length(client, route):
    method, url, body = ROUTES[route]
    message = short_refusal(client.request(method, url, json=body), 404)
    assert "'aaaa" in message and "… (50,000 characters)" in message, message


def test_a_long_game_id_on_a_websocket_is_quoted_shortened(client):
    with client.websocket_connect(f"/ws/games/{LONG}") as ws:
        error = ws.receive_json()
    assert error["code"] == "unknown_game" and "… (50,000 characters)" in error["message"]
    assert len(error["message"]) < 500


@pytest.mark.parametrize("url", ["/api/games/{id}/replay?seat=", "/api/tutorials/masks/",
                                 "/api/tutorials/masks/1/steps/"])
def test_a_number_of_thousands_of_digits_is_refused_by_its_bounds_not_echoed(client, url):
    message = short_refusal(client.get(url.format(id=create(client)["id"]) + "9" * 4000), 422)
    assert "less than" in message and "999" not in message, message
