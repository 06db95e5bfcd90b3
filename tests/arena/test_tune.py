"""`matanui tune`: SPSA over a search's parameters, as Fishtest tunes chess engines: each
iteration a game pair between the values nudged up and down, a step towards the winner."""

import json
import random

import pytest
from typer.testing import CliRunner

from matanui.arena import tune
from matanui.cli import app

runner = CliRunner()


def noisy_games(optima: dict[str, float], widths: dict[str, float], seed: int = 0):
    """A pretend game pair: each agent's strength falls off quadratically away from the
    optimum, and each of the two games is won by the plus agent with a chance that grows with
    the strength difference; the result is wins minus losses, as a real pair's."""
    rng = random.Random(seed)

    def strength(theta):
        return -sum(((theta[name] - best) / widths[name]) ** 2 for name, best in optima.items())

    def play(trials):
        results = []
        for _, plus, minus in trials:
            chance = min(1.0, max(0.0, 0.5 + strength(plus) - strength(minus)))
            results.append(sum(1 if rng.random() < chance else -1 for _ in range(2)))
        return results

    return play


@pytest.mark.parametrize("batch", [1, 4])
def test_spsa_climbs_a_noisy_objective_to_its_optimum(batch):
    """From far off in both parameters at once; a long run takes smaller steps (R_END)."""
    params = (tune.parse_param("exploration=0.3:0.1:2.0:0.19:0.02"),
              tune.parse_param("rollout_limit=90:0:100:10:0.02"))
    spsa = tune.Spsa(params, iterations=1500, seed=3)
    theta = tune.optimise(spsa, noisy_games({"exploration": 1.3, "rollout_limit": 30},
                                            {"exploration": 1.0, "rollout_limit": 50}), batch=batch)
    assert theta["exploration"] == pytest.approx(1.3, abs=0.15)
    assert theta["rollout_limit"] == pytest.approx(30, abs=8)


def test_the_steps_follow_fishtests_gains():
    """c_k = c / k^0.101 and a_k = a / (A + k)^0.602 with A a tenth of the iterations, and
    c, a set so that the last iteration's perturbation is c_end and its gain r_end c_end^2."""
    param = tune.parse_param("exploration=0.7:0.1:2.0")
    assert (param.c_end, param.r_end) == pytest.approx((0.19, 0.1))
    spsa = tune.Spsa((param,), iterations=100)
    assert spsa.c(param, 100) == pytest.approx(0.19)
    assert spsa.c(param, 1) == pytest.approx(0.19 * 100 ** 0.101)
    assert spsa.a(param, 100) == pytest.approx(0.1 * 0.19 ** 2)
    assert spsa.a(param, 1) / spsa.a(param, 100) == pytest.approx((110 / 11) ** 0.602)
    theta = {"exploration": 0.7}
    plus, minus = spsa.points(theta, 1)
    sign = spsa.delta(1)["exploration"]
    assert plus["exploration"] - minus["exploration"] == pytest.approx(2 * sign * spsa.c(param, 1))
    step = spsa.update(theta, 1, 2)["exploration"] - 0.7
    assert step == pytest.approx(spsa.a(param, 1) * 2 * sign / spsa.c(param, 1))


def test_theta_stays_within_its_bounds():
    param = tune.parse_param("exploration=1.9:0.1:2.0")
    spsa = tune.Spsa((param,), iterations=50, seed=1)
    steps = []
    # The higher value always wins: theta runs into its upper bound and stays there.
    tune.optimise(spsa, lambda trials: [2.0 * spsa.delta(k)["exploration"] for k, *_ in trials],
                  on_step=steps.append)
    assert all(0.1 <= s.plus["exploration"] <= 2.0 and 0.1 <= s.minus["exploration"] <= 2.0 for s in steps)
    assert steps[-1].theta_after["exploration"] == 2.0


