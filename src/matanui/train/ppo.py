"""PPO for one learning seat against fixed opponents: a masked-softmax policy and a separate
value network (small ReLU perceptrons), generalised advantage estimates, the clipped surrogate
objective with an entropy bonus, Adam. Deterministic given the seed: the same seed, steps and
opponents give the same weights (with numpy's BLAS on one thread, as `matanui train` sets)."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from typing import Any

import numpy as np

from matanui.engine import MatanuiError
from matanui.envs.checkpoint import Checkpoint
from matanui.envs.encoding import DEFAULT_VARIANT, encoding_for

from .envs import LockStep
from .network import Adam, Layers, backward, clip_norm, forward, initial

ILLEGAL = -1e9  # the logit an illegal action gets: its probability is exactly 0 in float32
RECENT = 100  # episodes per opponent that the learning curve averages


@dataclass(frozen=True)
class Settings:
    hidden: tuple[int, ...] = (64,)
    value_hidden: tuple[int, ...] = (32,)
    envs: int = 16
    rollout: int = 128  # steps per environment between updates
    epochs: int = 4
    minibatch: int = 512
    rate: float = 3e-4
    gamma: float = 0.99
    lam: float = 0.95
    clip: float = 0.2
    entropy: float = 0.01
    max_norm: float = 0.5


@dataclass
class Curve:
    """One row per update: steps so far, episodes so far, the mean return of the last RECENT
    episodes against each opponent, and the policy's entropy, value loss and approximate KL."""

    opponents: list[str]
    rows: list[dict[str, float]] = field(default_factory=list)

    def columns(self) -> list[str]:
        returns = [f"return_vs_{opponent}" for opponent in self.opponents]
        return ["steps", "episodes", *returns, "entropy", "value_loss", "kl"]


@dataclass
class Batch:
    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    log_probs: np.ndarray
    advantages: np.ndarray
    returns: np.ndarray


def masked_log_softmax(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    logits = np.where(masks, logits, ILLEGAL)
    logits = logits - logits.max(axis=1, keepdims=True)
    return logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))


