"""gymnasium.make_vec(..., vectorization_mode="vector_entry_point") on the batched engine:
arrays in, arrays out, the same games as the reference, SAME_STEP autoreset."""

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import matanui.envs.gymnasium  # noqa: F401  (registers the environments)
from matanui.engine import IllegalAction, MatanuiError
from matanui.envs.table import Table
from matanui.envs.vector import MatanuiVectorEnv


def lowest_legal(observation, mask):
    """A deterministic opponent: the legal action with the lowest index."""
    return int(np.flatnonzero(mask)[0])


def make(num_envs=8, game="reconstruct", **settings):
    return gymnasium.make_vec(f"matanui/{game}-v0", num_envs=num_envs,
                              vectorization_mode="vector_entry_point", **settings)


def random_actions(rng, obs):
    mask = obs["action_mask"]
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def test_make_vec_builds_the_batched_environment_with_batched_spaces():
    envs = make(8)
    assert isinstance(envs.unwrapped, MatanuiVectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    single = gymnasium.make("matanui/reconstruct-v0")
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    obs, info = envs.reset(seed=3)
    assert obs["observation"].shape == (8, 299) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (8, 314) and obs["action_mask"].dtype == np.int8
    assert envs.observation_space.contains(obs)
    assert set(info) >= {"seed", "seat"}


@pytest.mark.parametrize("game", ["reconstruct", "masks"])
def test_every_mask_returned_has_a_legal_action_and_games_end_with_the_reference_rewards(game):
    envs = make(16, game, opponents="random", seat="random")
    rng = np.random.default_rng(0)
    obs, _ = envs.reset(seed=1)
    ended = 0
    for _ in range(400 if game == "reconstruct" else 1200):
        assert obs["action_mask"].any(axis=1).all()
        obs, reward, terminated, truncated, info = envs.step(random_actions(rng, obs))
        assert not truncated.any()
        assert set(np.unique(reward[terminated])) <= {-1.0, 0.0, 1.0} and (reward[~terminated] == 0).all()
        if terminated.any():
            ended += int(terminated.sum())
            assert (info["_final_obs"] == terminated).all()
            assert not info["final_obs"]["action_mask"][terminated].any()  # the game is over there
    assert ended > 16
    assert set(info["seat"].tolist()) == {0, 1}


@pytest.mark.parametrize("game, seat, rounds", [("reconstruct", 0, 150), ("reconstruct", 1, 150),
                                               ("masks", 0, 700)])
def test_each_sub_environment_plays_the_reference_game_of_its_seed(game, seat, rounds):
    """With a deterministic opponent the reference replays every sub-environment: the same
    tensors, masks, rewards and ends, game after game (autoreset included)."""
    envs = make(4, game, opponents=lowest_legal, seat=seat)
    obs, info = envs.reset(seed=11)
    encoding = envs.unwrapped.games.encoding
    rng = np.random.default_rng(5)

    def reference(seed):
        table = Table.deal(encoding, int(seed), None, None)
        bots_play(table)
        return table

    def bots_play(table):
        while not table.state.is_over and table.state.current_player != seat:
            table.play(lowest_legal(None, table.mask()))

    tables = [reference(s) for s in info["seed"]]
    checked_ends = 0
    for _ in range(rounds):
        for i, table in enumerate(tables):
            assert np.array_equal(obs["observation"][i], table.features(seat))
            assert np.array_equal(obs["action_mask"][i], table.mask())
        actions = random_actions(rng, obs)
        obs, reward, terminated, _, info = envs.step(actions)
        for i, table in enumerate(tables):
            table.play(int(actions[i]))
            bots_play(table)
            assert terminated[i] == table.state.is_over
            if terminated[i]:
                assert reward[i] == table.state.returns()[seat]
                assert np.array_equal(info["final_obs"]["observation"][i], table.features(seat))
                tables[i] = reference(info["seed"][i])
                checked_ends += 1
    assert checked_ends >= 2


def test_the_same_seed_gives_the_same_games():
    runs = []
    for _ in range(2):
        envs = make(6, opponents="random", seat="random")
        obs, info = envs.reset(seed=42)
        rng = np.random.default_rng(1)
        trace = [info["seed"].copy()]
        for _ in range(60):
            obs, reward, _, _, info = envs.step(random_actions(rng, obs))
            trace += [obs["observation"].copy(), reward.copy(), info["seat"].copy()]
        runs.append(trace)
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))


def test_an_illegal_learner_action_raises_and_changes_nothing():
    envs = make(3)
    obs, _ = envs.reset(seed=2)
    actions = obs["action_mask"].argmax(axis=1)
    actions[2] = np.flatnonzero(obs["action_mask"][2] == 0)[0]
    before = envs.unwrapped.games.state.copy()
    with pytest.raises(IllegalAction, match=rf"game 2: action {actions[2]} \(.*\) is not legal now; legal: "):
        envs.step(actions)
    assert (envs.unwrapped.games.state == before).all()


def test_an_opponent_policy_that_answers_an_illegal_index_is_named():
    def allow_always(observation, mask):
        return 1

    envs = make(4, opponents=allow_always)
    with pytest.raises(MatanuiError, match=r"the opponent policy .*allow_always.* answered"):
        envs.reset(seed=0)
        for _ in range(5):
            envs.step(envs.unwrapped.action_masks().argmax(axis=1))


def test_a_policy_with_batch_is_asked_for_all_its_games_at_once():
    calls = []

    class Lowest:
        def __call__(self, observation, mask):
            raise AssertionError("batch should be used")

        def batch(self, observations, masks):
            calls.append(len(observations))
            return masks.argmax(axis=1)

    envs = make(8, opponents=Lowest())
    obs, _ = envs.reset(seed=4)
    envs.step(obs["action_mask"].argmax(axis=1))
    assert calls and max(calls) > 1


@pytest.mark.parametrize("settings, message", [
    ({"seat": 2}, r"seat must be a seat number or 'random' \(0 to 1\), not 2"),
    ({"seat": "left"}, "seat must be a seat number or 'random'"),
    ({"opponents": "heuristic"}, "'heuristic' is a matanui bot, which plays on the reference engine: use "
                                 r"gymnasium.make_vec\(..., vectorization_mode='sync'"),
    ({"opponents": 3}, "an array policy is MODULE:CALLABLE, a policy file PATH.npz or a callable"),
    ({"opponents": "nosuchmodule:policy"}, "cannot import 'nosuchmodule'"),
    ({"options": {"advanced": "yes"}}, "option advanced must be"),
])
def test_bad_settings_say_what_is_allowed(settings, message):
    with pytest.raises(MatanuiError, match=message):
        make(2, **settings)


def test_games_without_a_batched_engine_have_no_vector_entry_point():
    assert gymnasium.spec("matanui/reconstruct-v0").vector_entry_point
    assert gymnasium.spec("matanui/makuta-v0").vector_entry_point is None


def test_bench_batch_measures_the_batched_engine_beside_the_reference_and_leduc():
    from typer.testing import CliRunner

    from matanui.cli import app

    result = CliRunner().invoke(app, ["bench", "reconstruct", "--batch", "64", "--seconds", "0.2"])
    assert result.exit_code == 0, result.output
    for words in ("batched", "x64", "python", "leduc_", "C++"):  # the table wraps at 80 columns
        assert words in result.output
    refused = CliRunner().invoke(app, ["bench", "reconstruct", "--batch", "0"])
    assert refused.exit_code != 0 and "1 or more" in refused.output
