"""A person in the browser: create a game in the lobby, play Reconstruct to the end against a
bot by clicking the board and the action list, reload mid-game and go on, while a spectator
watches in another window."""

from __future__ import annotations

from .conftest import screenshot

SETTLED = """() => document.querySelector('#actions button:not([disabled])')
    || !document.querySelector('#over').hidden"""


def take_a_turn(page) -> None:
    """Click a card of the hand, then the space it goes to; else the first listed action."""
    card = page.locator(".hand.mine .card:enabled").first
    if card.count():
        card.click()
        target = page.locator("#board .target").first
        if target.count():
            target.click()
    else:
        page.locator("#actions button:enabled").first.click()
    page.wait_for_function(SETTLED, timeout=15_000)


def test_create_play_to_the_end_reload_and_watch(server, page, browser):
    page.goto(server + "/")
    page.select_option("#game-select", "reconstruct")
    page.select_option("[aria-label='Player 1 character']", "tahu")
    page.select_option("[aria-label='Player 2 is']", "bot")
    page.select_option("[aria-label='Player 2 bot level']", "easy")
    screenshot(page, "lobby")
    page.click("#create-form button[type=submit]")
    page.click("text=Play this seat")
    page.wait_for_selector(".reconstruct")
    page.wait_for_function(SETTLED, timeout=15_000)
    game_url = page.url
    assert "token" not in game_url  # the secret left the address bar at once

    spectator = browser.new_page()
    spectator.goto(game_url + "?watch")
    spectator.wait_for_selector(".reconstruct")
    assert spectator.locator(".hand.mine").count() == 0  # a spectator sees no hand face up
    assert "(watching)" in spectator.inner_text("#title")

    turns = 0
    while page.locator("#over").is_hidden():
        take_a_turn(page)
        turns += 1
        if turns == 4:
            screenshot(page, "reconstruct-mid-game")
            page.reload()
            page.wait_for_selector(".reconstruct")
            page.wait_for_function(SETTLED, timeout=15_000)
            assert page.locator(".hand.mine .card").count() > 0  # the seat resumed, hand and all
        assert turns < 400
    title = page.text_content("#turn-title")
    assert "won!" in title or "drawn" in title
    screenshot(page, "reconstruct-over")
    spectator.wait_for_function("() => !document.querySelector('#over').hidden", timeout=15_000)
    screenshot(spectator, "reconstruct-spectator")
    spectator.close()

    page.click("text=Replay this game")
    page.wait_for_selector(".reconstruct")
    page.click("#next")
    page.click("#next")
    page.click("#back")
    assert page.inner_text("#position").startswith("1 /")
    screenshot(page, "reconstruct-replay")
