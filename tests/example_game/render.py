"""Race to ten in the terminal: the running total as a track to the target."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from matanui.games.text import Regions, Target, compose, literal

from .rules import RaceGame


def regions(game: RaceGame, obs: dict[str, Any], names: Sequence[str] | None = None) -> Regions:
    names = names or game.display_names(obs["players"])
    track = "".join("■" if step < obs["total"] else "·" for step in range(obs["target"]))
    to_move = obs["to_move"]
    table = [f"{literal(names[to_move])} to add." if to_move is not None else "The race is run."]
    return Regions(title=f"[bold]Race to {obs['target']}[/]  total {obs['total']}", board=[track],
                   key=["■ counted  · still to run"], mine=[], table=table, pieces=(None, None))


def render(game: RaceGame, obs: dict[str, Any], names: Sequence[str] | None = None) -> str:
    return compose(regions(game, obs, names))


def targets(game: RaceGame, obs: dict[str, Any], spaces: Mapping[str, str]) -> dict[str, Target]:
    return {}


def preview(game: RaceGame, obs: dict[str, Any], action: str) -> list[str] | None:
    return None
