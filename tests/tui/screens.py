"""Helpers for the full-screen tests: a game session, and the screen as text."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

from rich.console import Console
from textual.app import App
from textual.screen import Screen

from matanui.games import text
from matanui.terminal.game import TerminalGame
from matanui.terminal.session import build_session


def session(tmp_path: Path, game: str, **given) -> TerminalGame:
    """A new game against easy bots (fixed seed), saved under tmp_path."""
    args = dict(game_name=game, me=None, vs="easy", opponents=[], seed=3, players=None, hotseat=False,
                options=[], save=tmp_path / f"{game}.json", resume=None,
                console=Console(file=io.StringIO()), ask=input)
    args.update(given)
    return build_session(**args)


def screen_text(app: App, screen: Screen | None = None) -> str:
    """What the screen (default: the one on top) shows now, as lines of text."""
    screen = screen or app.screen
    return "\n".join(strip.text for strip in screen._compositor.render_strips())


def plain(markup: str) -> str:
    """A markup line as the screen shows it, without the spaces around it."""
    return text.plain(markup).strip()


def run(coroutine) -> None:
    """Run a pilot test's coroutine (the venv has no pytest-asyncio)."""
    asyncio.run(coroutine)


async def settle(app: App, pilot) -> None:
    """Wait until the bots' worker is done and the screen is drawn."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


def resumed(tmp_path: Path, state, person: int, name: str = "resumed.json") -> TerminalGame:
    """A session going on from `state` (played by the engine), `person` at the screen and easy
    bots in the other seats, as `matanui play --resume` sets it up."""
    data = state.record().to_dict()
    data["terminal"] = {"seats": ["person" if seat == person else "easy"
                                  for seat in range(len(state.names))]}
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return session(tmp_path, None, vs=None, seed=None, resume=path, save=None)


def drawn_cursor(app: App) -> tuple[int, int] | None:
    """(line, column) on the board's drawing of the space drawn as the cursor, if any."""
    from matanui.tui.board import CURSOR_STYLE, Board, Canvas

    text = app.query_one(Board).query_one(Canvas).content
    for span in text.spans:
        if str(span.style) == CURSOR_STYLE:
            before = text.plain[: span.start]
            return before.count("\n"), len(before) - (before.rfind("\n") + 1)
    return None
