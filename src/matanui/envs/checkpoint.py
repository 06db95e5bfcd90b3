"""A trained policy as a small numpy file: what the trainers write and every player of the
games can load (the Gymnasium and vector environments' opponents, `matanui arena`), with
numpy alone.

The file is an `.npz` holding `meta` (one JSON string: `format`, `game`, `players`,
`observation_size`, `actions`, optionally `encoding`, the variant of the game's observation
encoding it reads (the default, "full", where absent), and free-form provenance such as the
command that trained it)
and the weights of a ReLU perceptron, `w0, b0, w1, b1, ...` (`w_i` of shape (inputs, outputs)),
whose last layer gives one logit per action of the game's encoding. Its input is the seat's
information-state tensor (the observation followed by the memory), as the environments give it.
A value head, where a trainer keeps one, is `v0, c0, ...` the same way, ending in one output.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from matanui.engine import MatanuiError

FORMAT = "matanui-policy-1"
META_KEYS = ("game", "players", "observation_size", "actions")


class BadCheckpoint(MatanuiError):
    """A policy file that cannot be read: says which file and what is wrong."""


class Checkpoint:
    """A masked policy: the legal action with the highest logit (or sampled by probability)."""

    def __init__(self, weights: list[tuple[np.ndarray, np.ndarray]], meta: Mapping[str, Any],
                 value: list[tuple[np.ndarray, np.ndarray]] | None = None) -> None:
        self.weights = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in weights]
        self.value_weights = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in value or []]
        self.meta = dict(meta)
        _check_shapes(self.weights, self.meta, "the policy", self.meta["actions"])
        if self.value_weights:
            _check_shapes(self.value_weights, self.meta, "the value head", 1)

    @property
    def game(self) -> str:
        return str(self.meta["game"])

    @classmethod
    def load(cls, path: str | Path) -> Checkpoint:
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except FileNotFoundError:
            raise BadCheckpoint(f"{path}: no such policy file") from None
        except (OSError, ValueError, zipfile.BadZipFile) as error:
            raise BadCheckpoint(f"{path}: not a policy file (a numpy .npz with meta and w0, b0, ...): "
                                f"{error}") from None
        if "meta" not in arrays:
            raise BadCheckpoint(f"{path}: no 'meta' entry; a policy file holds meta and w0, b0, ...")
        try:
            meta = json.loads(str(arrays.pop("meta")))
        except json.JSONDecodeError as error:
            raise BadCheckpoint(f"{path}: its 'meta' is not JSON: {error}") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise BadCheckpoint(f"{path}: its meta must be a JSON object with format {FORMAT!r}")
        missing = [key for key in META_KEYS if key not in meta]
        if missing:
            raise BadCheckpoint(f"{path}: its meta lacks {', '.join(missing)}")
        try:
            return cls(_layers(arrays, "w", "b"), meta, _layers(arrays, "v", "c"))
        except BadCheckpoint as error:
            raise BadCheckpoint(f"{path}: {error}") from None

    def save(self, path: str | Path) -> None:
        arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps({**self.meta, "format": FORMAT}))}
        for prefix, layers in (("w", self.weights), ("v", self.value_weights)):
            bias = "b" if prefix == "w" else "c"
            for i, (w, b) in enumerate(layers):
                arrays[f"{prefix}{i}"], arrays[f"{bias}{i}"] = w, b
        np.savez_compressed(path, **arrays)

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """(k, actions) logits for (k, observation_size) information-state tensors."""
        return _forward(self.weights, observations)

    def values(self, observations: np.ndarray) -> np.ndarray:
        """(k,) value estimates, where the file has a value head."""
        if not self.value_weights:
            raise BadCheckpoint("this policy file has no value head")
        return _forward(self.value_weights, observations)[:, 0]

    def probabilities(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """(k, actions): the softmax over the legal actions only."""
        logits = np.where(np.asarray(masks, bool), self.logits(observations), -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        weights = np.exp(logits)
        return weights / weights.sum(axis=1, keepdims=True)

    def batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """(k,) the legal action with the highest logit in each row."""
        logits = np.where(np.asarray(masks, bool), self.logits(observations), -np.inf)
        return logits.argmax(axis=1)

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """One information-state tensor and its mask: the action index to take."""
        return int(self.batch(observation[None, :], mask[None, :])[0])


def _forward(layers: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, np.float32)
    for i, (w, b) in enumerate(layers):
        x = x @ w + b
        if i < len(layers) - 1:
            np.maximum(x, 0.0, out=x)
    return x


def _layers(arrays: Mapping[str, np.ndarray], weight: str, bias: str) -> list[tuple[np.ndarray, np.ndarray]]:
    layers = []
    while f"{weight}{len(layers)}" in arrays:
        i = len(layers)
        if f"{bias}{i}" not in arrays:
            raise BadCheckpoint(f"{weight}{i} has no {bias}{i}")
        layers.append((arrays[f"{weight}{i}"], arrays[f"{bias}{i}"]))
    if weight == "w" and not layers:
        raise BadCheckpoint("no layers: a policy file holds w0, b0, w1, b1, ...")
    return layers


def _check_shapes(layers: list[tuple[np.ndarray, np.ndarray]], meta: Mapping[str, Any], what: str,
                  outputs: int) -> None:
    inputs = meta["observation_size"]
    for i, (w, b) in enumerate(layers):
        if w.ndim != 2 or w.shape[0] != inputs or b.shape != (w.shape[1],):
            raise BadCheckpoint(f"{what}'s layer {i} has shapes {w.shape} and {b.shape}; it must take "
                                f"{inputs} inputs, with one bias per output")
        inputs = w.shape[1]
    if inputs != outputs:
        raise BadCheckpoint(f"{what} ends in {inputs} outputs, not {outputs}")
