"""Who plays the seats that do not learn: one reading of an opponent, for the research
environments.

An opponent is given as
- an agent name, as `matanui arena` takes them (`random`, `heuristic`, `hard@0.1`, `ismcts@N`);
- `ppo`, the game's trained policy (matanui.ai.policy);
- `MODULE:CALLABLE`, an importable array policy, or a function of no arguments that makes one;
- a path ending `.npz`: a trained policy file (matanui.envs.checkpoint);
- an `Agent` object, or an array policy itself: any callable `policy(observation, mask) -> int`
  that takes the seat's information-state tensor and its action mask (the learning seat's
  observation shape) and answers an action index. That makes self-play one line: the learner's
  own policy function is an opponent.
"""

from __future__ import annotations

from typing import Any, Protocol

from matanui.ai import make_agent
from matanui.ai.base import Agent, SeatView
from matanui.ai.policy import ArrayPolicy, checked_index, is_policy_spec, load_policy
from matanui.engine import MatanuiError

from .encoding import Encoding
from .table import Table

KINDS = ("an agent name (random, heuristic, hard, hard@SECONDS, ismcts@N), ppo, MODULE:CALLABLE, "
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
        return table.action_id(checked_index(f"the opponent policy {self.label}", index, mask))


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
    """The array policy `spec` names: a callable as it is; `ppo`, MODULE:CALLABLE or a policy
    file PATH.npz loaded (matanui.ai.policy) and checked against the encoding."""
    if callable(spec) and not isinstance(spec, Agent):
        return spec
    if not isinstance(spec, str) or is_agent_name(spec):
        raise MatanuiError(f"an array policy is MODULE:CALLABLE, a policy file PATH.npz or a callable "
                           f"policy(observation, mask) -> action index (or ppo, the game's trained policy), "
                           f"not {spec!r:.60}")
    return load_policy(spec, encoding, encoding.game.name)[0]


def is_agent_name(spec: Any) -> bool:
    """Whether `spec` names a matanui bot (made anew, with its own seed, for every deal)."""
    return isinstance(spec, str) and not is_policy_spec(spec)
