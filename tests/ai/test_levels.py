"""Each bot level says what it is and how it scored against easy, only where measured under
the game's current rules."""

import pytest
from typer.testing import CliRunner

from matanui import games
from matanui.ai import levels
from matanui.cli import app


def test_every_level_of_every_game_has_its_words():
    for name in games.names():
        notes = levels.describe(name)
        assert list(notes) == ["easy", "medium", "hard"]
        assert "the others are measured against" in notes["easy"]


def test_a_measured_level_gives_its_score_interval_and_games():
    assert levels.against("reconstruct", "medium") == (
        "scores 0.85 against easy (0.80-0.91, 200 games): about +308 Elo")


def test_hard_also_says_how_it_scored_against_medium():
    notes = levels.describe("reconstruct")
    assert "against medium (0.59-0.65, 800 games)" in notes["hard"]
    assert "medium" not in notes["medium"].split(";", 1)[1]


def test_a_figure_from_older_rules_is_not_shown_as_current(monkeypatch):
    monkeypatch.setattr(games.get("makuta"), "rules_version", "3")
    assert levels.against("makuta", "medium") == "not yet measured against easy under the current rules"


def test_play_help_names_the_levels_and_their_scores():
    output = CliRunner().invoke(app, ["play", "--help"], terminal_width=200).output
    text = " ".join(output.replace("│", " ").split())  # the words, not Rich's box and wrapping
    assert "medium, the game's sensible player" in text
    assert "reconstruct 0.85 (+308 Elo)" in text
    assert "(in makuta: the sensible player, its judgement tuned over 56,000 games" in text
    assert ("against medium: reconstruct 0.62 (+85 Elo), masks 0.86 (+311 Elo), "
            "makuta 0.71 (+153 Elo)") in text


def test_a_level_that_is_another_thing_in_one_game_says_so_there():
    assert levels.what("hard", "makuta").startswith("the sensible player, its judgement tuned")
    assert levels.what("hard", "masks") == levels.what("hard") and "searches" in levels.what("hard")
    assert levels.describe("makuta")["hard"].startswith("the sensible player, its judgement tuned")


def test_every_figure_shown_is_recomputed_from_its_committed_journal():
    """The lobby's figures are the journals' results, not numbers typed in by hand."""
    import json
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads(levels.LEVELS_FILE.read_text())
    opponents = {"easy": "random", "medium": "heuristic"}
    for key in ("against_easy", "against_medium"):
        opponent = opponents[key.removeprefix("against_")]
        for row in data[key]:
            journal = root / row["journal"]
            test = journal.with_name("sprt.json")
            if test.exists():  # a sequential test: its figures are those where it stopped
                stopped = json.loads(test.read_text())
                assert stopped["games"] == row["games"] and stopped["verdict"] != "undecided", row["journal"]
                assert stopped["score"] == pytest.approx(row["score"], abs=0.0005)
                assert stopped["interval95"] == pytest.approx(row["interval"], abs=0.0005)
                continue
            games_played = [json.loads(line) for line in journal.read_text().splitlines()]
            score = 0.0
            for played in games_played:
                seat = next(i for i, agent in enumerate(played["agents"]) if agent != opponent)
                winners = played["winners"]
                score += (seat in winners) / len(winners) if winners else 0.5
            assert len(games_played) == row["games"], row["journal"]
            assert score / len(games_played) == pytest.approx(row["score"], abs=0.0005), row["journal"]
