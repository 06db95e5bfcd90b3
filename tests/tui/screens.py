"""Helpers for the full-screen tests: a game session, and the screen as text."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from rich.console import Console
from rich.text import Text
from textual.app import App
from textual.screen import Screen

from matanui.terminal import TerminalGame, build_session


def session(tmp_path: Path, game: str, **given) -> TerminalGame:
    """A new game against easy bots (fixed seed), saved under tmp_path."""
    args = dict(game_name=game, me=None, vs="easy", opponents=[], seed=3, players=None, hotseat=False,
                options={}, save=tmp_path / f"{game}.json", resume=None,
                console=Console(file=io.StringIO()), ask=input)
    args.update(given)
    return build_session(**args)


def screen_text(app: App, screen: Screen | None = None) -> str:
    """What the screen (default: the one on top) shows now, as lines of text."""
    screen = screen or app.screen
    return "\n".join(strip.text for strip in screen._compositor.render_strips())


def plain(markup: str) -> str:
    """A markup line as the screen shows it."""
    return Text.from_markup(markup).plain.strip()


def run(coroutine) -> None:
    """Run a pilot test's coroutine (the venv has no pytest-asyncio)."""
    asyncio.run(coroutine)


async def settle(app: App, pilot) -> None:
    """Wait until the bots' worker is done and the screen is drawn."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()
