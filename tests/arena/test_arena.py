"""The arena: round robin files, costs per decision, and a journal that resumes."""

import json

from typer.testing import CliRunner

from matanui.arena import report, tournament
from matanui.arena.tournament import GameOutcome
from matanui.cli import app

runner = CliRunner()


def arena(tmp_path, *extra):
    return runner.invoke(app, ["arena", "reconstruct", "--agents", "random,heuristic", "--games", "4",
                               "--out", str(tmp_path), *extra])


def test_an_arena_writes_its_tables_journal_and_plot(tmp_path):
    result = arena(tmp_path)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "reconstruct"
    summary = json.loads((folder / "arena.json").read_text())
    assert summary["games"] == 4
    assert summary["win_rates"]["heuristic"]["random"]["games"] == 4
    assert summary["per_agent"]["random"]["decisions"] > 0
    assert len((folder / "games.jsonl").read_text().splitlines()) == 4
    assert (folder / "win-matrix.png").stat().st_size > 0


def test_a_rerun_plays_only_the_games_the_journal_lacks(tmp_path, monkeypatch):
    assert arena(tmp_path).exit_code == 0
    journal = tmp_path / "reconstruct" / "games.jsonl"
    complete = journal.read_text().splitlines()
    journal.write_text("\n".join(complete[:3]) + "\n")  # as if stopped after three games
    played = []
    real = tournament.play_spec
    monkeypatch.setattr(tournament, "play_spec", lambda spec: played.append(spec) or real(spec))
    assert arena(tmp_path).exit_code == 0
    assert len(played) == 1

    def games(lines):  # the games themselves; thinking times differ from run to run
        return sorted((row["seed"], row["winners"], row["steps"]) for row in map(json.loads, lines))

    assert games(journal.read_text().splitlines()) == games(complete)


def test_a_damaged_journal_is_refused_and_left_alone(tmp_path):
    journal = tmp_path / "reconstruct" / "games.jsonl"
    journal.parent.mkdir()
    journal.write_text('{"seed": 1}\n')
    result = arena(tmp_path)
    assert result.exit_code == 2
    message = result.output.replace("\n", "")  # Rich wraps long lines
    assert "games.jsonl, line 1" in message and "start afresh" in message
    assert journal.read_text() == '{"seed": 1}\n'


def test_costs_are_weighted_by_decisions_not_by_games():
    def outcome(decisions, seconds):
        return GameOutcome("reconstruct", ["hard", "random"], ["tahu", "kopaka"], 0, [0], 10, 5,
                           decisions=[decisions, 3], seconds_per_move=[seconds, 0.0],
                           iterations_per_move=[100.0 * seconds, 0.0])

    costs = report.per_agent_costs([outcome(30, 1.0), outcome(10, 0.2)])["hard"]
    assert costs["decisions"] == 40
    assert costs["seconds_per_move"] == (30 * 1.0 + 10 * 0.2) / 40
    assert costs["iterations_per_second"] == 100.0
