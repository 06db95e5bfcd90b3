"""A replay as a person watches it: the controls wait until it has loaded (clicking early
raises nothing), it plays on its own at a chosen speed and pauses, the log runs up to the
current step, a turn can be jumped to, and the actor is named as every surface names them.
On a laptop the side column stands beside the board; on a phone the page is one column. A
long game's first answer carries the first positions only: the others come as they are needed."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

from matanui.server.replays import FIRST_POSITIONS

from .conftest import LAPTOP, PHONE, screenshot

BOTS = [{"kind": "bot", "level": "easy", "character": c} for c in ("tahu", "gali")]
LONG = 300  # actions: a long game
# A page script: the element's box (getBoundingClientRect) and the window's size.
BOX = """(element) => {
    const { left, top, right, bottom, width, height } = element.getBoundingClientRect();
    return { left, top, right, bottom, width, height, window_width: innerWidth, window_height: innerHeight };
}"""


def finished_game(server: str, game: str = "reconstruct", seed: int = 4) -> tuple[str, int]:
    """A game of two bots, played to its end by the server, and its number of actions."""
    body = {"game": game, "seed": seed, "seats": BOTS}
    request = urllib.request.Request(f"{server}/api/games", headers={"content-type": "application/json"},
                                     data=json.dumps(body).encode())
    game_id = json.load(urllib.request.urlopen(request, timeout=10))["id"]
    for _ in range(300):
        with urllib.request.urlopen(f"{server}/api/games/{game_id}", timeout=10) as answer:
            summary = json.load(answer)
        if summary["status"] == "finished":
            return game_id, summary["at"]
        time.sleep(0.2)
    raise AssertionError("the bots did not finish their game")


def long_game(server: str) -> tuple[str, int]:
    """A finished Masks game of two bots of at least LONG actions."""
    for seed in range(1, 20):
        game_id, actions = finished_game(server, "masks", seed)
        if actions >= LONG:
            return game_id, actions
    raise AssertionError(f"no Masks game of {LONG} actions")


def box(page, selector: str) -> dict[str, Any]:
    return page.locator(selector).first.evaluate(BOX)


def in_window(shown: dict[str, Any]) -> bool:
    """Whether the whole box lies in the window."""
    return (shown["left"] >= 0 and shown["top"] >= 0 and shown["right"] <= shown["window_width"]
            and shown["bottom"] <= shown["window_height"])


def log_lines(page) -> int:
    return page.locator("#log li").count()


def test_the_controls_wait_for_the_replay_and_clicking_early_is_harmless(server, page):
    game_id, _ = finished_game(server)
    page.route("**/replay", lambda route: (time.sleep(1), route.continue_()))
    page.goto(f"{server}/games/{game_id}/replay", wait_until="commit")
    page.wait_for_selector("#play")
    assert page.locator("#play").is_disabled()
    page.locator("#play").click(force=True)  # before the replay has loaded: nothing happens
    page.locator("#next").click(force=True)
    page.wait_for_selector("#play:enabled", timeout=30_000)
    assert page.locator("#step").input_value() == "0"


def test_a_replay_plays_itself_keeps_a_running_log_and_jumps_to_a_turn(server, page):
    game_id, _ = finished_game(server)
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
    sign = box(page, "#play .pause-sign")  # the two bars, drawn: no font has to have the glyph
    assert sign["width"] >= 6 and sign["height"] >= 8
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


def test_on_a_laptop_the_side_column_stands_beside_the_board_and_on_a_phone_below_it(server, page):
    game_id, _ = finished_game(server)
    page.goto(f"{server}/games/{game_id}/replay")
    page.wait_for_selector("#board .reconstruct", timeout=30_000)
    board, side = box(page, "#board"), box(page, ".side")
    assert side["left"] >= board["right"] and abs(side["top"] - board["top"]) < 60  # beside it, at its top
    assert in_window(side) and board["top"] < board["window_height"] / 2
    page.set_viewport_size(PHONE)
    step, board, log = box(page, "#step-panel"), box(page, "#board"), box(page, "#log-panel")
    assert step["bottom"] <= board["top"] and board["bottom"] <= log["top"]  # one column
    assert board["right"] <= PHONE["width"] and board["top"] < PHONE["height"]
    page.set_viewport_size(LAPTOP)


def test_a_long_games_first_answer_holds_the_first_positions_and_the_rest_come_as_needed(server, page):
    game_id, actions = long_game(server)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/replay" in request.url else None)
    with page.expect_response(lambda r: r.url.endswith(f"/api/games/{game_id}/replay")) as first:
        page.goto(f"{server}/games/{game_id}/replay")
    answer = first.value.json()
    assert len(answer["frames"]) == actions + 1  # every step's words and events: the log
    assert answer["from"] == 0 and len(answer["observations"]) == FIRST_POSITIONS <= actions // 10
    page.wait_for_selector("#board .masks", timeout=30_000)
    assert page.locator("#position").inner_text().startswith(f"0 / {actions}")

    page.click("#last")
    page.wait_for_selector("#board[aria-busy=false]")
    assert page.locator("#position").inner_text().startswith(f"{actions} / {actions}")
    assert any(f"to={actions}" in url for url in asked)  # the end's positions, asked for alone
    assert "wins" in page.inner_text("#log").lower()  # the whole log, from the first answer

    page.fill("#turn", "40")
    page.dispatch_event("#turn", "change")
    page.wait_for_selector("#board[aria-busy=false]")
    assert "turn 40 of" in page.inner_text("#position")
    step = int(page.locator("#step").input_value())
    page.click("#back")  # a step back: its position (and some before it) asked for
    page.wait_for_selector("#board[aria-busy=false]")
    assert page.locator("#step").input_value() == str(step - 1)
    page.select_option("#viewer", index=1)  # a seat's view, open to all now the game is over
    page.wait_for_selector("#play:enabled")
    page.wait_for_selector("#board[aria-busy=false]")
    assert any("seat=0" in url and "from=" in url for url in asked)
    screenshot(page, "replay-long")
