"""What the screen draws of one observation: the game's regions, the spaces its actions
target, and a board placement's preview, all from the game's own render module."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from matanui import games

if TYPE_CHECKING:
    from matanui.engine import State
    from matanui.games.text import Regions, Target


@dataclass(frozen=True)
class Picture:
    regions: Regions
    targets: dict[str, Target]  # action id -> the space on the board it acts on
    preview: Callable[[str], list[str] | None]  # an action's board as it would be, if it lays one


def drawing(state: State, view: int | None, actions: Sequence[str] = ()) -> Picture:
    """The picture of `state` as seat `view` sees it (None: the public view), with the
    targets of `actions` (the decision on screen, if any): each action whose engine targets
    (`State.targets`) name a space, placed where the board draws that space."""
    game, obs = state.game, state.observation(view)
    render = games.renderer(game.name)
    spaces = {action: space for action in actions
              if (space := state.targets(action).get("space")) is not None}
    return Picture(render.regions(game, obs, state.names), render.targets(game, obs, spaces),
                   lambda action: render.preview(game, obs, action))
