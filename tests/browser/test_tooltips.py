"""Tooltips as a person meets them: pointing at a thing says what it is; a click closes the
tip (it would cover what the click brings); and no tip ever covers the Last move line."""

from __future__ import annotations

import pytest

from tests.server.wire import call

from .test_hints import AGAINST_A_BOT

TIP = "[data-tippy-root] .tippy-box"
# The element with a tooltip nearest the top of the board: its tip is the likeliest to reach up.
TOPMOST = """() => {
    const tips = [...document.querySelectorAll('#board [data-tip]')]
        .filter((n) => n.getBoundingClientRect().height);
    tips.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
    tips[0].setAttribute('data-topmost', 'yes');
}"""
OVERLAP = """([a, b]) => {
    const [p, q] = [a, b].map((selector) => document.querySelector(selector).getBoundingClientRect());
    return Math.max(0, Math.min(p.right, q.right) - Math.max(p.left, q.left))
         * Math.max(0, Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top));
}"""


@pytest.mark.parametrize("game", sorted(AGAINST_A_BOT))
def test_a_click_closes_the_tip_and_no_tip_covers_the_last_move(server, page, game):
    created = call(server, "/api/games", {"game": game, "seats": AGAINST_A_BOT[game], "seed": 4})
    page.goto(server + created["seats"][0]["link"])
    page.locator("#actions button:enabled").first.wait_for(timeout=30_000)
    page.evaluate(TOPMOST)
    page.hover("[data-topmost]")
    page.locator(TIP).wait_for()
    assert page.evaluate(OVERLAP, [TIP, "#last-move"]) == 0
    page.mouse.down()
    page.locator(TIP).wait_for(state="detached", timeout=2_000)
    page.mouse.up()
