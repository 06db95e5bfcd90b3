"""Policy-based inference: determinizations weighted by how likely the opponents' observed
play would have been in them (as the strongest Skat programs do: Buro, Long, Furtak and
Sturtevant 2009; Solinas, Rebstock, Sturtevant and Buro 2019).

A uniform determinization treats every unseen card as equally likely anywhere. But an
opponent's play says something about their hand: one who let you add your sixth part
probably held no stop card. A game's `opponent_model(view)` reads the seat's own
observation history and returns a likelihood: for a candidate state, how probable the
opponent's observed choices were had that been the truth. `WeightedSampler` draws a few
uniform determinizations and keeps one with probability proportional to its likelihood
(sampling importance resampling), so a search sees likely worlds more often and unlikely
ones seldom, never never: a model of play is only a model.

Everything here is computed from the seat's view: its observations, past and present,
and determinizations sampled from them. The true state is never read.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from matanui.engine import State

from .base import SeatView

Likelihood = Callable[[State, random.Random], float]
CANDIDATES = 4  # determinizations drawn per sample: more sharpens the weights, costs more


class WeightedSampler:
    """Samples determinizations of `view` in proportion to `likelihood`."""

    def __init__(self, view: SeatView, likelihood: Likelihood, candidates: int = CANDIDATES) -> None:
        self.view = view
        self.likelihood = likelihood
        self.candidates = candidates

    def __call__(self, rng: random.Random) -> State:
        states = [self.view.determinize(rng) for _ in range(self.candidates)]
        weights = [self.likelihood(state, rng) for state in states]
        total = sum(weights)
        if total <= 0:
            return states[0]
        pick = rng.random() * total
        for state, weight in zip(states, weights, strict=True):
            pick -= weight
            if pick < 0:
                return state
        return states[-1]


def sampler(view: SeatView, model: Callable[[SeatView], Likelihood | None] | None
            ) -> Callable[[random.Random], State]:
    """The determinizer a search should use for `view`: weighted by the game's opponent
    model where it has one and the seat's history gives it something to go on, uniform
    otherwise."""
    likelihood = None if model is None else model(view)
    return view.determinize if likelihood is None else WeightedSampler(view, likelihood)
