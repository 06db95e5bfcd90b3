"""A replay as a person watches it: the controls wait until it has loaded (clicking early
raises nothing), it plays on its own at a chosen speed and pauses, the log runs up to the
current step, a turn can be jumped to, and the actor is named as every surface names them."""

from __future__ import annotations

import json
import time
import urllib.request

from .conftest import screenshot

BOTS = [{"kind": "bot", "level": "easy", "character": c} for c in ("tahu", "gali")]


def finished_game(server: str) -> str:
    """A game of two bots, played to its end by the server."""
    body = {"game": "reconstruct", "seed": 4, "seats": BOTS}
    request = urllib.request.Request(f"{server}/api/games", headers={"content-type": "application/json"},
                                     data=json.dumps(body).encode())
    game_id = json.load(urllib.request.urlopen(request, timeout=10))["id"]
    for _ in range(100):
        with urllib.request.urlopen(f"{server}/api/games/{game_id}", timeout=10) as answer:
            if json.load(answer)["status"] == "finished":
                return game_id
        time.sleep(0.2)
    raise AssertionError("the bots did not finish their game")


def log_lines(page) -> int:
    return page.locator("#log li").count()


def test_the_controls_wait_for_the_replay_and_clicking_early_is_harmless(server, page):
    game_id = finished_game(server)
    page.route("**/replay", lambda route: (time.sleep(1), route.continue_()))
    page.goto(f"{server}/games/{game_id}/replay", wait_until="commit")
    page.wait_for_selector("#play")
    assert page.locator("#play").is_disabled()
    page.locator("#play").click(force=True)  # before the replay has loaded: nothing happens
    page.locator("#next").click(force=True)
    page.wait_for_selector("#play:enabled", timeout=30_000)
    assert page.locator("#step").input_value() == "0"


def test_a_replay_plays_itself_keeps_a_running_log_and_jumps_to_a_turn(server, page):
    game_id = finished_game(server)
    page.goto(f"{server}/games/{game_id}/replay")
    page.wait_for_selector("#play:enabled", timeout=30_000)
    at_start = log_lines(page)
    page.click("#next")
    page.click("#next")
    assert log_lines(page) > at_start  # the first steps' lines stay; the new ones are added
    assert page.locator("#log li.now").count() >= 1
    text = page.inner_text("#step-text")
    assert text.startswith(("Tahu Nuva: ", "Gali Nuva: "))  # the actor, named as everywhere

    page.select_option("#speed", label="fast")
    page.click("#play")
    assert page.inner_text("#play").endswith("Pause")
    page.wait_for_function("() => Number(document.querySelector('#step').value) >= 6", timeout=10_000)
    page.click("#play")
    stopped = page.locator("#step").input_value()
    page.wait_for_timeout(700)
    assert page.locator("#step").input_value() == stopped  # paused

    page.fill("#turn", "3")
    page.dispatch_event("#turn", "change")
    assert "turn 3 of" in page.inner_text("#position")
    lines = log_lines(page)
    page.click("#first")
    assert log_lines(page) < lines
    page.click("#last")
    assert "wins" in page.inner_text("#log").lower() or page.locator("#log .ev-win").count()
    screenshot(page, "replay")
