"""The analysis on the replay page of a finished game: one click asks for it, the chart of
each player's chance fills in, the marked moves are listed, and a click on one goes to its
step, where "This step" tells that player's chance before and after and the best move."""

from __future__ import annotations

import time

from tests.server.wire import call

from .conftest import screenshot

BOTS = [{"kind": "bot", "level": "easy"}] * 2


def finished(server: str, game: str, seed: int) -> str:
    game_id = call(server, "/api/games", {"game": game, "seed": seed, "seats": BOTS})["id"]
    deadline = time.time() + 60
    while call(server, f"/api/games/{game_id}")["status"] != "finished":
        assert time.time() < deadline
        time.sleep(0.3)
    return game_id


def test_the_replay_analyses_a_finished_game_and_a_marked_move_can_be_visited(server, page):
    game_id = finished(server, "reconstruct", 2)
    page.goto(f"{server}/games/{game_id}/replay")
    page.get_by_role("button", name="Analyse this game").click()
    page.get_by_text("Each decision judged from the deciding player's view").wait_for(timeout=120_000)
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
