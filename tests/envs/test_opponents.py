"""Opponents of the Gymnasium environment beyond agent names: Python policies (self-play),
MODULE:CALLABLE, trained policy files and Agent objects all play whole games, and a bad one
says what is wrong and what is allowed."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import matanui.envs.gymnasium  # noqa: F401  (registers the environments)
from matanui.ai.base import RandomAgent
from matanui.engine import MatanuiError
from matanui.envs.checkpoint import Checkpoint
from matanui.envs.encoding import encoding_for

POLICY_MODULE = '''
import numpy as np

def first_legal(observation, mask):
    return int(np.flatnonzero(mask)[0])

def make():
    return first_legal

NOT_CALLABLE = 3
'''


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def play_out(env: gymnasium.Env, seed: int = 0) -> float:
    obs, _ = env.reset(seed=seed)
    done, reward = False, 0.0
    while not done:
        obs, reward, done, _, _ = env.step(first_legal(obs["observation"], obs["action_mask"]))
    return reward


def policy_file(path, game="reconstruct") -> str:
    encoding = encoding_for(game, 2)
    size = encoding.observation_size + encoding.memory_size
    rng = np.random.default_rng(0)
    meta = {"game": game, "players": 2, "observation_size": size, "actions": len(encoding.actions)}
    Checkpoint([(rng.normal(size=(size, 8)), np.zeros(8)), (rng.normal(size=(8, len(encoding.actions))),
                np.zeros(len(encoding.actions)))], meta).save(path)
    return str(path)


@pytest.fixture
def policy_module(tmp_path, monkeypatch):
    (tmp_path / "my_policies.py").write_text(POLICY_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return "my_policies"


def test_the_learners_own_policy_can_be_its_opponent():
    env = gymnasium.make("matanui/reconstruct-v0", opponents=first_legal)
    assert play_out(env) in (-1.0, 0.0, 1.0)
    check_env(env.unwrapped, skip_render_check=True)


def test_an_agent_object_plays_where_its_name_would():
    """An agent object given as the opponents once failed with "'RandomAgent' object has no
    attribute 'partition'"."""
    env = gymnasium.make("matanui/masks-v0", opponents=RandomAgent(3))
    assert play_out(env, seed=1) in (-1.0, 0.0, 1.0)


def test_a_module_callable_and_a_factory_play(policy_module):
    for spec in (f"{policy_module}:first_legal", f"{policy_module}:make"):
        env = gymnasium.make("matanui/reconstruct-v0", opponents=[spec])
        assert play_out(env) in (-1.0, 0.0, 1.0)


def test_a_trained_policy_file_plays_and_one_for_another_game_is_refused(tmp_path):
    env = gymnasium.make("matanui/reconstruct-v0", opponents=policy_file(tmp_path / "p.npz"))
    assert play_out(env) in (-1.0, 0.0, 1.0)
    wrong = policy_file(tmp_path / "masks.npz", game="masks")
    with pytest.raises(MatanuiError, match=r"a policy for masks .* cannot play reconstruct"):
        gymnasium.make("matanui/reconstruct-v0", opponents=wrong)


def test_a_policy_that_answers_an_illegal_index_is_named():
    def stubborn(observation, mask):
        return int(np.flatnonzero(mask == 0)[0])

    env = gymnasium.make("matanui/reconstruct-v0", opponents=stubborn, seat=1)
    with pytest.raises(MatanuiError, match=r"the opponent policy stubborn answered .* not a legal action"):
        play_out(env)  # the opponent's first decision, at the reset or after the learner's move


@pytest.mark.parametrize("spec, words", [
    ("no_such_module_here:policy", "cannot import 'no_such_module_here'"),
    ("{module}:missing", "has no callable 'missing'"),
    ("{module}:NOT_CALLABLE", "has no callable 'NOT_CALLABLE'"),
    (5, r"an opponent is an agent name .* not int"),
    ("no-such-bot", "no-such-bot"),
])
def test_a_bad_opponent_says_what_is_wrong_and_what_is_allowed(policy_module, spec, words):
    if isinstance(spec, str):
        spec = spec.format(module=policy_module)
    with pytest.raises(MatanuiError, match=words):
        gymnasium.make("matanui/reconstruct-v0", opponents=[spec])
