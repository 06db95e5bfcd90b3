"""Each bot level says what it is and how it scored against easy, only where measured under
the game's current rules."""

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
    assert levels.against_easy("reconstruct", "medium") == (
        "scores 0.85 against easy (0.80-0.91, 200 games): about +308 Elo")


def test_a_figure_from_older_rules_is_not_shown_as_current(monkeypatch):
    monkeypatch.setattr(games.get("makuta"), "rules_version", "3")
    assert levels.against_easy("makuta", "medium") == "not yet measured against easy under the current rules"


def test_play_help_names_the_levels_and_their_scores():
    output = CliRunner().invoke(app, ["play", "--help"], terminal_width=200).output
    text = " ".join(output.replace("│", " ").split())  # the words, not Rich's box and wrapping
    assert "medium, the game's sensible player" in text
    assert "reconstruct 0.85 (+308 Elo)" in text
    assert "masks not measured yet" in text
