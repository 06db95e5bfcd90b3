"""Resign in the browser: two people on two screens (a laptop and a phone); one resigns after
confirming, and each end dialog tells the result from that player's side."""

from __future__ import annotations

import json
import urllib.request

from .conftest import ARTIFACTS, LAPTOP, PHONE


def create(server: str, **body) -> dict:
    request = urllib.request.Request(server + "/api/games", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def test_one_player_resigns_after_confirming_and_both_see_the_right_end(server, browser):
    created = create(server, game="reconstruct",
                     seats=[{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}])
    contexts = [browser.new_context(viewport=LAPTOP), browser.new_context(viewport=PHONE)]
    try:
        laptop, phone = pages = [context.new_page() for context in contexts]
        errors: list[str] = []
        for page, seat in zip(pages, created["seats"], strict=True):
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(server + seat["link"])
            page.wait_for_selector(".reconstruct")
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
