"""A whole game of each game against a `medium` bot, played by clicking as a person would, at
laptop and at phone width: your own pieces and your decision on screen at every decision, the
decision at most a quarter of a phone's height, the `Last move` line told after every move of
the bot, the end as a dialog from your side, and no error on the page. The clicks a whole
game takes are printed (docs/performance.md, "Clicks a game takes", keeps the figures)."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest

from .conftest import LAPTOP, PHONE, screenshot
from .person import Person, create_game

# Short variants keep the phone games brief (Masks to three masks); Makuta is played to a turn
# limit of 40 at both widths (a drawn game unless someone wins first: a whole Makuta game by a
# person who clicks the first highlighted space takes some 300 decisions).
GAMES = [("reconstruct", {}), ("masks", {"short": True}), ("makuta", {"turn_limit": 40})]
ALWAYS = {"makuta"}


@pytest.mark.parametrize("width", ["laptop", "phone"])
@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_whole_game_against_a_bot_by_clicking(server, browser, game, options, width):
    context = browser.new_context(viewport=LAPTOP if width == "laptop" else PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    short = width == "phone" or game in ALWAYS
    page.goto(create_game(server, game, seed=21, options=options if short else {}))
    person = Person(page, game)
    person.settle()
    person.play_to_the_end()
    print(f"\n{game} at {width}: {person.clicks} clicks for {person.decisions} decisions")

    # The moves were told: the line changed between most of the person's decisions; it told
    # the bot's moves, not only the person's own, and the person as "you", never by name.
    lines = person.last_moves
    assert all(line.startswith("Last move:") for line in lines)
    assert sum(a != b for a, b in pairwise(lines)) > len(lines) // 2
    assert sum(not line.removeprefix("Last move: ").startswith("You ") for line in lines) >= 3
    assert any("You " in line for line in lines)
    assert not any("Ana" in line for line in lines), [line for line in lines if "Ana" in line][:3]
    # One mover a line: two players' rolls are never told as one (the issue's "Tahu rolls the
    # white die: 5. … Gali rolls the white die: 3.").
    for movers in person.move_lines:
        assert all(len(re.findall(r"\brolls? the \w+ die\b", line)) <= 1 for line in movers), movers
    end = page.get_by_role("dialog")
    assert end.is_visible()
    assert end.locator("h2").inner_text() in ("You won", "You lost", "Draw")
    assert end.get_by_role("button", name="Rematch").is_visible()
    assert end.get_by_role("link", name="Replay").is_visible()
    screenshot(page, f"table-{game}-{width}-end")
    context.close()
    assert not errors, errors
