"""A heuristic's weights in its name, `heuristic{challenge_odds=0.4}` (Quest for Makuta's
planner has them), so that `matanui tune` can tune them and the arena can test the result."""

import json
from dataclasses import asdict, fields

import pytest
from typer.testing import CliRunner

from matanui import games
from matanui.ai import SeatView, make_agent
from matanui.ai.heuristics.makuta import Weights
from matanui.arena.field import credit, field_specs
from matanui.arena.match import play_match
from matanui.arena.tournament import play_spec
from matanui.cli import app
from matanui.engine import MatanuiError


def moves(agents, seed=3):
    return play_match("makuta", ["tahu", "onua"], agents, seed)


def test_braces_set_the_heuristic_weights_and_the_rest_stay_hand_set():
    agent = make_agent("heuristic{challenge_odds=0.45,key=11}", "makuta")
    assert agent.name == "heuristic{challenge_odds=0.45,key=11}"
    assert (agent.weights.challenge_odds, agent.weights.key) == (0.45, 11.0)
    assert agent.weights.kanohi == Weights().kanohi


def test_the_hand_set_weights_written_out_play_exactly_as_medium():
    written = "heuristic{" + ",".join(f"{k}={v}" for k, v in asdict(Weights()).items()) + "}"
    plain = moves([make_agent("medium", "makuta", 1), make_agent("medium", "makuta", 2)])
    spelled = moves([make_agent(written, "makuta", 1), make_agent(written, "makuta", 2)])
    assert plain == spelled


def test_other_weights_play_another_game():
    plain = moves([make_agent("medium", "makuta", 1), make_agent("medium", "makuta", 2)])
    explorer = "heuristic{explore=24,key=0,kanohi=0,turaga=0}"
    other = moves([make_agent(explorer, "makuta", 1), make_agent("medium", "makuta", 2)])
    assert other != plain


@pytest.mark.parametrize(("spec", "game", "message"), [
    ("heuristic{c=1}", "makuta", "no weight named 'c'; makuta's heuristic has: step_cost"),
    ("heuristic{key=-2}", "makuta", "key cannot be negative"),
    ("heuristic{key=lots}", "makuta", "is not a number"),
    ("heuristic{key=1}", "reconstruct", "reconstruct's heuristic takes no settings"),
    ("heuristic{exploration=0.5}", "makuta", "no weight named 'exploration'"),
    ("ismcts@5{key=1}", "makuta", "no search parameter named 'key'"),
])
def test_bad_weights_are_refused_with_what_is_allowed(spec, game, message):
    with pytest.raises(MatanuiError, match=message):
        make_agent(spec, game)


