"""The environments the trainer steps: reference Gymnasium environments in lock-step, each
reset as soon as its episode ends. This is the one place that knows how they are stepped, so
a batched vector environment can take its place."""

from __future__ import annotations

from collections.abc import Sequence

import gymnasium
import numpy as np

import matanui.envs.gymnasium  # noqa: F401  (registers matanui/<game>-v0)
from matanui.envs.encoding import DEFAULT_VARIANT


class LockStep:
    """`count` environments of `game` for `players`: environment i plays
    `opponents[i % len(opponents)]` in every other seat, the learner in seat
    `(i // len(opponents)) % players`, so every opponent is met from every seat."""

    def __init__(self, game: str, opponents: Sequence[str], count: int, seed: int, players: int = 2,
                 encoding: str = DEFAULT_VARIANT) -> None:
        self.opponents = list(opponents)
        self.envs = [gymnasium.make(f"matanui/{game}-v0", opponents=self.opponents[i % len(self.opponents)],
                                    seat=(i // len(self.opponents)) % players, players=players,
                                    encoding=encoding, disable_env_checker=True)
                     for i in range(count)]
        self.labels = [self.opponents[i % len(self.opponents)] for i in range(count)]
        first = [env.reset(seed=seed * 10_000 + i)[0] for i, env in enumerate(self.envs)]
        self.observations = np.stack([obs["observation"] for obs in first])
        self.masks = np.stack([obs["action_mask"] for obs in first]).astype(bool)

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Play one action in every environment: the rewards and which episodes ended (those
        are reset; `observations` and `masks` then hold the new episodes' first)."""
        rewards = np.zeros(len(self.envs), np.float32)
        done = np.zeros(len(self.envs), bool)
        for i, (env, action) in enumerate(zip(self.envs, actions, strict=True)):
            obs, reward, terminated, truncated, _ = env.step(int(action))
            rewards[i], done[i] = reward, terminated or truncated
            if done[i]:
                obs, _ = env.reset()
            self.observations[i] = obs["observation"]
            self.masks[i] = obs["action_mask"]
        return rewards, done
