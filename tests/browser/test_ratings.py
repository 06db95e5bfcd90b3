"""A player's profile: their rating in words, its history as a plot with axis labels and a
description a screen reader reads, their rated games newest first; the leaderboard links to
it, with the bots as reference rows. Laptop and phone pictures are kept; nothing is wider
than a phone, and the strict Content-Security-Policy blocks nothing."""

from __future__ import annotations

import itertools
import secrets
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import insert

from matanui.server.ratings import record_game
from matanui.server.storage import Storage
from matanui.server.users import users_table
from tests.server.process import free_port, start_server

from .conftest import PHONE, screenshot
from .test_boards import create

NAMES = ("Kopaka", "Lewa", "Onua", "Pohatu", "Gali", "Tahu", "Nuju")


@pytest.fixture(scope="module")
def rated_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose database holds a league: seven accounts that have played each other
    once a week for three weeks (18 rated games each, against 6 opponents: established, so on
    the leaderboard). The lower in NAMES mostly wins, with upsets (a third of the games, Lewa
    over Kopaka in the last week among them), so every rating's RD falls under 110."""
    database = f"sqlite:///{tmp_path_factory.mktemp('ratings') / 'matanui.db'}"
    port = free_port()
    process = start_server(database, port)
    server = f"http://127.0.0.1:{port}"
    storage = Storage(database)
    users = []
    for name in NAMES:
        users.append(secrets.token_hex(8))
        with storage.engine.begin() as db:
            db.execute(insert(users_table).values(id=users[-1], name=name, name_key=name.casefold(),
                                                  password_hash="-", created=time.time(),
                                                  password_changed=time.time()))
    for week in range(3):
        for first, second in itertools.combinations(range(len(NAMES)), 2):
            game = create(server, "reconstruct", 1, seed=week)  # any stored game: rated directly here
            upset = (first + second + week) % 3 == 0 or (week, first, second) == (2, 0, 1)
            winner = 1 if upset else 0
            record_game(storage, game["id"], "reconstruct", [users[first], users[second]], [winner],
                        time.time() - (3 - week) * 8 * 86400 + first * 10 + second)
    storage.close()
    yield server
    process.terminate()
    process.wait(timeout=20)


def test_a_profile_shows_the_rating_its_plot_and_the_games(rated_server, page):
    blocked: list[str] = []
    page.on("console", lambda message: blocked.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.goto(rated_server + "/ratings/reconstruct")
    rows = page.locator("table.leaderboard tbody tr")
    rows.first.wait_for()
    assert "Kopaka" in rows.nth(0).inner_text() and "Lewa" in rows.nth(1).inner_text()
    assert page.get_by_text("Bot (medium)").is_visible()
    screenshot(page, "leaderboard")

    page.get_by_role("link", name="Kopaka").click()
    page.wait_for_url("**/players/Kopaka")
    plot = page.get_by_role("img", name="rating history")
    plot.wait_for()
    description = page.locator("svg.rating-plot desc").text_content()
    assert description.startswith("18 rated games, from ")
    assert page.locator("svg.rating-plot text", has_text="Rating").count() == 1
    assert page.locator("svg.rating-plot text", has_text="Rated games").count() == 1
    assert page.locator("svg.rating-plot circle").count() == 18
    results = page.locator("table.leaderboard tbody tr")
    assert results.count() == 18 and "Won" in results.nth(0).inner_text()  # the newest first
    assert "Lost" in results.nth(5).inner_text() and "Lewa" in results.nth(5).inner_text()
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size({"width": 1280, "height": 800})
    screenshot(page, "profile")
    assert not blocked, blocked
