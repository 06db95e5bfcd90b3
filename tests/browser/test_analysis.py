"""The analysis on the replay page of a finished game: one click asks for it, the chart of
each player's chance fills in, with its axes (the chance in percent, the move numbers) and
its marked moves (buttons to their steps, listed too); a click on one goes to its step, where
"This step" tells that player's chance before and after and the best move. On a laptop the
chart fills its panel, beside the board, both in the window; on a phone it lies above the
board, and a tap on a mark goes to its step with the board in view."""

from __future__ import annotations

import time

import pytest

from tests.server.wire import call

from .conftest import PHONE, screenshot
from .test_accessibility import assert_accessible
from .test_replay import box, in_window

BOTS = [{"kind": "bot", "level": "easy"}] * 2
PERCENTS = ["0%", "25%", "50%", "75%", "100%"]


def finished(server: str, game: str, seed: int) -> str:
    game_id = call(server, "/api/games", {"game": game, "seed": seed, "seats": BOTS})["id"]
    deadline = time.time() + 60
    while call(server, f"/api/games/{game_id}")["status"] != "finished":
        assert time.time() < deadline
        time.sleep(0.3)
    return game_id


@pytest.fixture(scope="module")
def game_id(server) -> str:
    """A finished game (its analysis is worked out once, for every test here)."""
    return finished(server, "reconstruct", 2)


def analysed(server: str, page, game_id: str) -> None:
    page.goto(f"{server}/games/{game_id}/replay")
    page.get_by_role("button", name="Analyse this game").click()
    page.get_by_text("Each decision judged from the deciding player's view").wait_for(timeout=120_000)


def step_on_screen(page) -> int:
    return int(page.locator("#step").input_value())


def test_the_replay_analyses_a_finished_game_and_a_marked_move_can_be_visited(server, page, game_id):
    analysed(server, page, game_id)
    assert page.locator(".chance-chart polyline").count() == 2
    assert page.get_by_role("button", name="Analyse this game").count() == 0
    marked = page.locator(".analysis-marks button")
    assert marked.count() > 0  # two random players make mistakes (this deal: five)
    screenshot(page, "replay-analysis")
    first = marked.first
    number = int(first.inner_text().split(".")[0])
    first.click()
    assert page.locator("#position").inner_text().startswith(f"{number} /")
    judged = page.locator("#step-judged").inner_text()
    assert "chance:" in judged and "best:" in judged


def test_the_chart_has_axes_in_percent_and_move_numbers_and_fills_its_panel(server, page, game_id):
    analysed(server, page, game_id)
    assert page.locator(".chance-chart .y-tick").all_text_contents() == PERCENTS
    moves = [int(text) for text in page.locator(".chance-chart .x-tick").all_text_contents()]
    last = int(page.locator("#step").get_attribute("max"))
    assert len(moves) >= 4 and moves == sorted(moves) and moves[0] == 0 and moves[-1] <= last
    assert page.locator(".chance-chart .axis-name").all_text_contents() == ["move", "chance to win"]
    for part in ("title", "desc"):  # its name and description for a screen reader
        assert page.locator(f".chance-chart > {part}").text_content()
    chart, panel = box(page, ".chance-chart"), box(page, "#analysis-panel")
    assert chart["width"] >= 0.6 * panel["width"] and chart["height"] >= 160
    assert in_window(chart) and in_window(box(page, "#board"))  # both in sight, no scrolling
    assert_accessible(page, "replay with its analysis")


def test_a_mark_on_the_chart_is_a_button_to_its_step(server, page, game_id):
    analysed(server, page, game_id)
    marks = page.locator(".chance-chart .mark[role=button]")
    assert marks.count() == page.locator(".analysis-marks button").count() > 0
    label = marks.first.get_attribute("aria-label")
    number = int(label.split("move ")[1].split(",")[0])
    assert label.startswith("Go to move") and ("%" in label)
    assert marks.first.locator(".mark-symbol").text_content() in ("?!", "?", "??")
    marks.first.click()
    assert step_on_screen(page) == number
    page.click("#first")
    marks.first.focus()
    page.keyboard.press("Enter")
    assert step_on_screen(page) == number


def test_on_a_phone_the_chart_lies_above_the_board_and_a_tap_on_a_mark_goes_to_it(server, page, game_id):
    page.set_viewport_size(PHONE)
    analysed(server, page, game_id)
    chart, board = box(page, ".chance-chart"), box(page, "#board")
    assert chart["bottom"] <= board["top"] and chart["right"] <= PHONE["width"]
    assert chart["height"] >= 160
    mark = page.locator(".chance-chart .mark[role=button]").last
    number = int(mark.get_attribute("aria-label").split("move ")[1].split(",")[0])
    mark.click()
    assert step_on_screen(page) == number
    board = box(page, "#board")
    assert board["top"] < PHONE["height"] and board["bottom"] > 0  # the board brought into view
    assert_accessible(page, "replay with its analysis on a phone")


def test_while_the_analysis_waits_its_turn_the_page_says_how_many_are_before_it(server, page, game_id):
    befores = iter([2, 1])  # the server's first two answers: queued, then the real analysis

    def answer(route) -> None:
        before = next(befores, None)
        if before is None:
            route.continue_()
            return
        route.fulfill(json={"status": "queued", "position": before, "complete": False, "total": None,
                            "decisions": [], "turning_points": [], "marks": {}})

    page.route("**/api/games/*/analysis", answer)
    page.goto(f"{server}/games/{game_id}/replay")
    page.get_by_role("button", name="Analyse this game").click()
    page.get_by_text("Waiting: 2 analyses before yours").wait_for(timeout=10_000)
    assert page.get_by_role("button", name="Waiting…").is_disabled()
    page.get_by_text("Waiting: 1 analysis before yours").wait_for(timeout=10_000)
    page.get_by_text("Each decision judged from the deciding player's view").wait_for(timeout=120_000)