def test_tune_steps_the_heuristic_weights_and_journals_each_pair(tmp_path):
    result = CliRunner().invoke(app, [
        "tune", "makuta", "--agent", "heuristic", "--param", "key=8:0:24:1.2:0.02",
        "--param", "challenge_odds=0.3:0.05:0.9", "--iterations", "4", "--workers", "4",
        "--seed", "5", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    settings, *steps = (json.loads(line) for line in
                        (tmp_path / "makuta" / "spsa.jsonl").read_text().splitlines())
    assert settings["spsa"]["agent"] == "heuristic" and len(steps) == 4
    assert {p["name"] for p in settings["spsa"]["params"]} == {"key", "challenge_odds"}
    assert "heuristic{key=" in result.output


def test_tune_refuses_a_weight_the_heuristic_does_not_have(tmp_path):
    result = CliRunner().invoke(app, ["tune", "makuta", "--agent", "heuristic", "--param",
                                      "exploration=0.7:0.1:2", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "no weight named 'exploration'" in result.output.replace("\n", "")
    assert not (tmp_path / "makuta").exists()


def test_every_weight_is_a_number_the_names_can_carry():
    assert all(field.type in ("float", float) for field in fields(Weights))


def test_tune_against_a_field_plays_plus_and_minus_in_the_same_seat_of_the_same_game(tmp_path):
    """With --field, iteration k is game k of the arena's field schedule, played once at plus
    and once at minus; the result is twice the difference of their shares of the win."""
    result = CliRunner().invoke(app, [
        "tune", "makuta", "--agent", "heuristic", "--param", "explore=8:0:24:4:0.02",
        "--field", "medium", "--players", "3", "--iterations", "3", "--workers", "3",
        "--seed", "40", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    settings, *steps = (json.loads(line) for line in
                        (tmp_path / "makuta" / "spsa.jsonl").read_text().splitlines())
    assert (settings["spsa"]["field"], settings["spsa"]["players"]) == ("medium", 3)
    for step in steps:
        shares = []
        for point in (step["plus"], step["minus"]):
            name = f"heuristic{{explore={point['explore']:.6g}}}"
            spec = field_specs("makuta", [name, "medium"], 3, 1, seed=40, first=step["k"] - 1)[0]
            shares.append(credit(play_spec(spec), name))
        assert step["result"] == 2 * (shares[0] - shares[1])
    assert "--players 3 --games 400 --seed 43" in result.output.replace("\n", "")


@pytest.mark.parametrize(("extra", "message"), [
    (["--players", "4"], "--players needs --field"),
    (["--field", "nobody", "--players", "4"], "no agent named 'nobody'"),
    (["--field", "medium", "--players", "9"], "makuta is for 2 to 6 players"),
])
def test_a_field_run_with_bad_options_is_refused_and_writes_nothing(tmp_path, extra, message):
    result = CliRunner().invoke(app, ["tune", "makuta", "--agent", "heuristic", "--param",
                                      "key=8:0:24", *extra, "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert message in result.output.replace("\n", "")
    assert not (tmp_path / "makuta").exists()


def test_with_an_akaku_the_hunting_planner_walks_to_a_toa_holding_keys():
    """MAKUTA-AKAKU: landing on another Toa's space lets an Akaku holder take one of its
    tokens. With `akaku_hunt`, that space is a target worth so much per key the Toa holds;
    medium (akaku_hunt 0) does not look for other Toa."""
    from tests.makuta.scenario import arranged

    chosen = {}
    for spec in ("medium", "heuristic{akaku_hunt=8}"):
        state = arranged(cards=[["kanohi:akaku"], ["key:fire", "key:water"]],
                         pawns=["start", "2,0"], dice=[1])
        agent = make_agent(spec, "makuta", seed=1)
        state.apply(agent.act(SeatView(state, 0)))  # roll: a 1
        chosen[spec] = agent.act(SeatView(state, 0))
        if spec != "medium":
            state.apply(chosen[spec])
            assert "akaku:lewa" in state.legal_actions()
    assert chosen == {"medium": "move:S", "heuristic{akaku_hunt=8}": "move:E"}


def test_with_place_near_a_board_is_laid_to_bring_its_treasures_nearer_than_the_others():
    """MAKUTA-BOARD-STRATEGIC: "you may ... make getting to a Kanohi or key easier for you
    depending on how the boards are positioned". medium (place_near 0) lays a board for the
    most open portals; with place_near it also weighs how much nearer its treasures lie to
    us than to the other Toa, and so chooses otherwise somewhere in a few games."""
    differ = chosen = 0
    for seed in range(4):
        state = games.get("makuta").new_game(seed, ["tahu", "lewa", "gali", "onua"])
        players = [make_agent("medium", "makuta", seed + seat) for seat in range(4)]
        placer = make_agent("heuristic{place_near=20}", "makuta", seed)
        while not state.is_over and state.observation(None)["turn"] < 60:
            seat = state.current_player
            view = SeatView(state, seat)
            if state.observation(seat)["phase"] == "place" and len(state.legal_actions()) > 1:
                mine = placer.act(view)
                assert mine in state.legal_actions()
                chosen += 1
                differ += mine != players[seat].act(view)
            state.apply(players[seat].act(view))
    assert chosen > 10 and 0 < differ < chosen
