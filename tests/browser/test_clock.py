"""A real-time clock in the browser: it counts down for the seat deciding, turns red under
10 s, and when it runs out (both players have made two moves) the late player reads that
their time ran out and the other chooses: wait, then claim the win; both browsers see the
end. At laptop and phone width."""

from __future__ import annotations

import pytest

from tests.server.clocked import hand_over
from tests.server.process import free_port, start_server
from tests.server.wire import call

from .conftest import LAPTOP, PHONE, screenshot

# The clock of a seat's timed decision starts when the other player has played its move through
# the running server, with both pages open, so a slow start eats none of the window: it turns
# red 10 s later, runs out 10 s after that, and the server ends it on time 20 s later if
# nobody chose (a CI run, with the game stored before the server started, once began so
# slowly that the seat had been replaced before the button could be seen).
QUICK = {"kind": "realtime", "move_seconds": 20, "bank_seconds": 0}
PEOPLE = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}]


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_real_time_clock_runs_out_and_the_other_player_waits_then_claims_the_win(browser, tmp_path, size):
    port = free_port()
    process = start_server(f"sqlite:///{tmp_path / 'clock.db'}", port)
    try:
        server = f"http://127.0.0.1:{port}"
        created = call(server, "/api/games", {"game": "reconstruct", "seats": PEOPLE, "pace": QUICK})
        game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
        pages = {}
        for seat in (0, 1):  # both players come: only then is a seat's decision timed
            context = browser.new_context(viewport=size)
            pages[seat] = context.new_page()
            pages[seat].goto(f"{server}{created['seats'][seat]['link']}")
            pages[seat].locator(f".clock[data-seat='{seat}']").wait_for(timeout=30_000)
        late = hand_over(port, game_id, tokens)
        other, mine = pages[1 - late], pages[late]
        running = other.locator(f".clock[data-seat='{late}']")
        running.locator(".clock-time").filter(has_text="left").wait_for(timeout=10_000)
        other.locator(".clock.low").wait_for(timeout=20_000)  # red under 10 s
        screenshot(mine, f"clock-low-{'phone' if size is PHONE else 'laptop'}")
        wait = other.get_by_role("button", name="Wait")
        wait.wait_for(timeout=20_000)
        assert other.get_by_role("button", name="Replace with a bot").count() == 0  # two players
        mine.get_by_text("Your time ran out").first.wait_for(timeout=5_000)
        assert mine.locator("#time-out").is_visible()  # beside the decision, in sight on a phone
        screenshot(other, f"clock-expired-{'phone' if size is PHONE else 'laptop'}")
        screenshot(mine, f"clock-ran-out-{'phone' if size is PHONE else 'laptop'}")
        wait.click()
        other.get_by_text("you are waiting for them").wait_for(timeout=10_000)
        other.get_by_role("button", name="Claim the win").click()
        other.get_by_role("dialog", name="You won").wait_for(timeout=10_000)
        mine.get_by_role("dialog", name="You lost").wait_for(timeout=10_000)
        assert "time ran out" in mine.locator("#end").inner_text()
        for page in pages.values():
            page.context.close()
    finally:
        process.terminate()
        process.wait(timeout=20)
