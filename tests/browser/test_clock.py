"""A real-time clock in the browser: it counts down for the seat deciding, turns red under
10 s, and when it runs out the other player chooses; here a bot takes the late seat, and
both browsers see it. At laptop and phone width."""

from __future__ import annotations

import pytest

from tests.server.clocked import stored_game
from tests.server.process import free_port, start_server

from .conftest import LAPTOP, PHONE, screenshot

# The clock runs out 14 s after the game is stored (its decision began 16 s before), and the
# server has a bot take the seat 30 s after that: a window wide enough for a loaded machine to
# start the server and open both pages in (with a 14 s move and grace, a CI run once opened
# them so late that the server had replaced the seat before the button could be seen).
QUICK = {"kind": "realtime", "move_seconds": 30, "bank_seconds": 0}
STARTED_AGO = 16


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_real_time_clock_runs_out_and_the_other_player_has_a_bot_take_the_seat(browser, tmp_path, size):
    database = f"sqlite:///{tmp_path / 'clock.db'}"
    game_id, tokens, late = stored_game(database, QUICK, STARTED_AGO)
    port = free_port()
    process = start_server(database, port)
    try:
        server = f"http://127.0.0.1:{port}"
        pages = {}
        for seat in (late, 1 - late):
            context = browser.new_context(viewport=size)
            pages[seat] = context.new_page()
            pages[seat].goto(f"{server}/games/{game_id}#seat={seat}&token={tokens[seat]}")
        other, mine = pages[1 - late], pages[late]
        running = other.locator(f".clock[data-seat='{late}']")
        running.locator(".clock-time").filter(has_text="left").wait_for(timeout=15_000)
        other.locator(".clock.low").wait_for(timeout=15_000)  # red under 10 s
        screenshot(mine, f"clock-low-{'phone' if size is PHONE else 'laptop'}")
        choice = other.get_by_role("button", name="Replace with a bot")
        choice.wait_for(timeout=20_000)
        assert other.get_by_role("button", name="Expel").count() == 1
        mine.get_by_text("Your clock ran out").wait_for(timeout=5_000)
        screenshot(other, f"clock-expired-{'phone' if size is PHONE else 'laptop'}")
        choice.click()
        for page in pages.values():  # the seat is a bot's now, in both browsers
            page.locator(f".clock[data-seat='{late}'] .clock-time", has_text="bot").wait_for(timeout=10_000)
        other.locator(".clock-choice button").first.wait_for(state="detached", timeout=5_000)
        for page in pages.values():
            page.context.close()
    finally:
        process.terminate()
        process.wait(timeout=20)
