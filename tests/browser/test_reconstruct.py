"""A person in the browser: create a game in the lobby, play Reconstruct to the end against a
bot by clicking the board and the action list, reload mid-game and go on, while a spectator
watches in another window."""

from __future__ import annotations

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import screenshot

SETTLED = """() => document.querySelector('#actions button:not([disabled])')
    || !document.querySelector('#over').hidden"""


def take_a_turn(page) -> None:
    """Pick up a card of the hand, then click the part it goes to (or its use); else the first
    listed action."""
    card = page.locator("#mine .hand.mine .card:enabled").first
    if card.count():
        card.click()
        target = page.locator("main .part.target, #mine .use-bar button.primary").first
        if target.count():
            try:
                target.click(timeout=10_000)
            except PlaywrightTimeout:
                # A stop card's answer window can close (its clock ran out on a busy machine)
                # between looking and clicking; a choice still shown but not clickable fails.
                if target.count():
                    raise
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
            assert page.locator("#mine .hand.mine .card").count() > 0  # the seat resumed, hand and all
        assert turns < 400
    end = page.get_by_role("dialog")
    end.wait_for()
    assert end.locator("h2").inner_text() in ("You won", "You lost", "Draw")
    screenshot(page, "reconstruct-over")
    spectator.get_by_role("dialog").wait_for(timeout=15_000)  # the spectator reads who won
    assert spectator.get_by_role("dialog").locator("h2").inner_text().endswith((" won", "Draw"))
    screenshot(spectator, "reconstruct-spectator")
    spectator.close()

    end.get_by_role("link", name="Replay").click()
    page.wait_for_selector(".reconstruct")
    page.click("#next")
    page.click("#next")
    page.click("#back")
    assert page.inner_text("#position").startswith("1 /")
    screenshot(page, "reconstruct-replay")
