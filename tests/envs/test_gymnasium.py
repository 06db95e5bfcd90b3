"""The single-agent Gymnasium environment passes Gymnasium's check_env."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matanui.engine import IllegalAction, MatanuiError

gymnasium = pytest.importorskip("gymnasium", reason="the Gymnasium adapter needs the 'research' extra")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from matanui.envs.gymnasium import MatanuiEnv  # noqa: E402


@pytest.mark.parametrize(("name", "settings"), [
    ("reconstruct", {}),
    ("reconstruct", {"seat": 1, "opponents": "random", "options": {"advanced": True}}),
    ("masks", {"opponents": "random", "options": {"short": True}}),
    ("makuta", {"seat": 2, "players": 4, "opponents": ["random", "heuristic", "random"]}),
])
def test_gymnasium_check_env(name, settings):
    check_env(gymnasium.make(f"matanui/{name}-v0", **settings).unwrapped)


def episode(environment, seed, policy):
    obs, _ = environment.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        obs, reward, done, truncated, _ = environment.step(policy(obs))
        total += reward
        steps += 1
        assert not truncated
    return total, steps


def test_the_learning_seat_plays_against_bots_and_is_rewarded_at_the_end():
    environment = MatanuiEnv("reconstruct", opponents="heuristic")
    last_legal = lambda obs: int(np.flatnonzero(obs["action_mask"])[-1])  # noqa: E731
    results = [episode(environment, seed, last_legal) for seed in range(6)]
    assert results == [episode(MatanuiEnv("reconstruct"), seed, last_legal) for seed in range(6)]
    assert {total for total, _ in results} <= {-1.0, 0.0, 1.0}
    assert np.array_equal(environment.action_masks(), np.zeros(len(environment.encoding.actions)))


def test_it_is_always_the_learning_seats_turn_after_reset_and_step():
    environment = MatanuiEnv("reconstruct", seat=1, opponents="random")
    obs, _ = environment.reset(seed=3)
    for _ in range(20):
        assert environment.table.state.current_player == 1
        assert np.array_equal(obs["action_mask"], environment.action_masks())
        obs, _, done, _, _ = environment.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if done:
            break


def test_an_illegal_action_loses_or_raises_as_chosen():
    environment = MatanuiEnv("reconstruct")
    obs, _ = environment.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = environment.step(illegal)
    assert (reward, done) == (-1.0, True) and "is not legal now" in info["illegal_action"]
    with pytest.raises(MatanuiError, match="call reset"):
        environment.step(0)
    strict = MatanuiEnv("reconstruct", illegal="raise")
    strict.reset(seed=0)
    before = list(strict.table.state.history)
    with pytest.raises(IllegalAction):
        strict.step(illegal)
    assert strict.table.state.history == before


@pytest.mark.parametrize(("settings", "message"), [
    ({"seat": 2}, "seat must be 0 to 1"),
    ({"opponents": ["random", "random"]}, "one per other seat"),
    ({"opponents": "oracle"}, "no agent named 'oracle'"),
    ({"illegal": "ignore"}, "illegal must be one of lose, raise"),
    ({"characters": ["tahu", "onua", "gali"]}, "name 2 characters"),
])
def test_bad_settings_are_refused_saying_what_is_allowed(settings, message):
    with pytest.raises(MatanuiError, match=message):
        MatanuiEnv("reconstruct", **settings)


def test_check_env_passes_with_a_random_seat():
    check_env(gymnasium.make("matanui/reconstruct-v0", seat="random", opponents="random").unwrapped)


def test_a_random_seat_is_drawn_at_each_reset_reproducibly_and_reported():
    environment = MatanuiEnv("makuta", seat="random", players=3, opponents="random",
                             options={"turn_limit": 12})
    seats = []
    for seed in range(12):
        _, info = environment.reset(seed=seed)
        assert environment.table.state.current_player == info["seat"] == environment.seat
        seats.append(info["seat"])
    assert set(seats) == {0, 1, 2}
    again = MatanuiEnv("makuta", seat="random", players=3, opponents="random", options={"turn_limit": 12})
    assert [again.reset(seed=seed)[1]["seat"] for seed in range(12)] == seats


def test_opponents_fill_the_other_seats_in_order_around_a_random_seat():
    names = ["random", "heuristic"]
    environment = MatanuiEnv("makuta", seat="random", players=3, opponents=names, options={"turn_limit": 12})
    for seed in range(6):
        _, info = environment.reset(seed=seed)
        others = [s for s in range(3) if s != info["seat"]]
        assert list(environment.opponents) == others
        assert list(environment.opponents.values()) == names


def test_a_fixed_seat_is_reported_in_info_too():
    environment = MatanuiEnv("reconstruct", seat=1, opponents="random")
    _, info = environment.reset(seed=0)
    assert info["seat"] == 1
    _, _, _, _, info = environment.step(int(np.flatnonzero(environment.action_masks())[0]))
    assert info["seat"] == 1


@pytest.mark.parametrize("seat", ["left", -1, 1.0, True, None])
def test_bad_seat_values_are_refused_saying_what_is_allowed(seat):
    with pytest.raises(MatanuiError, match=r"seat must be 0 to 1 or \"random\""):
        MatanuiEnv("reconstruct", seat=seat)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_the_same_seed_gives_the_same_random_seat_and_game_whatever_came_before(seed, players):
    def fresh():
        return MatanuiEnv("makuta", seat="random", players=players, opponents="random",
                          options={"turn_limit": 12})
    used = fresh()
    used.reset(seed=seed + 1)
    first, again = fresh().reset(seed=seed), used.reset(seed=seed)
    assert first[1]["seat"] == again[1]["seat"] and 0 <= first[1]["seat"] < players
    assert np.array_equal(first[0]["observation"], again[0]["observation"])
