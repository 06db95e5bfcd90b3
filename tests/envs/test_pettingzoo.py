"""The PettingZoo AEC environment passes PettingZoo's own api_test and seed_test."""

import random

import numpy as np
import pytest

from matanui.engine import IllegalAction, MatanuiError

pytest.importorskip("pettingzoo", reason="the PettingZoo adapter needs the 'research' extra")

from pettingzoo.test import api_test, seed_test

from matanui.envs.pettingzoo import env, raw_env

GAMES = [
    ("reconstruct", {}),
    ("reconstruct", {"options": {"advanced": True}}),
    ("masks", {"options": {"map": "both", "turn_limit": 60}}),
    ("makuta", {"players": 3, "options": {"turn_limit": 30}}),
]


# Dict observations with an action mask are PettingZoo's own convention for board games;
# its api_test still notes them.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.parametrize(("name", "settings"), GAMES)
def test_pettingzoo_api_test(name, settings):
    api_test(env(name, **settings), num_cycles=200)


@pytest.mark.parametrize(("name", "settings"), GAMES)
def test_pettingzoo_seed_test(name, settings):
    seed_test(lambda: env(name, **settings), num_cycles=100)


def play_out(environment, seed):
    environment.reset(seed=seed)
    choose = random.Random(seed).choice
    rewards = {}
    for agent in environment.agent_iter():
        obs, reward, terminated, truncated, _ = environment.last()
        rewards[agent] = reward
        if terminated or truncated:
            environment.step(None)
        else:
            environment.step(int(choose(np.flatnonzero(obs["action_mask"]))))
    return rewards


def test_the_same_seed_gives_the_same_game_and_the_winner_gets_plus_one():
    first, second = play_out(env("reconstruct"), 4), play_out(env("reconstruct"), 4)
    assert first == second
    assert sorted(first.values()) == [-1.0, 1.0]


def test_the_acting_agent_is_the_seat_that_decides_even_out_of_turn():
    environment = raw_env("reconstruct", characters=["tahu", "kopaka"])
    environment.reset(seed=1)
    seen = set()
    for _ in range(60):
        agent = environment.agent_selection
        seat = environment.table.state.current_player
        assert agent == f"player_{seat}"
        seen.add(environment.table.state.phase)
        mask = environment.observe(agent)["action_mask"]
        other = "player_1" if agent == "player_0" else "player_0"
        assert environment.observe(other)["action_mask"].sum() == 0
        environment.step(int(np.flatnonzero(mask)[-1]))
        if environment.terminations[agent]:
            break
    assert "respond" in seen  # the opponent answered a played card


def test_an_illegal_action_ends_the_wrapped_game_with_minus_one_and_the_raw_game_refuses_it():
    wrapped = env("reconstruct")
    wrapped.reset(seed=2)
    agent = wrapped.agent_selection
    mask = wrapped.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    wrapped.step(illegal)
    assert wrapped.rewards[agent] == -1 and all(wrapped.terminations.values())
    raw = raw_env("reconstruct")
    raw.reset(seed=2)
    before = list(raw.table.state.history)
    with pytest.raises(IllegalAction, match=r"is not legal now; legal: \d+ \("):
        raw.step(illegal)
    with pytest.raises(IllegalAction, match="out of range"):
        raw.step(10_000)
    assert raw.table.state.history == before


def test_ansi_rendering_shows_the_public_view():
    environment = raw_env("reconstruct", render_mode="ansi")
    environment.reset(seed=0)
    text = environment.render()
    assert "Nuva holds" in text and "[" not in text.split("\n")[0]


@pytest.mark.parametrize(("settings", "message"), [
    ({"characters": ["tahu", "tahu"]}, "both players chose tahu"),
    ({"characters": ["tahu"]}, "name 2 characters"),
    ({"options": {"turn_limit": 2}}, "turn_limit must be a whole number from 10 to 10000"),
    ({"render_mode": "human"}, "render_mode must be one of ansi"),
    ({"players": 4}, "for exactly 2 players"),
])
def test_bad_settings_are_refused_saying_what_is_allowed(settings, message):
    with pytest.raises(MatanuiError, match=message):
        raw_env("reconstruct", **settings)
