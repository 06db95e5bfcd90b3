"""A newcomer opens the lobby, clicks How to play for a game, reads it with the key to its
symbols drawn as the board draws them, and finds the same link in the header of a game page;
pictures of both widths are kept. The page runs under the strict Content-Security-Policy:
any blocked inline script or style would be reported to the console, and the test fails on
it."""

from __future__ import annotations

import pytest

from .conftest import screenshot
from .test_boards import create

# What each game's key shows beside every symbol: the board's own drawing of it.
PICTURES = {"reconstruct": ".card.face", "masks": ".mcell", "makuta": "svg.icon"}


@pytest.mark.parametrize("game", ["reconstruct", "masks", "makuta"])
def test_how_to_play_is_one_click_from_the_lobby(server, page, game):
    blocked: list[str] = []
    page.on("console", lambda message: blocked.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.goto(server + "/")
    page.locator(f'#how-to-play a[href="/rules/{game}"]').click()
    page.wait_for_url(f"**/rules/{game}")
    assert page.locator("main.rules h1").inner_text().startswith("How to play")
    assert page.locator("main.rules table").count() >= 1  # the key to the symbols
    page.wait_for_selector(f".key-picture {PICTURES[game]}")
    drawn = page.locator(".key-picture:not(:empty)").count()
    assert drawn == page.locator(".key-picture").count()  # every symbol has its picture
    text = page.inner_text("main.rules")
    assert "click" in text.lower() and "type the number" not in text.lower() and "■" not in text
    assert page.locator('nav a[aria-current="page"]').get_attribute("href") == f"/rules/{game}"
    # Nothing wider than a phone: the page reflows, no sideways scrolling.
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.set_viewport_size({"width": 1280, "height": 800})
    screenshot(page, f"how-to-play-{game}")
    assert not blocked, blocked


def test_the_game_page_header_links_to_its_how_to_play(server, page):
    created = create(server, "masks", 1)
    page.goto(server + created["seats"][0]["link"])
    page.wait_for_selector(".mmap")
    link = page.locator("header #how-to-play")
    assert link.get_attribute("href") == "/rules/masks"
    screenshot(page, "game-header-how-to-play")
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.locator("main.rules h1").inner_text() == "How to play Quest for the Masks"
