"""Reconstruct drawn as text (Rich console markup) from one seat's observation, within 80
columns. Each card's colour is written as a word as well as shown, since the Advanced trade
depends on it and not every terminal (or eye) shows colour."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..text import Regions, Target, compose, game_over, seat_names
from .rules import ReconstructGame

# Markup colour for each card colour of the deck file; unknown colours print plain.
COLOUR_STYLE = {"red": "red", "blue": "blue", "green": "green", "yellow": "yellow", "purple": "magenta"}
ICON = {"add": "+", "remove": "x", "stop": "STOP"}
# Short part names so that a whole mat fits on one line of an 80-column terminal.
SHORT = {"left-leg": "L.Leg", "right-leg": "R.Leg", "left-arm": "L.Arm", "right-arm": "R.Arm",
         "kanohi-nuva": "Kanohi"}


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def card_text(game: ReconstructGame, card_id: int) -> str:
    """One card as a person reads it: '[red]#5 + Left Leg/Right Leg/Tool (red)[/]'."""
    card = game.deck.cards[card_id]
    style = COLOUR_STYLE.get(card.colour, "white")
    if card.kind == "stop":
        body = "STOP"
    else:
        names = "/".join(game.deck.parts[p].name for p in card.parts)
        body = f"{ICON[card.kind]} {names}"
    return f"[{style}]#{card_id} {body} ({card.colour})[/]"


def mat_text(game: ReconstructGame, built: list[str]) -> str:
    have = set(built)
    cells = []
    for part in game.deck.parts:
        name = SHORT.get(part.id, part.name)
        cells.append(f"[bold green]■ {name}[/]" if part.id in have else f"[dim]□ {name}[/]")
    return f"{len(have)}/7  " + " ".join(cells)


def regions(game: ReconstructGame, obs: dict[str, Any], names: Sequence[str] | None = None) -> Regions:
    """The table as `obs`'s seat sees it, in parts: the board is every Toa Nuva's mat (the
    segments built); `names` are the seats' display names (default: the Toa Nuva's names)."""
    seat = obs["seat"]
    names = seat_names(game, obs, names)
    advanced = "  (advanced)" if obs["advanced"] else ""
    title = f"[bold]Toa Nuva Reconstruct[/]  turn {obs['turn']}{advanced}"
    if obs["is_over"]:
        title += "  " + game_over(names, obs)
    board = []
    for s, toa_id in enumerate(obs["players"]):
        toa = game.deck.toa[toa_id].name
        you = " (you)" if s == seat else ""
        board.append(f"[bold]{toa}[/]{you}" if names[s] == toa else f"{names[s]}{you}: [bold]{toa}[/]")
        board.append(f"  {mat_text(game, obs['built'][s])}")
    table = [
        f"Draw pile: {plural(obs['draw_pile_size'], 'card')}   "
        f"Discard pile: {plural(len(obs['discard']), 'card')}"
    ]
    if obs["discard"]:
        table.append(f"  top of the discard pile: {card_text(game, obs['discard'][-1])}")
    sizes = obs["hand_sizes"]
    for s in range(len(sizes)):
        if s == seat:
            continue
        known = obs["known_in_hands"][s]
        table.append(f"{names[s]} holds {plural(sizes[s], 'card')}{', known:' if known else '.'}")
        table += [f"  {card_text(game, c)}" for c in known]
    mine = []
    if obs["hand"] is not None:
        mine.append("Your hand:" if obs["hand"] else "Your hand: (empty)")
        mine += [f"  {card_text(game, c)}" for c in obs["hand"]]
    pending = obs["pending"]
    if pending:
        table.append(
            f"In play: {names[pending['seat']]}'s {card_text(game, pending['card'])} "
            f"({pending['effect']} {pending['part']})"
        )
    return Regions(title=title, board=board, key=[], mine=mine, table=table,
                   pieces=tuple(None for _ in obs["players"]))


def render(game: ReconstructGame, obs: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The table as `obs`'s seat sees it, within 80 columns; `names` are the seats' display
    names (default: the Toa Nuva's names)."""
    return compose(regions(game, obs, names))


def targets(game: ReconstructGame, obs: dict[str, Any], spaces: Mapping[str, str]) -> dict[str, Target]:
    """Reconstruct has no board of spaces: no name is placed on one."""
    return {}


def preview(game: ReconstructGame, obs: dict[str, Any], action: str) -> list[str] | None:
    """Reconstruct lays no boards: nothing to preview."""
    return None
