"""The OpenSpiel games pass OpenSpiel's random-simulation checks, and OpenSpiel's own IS-MCTS
and Monte Carlo CFR run on Reconstruct."""

import pickle
import random

import numpy as np
import pytest

from matanui.engine import MatanuiError

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the 'research' extra")

from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr  # noqa: E402

from matanui.envs import openspiel  # noqa: E402


def dealt(game, rng):
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.randrange(256))
    return state


@pytest.mark.parametrize(("name", "params", "sims"), [
    ("reconstruct", {}, 3),
    ("reconstruct", {"options": "advanced:true;turn_limit:60"}, 2),
    ("masks", {}, 1),  # its default game, at its only player count (2)
    ("masks", {"options": "map:both;turn_limit:60", "characters": "gali+onua"}, 2),
    ("makuta", {"options": "turn_limit:12"}, 1),
    ("makuta", {"players": 3, "options": "turn_limit:12"}, 1),
    ("makuta", {"players": 6, "options": "turn_limit:12"}, 1),
])
def test_openspiel_random_simulation_checks(name, params, sims):
    game = pyspiel.load_game(f"matanui_{name}", params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_the_game_declares_imperfect_information_and_explicit_chance():
    game = openspiel.load("reconstruct")
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == len(game.encoding.actions)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 256
    assert pickle.loads(pickle.dumps(game)).num_distinct_actions() == game.num_distinct_actions()


def test_information_states_hide_the_opponents_hand_and_keep_perfect_recall():
    game = openspiel.load("reconstruct", characters="tahu+kopaka")
    state = dealt(game, random.Random(1))
    player = state.current_player()
    hand = state.table.state.observation(player)["hand"]
    assert str(hand).replace(" ", "") in state.information_state_string(player).replace(" ", "")
    opponent_hand = state.table.state.hands[1 - player]
    assert f'"hand":{opponent_hand}'.replace(" ", "") not in state.information_state_string(player)
    assert len(state.information_state_tensor(player)) == game.information_state_tensor_size()
    assert len(state.observation_tensor(player)) == game.observation_tensor_size()
    # A resampled state is one the player cannot tell apart.
    sample = state.resample(player, random.Random(0))
    assert sample.information_state_string(player) == state.information_state_string(player)
    assert sample.observation_tensor(player) == state.observation_tensor(player)
    assert np.array_equal(sample.information_state_tensor(player), state.information_state_tensor(player))


def test_clones_are_independent_and_serialization_round_trips():
    game = openspiel.load("reconstruct")
    state = dealt(game, random.Random(2))
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert copy.history() != state.history() and str(copy) != str(state)
    restored = game.deserialize_state(state.serialize())
    assert str(restored) == str(state)
    assert restored.information_state_string(0) == state.information_state_string(0)
    assert restored.legal_actions() == state.legal_actions()


def test_openspiel_ismcts_plays_reconstruct_with_matanui_resampling():
    game = openspiel.load("reconstruct")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=12,
                           random_state=np.random.RandomState(1))
    bot.set_resampler(openspiel.resampler(0))
    rng = random.Random(3)
    state = dealt(game, rng)
    for _ in range(8):
        if state.is_terminal():
            break
        action = bot.step(state) if state.current_player() == 0 else rng.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)


def test_openspiel_outcome_sampling_mccfr_runs_on_reconstruct():
    game = openspiel.load("reconstruct")
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(5):
        solver.iteration()
    policy = solver.average_policy()
    state = dealt(game, random.Random(4))
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)


@pytest.mark.parametrize(("params", "message"), [
    ({"options": "advanced"}, "must look like key:value"),
    ({"options": "turn_limit:3"}, "turn_limit must be a whole number from 10 to 10000"),
    ({"characters": "tahu+nobody"}, "'nobody' is not a Toa Nuva"),
])
def test_bad_parameters_are_refused_saying_what_is_allowed(params, message):
    with pytest.raises(MatanuiError, match=message):
        openspiel.load("reconstruct", **params)
    with pytest.raises(pyspiel.SpielError, match="Available parameters are: characters, options, players"):
        openspiel.load("reconstruct", colour="red")


def test_unknown_games_are_refused():
    with pytest.raises(MatanuiError, match="no game named 'chess'"):
        openspiel.load("chess")
