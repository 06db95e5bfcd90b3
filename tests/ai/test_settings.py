"""A search's parameters written into its name, `ismcts@300{exploration=0.9}`, so that any
interface (the arena, `matanui tune`, a journal line) names exactly what played."""

import pytest
from typer.testing import CliRunner

from matanui.ai import make_agent
from matanui.ai.settings import split_agents, with_settings
from matanui.cli import app
from matanui.engine import MatanuiError


def test_braces_set_the_search_parameters():
    agent = make_agent("ismcts@300{exploration=0.9, rollout_limit=40}", "reconstruct")
    assert (agent.exploration, agent.rollout_limit, agent.iterations) == (0.9, 40, 300)
    assert agent.name == "ismcts@300{exploration=0.9, rollout_limit=40}"
    plain = make_agent("ismcts@300", "reconstruct")
    assert (plain.exploration, plain.rollout_limit) != (0.9, 40)


def test_anchor_margin_is_set_where_the_search_has_an_anchor():
    assert make_agent("ismcts@10{anchor_margin=0.05}", "makuta").anchor_margin == 0.05


def test_a_name_with_settings_is_written_back_the_same_way():
    assert with_settings("ismcts@300", {"exploration": 0.912345678}) == "ismcts@300{exploration=0.912346}"
    assert with_settings("ismcts@300{rollout_limit=40}", {"exploration": 1.5}) == \
        "ismcts@300{rollout_limit=40,exploration=1.5}"


def test_a_list_of_agents_splits_only_outside_braces():
    assert split_agents("ismcts@5{exploration=0.9,rollout_limit=4},heuristic,") == \
        ["ismcts@5{exploration=0.9,rollout_limit=4}", "heuristic"]


@pytest.mark.parametrize(("spec", "message"), [
    ("ismcts@300{c=1}", "no search parameter named 'c'"),
    ("ismcts@300{exploration=high}", "is not a number"),
    ("ismcts@300{exploration}", "is not NAME=VALUE"),
    ("ismcts@300{exploration=1,exploration=2}", "set twice"),
    ("ismcts@300{rollout_limit=4.5}", "takes a whole number"),
    ("ismcts@300{exploration=-1}", "cannot be negative"),
    ("ismcts@300{exploration=1", "one pair of braces at the end"),
    ("ismcts@300}", "without its"),
    ("heuristic{exploration=1}", "settings in braces are for the searches"),
    ("random{exploration=1}", "random takes no settings"),
    ("ismcts@300{anchor_margin=0.1}", "has no anchor"),
])
def test_bad_settings_are_refused_with_what_is_allowed(spec, message):
    with pytest.raises(MatanuiError, match=message):
        make_agent(spec, "reconstruct")


def test_the_arena_plays_an_agent_with_settings(tmp_path):
    result = CliRunner().invoke(app, ["arena", "reconstruct", "--agents",
                                      "ismcts@5{exploration=1.4,rollout_limit=30},ismcts@5",
                                      "--games", "2", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    journal = (tmp_path / "reconstruct" / "games.jsonl").read_text()
    assert journal.count("ismcts@5{exploration=1.4,rollout_limit=30}") == 2
