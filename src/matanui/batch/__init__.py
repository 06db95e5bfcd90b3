"""Batched games: many games of one kind stepped at once as numba kernels over arrays,
checked move for move against the reference engine (matanui.batch.check).

numba comes with the `research` extra; the engine core never imports this package, and
importing it (the registry) loads no numba: `batched_game` imports a game's engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from matanui.engine import MatanuiError

if TYPE_CHECKING:  # importing base loads numba; the registry itself stays light
    from .base import BatchedGame

# game name -> "module:class" of its batched engine
BATCHED = {
    "reconstruct": "matanui.batch.reconstruct:BatchedReconstruct",
}


def batched_names() -> list[str]:
    return sorted(BATCHED)


def batched_game(name: str) -> type[BatchedGame]:
    """The batched engine class of a game; a clear error for a game that has none."""
    where = BATCHED.get(name)
    if where is None:
        raise MatanuiError(f"{name!r} has no batched engine; the games with one are: "
                           f"{', '.join(batched_names())}")
    module, _, attribute = where.partition(":")
    return getattr(importlib.import_module(module), attribute)
