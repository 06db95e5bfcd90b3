"""Choosing on the map in real games: the cursor is drawn the moment a decision appears and
wherever the list's highlight leads, the board scrolls to what matters (a placement's new
squares, the mover's piece, your own piece), and a space with several actions narrows the
list to them."""

from __future__ import annotations

from matanui.tui.board import Board
from matanui.tui.decisions import Decisions
from matanui.tui.play import PlayApp

from .screens import drawn_cursor, run, session, settle


def cursor_at(app: PlayApp) -> tuple[int, int]:
    cursor = app.query_one(Board).cursor
    return cursor.line, cursor.column


async def to_a_walk(app: PlayApp, pilot) -> None:
    """Play on (first decision each time) until the person walks their pawn."""
    for _ in range(40):
        await settle(app, pilot)
        if app.deciding is not None and app.picture.targets:
            return
        await pilot.press("1")
    raise AssertionError("no walk in 40 decisions")


def test_the_cursor_is_drawn_when_a_walk_first_appears_and_where_the_highlight_leads(tmp_path):
    app = PlayApp(session(tmp_path, "makuta"), pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await to_a_walk(app, pilot)
            assert drawn_cursor(app) == cursor_at(app)
            decisions = app.query_one(Decisions)
            first = cursor_at(app)
            await pilot.press("down")
            await pilot.pause()
            assert decisions.highlighted == 1
            assert drawn_cursor(app) == cursor_at(app) != first
            await pilot.press("up")
            await pilot.pause()
            assert drawn_cursor(app) == cursor_at(app) == first

    run(play())
