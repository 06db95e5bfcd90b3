"""A player who has never read a rulebook finds How to play one click from the lobby and
from the game page. The page tells the same rules as `matanui rules GAME`, in the browser's
words: clicking rather than typing, the board's pictures rather than the terminal's glyphs."""

from __future__ import annotations

import re

import pytest

from matanui import games
from matanui.games.guide import legend, page_markdown

GAMES = games.names()


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_a_how_to_play_page_with_the_key_to_every_symbol(client, game):
    response = client.get(f"/rules/{game}")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    page = response.text
    assert f"How to play {games.get(game).title}" in page
    assert "Key to the symbols" in page and "<table" in page
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
    assert all(not body.strip() for body in re.findall(r"<script[^>]*>(.*?)</script>", page, flags=re.S))
    assert all('src="/static/' in tag for tag in re.findall(r"<script[^>]*>", page))
    assert "style=" not in page and "<style" not in page
    assert all(src.startswith("/") or src.startswith("data:")
               for src in re.findall(r'(?:src|href)="([^"]+)"', page))


# What only the terminal shows: typed commands and the glyphs it draws the board with.
TERMINAL_WORDS = ("type the number", "type a move", "<code>?</code>", "matanui play", "(x)",
                  "■", "□", "T*", "G?", "░")


@pytest.mark.parametrize("game", GAMES)
def test_the_page_speaks_of_clicking_and_shows_no_terminal_glyphs(client, game):
    page = client.get(f"/rules/{game}").text
    assert "click" in page.lower()
    for words in TERMINAL_WORDS:
        assert words.lower() not in page.lower(), words
    symbols = legend(game)
    for symbol in symbols:  # each row of the key has a cell for its picture, none for glyphs
        assert f'data-symbol="{symbol.id}"' in page
        if symbol.terminal.strip() and symbol.terminal.strip() not in symbol.name:
            assert f"<td>{symbol.terminal.strip()}</td>" not in page


@pytest.mark.parametrize("game", GAMES)
def test_the_terminal_keeps_its_own_words(game):
    text = page_markdown(game)
    assert "Type" in text and "matanui play" in text
    assert not any(line.startswith(":::") for line in text.splitlines())


def test_a_passage_left_open_is_a_clear_error():
    from matanui.engine.errors import DataFileError
    from matanui.games.guide import _for_surface

    with pytest.raises(DataFileError, match="never closed"):
        _for_surface("a\n::: browser\nb\n", "terminal", "x.md")
    with pytest.raises(DataFileError, match="no surface 'phone'"):
        _for_surface("::: phone\n:::\n", "terminal", "x.md")
    assert _for_surface("a\n::: browser\nb\n:::\n::: terminal\nc\n:::\n", "browser", "x.md") == "a\nb\n"


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
    assert set(book["legend"][0]) == {"id", "group", "letter", "glyph", "terminal", "name", "means",
                                      "terminal_note"}
