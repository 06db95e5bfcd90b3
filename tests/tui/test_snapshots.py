"""Each game's full screen at 80x24 and 120x40, a few moves in against bots (fixed seeds,
no clock text). Regenerate after a deliberate change of the drawing with
`pytest tests/tui/test_snapshots.py --snapshot-update`."""

from __future__ import annotations

import pytest

from matanui.tui.play import PlayApp

from .screens import session

SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("game", ["reconstruct", "masks", "makuta"])
def test_the_game_screen_after_the_bot_moved(snap_compare, tmp_path, game, size):
    app = PlayApp(session(tmp_path, game), pause=0)

    async def two_moves(pilot) -> None:
        for _ in range(2):
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.press("1")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=two_moves)
