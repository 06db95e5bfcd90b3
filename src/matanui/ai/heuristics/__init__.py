"""Each game's sensible player and its judgement: `matanui.ai.heuristics.<game>`, a module
with `Heuristic` (the agent) and, where it has them, `Weights`, `evaluate`, `advantage`,
`explain` and the search's playout settings (matanui.ai.registry)."""

from __future__ import annotations

import importlib
from types import ModuleType


def heuristics_module(game: str) -> ModuleType | None:
    """The game's heuristics module, or None for a game without one."""
    name = f"{__name__}.{game}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:  # the module is there but something it imports is not: say so
            raise
        return None
