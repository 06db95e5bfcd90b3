"""A club's server with members' data packs: the lobby offers them per game, and the game,
the lobby list and the replay page say which data a game uses."""

from __future__ import annotations

import pytest

from tests.server.process import free_port, start_server
from tests.test_packs import OTHER_DECK, pack

from .conftest import screenshot
from .test_lobby import created_id


@pytest.fixture
def club(tmp_path):
    pack(tmp_path / "packs" / "deck", "reconstruct", actions=OTHER_DECK)
    port = free_port()
    process = start_server(f"sqlite:///{tmp_path / 'club.db'}", port,
                           extra=("--data-dir", str(tmp_path / "packs")))
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=10)


def test_the_lobby_offers_a_pack_and_every_page_says_which_data_a_game_uses(club, page):
    page.goto(club + "/")
    page.select_option("#game-select", "masks")
    assert not page.is_visible("#data-select")  # no pack for Masks: no choice to make
    page.select_option("#game-select", "reconstruct")
    assert page.locator("#data-select option").all_inner_texts() == [
        "built-in (our reconstruction)", "data pack “my cards”"]
    page.select_option("#data-select", label="data pack “my cards”")
    screenshot(page, "lobby-data-pack")
    page.click("#create-form button[type=submit]")
    game_id = created_id(page)
    page.wait_for_selector(f"#game-list li[data-game='{game_id}']")
    assert "data pack “my cards”" in page.inner_text(f"#game-list li[data-game='{game_id}']")
    page.goto(f"{club}/games/{game_id}")
    page.wait_for_selector("#title .data-pack")
    assert "data pack “my cards”" in page.inner_text("#title")
    screenshot(page, "game-data-pack")
    page.goto(f"{club}/games/{game_id}/replay")
    page.wait_for_selector("#title strong")
    assert "data pack “my cards”" in page.inner_text("#title")
    screenshot(page, "replay-data-pack")
