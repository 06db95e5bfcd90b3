"""Agents by name: `make_agent("hard", "reconstruct", seed=1)`.

Names every interface understands:
- `random` (also `easy`): uniformly random legal actions;
- `heuristic` (also `medium`): the game's own sensible player,
  `matanui.ai.heuristics.<game>.Heuristic`;
- `hard`: information-set MCTS with a time budget, 1 second per move; `hard@0.2` sets the
  seconds;
- `ismcts@N`: information-set MCTS with N iterations per move (fully seeded: the same seed
  gives the same moves on any machine, which time budgets cannot promise);
- `ismcts-infer@N`: the same, its samples weighted by the game's opponent model where it has
  one (research: it has not yet been shown to play better, docs/ai.md);
- `ismcts-ppo@N`: the same, its root biased by the game's trained policy (`ppo`), whose
  probabilities order the first tries and add a fading bonus, `prior_weight` (research:
  docs/ai.md, "An expert level");
- `ppo`: the game's trained policy (ai/data/policies/<game>.npz), `PATH.npz` a policy file,
  `MODULE:CALLABLE` an importable array policy (matanui.ai.policy; these need numpy).
A search's name may set its parameters in braces, `ismcts@300{exploration=0.9}`, and where a
game's heuristic has weights (a `Weights` dataclass), `heuristic{challenge_odds=0.4}` sets them
(matanui.ai.settings).
What a game's heuristics module declares in its `HEURISTICS` (matanui.ai.heuristics.Heuristics)
shapes the levels: where `hard_is_tuned`, `hard` in that game is its heuristic playing the
weights `matanui tune` found (data/tuned.toml) instead of the search, which was measured
weaker there (docs/ai.md); both searches take their playouts from it (they follow its agent
unless told not to, stop after its `playout_limit`, are scored by its `evaluate`, and let its
agent's move stand unless `search_overrules_agent_by` is beaten), and `ismcts-infer` weights
its determinizations by its `opponent_model` (matanui.ai.inference).
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from matanui.engine import MatanuiError
from matanui.engine.untrusted import shortened

from .base import Agent, RandomAgent
from .heuristics import heuristics
from .ismcts import ISMCTSAgent
from .policy import SPECS, TRAINED, is_policy_spec, policy_agent
from .settings import SEARCH, Parameters, check_value, split_settings
from .tuned import TUNED_FILE, tuned_weights

LEVELS = {"easy": "random", "medium": "heuristic"}
# The most a budget after '@' may ask (docs/ai.md): about a minute a move either way, far
# past what any level or measurement uses (hard is 1 second, the largest measured 5,000).
MAX_SECONDS = 60.0
MAX_ITERATIONS = 100_000
MAX_NAME = 2_000  # characters of a name, settings in braces included (all of Makuta's weights: 520)
AGENTS = ("random", "heuristic", "hard", "ismcts", "ismcts-infer", "ismcts-ppo", "easy", "medium", "ppo")
SEARCHES = ("hard", "ismcts", "ismcts-infer", "ismcts-ppo")
HARD_SECONDS = 1.0


def agent_names() -> list[str]:
    return list(AGENTS)


def _budget(spec: str, text: str, kind: type) -> float | int:
    """The budget after '@', within the bounds every source of a name shares (MAX_SECONDS,
    MAX_ITERATIONS): a command's option, a saved game's seating, a stored game's seat."""
    try:
        value = kind(text)
    except ValueError:  # not a number, or past Python's digit limit for int()
        value = 0
    if kind is float:
        if not 0 < value <= MAX_SECONDS:  # False for nan too
            raise MatanuiError(f"agent {shortened(spec)}: the budget after '@' must be a number of "
                               f"seconds above 0 and at most {MAX_SECONDS:g}")
    elif not 1 <= value <= MAX_ITERATIONS:
        raise MatanuiError(f"agent {shortened(spec)}: the budget after '@' must be a whole number of "
                           f"iterations from 1 to {MAX_ITERATIONS:,}")
    return value


def _hard_is_tuned_heuristic(game: str) -> bool:
    kit = heuristics(game)
    return kit is not None and kit.hard_is_tuned


def parameters(spec: str, game: str) -> Parameters:
    """What the agent `spec` may set in braces in `game`: a search its parameters, a
    heuristic with weights (its `Heuristics.weights` dataclass) those weights, anything
    else nothing."""
    base = spec.partition("{")[0].partition("@")[0]
    name = LEVELS.get(base, base)
    if name == "hard" and _hard_is_tuned_heuristic(game):
        return Parameters({}, "setting", f"{game}'s hard (its tuned heuristic)")
    if name in SEARCHES:
        return SEARCH
    if name == "heuristic":
        kit = heuristics(game)
        weights = kit.weights if kit else None
        kinds = {field.name: float for field in fields(weights)} if weights else {}
        return Parameters(kinds, "weight", f"{game}'s heuristic")
    return Parameters({}, "setting", name)


