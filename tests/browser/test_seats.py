"""Seats in the browser: the hot-seat cover hides everything, a link whose token opens no seat
says so and keeps saying so, and a link for another seat never silently replaces the seat
this browser holds."""

from __future__ import annotations

import json
import urllib.request

from .conftest import screenshot

SETTLED = """() => document.querySelector('#actions button:not([disabled])')
    || !document.querySelector('#over').hidden"""


def create(server: str, **body) -> dict:
    body = {"game": "reconstruct", "seed": 3, **body}
    request = urllib.request.Request(server + "/api/games", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


TWO_PEOPLE = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}]


def test_the_hotseat_cover_is_fully_opaque(server, page):
    created = create(server, seats=TWO_PEOPLE, hotseat=True)
    page.goto(server + created["hotseat_link"])
    page.wait_for_function(SETTLED, timeout=15_000)
    for _ in range(6):  # act until the screen must change hands
        if page.locator("#cover").is_visible():
            break
        page.locator("#actions button:enabled").first.click()
        page.wait_for_function("() => !document.querySelector('#cover').hidden || "
                               "document.querySelector('#actions button:not([disabled])')", timeout=15_000)
    assert page.locator("#cover").is_visible()
    colour = page.evaluate("getComputedStyle(document.querySelector('#cover')).backgroundColor")
    assert colour.startswith("rgb(") and "rgba" not in colour, colour  # no alpha: nothing shows through
    screenshot(page, "hotseat-cover")


def test_a_link_whose_token_opens_no_seat_says_so_and_watches(server, page):
    created = create(server, seats=TWO_PEOPLE, seed=None)  # invites: the server deals
    page.goto(f"{server}/games/{created['id']}#seat=0&token=not-a-real-token")
    page.wait_for_selector(".reconstruct")
    page.wait_for_timeout(500)  # the welcome has come after the refusal: the notice must stay
    status = page.inner_text("#status")
    assert "This invite link is not valid for this game; you are watching." in status
    assert "(watching)" in page.inner_text("#title")
    screenshot(page, "bad-invite-link")


def test_a_link_for_another_seat_asks_before_replacing_the_seat_held(server, page):
    created = create(server, seats=TWO_PEOPLE, seed=None)  # invites: the server deals
    mine, theirs = (seat["link"] for seat in created["seats"])
    page.goto(server + mine)
    page.wait_for_selector(".reconstruct")
    asked: list[str] = []

    def refuse(dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", refuse)
    page.goto("about:blank")  # a link opened afresh (from a message), not a same-page jump
    page.goto(server + theirs)
    page.wait_for_selector(".reconstruct")
    assert asked and "already plays a seat" in asked[0]
    assert "Tahu" in page.inner_text("#title") or "tahu" in page.inner_text("#title").lower()
    held = page.evaluate(f"localStorage.getItem('matanui:tokens:{created['id']}')")
    assert created["seats"][0]["token"] in held and created["seats"][1]["token"] not in held
