"""Tutorials in the browser: found in the lobby, played to the end by clicking, a hint for a
move that is not the tutorial's, the printed outcome at the end; no console errors. Pictures
of each tutorial at both widths are kept."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from .conftest import PHONE, screenshot
from .test_hints import until_a_choice

RULE_ID = re.compile(r"\b[A-Z]{3,}(?:-[A-Z0-9]+)+\b")  # MAKUTA-COLLECT, as docs/rules names rules
TUTORIALS = [("reconstruct", 1), ("masks", 1), ("masks", 2), ("masks", 3), ("makuta", 1)]


def learners_moves(server: str, game: str, number: int) -> list[str]:
    with urllib.request.urlopen(f"{server}/api/tutorials/{game}/{number}", timeout=10) as answer:
        lesson = json.load(answer)
    return [step["action"] for step in lesson["steps"] if step["seat"] == lesson["seat"]]


@pytest.mark.parametrize(("game", "number"), TUTORIALS, ids=[f"{g}-{n}" for g, n in TUTORIALS])
def test_a_tutorial_is_played_to_its_end_by_clicking(server, page, game, number):
    console_errors: list[str] = []
    page.on("console", lambda note: console_errors.append(note.text) if note.type == "error" else None)
    page.goto(server + "/")
    page.click(f'.game-card a[href="/tutorials/{game}/{number}"]')
    moves = learners_moves(server, game, number)
    first = page.locator(f'#actions button[data-action="{moves[0]}"]:enabled')
    first.wait_for()
    assert page.text_content("#intro")
    # What the step teaches is said in words; its rule id stays off the screen.
    assert page.get_attribute("#explain", "data-teaches")
    assert not RULE_ID.search(page.inner_text("body"))

    # A legal move that is not the tutorial's: a hint, and the tutorial's move is pointed out.
    other = page.locator(f'#actions button:enabled:not([data-action="{moves[0]}"])')
    if other.count():
        other.first.click()
        page.wait_for_selector("#hint:not([hidden])")
        assert "This step is to" in page.text_content("#hint")
        assert page.locator(f'#actions button.hint[data-action="{moves[0]}"]').count() == 1
    screenshot(page, f"tutorial-{game}-{number}-start")

    for index, action in enumerate(moves):
        button = page.locator(f'#actions button[data-action="{action}"]:enabled').first
        button.wait_for()
        if index == len(moves) // 2:
            screenshot(page, f"tutorial-{game}-{number}-middle")
        button.click()
    page.wait_for_selector("#over:not([hidden])")
    assert page.locator(".outcome li.good").count() >= 1 and page.locator(".outcome li.bad").count() == 0
    assert page.text_content("#status") == "Tutorial complete"
    screenshot(page, f"tutorial-{game}-{number}-end")
    assert not console_errors, console_errors


def test_a_reload_resumes_the_tutorial_where_it_was(server, page):
    page.goto(server + "/tutorials/masks/1")
    page.locator('#actions button[data-action="move:W"]:enabled').click()
    page.locator('#actions button[data-action="move:N"]:enabled').wait_for()
    assert page.evaluate("location.hash") == "#at=2"
    page.reload()
    page.locator('#actions button[data-action="move:N"]:enabled').wait_for()
    assert "Gali moves the Gali Mask one space to the East." in page.text_content("#log")


def test_the_lobby_lists_the_tutorials_on_a_phone(server, page):
    page.goto(server + "/")
    page.wait_for_selector('.game-card a[href="/tutorials/makuta/1"]')
    assert page.locator(".game-card .tutorial-list li").count() == len(TUTORIALS)
    screenshot(page, "lobby-tutorials")
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize(("game", "number", "label"), [
    ("masks", 1, "Play on from here against a bot, with hints"),
    ("reconstruct", 1, "Play a game against a bot, with hints"),
])
def test_after_the_last_step_the_learner_plays_on_against_a_bot_and_may_ask_for_hints(server, page, game,
                                                                                      number, label):
    page.goto(server + f"/tutorials/{game}/{number}#at=999")
    page.wait_for_selector("#over:not([hidden])")
    page.get_by_role("button", name=label).click()
    page.wait_for_url(re.compile(r"/games/"))
    until_a_choice(page).click()
    told = page.locator(".hint-text")
    told.wait_for(timeout=20_000)
    assert told.inner_text().startswith("Hint: ")
    screenshot(page, f"tutorial-{game}-{number}-played-on-with-a-hint")
