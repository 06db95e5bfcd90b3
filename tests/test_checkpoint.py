"""A trained policy's file (matanui.envs.checkpoint): it loads with numpy alone, acts only
among legal actions, and a broken file says which file and what is wrong."""

from __future__ import annotations

import numpy as np
import pytest

from matanui.envs.checkpoint import BadCheckpoint, Checkpoint

META = {"game": "reconstruct", "players": 2, "observation_size": 4, "actions": 3}


def small_policy() -> Checkpoint:
    rng = np.random.default_rng(0)
    return Checkpoint([(rng.normal(size=(4, 5)), np.zeros(5)), (rng.normal(size=(5, 3)), np.zeros(3))], META)


def test_a_saved_policy_loads_to_the_same_choices(tmp_path):
    policy = small_policy()
    policy.save(tmp_path / "p.npz")
    loaded = Checkpoint.load(tmp_path / "p.npz")
    obs = np.random.default_rng(1).normal(size=(20, 4)).astype(np.float32)
    masks = np.ones((20, 3), bool)
    assert (loaded.batch(obs, masks) == policy.batch(obs, masks)).all()
    assert loaded.game == "reconstruct"


def test_the_policy_never_chooses_an_illegal_action():
    policy = small_policy()
    obs = np.random.default_rng(2).normal(size=(50, 4)).astype(np.float32)
    masks = np.zeros((50, 3), bool)
    masks[np.arange(50), np.arange(50) % 3] = True
    assert (policy.batch(obs, masks) == np.arange(50) % 3).all()
    assert policy(obs[0], masks[0]) == 0
    assert np.allclose(policy.probabilities(obs, masks)[masks], 1.0)


@pytest.mark.parametrize("content, words", [
    (b"not a zip", "not a policy file"),
])
def test_a_file_that_is_no_policy_names_itself(tmp_path, content, words):
    path = tmp_path / "bad.npz"
    path.write_bytes(content)
    with pytest.raises(BadCheckpoint, match=words) as error:
        Checkpoint.load(path)
    assert str(path) in str(error.value)


def test_a_missing_file_and_wrong_shapes_are_said(tmp_path):
    with pytest.raises(BadCheckpoint, match="no such policy file"):
        Checkpoint.load(tmp_path / "none.npz")
    with pytest.raises(BadCheckpoint, match="must take 4 inputs"):
        Checkpoint([(np.zeros((3, 3)), np.zeros(3))], META)
    np.savez(tmp_path / "nometa.npz", w0=np.zeros((4, 3)), b0=np.zeros(3))
    with pytest.raises(BadCheckpoint, match="no 'meta'"):
        Checkpoint.load(tmp_path / "nometa.npz")
