"""A ReLU perceptron with hand-written gradients, and Adam: all the trainer needs of a deep
learning library, in numpy."""

from __future__ import annotations

from itertools import pairwise

import numpy as np

Layers = list[tuple[np.ndarray, np.ndarray]]


def initial(sizes: list[int], rng: np.random.Generator, last_scale: float) -> Layers:
    """He-initialised layers for `sizes` (inputs, hidden..., outputs), the last scaled down
    (a near-uniform first policy, a near-zero first value)."""
    layers = []
    for i, (inputs, outputs) in enumerate(pairwise(sizes)):
        scale = np.sqrt(2.0 / inputs) * (last_scale if i == len(sizes) - 2 else 1.0)
        layers.append(((rng.standard_normal((inputs, outputs)) * scale).astype(np.float32),
                       np.zeros(outputs, np.float32)))
    return layers


def forward(layers: Layers, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """The output for inputs `x` (k, inputs), and each layer's input (kept for `backward`)."""
    inputs = []
    for i, (w, b) in enumerate(layers):
        inputs.append(x)
        x = x @ w + b
        if i < len(layers) - 1:
            x = np.maximum(x, 0.0)
    return x, inputs


def backward(layers: Layers, inputs: list[np.ndarray], grad: np.ndarray) -> Layers:
    """The gradients of each (w, b), given the loss's gradient at the output."""
    grads: Layers = []
    for i in range(len(layers) - 1, -1, -1):
        w, _ = layers[i]
        x = inputs[i]
        grads.append((x.T @ grad, grad.sum(axis=0)))
        if i:
            grad = (grad @ w.T) * (x > 0)
    return grads[::-1]


class Adam:
    """Adam over a list of layers, updated in place."""

    def __init__(self, layers: Layers, rate: float, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-8) -> None:
        self.rate, self.beta1, self.beta2, self.epsilon = rate, beta1, beta2, epsilon
        self.first = [(np.zeros_like(w), np.zeros_like(b)) for w, b in layers]
        self.second = [(np.zeros_like(w), np.zeros_like(b)) for w, b in layers]
        self.steps = 0

    def step(self, layers: Layers, grads: Layers) -> None:
        self.steps += 1
        correction1 = 1 - self.beta1 ** self.steps
        correction2 = 1 - self.beta2 ** self.steps
        for layer, grad, first, second in zip(layers, grads, self.first, self.second, strict=True):
            for param, g, m, v in zip(layer, grad, first, second, strict=True):
                m *= self.beta1
                m += (1 - self.beta1) * g
                v *= self.beta2
                v += (1 - self.beta2) * g * g
                param -= self.rate * (m / correction1) / (np.sqrt(v / correction2) + self.epsilon)


def clip_norm(grads: Layers, most: float) -> Layers:
    """The gradients scaled down so their global norm is at most `most`."""
    norm = float(np.sqrt(sum(float((g * g).sum()) for layer in grads for g in layer)))
    if norm <= most:
        return grads
    scale = most / norm
    return [(w * scale, b * scale) for w, b in grads]
