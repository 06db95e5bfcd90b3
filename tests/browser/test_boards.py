"""Each game's board in the browser: Quest for the Masks and Quest for Makuta are drawn from
their observations, a move is made by clicking the board (or the list), and pictures of both
widths are kept."""

from __future__ import annotations

import json
import urllib.request

import pytest

from .conftest import screenshot
from .test_reconstruct import SETTLED


def create(server: str, game: str, bots: int) -> dict:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * bots
    request = urllib.request.Request(f"{server}/api/games", headers={"content-type": "application/json"},
                                     data=json.dumps({"game": game, "seats": seats, "seed": 9}).encode())
    return json.load(urllib.request.urlopen(request, timeout=10))


@pytest.mark.parametrize(("game", "board", "bots"), [("masks", ".mmap", 1), ("makuta", ".island", 2)])
def test_the_board_is_drawn_and_played_by_clicking(server, page, game, board, bots):
    created = create(server, game, bots)
    page.goto(server + created["seats"][0]["link"])
    page.wait_for_selector(board)
    for _ in range(12):
        page.wait_for_function(SETTLED, timeout=15_000)
        if not page.locator("#over").is_hidden():
            break
        target = page.locator("#board .target:enabled").first
        if target.count():
            target.click()
        else:
            page.locator("#actions button:enabled").first.click()
    page.wait_for_function(SETTLED, timeout=15_000)
    assert page.locator("#log li").count() > 3
    screenshot(page, game)


def test_hot_seat_hides_each_view_until_the_next_person_is_ready(server, page):
    seats = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}]
    request = urllib.request.Request(f"{server}/api/games", headers={"content-type": "application/json"},
                                     data=json.dumps({"game": "reconstruct", "seats": seats, "seed": 2,
                                                      "hotseat": True}).encode())
    created = json.load(urllib.request.urlopen(request, timeout=10))
    page.goto(server + created["hotseat_link"])
    page.wait_for_function(SETTLED, timeout=15_000)
    first = page.text_content("#title")
    page.locator("#actions button:enabled").last.click()  # pass: the other player decides
    page.wait_for_selector("#cover:not([hidden])")
    assert "Pass the screen to" in page.text_content("#cover-text")
    screenshot(page, "hotseat-cover")
    page.click("#cover-button")
    page.wait_for_function(SETTLED, timeout=15_000)
    assert page.text_content("#title") != first  # now the other seat's view
