"""The board widget on a drawing of its own: never cropped (marks at the edges with more
beyond), a cursor among the targets given, Enter or a click taking the space's actions.
The games' real boards and targets are in test_map.py."""

from __future__ import annotations

from textual.app import App, ComposeResult

from matanui.games.text import Target
from matanui.tui.board import Board, edge_marks

from .screens import run

WIDE = [f"row {n:>2} " + "".join(f"{x % 10}." for x in range(100)) for n in range(40)]
TARGETS = {"to:a": Target(5, 20, 2, "a"), "to:b": Target(5, 30, 2, "b"),
           "to:c": Target(30, 180, 2, "c")}


class OneBoard(App):
    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[list[str]] = []

    def compose(self) -> ComposeResult:
        yield Board()

    def on_board_chosen(self, event: Board.Chosen) -> None:
        self.chosen.append(event.actions)


def test_each_edge_with_more_beyond_it_is_marked():
    assert edge_marks(0, 0, 0, 0) == ("Board", "")
    assert edge_marks(0, 0, 10, 10) == ("Board", "more right ▶  ▼ more below")
    assert edge_marks(10, 10, 10, 10) == ("Board  ▲ more above  ◀ more left", "")


def test_on_a_narrow_board_the_edge_marks_are_arrows_that_fit_not_cut_words():
    title, subtitle = edge_marks(5, 5, 10, 10, width=20)
    assert (title, subtitle) == ("Board ▲ ◀", "▶ ▼")


def test_the_cursor_moves_among_the_targets_and_enter_or_a_click_takes_its_action():
    app = OneBoard()

    async def use() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            board = app.query_one(Board)
            board.show(WIDE, TARGETS)
            board.focus()
            await pilot.pause()
            assert board.cursor.name == "a"
            assert board.near() == {"to:a"}  # b is 10 columns away
            await pilot.press("right")
            assert board.cursor.name == "b"
            await pilot.press("down")  # far off the screen: the board scrolls to it
            await pilot.pause()
            assert board.cursor.name == "c" and board.scroll_x > 0 and board.scroll_y > 0
            assert "◀ more left" in board.border_title
            await pilot.press("enter")
            await pilot.pause()
            assert app.chosen == [["to:c"]]

    run(use())


def test_without_targets_the_arrows_pan_a_board_wider_than_the_screen():
    app = OneBoard()

    async def use() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            board = app.query_one(Board)
            board.show(WIDE)
            board.focus()
            await pilot.pause()
            assert "more right ▶" in board.border_subtitle
            await pilot.press("right", "down")
            await pilot.pause()
            assert board.scroll_x > 0 and board.scroll_y > 0

    run(use())
