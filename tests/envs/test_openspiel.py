"""The OpenSpiel games pass OpenSpiel's random-simulation checks, and OpenSpiel's own IS-MCTS
and Monte Carlo CFR run on Reconstruct."""

import json
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


SMALL = {"options": "variant:mini", "characters": "tahu+gali", "deals": 4}


def walk(state, path=()):
    """Every state below `state` with the actions that led to it."""
    yield state, path
    if state.is_terminal():
        return
    actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    for action in actions:
        yield from walk(state.child(action), (*path, action))


def test_a_small_game_is_dealt_by_one_chance_node_over_that_many_seeds():
    game = openspiel.load("reconstruct", **SMALL)
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(seed, 0.25) for seed in range(4)]
    assert game.max_chance_outcomes() == 4 and game.max_chance_nodes_in_history() == 1
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 3) == "deal 3"
    state.apply_action(3)
    assert not state.is_chance_node()
    assert state.table.state.seed == 3 and state.table.state.options["variant"] == "mini"


def test_small_game_information_states_are_written_out_and_repeat_across_deals():
    game = openspiel.load("reconstruct", **SMALL)
    deals_of: dict[str, set[int]] = {}
    for state, path in walk(game.new_initial_state()):
        if not state.is_chance_node() and not state.is_terminal():
            key = state.information_state_string(state.current_player())
            deals_of.setdefault(key, set()).add(path[0])
    shared = [key for key, deals in deals_of.items() if len(deals) > 1]
    assert shared, "no information state is reached from two deals"
    key = shared[0]
    assert key.startswith("saw {") and "history " not in key  # words, no digest
    assert all(line.startswith(("saw {", "chose ")) for line in key.splitlines())


def test_small_game_information_states_have_perfect_recall():
    """Two histories share a key exactly when the seat saw the same things and chose the same
    actions along them (its observations after every step, its own actions)."""
    game = openspiel.load("reconstruct", **{**SMALL, "deals": 2})

    def seen_by(state, seat):
        return json.dumps(state.table.seen(seat), sort_keys=True)

    key_of_history: dict[tuple, str] = {}
    history_of_key: dict[str, tuple] = {}

    def visit(state, seen):
        if state.is_terminal():
            return
        if state.is_chance_node():
            for action, _ in state.chance_outcomes():
                child = state.child(action)
                visit(child, tuple((seen_by(child, s),) for s in range(2)))
            return
        player = state.current_player()
        key = state.information_state_string(player)
        mine = seen[player]
        assert key_of_history.setdefault(mine, key) == key
        assert history_of_key.setdefault(key, mine) == mine
        for action in state.legal_actions():
            child = state.child(action)
            step = [(seen_by(child, s),) for s in range(2)]
            step[player] = (state.action_to_string(player, action), *step[player])
            visit(child, tuple(seen[s] + step[s] for s in range(2)))

    visit(game.new_initial_state(), ((), ()))
    assert len(history_of_key) > 100


def test_a_small_game_passes_openspiels_checks_and_round_trips():
    game = openspiel.load("reconstruct", **SMALL)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(1)
    state.apply_action(state.legal_actions()[0])
    restored = game.deserialize_state(state.serialize())
    for seat in (0, 1):
        assert restored.information_state_string(seat) == state.information_state_string(seat)
    first = state.legal_actions()[0]
    assert restored.child(first).information_state_string(0) == state.child(first).information_state_string(0)


@pytest.mark.parametrize(("params", "message"), [
    ({"deals": -1}, "deals must be a whole number from 0 to 65536"),
    ({"deals": 70000}, "deals must be a whole number from 0 to 65536"),
    ({"options": "advanced"}, "must look like key:value"),
    ({"options": "turn_limit:3"}, "turn_limit must be a whole number from 10 to 10000"),
    ({"characters": "tahu+nobody"}, "'nobody' is not a Toa Nuva"),
])
def test_bad_parameters_are_refused_saying_what_is_allowed(params, message):
    with pytest.raises(MatanuiError, match=message):
        openspiel.load("reconstruct", **params)
    available = "Available parameters are: characters, deals, options, players"
    with pytest.raises(pyspiel.SpielError, match=available):
        openspiel.load("reconstruct", colour="red")


def test_unknown_games_are_refused():
    with pytest.raises(MatanuiError, match="no game named 'chess'"):
        openspiel.load("chess")
