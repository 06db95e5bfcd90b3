"""A player who has never read a rulebook finds How to play one click from the lobby and
from the game page, and the page is the same text `matanui rules GAME` prints."""

from __future__ import annotations

import re

import pytest

from matanui import games
from matanui.games.guide import legend

GAMES = games.names()


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_a_how_to_play_page_with_the_key_to_every_symbol(client, game):
    response = client.get(f"/rules/{game}")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    page = response.text
    assert f"How to play {games.get(game).title}" in page
    assert "Key to the symbols" in page and "<table>" in page
    for symbol in legend(game):
        assert symbol.name in page, symbol.id


@pytest.mark.parametrize("path", ["/rules", *(f"/rules/{g}" for g in GAMES)])
def test_the_pages_pass_the_strict_content_security_policy(client, path):
    response = client.get(path)
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy
    assert response.headers["x-frame-options"] == "DENY"
    page = response.text
    # Nothing the policy would block: no inline script or style, no outside address.
    assert "<script" not in page and "style=" not in page and "<style" not in page
    assert all(src.startswith("/") or src.startswith("data:")
               for src in re.findall(r'(?:src|href)="([^"]+)"', page))


def test_markdown_cannot_smuggle_html_into_the_page(client):
    from matanui.server.rules_page import MARKDOWN

    assert "<script>" not in MARKDOWN.render("<script>alert(1)</script>")


def test_an_unknown_game_has_no_page_and_the_answer_names_the_games(client):
    response = client.get("/rules/bohrok")
    assert response.status_code == 404
    assert "reconstruct" in response.json()["message"]


def test_the_lobby_and_every_game_page_link_to_how_to_play(client):
    assert 'id="how-to-play"' in client.get("/").text
    assert 'href="/rules"' in client.get("/games/abc").text
    for entry in client.get("/api/catalog").json():
        assert entry["how_to_play"] == f"/rules/{entry['id']}"
        assert client.get(entry["how_to_play"]).status_code == 200


@pytest.mark.parametrize("game", GAMES)
def test_the_picture_book_carries_the_key_for_the_board_views(client, game):
    book = client.get(f"/api/catalog/{game}").json()
    assert [s["id"] for s in book["legend"]] == [s.id for s in legend(game)]
    assert set(book["legend"][0]) == {"id", "group", "letter", "glyph", "terminal", "name", "means"}
