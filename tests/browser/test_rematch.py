"""Two people who finish a rated game in two browsers: the table says it is rated, the end
dialog gives each player's rating change, and the rematch is offered by one and accepted by
the other, both arriving at the same new game (lichess's offer and accept)."""

from __future__ import annotations

import json
import secrets
import urllib.request

from tests.server.wire import call

from .conftest import ARTIFACTS, LAPTOP, PHONE
from .test_accounts import sign_in
from .test_lobby import PEOPLE
from .test_people import Player, play_until_it_counts


def seats_of(server: str, game_id: str) -> list[dict]:
    with urllib.request.urlopen(f"{server}/api/games/{game_id}", timeout=10) as answer:
        return json.load(answer)["seats"]


def leave(page, how: str = "Resign") -> None:
    """Resign, or (before every player has made two moves) abort, confirming it."""
    page.get_by_role("button", name=how, exact=True).click()
    confirm = page.get_by_role("dialog", name=f"{how} this game?")
    confirm.get_by_role("button", name=how, exact=True).click()


def test_a_rated_game_ends_with_rating_changes_and_a_rematch_offered_and_accepted(server, browser):
    created = call(server, "/api/games", {"game": "reconstruct", "seats": PEOPLE, "rated": True})
    contexts = [browser.new_context(viewport=LAPTOP), browser.new_context(viewport=PHONE)]
    errors: list[str] = []
    try:
        laptop, phone = pages = [context.new_page() for context in contexts]
        names = [f"ana_{secrets.token_hex(2)}", f"Kopaka_{secrets.token_hex(2)}"]
        for page, seat, name in zip(pages, created["seats"], names, strict=True):
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(server + "/")
            sign_in(page, name, "Create account")
            page.goto(server + seat["link"])
            page.wait_for_selector(".reconstruct")
        laptop.wait_for_function(f"""async () => (await (await fetch('/api/games/{created["id"]}')).json())
            .seats.every((seat) => seat.account)""")
        for page in pages:
            page.reload()
            page.locator("#title .badge.rated", has_text="Rated").wait_for()  # the header says it
        phone.wait_for_function(f"() => document.getElementById('status').textContent.includes('{names[0]}')")

        play_until_it_counts([Player(page, name, label) for page, name, label
                              in zip(pages, names, ("laptop", "phone"), strict=True)], "reconstruct")
        leave(phone)
        for page in pages:
            end = page.locator("#end[open]")
            end.locator("th", has_text="Rating").wait_for(timeout=15_000)
            row = end.locator("tr", has_text="Rating").inner_text()
            assert "+" in row and "−" in row, row  # the winner up, the loser down
            assert "Rated game." in end.inner_text()
        laptop.screenshot(path=str(ARTIFACTS / "rated-end-laptop.png"))

        laptop.locator("#end").get_by_role("button", name="Offer a rematch").click()
        laptop.locator("#end").get_by_text("Rematch offered: waiting for").wait_for()
        offer = phone.locator("#end").get_by_text("offers a rematch")
        offer.wait_for(timeout=10_000)
        assert names[0] in offer.inner_text()  # the name as typed, never capitalised
        phone.screenshot(path=str(ARTIFACTS / "rematch-offer-phone.png"))
        phone.locator("#end").get_by_role("button", name="Accept the rematch").click()
        for page in pages:
            page.wait_for_url(lambda url: created["id"] not in url, timeout=15_000)
        assert laptop.url.split("/games/")[1] == phone.url.split("/games/")[1]
        new_id = laptop.url.split("/games/")[1]
        assert [seat["account"] for seat in seats_of(server, new_id)] == names
        for page in pages:
            page.wait_for_selector(".reconstruct")
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors


def test_a_declined_rematch_is_told_to_the_one_who_offered(server, browser):
    created = call(server, "/api/games", {"game": "reconstruct", "seats": PEOPLE})
    contexts = [browser.new_context(viewport=LAPTOP), browser.new_context(viewport=LAPTOP)]
    try:
        first, second = pages = [context.new_page() for context in contexts]
        for page, seat in zip(pages, created["seats"], strict=True):
            page.goto(server + seat["link"])
            page.wait_for_selector(".reconstruct")
        leave(second, "Abort")  # at once: the game ends aborted, and a rematch may follow
        first.locator("#end[open]").get_by_role("heading", name="Aborted").wait_for(timeout=10_000)
        first.locator("#end[open]").get_by_role("button", name="Offer a rematch").click()
        second.locator("#end").get_by_role("button", name="Decline").click()
        first.locator("#end").get_by_text("declined the rematch").wait_for(timeout=10_000)
        assert first.locator("#end").get_by_role("button", name="Offer a rematch").is_visible()
    finally:
        for context in contexts:
            context.close()
