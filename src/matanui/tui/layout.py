"""How the screen's rows and columns are shared out, from what each region holds now.

The board first: at its drawing's own width when the screen has room for it beside a side
column of at least SIDE_MIN columns (so the Masks map opens whole, labels and all, at
80x24); a drawing too wide for that but short (Reconstruct's segments table) goes above the
side regions instead; a drawing both wide and tall (a grown Makuta island) takes what the
side column leaves and pans. Then the rows: the board whole if it fits above a decision list
of BOTTOM_MIN rows, then the side regions whole, and whatever is left to the log and the
decisions. When the decisions need more rows than they have beside the log, they take the
log's room too."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from .wrapping import wrapped_height

SIDE_MIN = 30  # the side column (what you hold, the table) is never narrower
BOTTOM_MIN = 8  # rows of the log and decision list, borders included
FIXED_ROWS = 1  # the keys
BORDERS = 2
STACKED_SIDE_MIN = 4  # rows left under a stacked board for what you hold and the table
SCROLLBAR = 1
LOG_SHARE, DECISION_SHARE = 2, 3  # the bottom row's columns, log : decisions


@dataclass(frozen=True)
class Sizes:
    board_width: int | None  # None: the whole width (the board stacked over the side regions)
    middle: int  # rows of the board and the side regions
    last: int  # rows of the Last move line
    title: int  # rows of the title (the result at a game's end may need two)
    message: int  # rows of the message line (a save problem and what else is said may need two)
    many_choices: bool  # the decisions take the log's room

    @property
    def stacked(self) -> bool:
        return self.board_width is None


def widest(lines: Sequence[str]) -> int:
    return max((Text.from_markup(line).cell_len for line in lines), default=0)


def share(width: int, height: int, board: Sequence[str], mine: Sequence[str], table: Sequence[str],
          decisions: Sequence[str], last: str, title: str = "", message: str = "") -> Sizes:
    """The sizes for a screen of width x height (each argument: the region's markup lines)."""
    last_rows, title_rows, message_rows = (2 if Text.from_markup(line).cell_len > width - 2 else 1
                                           for line in (last, title, message))
    rows = height - FIXED_ROWS - last_rows - title_rows - message_rows
    # a long line costs the list, not the board
    bottom_min = BOTTOM_MIN - (last_rows - 1) - (title_rows - 1) - (message_rows - 1)
    board_rows = len(board) + BORDERS
    board_first = max(BOTTOM_MIN, min(board_rows, rows - bottom_min))
    drawing = widest(board) + BORDERS
    if drawing + SIDE_MIN <= width:
        board_width: int | None = drawing + (SCROLLBAR if board_rows > board_first else 0)
        side = width - board_width
        side_rows = _boxed(mine, side) + _boxed(table, side)
    elif board_rows + STACKED_SIDE_MIN <= rows - bottom_min:
        board_width, half = None, width // 2
        side_rows = board_rows + max(_boxed(mine, half), _boxed(table, half))
        board_first = board_rows + STACKED_SIDE_MIN
    else:
        board_width = width - SIDE_MIN
        side_rows = _boxed(mine, SIDE_MIN) + _boxed(table, SIDE_MIN)
    wide = width * DECISION_SHARE // (LOG_SHARE + DECISION_SHARE)
    decision_rows = wrapped_height(decisions, wide - BORDERS - SCROLLBAR) + BORDERS
    middle = max(board_first, min(max(board_rows, side_rows), rows - max(bottom_min, decision_rows)))
    middle = min(middle, rows - bottom_min)
    many = decision_rows > rows - middle
    return Sizes(board_width, middle, last_rows, title_rows, message_rows, many)


def _boxed(lines: Sequence[str], width: int) -> int:
    """Rows a bordered box of `lines` takes at `width` columns (none when it has none)."""
    return wrapped_height(lines, width - BORDERS - SCROLLBAR) + BORDERS if lines else 0
