"""Batched games: many games of one kind stepped at once as numba kernels over arrays,
checked move for move against the reference engine (matanui.batch.check).

numba comes with the `research` extra; the engine core never imports this package, and
importing it (the registry: each game's descriptor names its batched engine, `batched`)
loads no numba: `batched_game` imports a game's engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from matanui import games
from matanui.engine import MatanuiError

if TYPE_CHECKING:  # importing base loads numba; the registry itself stays light
    from .base import BatchedGame


def _engine(name: str) -> str | None:
    """The game's batched engine as "module:class", its descriptor's `batched` (None: it has
    none, or there is no such game)."""
    return games.descriptor(name).batched if name in games.names() else None


def batched_names() -> list[str]:
    """The games with a batched engine, by name."""
    return sorted(name for name in games.names() if _engine(name))


def batched_game(name: str) -> type[BatchedGame]:
    """The batched engine class of a game; a clear error for a game that has none."""
    where = _engine(name)
    if where is None:
        raise MatanuiError(f"{name!r} has no batched engine; the games with one are: "
                           f"{', '.join(batched_names())}")
    module, _, attribute = where.partition(":")
    return getattr(importlib.import_module(module), attribute)
