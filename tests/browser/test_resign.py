"""Resign and abort in the browser: two people on two screens (a laptop and a phone). At the
start the button reads Abort: the game ends with no result for both. Once both have made two
moves it reads Resign: one resigns after confirming, and each end dialog tells the result from
that player's side."""

from __future__ import annotations

import json
import urllib.request

from .conftest import ARTIFACTS, LAPTOP, PHONE
from .test_people import Player, play_until_it_counts

PEOPLE = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}]


def create(server: str, **body) -> dict:
    request = urllib.request.Request(server + "/api/games", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def test_at_the_start_either_player_may_abort_and_both_see_the_game_end_without_a_result(server, browser):
    created = create(server, game="reconstruct", seats=PEOPLE)
    contexts = [browser.new_context(viewport=LAPTOP), browser.new_context(viewport=PHONE)]
    try:
        laptop, phone = pages = [context.new_page() for context in contexts]
        for page, seat in zip(pages, created["seats"], strict=True):
            page.goto(server + seat["link"])
            page.wait_for_selector(".reconstruct")
        assert phone.get_by_role("button", name="Resign", exact=True).count() == 0
        phone.get_by_role("button", name="Abort", exact=True).click()
        confirm = phone.get_by_role("dialog", name="Abort this game?")
        assert "unrated, with no winner" in confirm.inner_text()
        confirm.get_by_role("button", name="Abort", exact=True).click()
        for page, why in ((phone, "You abort the game"), (laptop, "aborts the game")):
            end = page.get_by_role("dialog", name="Aborted")
            end.wait_for(timeout=10_000)
            assert why in end.inner_text()
        laptop.screenshot(path=str(ARTIFACTS / "abort-end-laptop.png"))
    finally:
        for context in contexts:
            context.close()


def test_one_player_resigns_after_confirming_and_both_see_the_right_end(server, browser):
    created = create(server, game="reconstruct", seats=PEOPLE)
    contexts = [browser.new_context(viewport=LAPTOP), browser.new_context(viewport=PHONE)]
    try:
        laptop, phone = pages = [context.new_page() for context in contexts]
        errors: list[str] = []
        for page, seat in zip(pages, created["seats"], strict=True):
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(server + seat["link"])
            page.wait_for_selector(".reconstruct")
        players = [Player(laptop, "Tahu", "laptop"), Player(phone, "Gali", "phone")]
        play_until_it_counts(players, "reconstruct")
        resign = phone.get_by_role("button", name="Resign", exact=True)
        resign.click()
        confirm = phone.get_by_role("dialog", name="Resign this game?")
        assert confirm.is_visible()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        phone.screenshot(path=str(ARTIFACTS / "resign-confirm-phone.png"))
        confirm.get_by_role("button", name="Keep playing").click()  # changing one's mind
        assert not confirm.is_visible() and resign.is_visible()
        resign.click()
        confirm.get_by_role("button", name="Resign", exact=True).click()
        for page, result, why in ((phone, "You lost", "You resign"), (laptop, "You won", "resigns")):
            end = page.get_by_role("dialog", name=result)
            end.wait_for(timeout=10_000)
            assert why in end.inner_text()  # told from each side: "you" for the viewer
        phone.screenshot(path=str(ARTIFACTS / "resign-end-phone.png"))
        laptop.screenshot(path=str(ARTIFACTS / "resign-end-laptop.png"))
        assert phone.get_by_role("button", name="Resign", exact=True).count() == 0
        assert not errors, errors
    finally:
        for context in contexts:
            context.close()
