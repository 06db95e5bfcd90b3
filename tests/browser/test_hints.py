"""The Hint control in the browser: against a bot, at your decision, one click names the move
a strong player would make and why, lights it on the board (or, for a move with no place
there, gives it a button by the hint's words), rings it in the list, and a click on it plays it; a game
between two people on their own screens offers no Hint. In all three games (the pictures: at
laptop and phone width)."""

from __future__ import annotations

import json

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
        # The move is pointed at where it can be seen: lit on the table, else a button by the words.
        assert page.locator("#board .hint, #mine .hint, .hint-text button.hint-take").count() >= 1
        screenshot(page, f"hint-{game}")  # at laptop and phone width
        at = page.evaluate("() => document.querySelectorAll('#log li').length")
        if hinted.count() == 0:  # a stop card's window, and the hint is to let it pass: it closes
            assert "take effect" in told.inner_text()
        elif game == "makuta" and hinted.first.inner_text().startswith("Walk to"):
            hinted.first.click()  # a step: every whole walk that starts with it is marked
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


def test_a_hint_to_play_no_card_is_a_button_beside_its_words(browser, server):
    """A move with no place on the table (Reconstruct's pass) cannot be lit up there: the hint
    gives it a button of its own. The server's hint is turned into that move on the wire (the
    strong player would rarely pass at the first decision)."""
    seats = AGAINST_A_BOT["reconstruct"]
    created = call(server, "/api/games", {"game": "reconstruct", "seats": seats, "seed": 4})
    context = browser.new_context(viewport=LAPTOP)

    def to_pass(route):
        upstream = route.connect_to_server()
        route.on_message(upstream.send)

        def down(message):
            told = json.loads(message)
            if told.get("type") == "hint":
                told.update(action="pass", words="play no card this turn")
            route.send(json.dumps(told))
        upstream.on_message(down)

    try:
        page = context.new_page()
        page.route_web_socket("**/ws/games/**", to_pass)
        page.goto(server + created["seats"][0]["link"])
        page.locator("#actions button[data-action='pass']").wait_for(timeout=30_000)
        page.get_by_role("button", name="Hint", exact=True).click()
        take = page.locator(".hint-text button.hint-take")
        take.wait_for(timeout=20_000)
        assert take.inner_text() == "Play no card this turn"
        assert page.locator("#actions button.hinted[data-action='pass']").count() == 1
        take.click()
        page.locator("#log li", has_text="plays no Game Action Card").wait_for(timeout=20_000)
    finally:
        context.close()