def _heuristic(game: str, seed: int, weights: dict[str, float] | None = None) -> Agent | None:
    kit = heuristics(game)
    if kit is None:
        return None
    if weights:
        assert kit.weights is not None, "parameters() allows weights only where the game has them"
        return kit.agent(seed, replace(kit.weights(), **weights))
    return kit.agent(seed)


def _tuned_heuristic(game: str, seed: int) -> Agent:
    """`hard` where the game's tuned heuristic stands for it; its weights are checked as a
    name's would be, so a damaged data file says which weight is wrong."""
    allowed = parameters("heuristic", game)
    try:
        weights = {name: check_value(name, value, allowed) for name, value in tuned_weights(game).items()}
    except MatanuiError as error:
        raise MatanuiError(f"{TUNED_FILE}, [{game}.weights]: {error}") from None
    agent = _heuristic(game, seed, weights)
    assert agent is not None
    agent.name = "hard"
    return agent


def _playout_settings(game: str, seed: int) -> dict[str, Any]:
    kit = heuristics(game)
    if kit is None:
        return {}
    margin = kit.search_overrules_agent_by
    return {
        "rollout_agent": kit.agent(seed) if kit.playouts_follow_agent else None,
        "rollout_limit": kit.playout_limit,
        "evaluator": kit.evaluate,
        "anchor": None if margin is None else kit.agent(seed + 1),
        "anchor_margin": margin or 0.0,
        "inference": kit.opponent_model,
    }


def make_agent(spec: str, game: str, seed: int = 0, outside_code: bool = True) -> Agent:
    """The agent `spec` names. `outside_code=False` (the service, whose bot names come from
    requests and stored rows) refuses MODULE:CALLABLE and PATH.npz, which import code or
    load a file named by the spec; matanui's own agents, `ppo` included, stay allowed."""
    if len(spec) > MAX_NAME:
        raise MatanuiError(f"agent {shortened(spec)}: an agent's name is at most {MAX_NAME} characters")
    if is_policy_spec(spec) and not outside_code and spec != TRAINED:
        raise MatanuiError(f"agent {shortened(spec)}: the service plays only matanui's own agents, not "
                           "MODULE:CALLABLE or a policy file (those import code or read files)")
    if is_policy_spec(spec):
        return policy_agent(spec, game, seed)
    plain, overrides = split_settings(spec, parameters(spec, game))
    name, _, budget = plain.partition("@")
    name = LEVELS.get(name, name)
    if name == "random" and not budget:
        return RandomAgent(seed)
    if name == "heuristic" and not budget:
        heuristic = _heuristic(game, seed, overrides)
        if heuristic is None:
            raise MatanuiError(f"there is no heuristic agent for {game!r} yet")
        if overrides:
            heuristic.name = spec
        return heuristic
    if name == "hard" and _hard_is_tuned_heuristic(game):
        if budget:
            raise MatanuiError(f"agent {spec!r}: in {game}, hard is the heuristic with tuned weights, "
                               "which takes no time budget; the search is ismcts@ITERATIONS")
        return _tuned_heuristic(game, seed)
    if name in SEARCHES:
        if name == "hard":
            budgets = {"seconds": _budget(spec, budget, float) if budget else HARD_SECONDS}
        else:
            budgets = {"iterations": int(_budget(spec, budget, int)) if budget else 1000}
        settings = _playout_settings(game, seed + 1)
        if name != "ismcts-infer":
            settings["inference"] = None
        if "anchor_margin" in overrides and settings.get("anchor") is None:
            raise MatanuiError(f"agent {spec!r}: the search in {game} has no anchor, so anchor_margin "
                               "would change nothing")
        if name == "ismcts-ppo":
            settings["prior"] = policy_agent(TRAINED, game, seed).priors
        elif "prior_weight" in overrides:
            raise MatanuiError(f"agent {spec!r}: only ismcts-ppo has a prior, so prior_weight would "
                               "change nothing")
        settings.update(overrides)
        agent = ISMCTSAgent(seed, **budgets, **settings)
        agent.name = spec
        return agent
    raise MatanuiError(f"no agent named {spec!r}; the agents are: random (easy), heuristic (medium), "
                       f"hard, hard@SECONDS, ismcts@ITERATIONS, ismcts-infer@ITERATIONS, "
                       f"ismcts-ppo@ITERATIONS, {SPECS}")
