"""Who plays the seats that do not learn: one reading of an opponent, for the research
environments.

An opponent is given as
- an agent name, as `matanui arena` takes them (`random`, `heuristic`, `hard@0.1`, `ismcts@N`);
- `MODULE:CALLABLE`, an importable array policy, or a function of no arguments that makes one;
- a path ending `.npz`: a trained policy file (matanui.envs.checkpoint);
- an `Agent` object, or an array policy itself: any callable `policy(observation, mask) -> int`
  that takes the seat's information-state tensor and its action mask (the learning seat's
  observation shape) and answers an action index. That makes self-play one line: the learner's
  own policy function is an opponent.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from matanui.ai import make_agent
from matanui.ai.base import Agent, SeatView
from matanui.engine import MatanuiError

from .checkpoint import Checkpoint
from .encoding import Encoding
from .table import Table

ArrayPolicy = Callable[[np.ndarray, np.ndarray], int]
KINDS = ("an agent name (random, heuristic, hard, hard@SECONDS, ismcts@N), MODULE:CALLABLE, "
         "a policy file PATH.npz, an Agent, or a callable policy(observation, mask) -> action index")


class Opponent(Protocol):
    label: str

    def act(self, table: Table, seat: int) -> str:
        """The action id the seat takes now."""


class AgentOpponent:
    """A matanui bot, which sees the seat's view of the game."""

    def __init__(self, agent: Agent, label: str) -> None:
        self.agent, self.label = agent, label

    def act(self, table: Table, seat: int) -> str:
        return self.agent.act(SeatView(table.state, seat))


class PolicyOpponent:
    """An array policy, which sees the seat's information-state tensor and the mask."""

    def __init__(self, policy: ArrayPolicy, label: str) -> None:
        self.policy, self.label = policy, label

    def act(self, table: Table, seat: int) -> str:
        mask = table.mask()
        index = self.policy(table.features(seat), mask)
        if isinstance(index, bool) or not isinstance(index, int | np.integer) \
                or not 0 <= index < len(mask) or not mask[index]:
            legal = ", ".join(map(str, np.flatnonzero(mask)))
            raise MatanuiError(f"the opponent policy {self.label} answered {index!r}, which is not a legal "
                               f"action index now (legal: {legal})")
        return table.action_id(int(index))


def resolve(spec: Any, table: Table, seed: int) -> Opponent:
    """The opponent `spec` names, for the game at `table` (see the module's docstring)."""
    if isinstance(spec, Agent):
        return AgentOpponent(spec, spec.name)
    if callable(spec):
        return PolicyOpponent(spec, getattr(spec, "__name__", type(spec).__name__))
    if not isinstance(spec, str):
        raise MatanuiError(f"an opponent is {KINDS}, not {type(spec).__name__}")
    if is_agent_name(spec):
        return AgentOpponent(make_agent(spec, table.encoding.game.name, seed=seed), spec)
    return PolicyOpponent(array_policy(spec, table.encoding), spec)


def array_policy(spec: Any, encoding: Encoding) -> ArrayPolicy:
    """The array policy `spec` names: a callable as it is, MODULE:CALLABLE imported, or a
    policy file PATH.npz loaded and checked against the encoding."""
    if callable(spec) and not isinstance(spec, Agent):
        return spec
    if not isinstance(spec, str) or is_agent_name(spec):
        raise MatanuiError(f"an array policy is MODULE:CALLABLE, a policy file PATH.npz or a callable "
                           f"policy(observation, mask) -> action index, not {spec!r:.60}")
    return _checkpoint(spec, encoding) if spec.endswith(".npz") else _imported(spec)


def is_agent_name(spec: Any) -> bool:
    """Whether `spec` names a matanui bot (made anew, with its own seed, for every deal)."""
    return isinstance(spec, str) and not spec.endswith(".npz") and ":" not in spec


def _checkpoint(path: str, encoding: Encoding) -> Checkpoint:
    policy = Checkpoint.load(path)
    size = encoding.observation_size + encoding.memory_size
    if (policy.game, policy.meta["players"], policy.meta["observation_size"]) != (
            encoding.game.name, encoding.players, size):
        raise MatanuiError(f"{path}: a policy for {policy.game} with {policy.meta['players']} players and "
                           f"{policy.meta['observation_size']} inputs cannot play {encoding.game.name} with "
                           f"{encoding.players} players ({size} inputs)")
    return policy


def _imported(spec: str) -> ArrayPolicy:
    module_name, _, attribute = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise MatanuiError(f"opponent {spec!r}: cannot import {module_name!r} ({error}); "
                           f"an opponent is {KINDS}") from None
    found = getattr(module, attribute, None)
    if found is None or not callable(found):
        raise MatanuiError(f"opponent {spec!r}: {module_name} has no callable {attribute!r}")
    if _takes_no_arguments(found):
        found = found()  # a factory
        if not callable(found):
            raise MatanuiError(f"opponent {spec!r}: the factory made {type(found).__name__}, not a policy")
    return found


def _takes_no_arguments(function: Callable[..., Any]) -> bool:
    try:
        inspect.signature(function).bind()
    except (TypeError, ValueError):  # it needs arguments, or has no signature to read (a builtin)
        return False
    return True
