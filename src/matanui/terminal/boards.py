"""Drawing a board on a console so that it stays whole, with narration wrapped to its width."""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from matanui.games.text import wrap

BOX_COLUMNS = 80  # the widest a board's box is drawn (the drawings are at most 76 wide)
BOX_EDGES = 4  # a box's two borders and its padding of one column either side


@dataclass
class BoardPrinter:
    """Draws boards on a console: in their box where it fits; where it does not, without the
    box (a box wrapped by the terminal breaks every row twice); and where even the board is
    wider than the console, saying once how wide it needs to be. It keeps the width of the
    last board drawn, which narration and choices are wrapped to, so that they line up."""

    console: Console
    width: int = 0  # columns of the last board drawn, its box included; 0 before the first
    told: bool = False  # the width the board needs has been said

    def print(self, drawing: str, title: str | None = None) -> None:
        board = max(Text.from_markup(line).cell_len for line in drawing.split("\n"))
        boxed = max(board, Text.from_markup(title or "").cell_len + 2) + BOX_EDGES
        if boxed <= self.console.width:
            self.console.print(Panel(drawing, expand=False, title=title))
            self.width = boxed
            return
        if board > self.console.width and not self.told:
            self.console.print(f"[dim]The board needs {board} columns ({boxed} in its box) and this "
                               f"terminal has {self.console.width}: widen it to see the board "
                               "unbroken.[/]")
            self.told = True
        if title:
            self.console.print(title)
        self.console.print(drawing)
        self.width = min(board, self.console.width)

    def text_width(self) -> int:
        """The columns a line of narration or a choice may take: the box's, once one is drawn."""
        return min(self.width or BOX_COLUMNS, self.console.width - 1)

    def say(self, line: str, hang: int) -> None:
        """Print one markup line wrapped to text_width, its next lines indented `hang`."""
        for row in wrap(line, self.text_width(), hang=hang):
            self.console.print(row)
