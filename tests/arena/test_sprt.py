"""`matanui arena --pairs --sprt`: games in pairs and a sequential test that stops as soon
as it knows, as chess engines test a change (Fishtest)."""

import json
import math

import pytest
from typer.testing import CliRunner

from matanui.arena import sprt, tournament
from matanui.cli import app

runner = CliRunner()


def test_the_llr_of_a_hand_worked_example():
    """Ten pairs: 1 lost both, 1 lost one and drew one, 2 split, 4 won one and drew one, 2
    won both. Score 6.25 / 10 = 0.625. The variance, with half a pseudo-pair in each of the
    five categories (counts 1.5, 1.5, 2.5, 4.5, 2.5 of 12.5, centre 7.5 / 12.5 = 0.6), is
    (1.5*0.36 + 1.5*0.1225 + 2.5*0.01 + 4.5*0.0225 + 2.5*0.16) / 12.5 = 0.1. With elo0 = 0
    and elo1 = 100 the scores expected are s0 = 0.5 and s1 = 1 / (1 + 10^-0.25) = 0.640065,
    so LLR = 10 * 0.140065 * (2 * 0.625 - 1.140065) / (2 * 0.1) = 0.7699."""
    counts = [1, 1, 2, 4, 2]
    assert sprt.mean_and_variance(counts, sprt.PAIR_SCORES) == pytest.approx((10, 0.625, 0.1))
    assert sprt.expected_score(100) == pytest.approx(0.640065, abs=1e-6)
    assert sprt.llr(counts, sprt.PAIR_SCORES, 0, 100) == pytest.approx(0.7699, abs=1e-4)
    low, high = sprt.bounds(0.05, 0.05)  # Wald: ln(0.05 / 0.95) and ln(0.95 / 0.05)
    assert (low, high) == pytest.approx((-math.log(19), math.log(19)))


def sprt_arena(tmp_path, agents, *extra):
    result = runner.invoke(app, ["arena", "reconstruct", "--agents", agents, "--pairs", "--sprt", "0,100",
                                 "--games", "200", "--seed", "7", "--out", str(tmp_path), *extra])
    assert result.exit_code == 0, result.output
    return json.loads((tmp_path / "reconstruct" / "sprt.json").read_text())


def test_a_known_stronger_agent_is_accepted(tmp_path):
    """The heuristic beats random in about four games of five: H1 (+100 Elo) is accepted long
    before the 200 games allowed, and the score's interval lies above one half."""
    result = sprt_arena(tmp_path, "heuristic,random")
    assert result["verdict"] == "H1"
    assert result["llr"] >= result["upper_bound"] == pytest.approx(math.log(19))
    assert result["games"] < 60 and result["games"] % 2 == 0
    assert result["interval95"][0] > 0.5
    assert result["model"] == "pentanomial"


@pytest.mark.parametrize("agents", ["random,easy", "random,heuristic"])
def test_an_agent_that_is_not_stronger_is_not_accepted(tmp_path, agents):
    """Two equal agents (easy is random), or a weaker one first: H0 is accepted, never H1."""
    result = sprt_arena(tmp_path, agents)
    assert result["verdict"] == "H0"
    assert result["llr"] <= result["lower_bound"]


def test_pairs_play_each_deal_twice_with_the_seats_swapped(tmp_path):
    sprt_arena(tmp_path, "heuristic,random")
    rows = [json.loads(line) for line in (tmp_path / "reconstruct" / "games.jsonl").read_text().splitlines()]
    by_seed = {}
    for row in rows:
        by_seed.setdefault(row["seed"], []).append(row)
    assert all(len(pair) == 2 for pair in by_seed.values())
    for first, second in by_seed.values():
        assert first["agents"] == second["agents"][::-1]
        assert first["characters"] == second["characters"]


def test_an_interrupted_test_resumes_to_the_same_verdict(tmp_path, monkeypatch):
    complete = sprt_arena(tmp_path, "heuristic,random")
    journal = tmp_path / "reconstruct" / "games.jsonl"
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join(lines[:5]) + "\n")  # stopped in the middle of the third pair
    played = []
    real = tournament.play_spec
    monkeypatch.setattr(tournament, "play_spec", lambda spec: played.append(spec) or real(spec))
    resumed = sprt_arena(tmp_path, "heuristic,random")
    assert len(played) == len(lines) - 5
    assert resumed == complete


def test_the_trinomial_test_counts_single_games(tmp_path):
    result = runner.invoke(app, ["arena", "reconstruct", "--agents", "heuristic,random", "--sprt", "0,100",
                                 "--games", "200", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "reconstruct" / "sprt.json").read_text())
    assert summary["model"] == "trinomial" and len(summary["counts"]) == 3
    assert summary["verdict"] == "H1"


@pytest.mark.parametrize(("extra", "message"), [
    (["--sprt", "100"], "two numbers such as 0,100"),
    (["--sprt", "100,0"], "elo0 < elo1"),
    (["--sprt", "0,100", "--alpha", "0.7"], "between 0 and 0.5"),
])
def test_bad_sprt_settings_are_refused(tmp_path, extra, message):
    result = runner.invoke(app, ["arena", "reconstruct", "--agents", "heuristic,random", *extra,
                                 "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert message in result.output.replace("\n", "")


def test_an_sprt_compares_two_agents(tmp_path):
    result = runner.invoke(app, ["arena", "reconstruct", "--agents", "heuristic,random,ismcts@5", "--sprt",
                                 "0,100", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "exactly two agents" in result.output.replace("\n", "")


def test_a_paired_round_robin_plays_pairs(tmp_path):
    result = runner.invoke(app, ["arena", "reconstruct", "--agents", "random,heuristic", "--games", "3",
                                 "--pairs", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "reconstruct" / "arena.json").read_text())
    assert summary["games"] == 4  # three games rounded up to two pairs


def test_a_test_stopped_early_says_where_it_stood(tmp_path, monkeypatch):
    """sprt.json is kept current after every pair: killed in its second batch of games, the
    test leaves the first batch's standing (two pairs), undecided."""
    real = tournament.play_spec
    played = []

    def play_until_killed(spec):
        if len(played) == 6:
            raise KeyboardInterrupt
        played.append(spec)
        return real(spec)

    monkeypatch.setattr(tournament, "play_spec", play_until_killed)
    runner.invoke(app, ["arena", "reconstruct", "--agents", "random,easy", "--pairs", "--sprt", "0,100",
                        "--out", str(tmp_path)])
    standing = json.loads((tmp_path / "reconstruct" / "sprt.json").read_text())
    assert (standing["games"], standing["verdict"]) == (4, "undecided")


def test_more_workers_reach_the_same_verdict_after_the_same_games():
    """Games finish in any order on a pool, but the test reads them in schedule order."""
    def verdict(workers):
        test = sprt.Sprt("reconstruct", "heuristic", "random", elo0=0, elo1=100, max_samples=100, seed=3)
        result, _ = test.play(workers=workers)
        return result

    assert verdict(2) == verdict(1)
