"""`hard` in Quest for Makuta is its planner with the weights `matanui tune` found
(data/tuned.toml): the weights are the committed run's result, not numbers typed in by hand,
and every arena that measured `hard` played exactly them."""

import gzip
import itertools
import json
import re
from pathlib import Path

import pytest

from matanui.ai import SeatView, make_agent, tuned
from matanui.ai.heuristics.makuta import Heuristic, Weights
from matanui.ai.settings import with_settings
from matanui.arena import tune
from matanui.engine import MatanuiError
from tests.play import new_random_game

ROOT = Path(__file__).resolve().parents[2]


def journal_steps(path: str) -> tuple[dict, list[tune.Step]]:
    settings, *steps = gzip.open(ROOT / path, "rt", encoding="utf-8").read().splitlines()
    return json.loads(settings)["spsa"], [tune.Step(**json.loads(line)) for line in steps]


def schedule(settings: dict) -> tune.Spsa:
    return tune.Spsa(tuple(tune.Param(**p) for p in settings["params"]), settings["iterations"],
                     settings["seed"])


def test_the_tuned_weights_are_the_last_runs_average_over_its_second_half():
    run = tuned.tuned_run("makuta")
    settings, steps = journal_steps(run["runs"][-1])
    assert len(steps) == settings["iterations"]
    averaged = tune.agent_at("heuristic", schedule(settings), tune.averaged(steps))
    assert averaged == with_settings("heuristic", tuned.tuned_weights("makuta"))


def test_each_run_started_where_the_one_before_averaged():
    """A weight new to a run starts where its run's command put it (docs/ai.md says why)."""
    runs = [journal_steps(path) for path in tuned.tuned_run("makuta")["runs"]]
    hand_set = Weights()
    first_settings, _ = runs[0]
    for param in first_settings["params"]:
        assert param["start"] == getattr(hand_set, param["name"]), param["name"]
    for (_, before), (settings, _) in itertools.pairwise(runs):
        average = tune.averaged(before)
        for param in settings["params"]:
            if param["name"] in average:
                assert param["start"] == pytest.approx(average[param["name"]], rel=5e-4), param["name"]
    assert [len(steps) for _, steps in runs] == [settings["iterations"] for settings, _ in runs]


def test_every_arena_that_measured_hard_played_exactly_the_tuned_weights():
    name = with_settings("heuristic", tuned.tuned_weights("makuta"))
    for path in tuned.tuned_run("makuta")["verified"]:
        if path.endswith("sprt.json"):
            assert json.loads((ROOT / path).read_text())["agent"] == name, path
        else:
            agents = {agent for line in (ROOT / path).read_text().splitlines()
                      for agent in json.loads(line)["agents"]}
            assert name in agents, path


def test_hard_in_makuta_plays_exactly_as_that_named_heuristic():
    weights = tuned.tuned_weights("makuta")
    hard = make_agent("hard", "makuta", seed=4)
    named = make_agent(with_settings("heuristic", weights), "makuta", seed=4)
    assert isinstance(hard, Heuristic) and hard.name == "hard" and hard.weights == named.weights
    state = new_random_game("makuta", 11)
    for _ in range(60):
        if state.is_over:
            break
        seat = state.current_player
        action = hard.act(SeatView(state, seat))
        assert action == named.act(SeatView(state, seat))
        state.apply(action)


@pytest.mark.parametrize(("spec", "message"), [
    ("hard@0.5", "takes no time budget; the search is ismcts@ITERATIONS"),
    ("hard{key=3}", re.escape("makuta's hard (its tuned heuristic) takes no settings")),
])
def test_makutas_hard_refuses_a_budget_or_settings(spec, message):
    with pytest.raises(MatanuiError, match=message):
        make_agent(spec, "makuta")


@pytest.mark.parametrize(("text", "message"), [
    ("[makuta]\n", r"no \[makuta.weights\] table"),
    ("[makuta.weights]\nkey = 'many'\n", "key must be numbers"),
    ("[makuta.weights]\nclever = 1.0\n", "no weight named 'clever'"),
    ("[makuta.weights]\nkey = -1.0\n", "key cannot be negative"),
    ("[makuta.weights\n", "cannot be read"),
])
def test_a_damaged_tuned_file_is_refused_naming_the_file(monkeypatch, tmp_path, text, message):
    bad = tmp_path / "tuned.toml"
    bad.write_text(text)
    monkeypatch.setattr(tuned, "TUNED_FILE", bad)
    monkeypatch.setattr("matanui.ai.registry.TUNED_FILE", bad)
    tuned._data.cache_clear()
    try:
        with pytest.raises(MatanuiError, match=message) as error:
            make_agent("hard", "makuta")
        assert "tuned.toml" in str(error.value)
    finally:
        tuned._data.cache_clear()
