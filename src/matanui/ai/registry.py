"""Agents by name: `make_agent("heuristic", "reconstruct", seed=1)`.

Per-game heuristics live in `matanui.ai.heuristics.<game>` as a class named `Heuristic`.
"""

from __future__ import annotations

import importlib

from matanui.engine import MatanuiError

from .base import Agent, RandomAgent

AGENTS = ("random", "heuristic")


def agent_names() -> list[str]:
    return list(AGENTS)


def make_agent(name: str, game: str, seed: int = 0) -> Agent:
    if name == "random":
        return RandomAgent(seed)
    if name == "heuristic":
        try:
            module = importlib.import_module(f"matanui.ai.heuristics.{game}")
        except ModuleNotFoundError:
            raise MatanuiError(f"there is no heuristic agent for {game!r} yet") from None
        return module.Heuristic(seed)
    raise MatanuiError(f"no agent named {name!r}; the agents are: {', '.join(AGENTS)}")
