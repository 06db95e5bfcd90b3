"""`matanui arena --players`: one agent against a field of another in Quest for Makuta with
four players, measured against the fair share of a quarter."""

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from matanui.arena import tournament
from matanui.arena.field import field_result, field_specs
from matanui.arena.tournament import GameOutcome
from matanui.cli import app

runner = CliRunner()


def field(tmp_path, *extra, games="8"):
    return runner.invoke(app, ["arena", "makuta", "--agents", "heuristic,random", "--players", "4",
                               "--games", games, "--seed", "3", "--out", str(tmp_path), *extra])


def test_the_heuristic_wins_far_more_than_its_fair_share_against_three_random_players(tmp_path):
    result = field(tmp_path)
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "makuta" / "field.json").read_text())
    assert (summary["games"], summary["players"], summary["fair_share"]) == (8, 4, 0.25)
    assert summary["share"] == summary["wins"] / 8
    assert summary["interval95"][0] > 0.25  # the whole interval lies above the fair share
    assert [seat["games"] for seat in summary["per_seat"]] == [2, 2, 2, 2]
    assert summary["costs"]["heuristic"]["decisions"] > 0
    assert len((tmp_path / "makuta" / "games.jsonl").read_text().splitlines()) == 8


def test_the_first_agent_sits_in_every_seat_and_plays_every_character():
    specs = field_specs("makuta", ["hard", "heuristic"], players=4, games=24, seed=10)
    seats = [spec.agents.index("hard") for spec in specs]
    assert seats == [n % 4 for n in range(24)]
    assert all(spec.agents.count("heuristic") == 3 for spec in specs)
    own = Counter((spec.agents.index("hard"), spec.characters[spec.agents.index("hard")]) for spec in specs)
    assert len(own) == 4 * 6  # each seat with each of the six Toa
    assert all(len(set(spec.characters)) == 4 for spec in specs)
    assert field_specs("makuta", ["hard", "heuristic"], players=4, games=24, seed=10) == specs


def test_a_shared_win_counts_a_share_and_a_game_without_winner_counts_nothing():
    def outcome(agents, winners):
        return GameOutcome("makuta", agents, ["tahu", "onua", "lewa"], 0, winners, 10, 5,
                           [1, 1, 1], [0.0] * 3, [0.0] * 3)

    result = field_result("makuta", [outcome(["a", "b", "b"], [0, 1]), outcome(["b", "a", "b"], []),
                                     outcome(["b", "b", "a"], [2])], "a", "b", 3)
    assert (result.games, result.wins, result.draws) == (3, 1.5, 1)
    assert [seat["wins"] for seat in result.per_seat] == [0.5, 0.0, 1.0]


def test_a_resumed_field_gives_the_same_results_as_an_uninterrupted_one(tmp_path, monkeypatch):
    assert field(tmp_path).exit_code == 0
    folder = tmp_path / "makuta"
    journal = folder / "games.jsonl"
    complete = journal.read_text().splitlines()
    whole = json.loads((folder / "field.json").read_text())
    journal.write_text("\n".join(complete[:5]) + "\n")  # as if stopped after five games
    (folder / "field.json").unlink()
    played = []
    real = tournament.play_spec
    monkeypatch.setattr(tournament, "play_spec", lambda spec: played.append(spec) or real(spec))
    assert field(tmp_path).exit_code == 0
    assert len(played) == 3
    resumed = json.loads((folder / "field.json").read_text())

    def without_times(summary):  # thinking times differ from run to run; all else may not
        for cost in summary["costs"].values():
            del cost["seconds_per_move"], cost["iterations_per_second"]
        return summary

    assert without_times(resumed) == without_times(whole)


@pytest.mark.parametrize(("game", "extra", "words"), [
    ("makuta", ["--players", "7"], "makuta is for 2 to 6 players, not 7"),
    ("reconstruct", ["--players", "4"], "reconstruct is for exactly 2 players, not 4"),
    ("makuta", ["--players", "4", "--agents", "hard,heuristic,random"], "exactly two different agents"),
    ("makuta", ["--players", "4", "--pairs"], "does not combine with --pairs or --sprt"),
    ("makuta", ["--players", "4", "--sprt", "0,100"], "does not combine with --pairs or --sprt"),
])
def test_a_field_that_cannot_be_played_is_refused_and_writes_nothing(tmp_path, game, extra, words):
    result = runner.invoke(app, ["arena", game, "--agents", "heuristic,random", "--games", "2",
                                 "--out", str(tmp_path), *extra])
    assert result.exit_code == 2
    assert words in " ".join(result.output.split())  # Rich wraps long lines
    assert list(tmp_path.iterdir()) == []
