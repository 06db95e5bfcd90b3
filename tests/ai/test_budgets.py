"""A bot's budget after '@' has the same bounds from every source (a command's --vs or
--agents, a saved game's seating, a stored game's seat): no name can make a bot think for
hours at its turn."""

import json

import pytest
from typer.testing import CliRunner

from matanui.ai import make_agent
from matanui.ai.registry import MAX_ITERATIONS, MAX_SECONDS
from matanui.cli import app
from matanui.engine import MatanuiError


@pytest.mark.parametrize(("spec", "words"), [
    ("hard@1000000000", "a number of seconds above 0 and at most 60"),
    ("hard@inf", "a number of seconds above 0 and at most 60"),
    ("hard@nan", "a number of seconds above 0 and at most 60"),
    ("hard@0", "a number of seconds above 0 and at most 60"),
    ("ismcts@999999999", "a whole number of iterations from 1 to 100,000"),
    ("ismcts-infer@100001", "a whole number of iterations from 1 to 100,000"),
    ("ismcts@0", "a whole number of iterations from 1 to 100,000"),
    ("ismcts@" + "9" * 150, "a whole number of iterations from 1 to 100,000"),
])
def test_a_budget_past_the_bounds_is_refused_saying_them(spec, words):
    with pytest.raises(MatanuiError, match=words) as error:
        make_agent(spec, "reconstruct")
    assert len(str(error.value)) < 300


@pytest.mark.parametrize("spec", [f"hard@{MAX_SECONDS:g}", f"ismcts@{MAX_ITERATIONS}",
                                  f"ismcts-infer@{MAX_ITERATIONS}", "hard@0.05", "ismcts@1"])
def test_budgets_up_to_the_bounds_are_taken(spec):
    assert make_agent(spec, "reconstruct").name == spec


def test_a_megabyte_agent_name_is_refused_in_a_short_message():
    with pytest.raises(MatanuiError) as error:
        make_agent("x" * 1_000_000, "reconstruct")
    assert len(str(error.value)) < 400 and "(1,000,000 characters)" in str(error.value)


@pytest.mark.parametrize(("bot", "bounds"), [("hard@1000000000", "at most 60"),
                                             ("ismcts@999999999", "from 1 to 100,000")])
def test_a_saved_game_seating_a_bot_past_the_bounds_is_refused_on_resume(tmp_path, bot, bounds):
    save = tmp_path / "game.json"
    runner = CliRunner()
    assert runner.invoke(app, ["play", "reconstruct", "--seed", "3", "--save", str(save)],
                         input="q\n").exit_code == 0
    data = json.loads(save.read_text())
    data["terminal"]["seats"][1] = bot
    save.write_text(json.dumps(data))
    result = runner.invoke(app, ["play", "--resume", str(save)], input="q\n")
    said = " ".join(result.output.split())
    assert result.exit_code == 2 and "budget after '@'" in said and bounds in said, said


def test_the_command_line_has_the_same_bounds():
    result = CliRunner().invoke(app, ["play", "reconstruct", "--vs", "hard@1000000000", "--seed", "1"],
                                input="q\n")
    assert result.exit_code == 2 and "at most 60" in " ".join(result.output.split())
