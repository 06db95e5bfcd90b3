"""`hard` in Quest for Makuta is its planner with the weights `matanui tune` found
(data/tuned.toml): the weights are the committed run's result, not numbers typed in by hand,
and every arena that measured `hard` played exactly them."""

import gzip
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


def test_the_tuned_weights_are_the_second_runs_average_over_its_second_half():
    run = tuned.tuned_run("makuta")
    settings, steps = journal_steps(run["journal"])
    assert len(steps) == settings["iterations"] == 8000
    averaged = tune.agent_at("heuristic", schedule(settings), tune.averaged(steps))
    assert averaged == with_settings("heuristic", tuned.tuned_weights("makuta"))


def test_the_second_run_started_where_the_first_run_averaged():
    run = tuned.tuned_run("makuta")
    first_settings, first = journal_steps(run["first_run"])
    second_settings, _ = journal_steps(run["journal"])
    first_average = tune.averaged(first)
    starts = {p["name"]: p["start"] for p in second_settings["params"]}
    hand_set = Weights()
    for name, start in starts.items():
        expected = first_average.get(name, getattr(hand_set, name))
        assert start == pytest.approx(expected, rel=5e-4), name
    assert len(first) == first_settings["iterations"] == 8000


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
