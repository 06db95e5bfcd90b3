"""The Hint control in the browser: against a bot, at your decision, one click names the move
a strong player would make and why, rings it in the list, and a click on it plays it; a game
between two people on their own screens offers no Hint. In all three games (the pictures: at
laptop and phone width)."""

from __future__ import annotations

import pytest

from tests.server.wire import call

from .conftest import LAPTOP, screenshot

BOT = {"kind": "bot", "level": "easy"}
AGAINST_A_BOT = {
    "reconstruct": [{"kind": "human", "character": "tahu"}, {**BOT, "character": "gali"}],
    "masks": [{"kind": "human", "character": "pohatu"}, {**BOT, "character": "gali"}],
    "makuta": [{"kind": "human", "character": "tahu"}, {**BOT, "character": "lewa"}],
}


def until_a_choice(page):
    """The Hint button, once a decision with a choice in it comes: a move with only one way
    to go (Makuta's roll) is played as a person would, with its one button."""
    ask = page.get_by_role("button", name="Hint", exact=True)
    for _ in range(60):
        if ask.count():
            return ask
        only = page.locator("#actions button:not(:disabled)")
        if only.count() == 1:
            only.click()
        page.wait_for_timeout(500)
    raise AssertionError("no decision with a choice came")


@pytest.mark.parametrize("game", sorted(AGAINST_A_BOT))
def test_a_hint_names_a_move_with_its_reason_and_that_move_can_be_played(browser, server, game):
    created = call(server, "/api/games", {"game": game, "seats": AGAINST_A_BOT[game], "seed": 4})
    context = browser.new_context(viewport=LAPTOP)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server + created["seats"][0]["link"])
        until_a_choice(page).click()
        told = page.locator(".hint-text")
        told.wait_for(timeout=20_000)
        assert told.inner_text().startswith("Hint: ") and "% to win with it" in told.inner_text()
        hinted = page.locator("#actions button.hinted")
        screenshot(page, f"hint-{game}")  # at laptop and phone width
        at = page.evaluate("() => document.querySelectorAll('#log li').length")
        if hinted.count() == 0:  # a stop card's window, and the hint is to let it pass: it closes
            assert "take effect" in told.inner_text()
        else:
            assert hinted.count() == 1 and hinted.inner_text() in told.inner_text()
            hinted.click()
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {at}", timeout=20_000)
        assert not errors, errors
    finally:
        context.close()


def test_a_game_between_two_people_offers_no_hint(browser, server):
    people = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}]
    created = call(server, "/api/games", {"game": "reconstruct", "seats": people})
    # Two people, two browsers: one browser holding a seat keeps it against a second seat's link.
    contexts = [browser.new_context(viewport=LAPTOP) for _ in created["seats"]]
    try:
        pages = [context.new_page() for context in contexts]
        for page, seat in zip(pages, created["seats"], strict=True):
            page.goto(server + seat["link"])
            page.wait_for_selector(".reconstruct")
        deciding = pages[call(server, f"/api/games/{created['id']}")["to_move"]]
        deciding.locator("#actions button").first.wait_for(timeout=20_000)
        assert deciding.get_by_role("button", name="Hint", exact=True).count() == 0
    finally:
        for context in contexts:
            context.close()
