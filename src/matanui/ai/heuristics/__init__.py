"""Each game's sensible player and its judgement: the module its descriptor names
(`matanui.ai.heuristics.<game>` for ours), with `Heuristic` (the agent) and, where it has
them, `Weights`, `evaluate`, `advantage`, `explain` and the search's playout settings
(matanui.ai.registry)."""

from __future__ import annotations

import importlib
from types import ModuleType

from matanui import games


def heuristics_module(game: str) -> ModuleType | None:
    """The game's heuristics module, or None for a game without one (or not registered)."""
    if game not in games.names():
        return None
    name = games.descriptor(game).heuristics
    return None if name is None else importlib.import_module(name)