@pytest.mark.parametrize("batch", [1, 3])
def test_a_run_resumed_from_its_steps_ends_where_an_uninterrupted_one_does(batch):
    """Even stopped within a batch of iterations played around the same values."""
    params = (tune.parse_param("exploration=0.7:0.1:2.0"),)
    spsa = tune.Spsa(params, iterations=20, seed=5)
    steps = []
    whole = tune.optimise(spsa, noisy_games({"exploration": 1.5}, {"exploration": 1.0}), batch=batch,
                          on_step=steps.append)
    resumed = tune.optimise(spsa, noisy_games({"exploration": 1.5}, {"exploration": 1.0}), steps[:7],
                            batch=batch)
    rerun = []
    tune.optimise(spsa, lambda trials: [steps[k - 1].result for k, *_ in trials], steps[:7], batch=batch,
                  on_step=rerun.append)
    assert rerun == steps[7:]
    assert whole == rerun[-1].theta_after
    assert set(resumed) == {"exploration"}


def tune_command(out, *extra):
    return runner.invoke(app, ["tune", "reconstruct", "--agent", "ismcts@20", "--param",
                               "exploration=0.7:0.1:2.0:0.6", "--iterations", "4", "--seed", "2",
                               "--out", str(out), *extra])


def test_a_real_run_journals_each_pair_and_resumes_to_the_same_values(tmp_path):
    result = tune_command(tmp_path / "whole")
    assert result.exit_code == 0, result.output
    journal = (tmp_path / "whole" / "reconstruct" / "spsa.jsonl").read_text().splitlines()
    settings, *steps = (json.loads(line) for line in journal)
    assert settings["spsa"]["agent"] == "ismcts@20" and len(steps) == 4
    assert [s["k"] for s in steps] == [1, 2, 3, 4]
    assert any(s["result"] for s in steps), "the seed should give a pair that was not split"
    assert "ismcts@20{exploration=" in result.output and "--sprt" in result.output

    stopped = tmp_path / "stopped" / "reconstruct" / "spsa.jsonl"
    stopped.parent.mkdir(parents=True)
    stopped.write_text("\n".join(journal[:3]) + "\n")  # killed after two iterations
    result = tune_command(tmp_path / "stopped")
    assert result.exit_code == 0, result.output
    assert f"Resumed 2 of 4 iterations from {stopped}" in " ".join(result.output.split())
    assert stopped.read_text().splitlines() == journal


def test_a_journal_of_other_settings_is_refused_and_kept(tmp_path):
    assert tune_command(tmp_path, "--iterations", "1").exit_code == 0
    journal = tmp_path / "reconstruct" / "spsa.jsonl"
    before = journal.read_text()
    result = tune_command(tmp_path, "--iterations", "1", "--seed", "3")
    assert result.exit_code == 2
    assert "a run with other settings" in result.output.replace("\n", "")
    assert journal.read_text() == before


@pytest.mark.parametrize(("extra", "message"), [
    (["--param", "c=1:0:2"], "no search parameter named 'c'"),
    (["--param", "exploration=0.7:0.1"], "NAME=START:MIN:MAX"),
    (["--param", "exploration=3:0.1:2.0"], "START between them"),
    (["--param", "exploration=0.7:0.1:2.0:0"], "must be positive"),
    (["--param", "rollout_limit=40.5:0:100"], "whole number"),
    (["--param", "exploration=1:0:2"], "named twice"),
    (["--param", "anchor_margin=0:0:1"], "has no anchor"),
    (["--agent", "heuristic"], "reconstruct's heuristic takes no settings"),
    (["--agent", "ismcts@20{exploration=1}"], "which --param tunes"),
    (["--iterations", "0"], "at least 1"),
    (["--workers", "0"], "at least 1"),
])
def test_bad_options_are_refused_and_write_nothing(tmp_path, extra, message):
    result = tune_command(tmp_path, *extra)
    assert result.exit_code == 2
    assert message in result.output.replace("\n", "")
    assert not (tmp_path / "reconstruct").exists()


def test_a_parameter_is_needed(tmp_path):
    result = runner.invoke(app, ["tune", "reconstruct", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "at least one parameter" in result.output.replace("\n", "")


def test_the_average_is_taken_over_the_second_half_of_the_run():
    steps = [tune.Step(k, {}, {}, {}, {}, 0.0, {"exploration": float(k)}) for k in range(1, 6)]
    assert tune.averaged(steps) == {"exploration": 4.0}  # steps 3, 4 and 5
    assert tune.averaged(steps[:1]) == {"exploration": 1.0}
