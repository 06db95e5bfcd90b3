"""The game page's log of a long game: the welcome brings its newest entries only, and "Show
earlier" brings the rest a page at a time until the log is whole, the same as the replay's."""

from __future__ import annotations

import time

from tests.server.wire import call

BOTS = [{"kind": "bot", "level": "easy"}] * 2


def test_show_earlier_brings_the_whole_log_of_a_long_game(server, page):
    game_id = call(server, "/api/games", {"game": "makuta", "seed": 5, "seats": BOTS,
                                          "options": {"turn_limit": 60}})["id"]
    for _ in range(300):
        if call(server, f"/api/games/{game_id}")["status"] == "finished":
            break
        time.sleep(0.2)
    whole = [e["text"] for frame in call(server, f"/api/games/{game_id}/replay")["frames"]
             for e in frame["events"]]
    assert len(whole) > 150

    page.goto(f"{server}/games/{game_id}")
    page.wait_for_selector("#log li.ev")
    assert page.locator("#log li.ev").count() < len(whole)
    if page.locator("#end[open]").count():
        page.keyboard.press("Escape")  # the end dialog of a finished game, read
    while page.locator("#log li.earlier button").count():
        shown = page.locator("#log li.ev").count()
        page.get_by_role("button", name="Show earlier").click()
        page.wait_for_function(f"() => document.querySelectorAll('#log li.ev').length > {shown}")
    assert page.locator("#log li.ev").all_text_contents() == whole


# Wraps the page's WebSocket so that the page is hidden or shown (visibilitychange) while its
# connection is still connecting, as happens when a tab is switched during a slow connect.
HIDDEN_WHILE_CONNECTING = """
const Real = window.WebSocket;
window.WebSocket = class extends Real {
  constructor(...args) {
    super(...args);
    queueMicrotask(() => document.dispatchEvent(new Event("visibilitychange")));
  }
};
"""


def test_a_page_hidden_while_its_connection_connects_raises_nothing_and_plays_on(server, page):
    game_id = call(server, "/api/games", {"game": "reconstruct", "seed": 3, "seats": BOTS})["id"]
    page.add_init_script(HIDDEN_WHILE_CONNECTING)
    page.goto(f"{server}/games/{game_id}")
    page.wait_for_selector("#log li.ev")  # the hello went once the connection was open
    # the page fixture fails the test if the page raised ("Still in CONNECTING state")
