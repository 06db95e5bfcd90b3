"""`matanui games` and `matanui rules`: what the games are and how each is played."""

from __future__ import annotations

import typer
from rich.markdown import Markdown

from matanui import games
from matanui.cli.shared import console, fail
from matanui.engine import MatanuiError
from matanui.games.text import literal


def list_games() -> None:
    """List the games, their players, characters and options."""
    for name in games.names():
        game = games.get(name)
        players = str(game.min_players) if game.min_players == game.max_players else \
            f"{game.min_players}-{game.max_players}"
        console.print(f"[bold]{name}[/]: {game.title}, {players} players")
        console.print(f"  characters: {', '.join(game.characters())}")
        for key, option in game.options_schema().items():
            console.print(f"  -o {key}={option.synopsis()}  {literal(option.help)} "
                          f"(default {literal(option.default_words())})")


def rules(game: str = typer.Argument(..., help="Which game (see `matanui games`).")) -> None:
    """How to play a game, with the key to every symbol of its board."""
    from matanui.games.guide import page_markdown

    if game not in games.names():
        fail(MatanuiError(games.unknown(game)))
    console.print(Markdown(page_markdown(game)))
