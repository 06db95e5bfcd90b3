"""The example fourth game (Race to ten, tests/example_game) in the browser, which knows
nothing of it: two people, each in their own browser (a laptop and a phone), open their seat
links and play it to the end on the plain board view by clicking its decisions; both read who
won. Pictures under artifacts/browser/race-*.png."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from tests.server.process import free_port, start_server

from .conftest import ARTIFACTS, LAPTOP, PHONE

CAN_ACT = """() => Boolean(document.querySelector('#actions button:not([disabled])'))
    && !document.body.classList.contains('acting')"""
OVER = "() => !document.querySelector('#over').hidden"


@pytest.fixture(scope="module")
def race_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    process = start_server(f"sqlite:///{tmp_path_factory.mktemp('race') / 'race.db'}", port,
                           command="tests.example_game.serve")
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=20)


def create(server: str) -> dict:
    body = {"game": "race", "seats": [{"kind": "human", "character": "hare", "name": "Ana"},
                                                 {"kind": "human", "character": "tortoise", "name": "Bo"}]}
    request = urllib.request.Request(server + "/api/games", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)
    except urllib.error.HTTPError as refusal:
        raise AssertionError(refusal.read().decode()) from None


def test_two_people_play_the_example_game_to_the_end_in_two_browsers(race_server, browser):
    catalog = json.load(urllib.request.urlopen(race_server + "/api/catalog", timeout=10))
    assert "race" in json.dumps(catalog)  # the lobby offers it beside the three games
    created = create(race_server)
    contexts = [browser.new_context(viewport=LAPTOP), browser.new_context(viewport=PHONE)]
    try:
        pages = [context.new_page() for context in contexts]
        errors: list[str] = []
        for page, seat in zip(pages, created["seats"], strict=True):
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(race_server + seat["link"])
            page.wait_for_selector(".plain-obs")
        clicks = waits = 0
        while not pages[0].evaluate(OVER):
            mover = next((page for page in pages if page.evaluate(CAN_ACT)), None)
            if mover is None:  # the move is on its way to the other browser
                waits += 1
                assert waits < 300, "neither browser could act for 30 s"
                pages[0].wait_for_timeout(100)
                continue
            mover.locator("#actions button:enabled").first.click()
            clicks += 1
            mover.wait_for_function(f"() => !({CAN_ACT})() || ({OVER})()", timeout=15_000)
            assert clicks <= 10  # steps of 1 or 2 to ten: at most ten decisions
            if clicks == 3:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                for page, label in zip(pages, ("laptop", "phone"), strict=True):
                    page.screenshot(path=str(ARTIFACTS / f"race-mid-game-{label}.png"))
        for page, label in zip(pages, ("laptop", "phone"), strict=True):
            end = page.get_by_role("dialog")
            end.wait_for(timeout=15_000)
            assert end.locator("h2").inner_text() in ("You won", "You lost")
            page.screenshot(path=str(ARTIFACTS / f"race-over-{label}.png"))
        assert not errors, f"the pages raised: {errors}"
    finally:
        for context in contexts:
            context.close()
