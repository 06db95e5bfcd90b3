"""Each game's sensible player and its judgement: the module its descriptor names
(`matanui.ai.heuristics.<game>` for ours) declares them in one `HEURISTICS`, a `Heuristics`
below, which the levels, the search, the hints and the studies read (matanui.ai.registry,
matanui.ai.analysis, matanui.studies.evalfit)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from matanui import games
from matanui.engine import State

from ..base import Agent, SeatView
from ..inference import Likelihood
from ..ismcts import DEFAULT_ROLLOUT_LIMIT


@dataclass(frozen=True)
class Heuristics:
    """What a game offers its bots beyond the rules; everything but `agent` is optional.

    - `agent`: the sensible player (level `medium`), made as `agent(seed)` or, where the game
      has `weights`, `agent(seed, weights)`;
    - `weights`: the dataclass of its tunable weights (`heuristic{name=value}`, `matanui tune`);
    - `hard_is_tuned`: the level `hard` is this player with the weights `matanui tune` found
      (data/tuned.toml) instead of the search, where the search was measured weaker;
    - the search's playouts (`ismcts@N`, `hard`): they follow `agent` unless
      `playouts_follow_agent` is False, stop after `playout_limit` steps and then score the
      sampled state with `evaluate(state)` (each seat's prospects in [-1, 1]), where given;
      with `search_overrules_agent_by`, the search plays the agent's move unless its own best
      move's mean return is higher by more than that;
    - `advantage(state)` (seat 0's lead in the game's own units) and the `evaluation_scale`
      that `evaluate` multiplies it by, which `python -m matanui.studies.evalfit` fits;
    - `explain(view, action)`: a hint's reason in the game's words (None: no words for it);
    - `opponent_model(view)`: how likely a determinization is, from the opponent's answers so
      far (`ismcts-infer`, matanui.ai.inference; None: they say nothing yet)."""

    agent: Callable[..., Agent]
    weights: type | None = None
    hard_is_tuned: bool = False
    playouts_follow_agent: bool = True
    playout_limit: int = DEFAULT_ROLLOUT_LIMIT
    search_overrules_agent_by: float | None = None
    evaluate: Callable[[State], list[float]] | None = None
    advantage: Callable[[State], float] | None = None
    evaluation_scale: float | None = None
    explain: Callable[[SeatView, str], str | None] | None = None
    opponent_model: Callable[[SeatView], Likelihood | None] | None = None


def heuristics(game: str) -> Heuristics | None:
    """The game's `HEURISTICS`, or None for a game without a heuristics module (or not
    registered)."""
    if game not in games.names():
        return None
    name = games.descriptor(game).heuristics
    if name is None:
        return None
    declared: Any = importlib.import_module(name).HEURISTICS
    assert isinstance(declared, Heuristics), f"{name}.HEURISTICS is a Heuristics"
    return declared
