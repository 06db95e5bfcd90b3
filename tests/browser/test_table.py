"""A whole game of each game against a `medium` bot, played by clicking as a person would, at
laptop and at phone width (issue #21): your own pieces and your decision on screen at every
decision, the decision at most a quarter of a phone's height, the `Last move` line told after
every move of the bot, the end as a dialog from your side, and no error on the page. The
clicks a whole game takes are printed (docs/performance.md keeps the figures)."""

from __future__ import annotations

import pytest

from .conftest import LAPTOP, PHONE, screenshot
from .person import Person, create_game

# Short variants keep the phone games brief; the laptop plays the full game.
GAMES = [("reconstruct", {}), ("masks", {"short": True})]


@pytest.mark.parametrize("width", ["laptop", "phone"])
@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_whole_game_against_a_bot_by_clicking(server, browser, game, options, width):
    context = browser.new_context(viewport=LAPTOP if width == "laptop" else PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(create_game(server, game, seed=21, options=options if width == "phone" else {}))
    person = Person(page, game)
    person.settle()
    person.play_to_the_end()
    print(f"\n{game} at {width}: {person.clicks} clicks for {person.decisions} decisions")

    # The bot's moves were told: the line changed between the person's decisions.
    assert len(set(person.last_moves)) > person.decisions // 2
    assert all(line.startswith("Last move:") for line in person.last_moves)
    end = page.get_by_role("dialog")
    assert end.is_visible()
    assert end.locator("h2").inner_text() in ("You won", "You lost", "Draw")
    assert end.get_by_role("button", name="Rematch").is_visible()
    assert end.get_by_role("link", name="Replay").is_visible()
    screenshot(page, f"table-{game}-{width}-end")
    context.close()
    assert not errors, errors
