"""What the screen draws of one observation: the game's regions, the spaces its actions
target, and a board placement's preview, all from the game's own render module."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matanui.engine import Game
    from matanui.games.text import Regions, Target


@dataclass(frozen=True)
class Picture:
    regions: Regions
    targets: dict[str, Target]  # action id -> the space on the board it acts on
    preview: Callable[[str], list[str] | None]  # an action's board as it would be, if it lays one


def drawing(game: Game, obs: dict[str, Any], actions: Sequence[str] = (),
            names: Sequence[str] | None = None) -> Picture:
    """The picture of `obs` with the targets of `actions` (the decision on screen, if any)."""
    render = importlib.import_module(f"matanui.games.{game.name}.render")
    return Picture(render.regions(game, obs, names), render.targets(game, obs, actions),
                   lambda action: render.preview(game, obs, action))
