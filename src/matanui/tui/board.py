"""The board: the game's drawing at its full width, panned with the arrow keys, the scroll
bars or the mouse wheel, never cropped (a mark on each edge with more beyond it), with a
cursor over the spaces the decision's actions target when there are any."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer
from textual.message import Message
from textual.widgets import Static

if TYPE_CHECKING:
    from matanui.games.text import Target

CURSOR_STYLE = "reverse bold"
NEAR_LINES, NEAR_COLUMNS = 2, 6  # what counts as near the cursor, for the decision list
MOVES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


@dataclass(frozen=True)
class Space:
    line: int
    column: int
    width: int
    name: str


def spaces(targets: Mapping[str, Target]) -> dict[Space, list[str]]:
    """The spaces the actions target, each with its actions (in the order given)."""
    found: dict[Space, list[str]] = {}
    for action, target in targets.items():
        found.setdefault(Space(target.line, target.column, target.width, target.space), []).append(action)
    return found


def step(here: Space, others: Sequence[Space], direction: str) -> Space:
    """The nearest space from `here` in `direction` (a line is about two columns tall)."""
    down, right = MOVES[direction]
    ahead = [s for s in others if (s.line - here.line) * down > 0 or (s.column - here.column) * right > 0]
    if not ahead:
        return here
    return min(ahead, key=lambda s: (2 * (s.line - here.line)) ** 2 + (s.column - here.column) ** 2)


def is_near(space: Space, cursor: Space) -> bool:
    return abs(space.line - cursor.line) <= NEAR_LINES and abs(space.column - cursor.column) <= NEAR_COLUMNS


def edge_marks(x: float, y: float, max_x: float, max_y: float, width: int = 80) -> tuple[str, str]:
    """The board's border title and subtitle: which edges have more beyond them (the arrows
    alone when the words do not fit in `width` columns)."""
    top = [mark for mark, more in (("▲ more above", y > 0), ("◀ more left", x > 0)) if more]
    bottom = [mark for mark, more in (("more right ▶", x < max_x), ("▼ more below", y < max_y)) if more]
    title = "  ".join(["Board", *top])
    if max(len(title), len("  ".join(bottom))) > width - 4:  # the corners and a space each side
        arrow = {"▲ more above": "▲", "◀ more left": "◀", "more right ▶": "▶", "▼ more below": "▼"}
        return " ".join(["Board", *(arrow[m] for m in top)]), " ".join(arrow[m] for m in bottom)
    return title, "  ".join(bottom)


def new_part(preview: Sequence[str], board: Sequence[str]) -> tuple[int, int, int, int] | None:
    """(line, column, lines, columns) of what a preview draws in a style the board has
    nowhere (the new board's highlight), None if there is none. Read from the drawing, so
    that the screen knows no game's colours."""
    known = {str(span.style) for line in board for span in Text.from_markup(line).spans}
    found = [(n, span.start, span.end) for n, line in enumerate(preview)
             for span in Text.from_markup(line).spans if str(span.style) not in known]
    if not found:
        return None
    top, bottom = min(f[0] for f in found), max(f[0] for f in found)
    left, right = min(f[1] for f in found), max(f[2] for f in found)
    return top, left, bottom - top + 1, right - left


def board_text(lines: Sequence[str], cursor: Space | None) -> Text:
    """The board's markup lines as one unwrapped text, the cursor's space highlighted."""
    rows = [Text.from_markup(line) for line in lines]
    if cursor is not None and 0 <= cursor.line < len(rows):
        rows[cursor.line].stylize(CURSOR_STYLE, cursor.column, cursor.column + cursor.width)
    text = Text("\n").join(rows)
    text.no_wrap = True
    return text


class Canvas(Static):
    """The drawing itself, as wide and tall as it is."""

    DEFAULT_CSS = "Canvas { width: auto; height: auto; text-wrap: nowrap; }"

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None:
            self.parent.click(offset.y, offset.x)  # type: ignore[union-attr]


class Board(ScrollableContainer, can_focus=True):
    """Arrows pan the board, or move the cursor when the decision targets spaces (then
    shift+arrows pan); Enter or a click on a space takes its action."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "arrow('up')", "Up", show=False),
        Binding("down", "arrow('down')", "Down", show=False),
        Binding("left", "arrow('left')", "Left", show=False),
        Binding("right", "arrow('right')", "Right", show=False),
        Binding("shift+up", "pan(0, -3)", show=False),
        Binding("shift+down", "pan(0, 3)", show=False),
        Binding("shift+left", "pan(-6, 0)", show=False),
        Binding("shift+right", "pan(6, 0)", show=False),
        Binding("enter", "take", "Take", show=False),
    ]

    class Chosen(Message):
        """Actions chosen on the map (the space's actions; one of them is to be taken)."""

        def __init__(self, actions: list[str]) -> None:
            super().__init__()
            self.actions = actions

    class CursorMoved(Message):
        """The cursor is on another space: the decision list narrows to what is near it."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lines: list[str] = []
        self.targets: dict[Space, list[str]] = {}
        self.cursor: Space | None = None

    def compose(self):
        yield Canvas(id="canvas")

    def show(self, lines: Sequence[str], targets: Mapping[str, Target] | None = None,
             piece: tuple[int, int] | None = None) -> None:
        """Draw `lines`; with `targets`, a cursor among them (kept on its space if it still
        is one) and in view; else `piece` (line, column) in view."""
        self.lines = list(lines)
        self.targets = spaces(targets or {})
        if self.cursor not in self.targets:
            self.cursor = next(iter(self.targets), None)
        self._draw()
        if self.cursor is not None:
            self.bring_into_view(self.cursor.line, self.cursor.column, columns=self.cursor.width)
        elif piece is not None:
            self.bring_into_view(*piece)

    def show_preview(self, lines: Sequence[str] | None) -> None:
        """Draw a placement's preview, its new part scrolled into view (None: the board
        again, with its cursor)."""
        if lines is None:
            self._draw()
            return
        self.query_one(Canvas).update(board_text(lines, None))
        box = new_part(lines, self.lines)
        if box is not None:
            self.bring_into_view(*box)

    def bring_into_view(self, line: int, column: int, lines: int = 1, columns: int = 2) -> None:
        """Centre on the box at (line, column) when it is not all in view, once the drawing
        just given is laid out (before that the board cannot scroll as far)."""

        def scroll() -> None:
            region = self.scrollable_content_region
            x, y = self.scroll_offset
            if not (x <= column and column + columns <= x + region.width
                    and y <= line and line + lines <= y + region.height):
                self.centre(line + lines // 2, column + columns // 2)

        self.call_after_refresh(scroll)

    def here(self) -> list[str]:
        """The actions on the cursor's space ([] without a cursor)."""
        return self.targets.get(self.cursor, []) if self.cursor is not None else []

    def follow(self, action: str) -> None:
        """Put the cursor on the space `action` targets, if it targets one (the list's
        highlight shows where it leads)."""
        for space, actions in self.targets.items():
            if action in actions:
                self._move_to(space, tell=False)
                return

    def near(self) -> set[str] | None:
        """The actions near the cursor (None when there is no cursor)."""
        if self.cursor is None:
            return None
        return {a for space, actions in self.targets.items() if is_near(space, self.cursor) for a in actions}

    def centre(self, line: int, column: int) -> None:
        region = self.scrollable_content_region
        self.scroll_to(x=max(0, column - region.width // 2), y=max(0, line - region.height // 2),
                       animate=False)

    def click(self, line: int, column: int) -> None:
        for space, actions in self.targets.items():
            if space.line == line and space.column <= column < space.column + space.width:
                self._move_to(space)
                self.post_message(self.Chosen(actions))
                return

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter on a board without a cursor is left to the screen (next, in a replay)."""
        return not (action == "take" and self.cursor is None)

    def action_arrow(self, direction: str) -> None:
        if self.cursor is None:
            down, right = MOVES[direction]
            self.action_pan(6 * right, 3 * down)
            return
        self._move_to(step(self.cursor, list(self.targets), direction))

    def action_pan(self, dx: int, dy: int) -> None:
        self.scroll_relative(x=dx, y=dy, animate=False)

    def action_take(self) -> None:
        if self.cursor is not None:
            self.post_message(self.Chosen(self.targets[self.cursor]))

    def _move_to(self, space: Space, tell: bool = True) -> None:
        if space == self.cursor:
            return
        self.cursor = space
        self._draw()
        self.bring_into_view(space.line, space.column, columns=space.width)
        if tell:
            self.post_message(self.CursorMoved())

    def _draw(self) -> None:
        self.query_one(Canvas).update(board_text(self.lines, self.cursor))
        self.call_after_refresh(self._mark_edges)

    def _mark_edges(self) -> None:
        self.border_title, self.border_subtitle = edge_marks(self.scroll_x, self.scroll_y, self.max_scroll_x,
                                                             self.max_scroll_y, self.outer_size.width)

    def watch_scroll_x(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_x(old_value, new_value)
        self._mark_edges()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._mark_edges()

    def on_resize(self) -> None:
        self.call_after_refresh(self._mark_edges)
