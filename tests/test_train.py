"""The numpy trainer: its gradients are right, a tiny run is the same run every time and
writes a policy file every player loads, and `matanui train` refuses bad settings clearly.
(That a longer run beats random is measured, not tested: docs/research.md, "Baselines".)"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from matanui import games
from matanui.ai import SeatView, make_agent
from matanui.cli import app
from matanui.engine import MatanuiError
from matanui.envs.checkpoint import Checkpoint
from matanui.train.curve import read_csv, write_csv
from matanui.train.network import backward, forward, initial
from matanui.train.ppo import Settings, advantages, masked_log_softmax, sample, surrogate_gradient, train

runner = CliRunner()
TINY = Settings(hidden=(8,), value_hidden=(4,), envs=2, rollout=16, minibatch=8, epochs=2)


def numeric_gradient(loss, x: np.ndarray, step: float = 1e-4) -> np.ndarray:
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        saved = x[index]
        x[index] = saved + step
        up = loss()
        x[index] = saved - step
        down = loss()
        x[index] = saved
        grad[index] = (up - down) / (2 * step)
    return grad


def test_the_perceptrons_gradients_match_finite_differences():
    rng = np.random.default_rng(0)
    layers = [(w.astype(np.float64), b.astype(np.float64)) for w, b in initial([5, 7, 3], rng, 1.0)]
    x, target = rng.standard_normal((4, 5)), rng.standard_normal((4, 3))

    def loss() -> float:
        return float(0.5 * ((forward(layers, x)[0] - target) ** 2).sum())

    out, inputs = forward(layers, x)
    grads = backward(layers, inputs, out - target)
    for (w, b), (grad_w, grad_b) in zip(layers, grads, strict=True):
        assert np.allclose(grad_w, numeric_gradient(loss, w), atol=1e-5)
        assert np.allclose(grad_b, numeric_gradient(loss, b), atol=1e-5)


def test_the_clipped_surrogates_gradient_matches_finite_differences():
    rng = np.random.default_rng(1)
    logits = rng.standard_normal((6, 5))
    masks = rng.random((6, 5)) < 0.7
    masks[:, 0] = True
    actions = np.array([int(rng.choice(np.flatnonzero(row))) for row in masks])
    old = masked_log_softmax(logits + 0.3 * rng.standard_normal(logits.shape), masks)[np.arange(6), actions]
    advantage = rng.standard_normal(6)

    def loss() -> float:
        log_probs = masked_log_softmax(logits, masks)
        ratio = np.exp(log_probs[np.arange(6), actions] - old)
        surrogate = np.minimum(ratio * advantage, np.clip(ratio, 0.8, 1.2) * advantage)
        entropy = -np.where(masks, np.exp(log_probs) * log_probs, 0.0).sum(axis=1)
        return float(np.mean(-surrogate) - 0.05 * np.mean(entropy))

    grad, _, _ = surrogate_gradient(logits, masks, actions, old, advantage, 0.2, 0.05)
    assert np.allclose(grad, numeric_gradient(loss, logits, 1e-6), atol=1e-5)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(st.booleans(), min_size=6, max_size=6).filter(any), min_size=1, max_size=8),
       st.integers(0, 2**31))
def test_sampling_never_picks_an_illegal_action(rows, seed):
    masks = np.array(rows)
    rng = np.random.default_rng(seed)
    logits = rng.standard_normal(masks.shape).astype(np.float32) * 30
    probabilities = np.exp(masked_log_softmax(logits, masks))
    assert masks[np.arange(len(masks)), sample(probabilities, rng)].all()


def test_advantages_stop_at_the_end_of_an_episode():
    rewards = np.array([[0.0], [1.0], [0.0]], np.float32)
    values = np.array([[0.5], [0.5], [0.5]], np.float32)
    done = np.array([[0.0], [1.0], [0.0]], np.float32)
    result = advantages(rewards, values, done, np.array([2.0], np.float32), gamma=1.0, lam=1.0)
    assert result[:, 0].tolist() == [0.5, 0.5, 1.5]  # the first episode ends at step 2, the next bootstraps


def test_a_tiny_run_is_the_same_every_time_and_its_file_plays(tmp_path):
    one, curve = train("reconstruct", 64, ["random", "heuristic"], 5, TINY)
    two, _ = train("reconstruct", 64, ["random", "heuristic"], 5, TINY)
    other, _ = train("reconstruct", 64, ["random", "heuristic"], 6, TINY)
    for first, second in zip(one.weights + one.value_weights, two.weights + two.value_weights, strict=True):
        assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))
    assert not np.array_equal(one.weights[0][0], other.weights[0][0])
    assert [row["steps"] for row in curve.rows] == [32, 64]
    path = tmp_path / "tiny.npz"
    one.save(path)
    loaded = Checkpoint.load(path)
    assert loaded.meta["trainer"] == "matanui.train.ppo" and loaded.meta["steps"] == 64
    assert loaded.value_weights, "the value head is kept"
    agent = make_agent(str(path), "reconstruct")
    state = games.get("reconstruct").new_game(3, ["tahu", "onua"])
    while not state.is_over:
        state.apply(agent.act(SeatView(state, state.current_player)))


def test_the_train_command_writes_the_policy_its_curve_and_its_plot(tmp_path):
    out = tmp_path / "r.npz"
    result = runner.invoke(app, ["train", "reconstruct", "--steps", "10", "--envs", "2", "--opponents",
                                 "random", "--hidden", "8", "--value-hidden", "4", "--out", str(out)])
    assert result.exit_code == 0, result.output
    command = Checkpoint.load(out).meta["command"]
    assert command.startswith("matanui train reconstruct --steps 10 --opponents random")
    lines = (tmp_path / "r-curve.csv").read_text().splitlines()
    assert lines[0] == "steps,episodes,return_vs_random,entropy,value_loss,kl" and len(lines) == 2
    assert (tmp_path / "r-curve.png").read_bytes().startswith(b"\x89PNG")
    again = tmp_path / "again.csv"
    write_csv(read_csv(tmp_path / "r-curve.csv"), again)
    assert again.read_text() == (tmp_path / "r-curve.csv").read_text()


@pytest.mark.parametrize(("args", "words"), [
    (["makuta", "--players", "9"], "is for 2 to 6 players, not 9"),
    (["reconstruct", "--encoding", "compact"], "encodings are full, not 'compact'"),
    (["chess"], "no game named 'chess'"),
    (["reconstruct", "--out", "x.txt"], "ending .npz"),
    (["reconstruct", "--hidden", "big"], "layer widths from 1 to"),
    (["reconstruct", "--gamma", "0"], "--gamma must be above 0"),
    (["reconstruct", "--steps", "0"], "at least 1 step"),
    (["reconstruct", "--opponents", "wizard"], "no agent named 'wizard'"),
])
def test_bad_training_settings_say_what_is_allowed(tmp_path, args, words):
    if "--out" not in args:
        args = [*args, "--out", str(tmp_path / "p.npz")]
    result = runner.invoke(app, ["train", *args, "--envs", "2"])
    assert result.exit_code == 2, result.output
    assert words in " ".join(result.output.split())
    assert not (tmp_path / "p.npz").exists()


def test_training_on_from_a_policy_file_starts_from_its_weights_and_keeps_its_widths():
    first, _ = train("reconstruct", 32, ["random"], 5, TINY)
    zero, _ = train("reconstruct", 32, ["random"], 5, TINY, start=first)
    wide = Settings(hidden=(16,), value_hidden=(8,), envs=2, rollout=16, minibatch=8, epochs=1,
                    rate=1e-12)  # a step too small to move the weights: what it starts from shows
    on, _ = train("reconstruct", 32, ["random"], 9, wide, start=first)
    assert [w.shape for w, _ in on.weights] == [w.shape for w, _ in first.weights]
    assert np.allclose(on.weights[0][0], first.weights[0][0], atol=1e-6)
    assert not np.array_equal(zero.weights[0][0], first.weights[0][0])  # and it does train on


def test_training_on_from_another_games_policy_is_refused():
    masks, _ = train("masks", 16, ["random"], 5, Settings(hidden=(4,), value_hidden=(2,), envs=1, rollout=16,
                                                         minibatch=8, epochs=1))
    with pytest.raises(MatanuiError, match="for masks with 2 players, not reconstruct with 2"):
        train("reconstruct", 16, ["random"], 0, TINY, start=masks)


def test_makuta_trains_for_four_players_on_its_compact_encoding_and_its_file_plays_only_four(tmp_path):
    """Every seat of four is the learner's in turn (Makuta's seat and the Toa's), the file says
    the players and the encoding it reads, and an agent made from it refuses another count."""
    four, curve = train("makuta", 32, ["random"], 5, TINY, players=4, encoding_variant="compact")
    assert (four.meta["players"], four.meta["encoding"]) == (4, "compact")
    assert four.meta["observation_size"] == 6146 and curve.rows
    path = tmp_path / "makuta-4.npz"
    four.save(path)
    agent = make_agent(str(path), "makuta")
    spec = games.get("makuta")
    state = spec.new_game(2, spec.characters()[:4])
    for _ in range(3):  # a few legal moves from its own encoding's tensor
        state.apply(agent.act(SeatView(state, state.current_player)))
    with pytest.raises(MatanuiError, match="plays games of 4 players, not 2"):
        agent.check_players(2)
    refused = runner.invoke(app, ["arena", "makuta", "--agents", f"{path},random", "--games", "2",
                                  "--out", str(tmp_path / "arena")])
    assert refused.exit_code == 2 and "plays games of 4 players, not 2" in " ".join(refused.output.split())


def test_training_for_no_steps_is_refused():
    with pytest.raises(MatanuiError, match="at least 1 step"):
        train("reconstruct", 0, ["random"], 0, TINY)