def sample(probabilities: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One index per row, drawn by probability (never one of probability 0)."""
    cumulative = np.cumsum(probabilities, axis=1)
    targets = np.maximum(rng.random(len(probabilities)), 1e-12) * cumulative[:, -1]
    return (cumulative < targets[:, None]).sum(axis=1)


def advantages(rewards: np.ndarray, values: np.ndarray, done: np.ndarray, last: np.ndarray,
               gamma: float, lam: float) -> np.ndarray:
    """Generalised advantage estimates over a (steps, envs) rollout."""
    result = np.zeros_like(rewards)
    running = np.zeros(rewards.shape[1], np.float32)
    following = last
    for t in range(len(rewards) - 1, -1, -1):
        alive = 1.0 - done[t]
        delta = rewards[t] + gamma * alive * following - values[t]
        running = delta + gamma * lam * alive * running
        result[t] = running
        following = values[t]
    return result


def surrogate_gradient(logits: np.ndarray, masks: np.ndarray, actions: np.ndarray, old: np.ndarray,
                       advantage: np.ndarray, clip: float,
                       entropy_weight: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The gradient, at the logits, of PPO's loss over a minibatch: the mean of
    -min(ratio * A, clip(ratio) * A) - entropy_weight * entropy, the softmax over the legal
    actions only; with each row's entropy and the taken actions' new log-probabilities."""
    count = len(actions)
    log_probs = masked_log_softmax(logits, masks)
    probabilities = np.exp(log_probs)
    new = log_probs[np.arange(count), actions]
    ratio = np.exp(new - old)
    unclipped = ratio * advantage <= np.clip(ratio, 1 - clip, 1 + clip) * advantage
    coefficient = np.where(unclipped, -advantage * ratio, 0.0) / count
    grad = -probabilities * coefficient[:, None]
    grad[np.arange(count), actions] += coefficient
    plogp = np.where(masks, probabilities * log_probs, 0.0)
    entropy = -plogp.sum(axis=1)
    grad += entropy_weight * (plogp + probabilities * entropy[:, None]) / count
    return np.where(masks, grad, 0.0).astype(np.float32), entropy, new


class Learner:
    """The two networks and their optimisers."""

    def __init__(self, inputs: int, actions: int, settings: Settings, rng: np.random.Generator,
                 start: Checkpoint | None = None) -> None:
        self.settings = settings
        self.policy: Layers = initial([inputs, *settings.hidden, actions], rng, 0.01)
        self.value: Layers = initial([inputs, *settings.value_hidden, 1], rng, 1.0)
        if start is not None:  # training on: its weights (copied) replace the fresh ones
            self.policy = [(w.copy(), b.copy()) for w, b in start.weights]
            self.value = [(w.copy(), b.copy()) for w, b in start.value_weights] or self.value
        self.policy_optimiser = Adam(self.policy, settings.rate)
        self.value_optimiser = Adam(self.value, settings.rate)

    def act(self, observations: np.ndarray, masks: np.ndarray,
            rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        log_probs = masked_log_softmax(forward(self.policy, observations)[0], masks)
        actions = sample(np.exp(log_probs), rng)
        chosen = log_probs[np.arange(len(actions)), actions]
        return actions, chosen, self.values(observations)

    def values(self, observations: np.ndarray) -> np.ndarray:
        return forward(self.value, observations)[0][:, 0]

    def update(self, batch: Batch, rows: np.ndarray) -> tuple[float, float, float]:
        """One minibatch step of both networks: entropy, value loss and approximate KL."""
        s = self.settings
        observations, masks, actions = batch.observations[rows], batch.masks[rows], batch.actions[rows]
        advantage = batch.advantages[rows]
        count = len(rows)
        logits, inputs = forward(self.policy, observations)
        grad, entropy, new = surrogate_gradient(logits, masks, actions, batch.log_probs[rows], advantage,
                                                s.clip, s.entropy)
        self.policy_optimiser.step(self.policy, clip_norm(backward(self.policy, inputs, grad), s.max_norm))
        values, inputs = forward(self.value, observations)
        error = values[:, 0] - batch.returns[rows]
        grads = backward(self.value, inputs, (error / count)[:, None].astype(np.float32))
        self.value_optimiser.step(self.value, clip_norm(grads, s.max_norm))
        kl = float(np.mean(batch.log_probs[rows] - new))
        return float(entropy.mean()), float(np.mean(error ** 2)), kl


def train(game: str, steps: int, opponents: Sequence[str], seed: int, settings: Settings | None = None,
          provenance: dict[str, Any] | None = None,
          progress: Callable[[Curve, Callable[[], Checkpoint]], None] | None = None,
          start: Checkpoint | None = None, players: int = 2,
          encoding_variant: str = DEFAULT_VARIANT) -> tuple[Checkpoint, Curve]:
    """Train the seat against `opponents` (one per environment in turn, in every other seat,
    the learner in each seat in turn) for at least `steps` learner steps in games of `players`
    seen through `encoding_variant`; the policy file and its learning curve. `progress` is
    told after every update: the curve so far, and a function that makes the policy file as it
    is. `start`, a policy file of this game, trains on from its weights (its layer widths win
    over the settings')."""
    settings = settings or Settings()
    if start is not None:
        settings = replace(settings, hidden=tuple(b.size for _, b in start.weights[:-1]),
                           value_hidden=tuple(b.size for _, b in start.value_weights[:-1])
                           or settings.value_hidden)
    if steps < 1:
        raise MatanuiError(f"train for at least 1 step, not {steps}")
    if not opponents:
        raise MatanuiError("name at least one opponent, e.g. random,heuristic")
    encoding = encoding_for(game, players, encoding_variant)
    envs = LockStep(game, opponents, settings.envs, seed, players, encoding_variant)
    rng = np.random.default_rng(seed)
    inputs, actions = envs.observations.shape[1], len(encoding.actions)
    if start is not None:
        _check_start(start, game, players, inputs, actions)
    learner = Learner(inputs, actions, settings, rng, start)
    curve = Curve(list(dict.fromkeys(opponents)))
    recent = {label: deque(maxlen=RECENT) for label in curve.opponents}
    done_steps = episodes = 0
    meta = {"game": game, "players": players, "encoding": encoding_variant, "observation_size": inputs,
            "actions": actions,
            "trainer": "matanui.train.ppo", "seed": seed, "opponents": list(opponents),
            "settings": asdict(settings), **(provenance or {}),
            **({"started_from": start.meta.get("command", "a policy file")} if start else {})}
    shape = (settings.rollout, settings.envs)
    while done_steps < steps:
        observations = np.zeros((*shape, inputs), np.float32)
        masks = np.zeros((*shape, actions), bool)
        taken, log_probs, values, rewards, done = (np.zeros(shape, kind) for kind in
                                                   (np.int64, np.float32, np.float32, np.float32, np.float32))
        for t in range(settings.rollout):
            observations[t], masks[t] = envs.observations, envs.masks
            taken[t], log_probs[t], values[t] = learner.act(envs.observations, envs.masks, rng)
            rewards[t], ended = envs.step(taken[t])
            done[t] = ended
            for i in np.flatnonzero(ended):
                recent[envs.labels[i]].append(float(rewards[t, i]))
            episodes += int(ended.sum())
        advantage = advantages(rewards, values, done, learner.values(envs.observations),
                               settings.gamma, settings.lam)
        returns = advantage + values
        flat = settings.rollout * settings.envs
        advantage = advantage.reshape(flat)
        batch = Batch(observations.reshape(flat, inputs), masks.reshape(flat, actions), taken.reshape(flat),
                      log_probs.reshape(flat), (advantage - advantage.mean()) / (advantage.std() + 1e-8),
                      returns.reshape(flat))
        figures = []
        for _ in range(settings.epochs):
            order = rng.permutation(flat)
            for start in range(0, flat, settings.minibatch):
                figures.append(learner.update(batch, order[start:start + settings.minibatch]))
        done_steps += flat
        entropy, value_loss, kl = np.mean(figures, axis=0)
        returns_now = {f"return_vs_{o}": float(np.mean(recent[o])) if recent[o] else math.nan
                       for o in curve.opponents}
        row = {"steps": done_steps, "episodes": episodes, **returns_now,
               "entropy": float(entropy), "value_loss": float(value_loss), "kl": float(kl)}
        curve.rows.append(row)
        if progress:
            progress(curve, partial(policy_file, learner, {**meta, "steps": done_steps}))
    return policy_file(learner, {**meta, "steps": done_steps}), curve


def policy_file(learner: Learner, meta: dict[str, Any]) -> Checkpoint:
    return Checkpoint(learner.policy, meta, learner.value)


def _check_start(start: Checkpoint, game: str, players: int, inputs: int, actions: int) -> None:
    if (start.game, start.meta["players"]) != (game, players):
        raise MatanuiError(f"the policy to train on from is for {start.game} with {start.meta['players']} "
                           f"players, not {game} with {players}")
    if (start.meta["observation_size"], start.meta["actions"]) != (inputs, actions):
        raise MatanuiError(f"the policy to train on from reads {start.meta['observation_size']} inputs and "
                           f"gives {start.meta['actions']} actions; {game} has {inputs} and {actions} now")
