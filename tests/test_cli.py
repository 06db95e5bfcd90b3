"""The `matanui` command, driven as a person would: typed answers, bad input, Ctrl-C."""

import json

import pytest
from typer.testing import CliRunner

from matanui.cli import app

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_games_lists_every_game():
    result = run("games")
    assert result.exit_code == 0
    assert "reconstruct" in result.output and "Toa Nuva Reconstruct" in result.output


def test_play_against_a_bot_to_the_end_with_typed_numbers(tmp_path):
    save = tmp_path / "game.json"
    result = run("play", "reconstruct", "--as", "tahu", "--vs", "heuristic", "--seed", "7",
                 "--save", str(save), input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    record = json.loads(save.read_text())
    assert record["game"] == "reconstruct" and record["players"][0] == "tahu"


def test_bad_input_is_answered_and_asked_again(tmp_path):
    result = run("play", "reconstruct", "--as", "tahu", "--seed", "7", "--save",
                 str(tmp_path / "g.json"), input="99\nbanana\n?\nq\n")
    assert result.exit_code == 0
    assert "There is no action 99" in result.output
    assert "banana is not a legal action" in result.output
    assert "Type the number of an action" in result.output


def test_quitting_saves_and_resume_continues(tmp_path):
    save = tmp_path / "g.json"
    run("play", "reconstruct", "--as", "tahu", "--seed", "3", "--save", str(save), input="1\n1\nq\n")
    moves = len(json.loads(save.read_text())["actions"])
    assert moves >= 2
    result = run("play", "--resume", str(save), input="1\nq\n")
    assert result.exit_code == 0
    assert len(json.loads(save.read_text())["actions"]) > moves


def test_end_of_input_saves_instead_of_crashing(tmp_path):
    save = tmp_path / "g.json"
    result = run("play", "reconstruct", "--as", "tahu", "--save", str(save), input="")
    assert result.exit_code == 0 and "Game saved" in result.output and save.exists()


def test_hotseat_asks_each_player_in_turn(tmp_path):
    result = run("play", "reconstruct", "--as", "tahu", "--hotseat", "--save",
                 str(tmp_path / "g.json"), input="\n1\n\n1\nq\n")
    assert "Player 1, your turn" in result.output or "Player 2, your turn" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess"], "no game named 'chess'"),
        (["play", "reconstruct", "--as", "bob"], "'bob' is not a character of reconstruct"),
        (["play", "reconstruct", "--vs", "genius"], "no agent named 'genius'"),
        (["play", "reconstruct", "-o", "advanced"], "must look like key=value"),
        (["play", "reconstruct", "-o", "speed=9"], "reconstruct has no option 'speed'"),
        (["play", "reconstruct", "-o", "advanced=9"], "advanced must be true or false"),
        (["play", "reconstruct", "--players", "3"], "reconstruct is for 2 to 2 players"),
        (["play", "--resume", "/nonexistent.json"], "cannot read record"),
        (["bench", "chess"], "no game named 'chess'"),
    ],
)
def test_bad_options_get_a_clear_error_and_exit_status_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_replay_prints_a_whole_saved_game(tmp_path):
    save = tmp_path / "g.json"
    run("play", "reconstruct", "--as", "gali", "--seed", "5", "--save", str(save), input="1\n" * 400)
    result = run("replay", str(save), "--all")
    assert result.exit_code == 0
    assert "Player 1 builds Gali Nuva" in result.output


def test_replay_steps_forwards_and_back(tmp_path):
    save = tmp_path / "g.json"
    run("play", "reconstruct", "--as", "gali", "--seed", "5", "--save", str(save), input="1\n1\nq\n")
    result = run("replay", str(save), input="\n\nb\nq\n")
    assert result.exit_code == 0
    assert "after action 0" in result.output and "after action 2" in result.output
    assert result.output.count("after action 1 ") == 2


def test_bench_reports_steps_per_second():
    result = run("bench", "reconstruct", "--seconds", "0.2")
    assert result.exit_code == 0
    assert "steps/s" in result.output
