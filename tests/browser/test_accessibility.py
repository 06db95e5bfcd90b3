"""Every kind of page passes axe-core's checks with no serious or critical violation, at a
laptop's width and a phone's: the lobby, a game of each game, a replay, a tutorial of each
game and a How to play page. axe-core runs in Debian's chromium through Playwright."""

from __future__ import annotations

import json
import urllib.request

import pytest
from axe_playwright_python.sync_playwright import Axe

from .conftest import LAPTOP, PHONE
from .test_boards import open_game

GAMES = ["reconstruct", "masks", "makuta"]


def assert_accessible(page, what: str) -> None:
    violations = Axe().run(page).response["violations"]
    serious = [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes'][:3]]}"
               for v in violations if v["impact"] in ("serious", "critical")]
    assert not serious, f"{what}: " + "; ".join(serious)


def finished_game(server: str) -> str:
    """A game of two bots, played to its end by the server."""
    body = {"game": "reconstruct", "seed": 4, "seats": [{"kind": "bot", "level": "easy"}] * 2}
    request = urllib.request.Request(f"{server}/api/games", headers={"content-type": "application/json"},
                                     data=json.dumps(body).encode())
    return json.load(urllib.request.urlopen(request, timeout=10))["id"]


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_lobby_and_the_how_to_play_pages_are_accessible(server, page, size):
    page.set_viewport_size(size)
    page.goto(server + "/")
    page.wait_for_selector("#game-select option", state="attached")
    assert_accessible(page, "lobby")
    for game in GAMES:
        page.goto(f"{server}/rules/{game}")
        assert_accessible(page, f"how to play {game}")


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("game", GAMES)
def test_every_game_page_and_its_tutorial_are_accessible(server, page, size, game):
    page.set_viewport_size(size)
    open_game(server, page, game, 1)
    assert_accessible(page, f"{game} game page")
    page.goto(f"{server}/tutorials/{game}/1")
    page.wait_for_selector("#board *", timeout=15_000)
    assert_accessible(page, f"{game} tutorial")


def test_a_replay_is_accessible(server, page):
    game_id = finished_game(server)
    page.goto(f"{server}/games/{game_id}/replay")
    page.wait_for_selector(".reconstruct", timeout=30_000)
    assert_accessible(page, "replay")
