"""The lobby's introduction of each game is data with its provenance (data/intro.toml), served
in the catalog beside the characters' names and the bot levels in plain words."""

from __future__ import annotations

import pytest

from matanui import games

GAMES = games.names()


@pytest.mark.parametrize("game", GAMES)
def test_the_catalog_introduces_each_game_with_figures_that_agree_with_its_rules(client, game):
    entry = next(e for e in client.get("/api/catalog").json() if e["id"] == game)
    intro = entry["introduction"]
    rules = games.get(game)
    assert (intro["min_players"], intro["max_players"]) == (rules.min_players, rules.max_players)
    assert intro["minutes"] > 0 and intro["difficulty"] in ("easy", "medium", "hard") and intro["summary"]
    assert set(entry["character_names"]) == set(rules.characters())
    assert all(name[0].isupper() for name in entry["character_names"].values())


def test_bot_levels_are_plain_words_with_the_figures_apart(client):
    entry = next(e for e in client.get("/api/catalog").json() if e["id"] == "reconstruct")
    words = entry["level_words"]
    assert words["easy"]["what"] == "plays any legal move at random"
    assert not any("Elo" in w["what"] or "0." in w["what"] for w in words.values())
    assert words["medium"]["measured"].startswith("scores 0.85 against easy")
