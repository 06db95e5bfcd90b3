"""What every command shares: the console, how an error ends a command, and the help of the
options several commands take."""

from __future__ import annotations

import sys

import typer
from rich.console import Console

from matanui import games
from matanui.games.text import literal

console = Console(highlight=False)


def read_bad_bytes_as_text() -> None:
    """Bytes that are not text in the terminal's encoding are read as '\ufffd' (then
    answered like any unreadable answer) rather than raising UnicodeDecodeError."""
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")


def fail(error: Exception) -> None:
    """Print a clear error and exit with status 2 (bad input changes nothing)."""
    words = literal(str(error), keep="\n")  # a pack's problems are one a line
    console.print(f"[bold red]error:[/] {words}")
    raise typer.Exit(2)


PLAIN_HELP = ("Line by line instead of the full screen (for screen readers, pipes and scripts; "
              "chosen by itself when stdin or stdout is not a terminal).")


def full_screen(plain: bool) -> bool:
    """The full-screen app, unless --plain or stdin/stdout is not a terminal."""
    return not plain and sys.stdin.isatty() and sys.stdout.isatty()


def say_after(words: str | None) -> None:
    """What the full screen has to say once it is closed (the resume command, ...)."""
    if words:
        console.print(literal(words))


def options_help() -> str:
    """The help of -o: every game's options and their values, from the games' schemas."""
    per_game = []
    for name in games.names():
        schema = games.get(name).options_schema()
        per_game.append(f"{name}: " + ", ".join(f"{key}={o.synopsis()}" for key, o in schema.items()))
    return ("Game option key=value (repeatable); `matanui games` says what each does. "
            + "; ".join(per_game) + ".")


OPTIONS_HELP = options_help()


DATA_HELP = ("A data pack's folder (`matanui data export`): play on its cards and boards "
             "instead of the built-in data.")
