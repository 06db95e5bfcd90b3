"""Lines of markup wrapped to the width they are drawn at, each continuation hung under
the words it continues (not under the line's first column), breaking at a run of spaces
(between "Flight 400  Shielding 700") or after a semicolon before a single space
(inside "Speed 800").

The games' regions are written for 80 columns; the screen's side column and its lists are
narrower, and their width changes when the terminal is resized, so the wrapping is done at
render time (a Rich renderable), never when the line is written."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

RUNS = re.compile(r" {2,}|(?<=;) ")  # where a line's parts meet: the preferred places to break


def hang_indent(plain: str) -> int:
    """How far a wrapped line's continuations are indented: under its words, a little in
    from where the line itself starts ("1. Move…" continues under "Move")."""
    lead = len(plain) - len(plain.lstrip(" "))
    numbered = re.match(r" *\d+\. ", plain)
    return numbered.end() if numbered else lead + 2


def wrap_line(line: Text, width: int, indent: int | None = None) -> list[Text]:
    """`line` in pieces of at most `width` cells, the continuations indented."""
    plain = line.plain
    indent = hang_indent(plain) if indent is None else indent
    indent = min(indent, max(0, width // 3))
    pieces: list[Text] = []
    start, room = 0, max(1, width)
    while len(plain) - start > room:
        end = start + room
        cut = _break_at(plain, start, end)
        pieces.append(line[start:cut])
        start = cut
        while start < len(plain) and plain[start] == " ":
            start += 1
        room = max(1, width - indent)
    rest = line[start:]
    pieces.append(rest)
    for piece in pieces[1:]:
        piece.pad_left(indent)
    for piece in pieces:
        piece.rstrip()
    return pieces


def _break_at(plain: str, start: int, end: int) -> int:
    """Where to end the piece plain[start:…] of at most end-start characters: at the last
    run of spaces if it leaves the piece at least a third full, else at the last space,
    else (one long word) at the width."""
    window = plain[start:end + 1]  # a break just past the width still fits the piece
    runs = [m.start() for m in RUNS.finditer(window) if m.start() > 0]
    if runs and runs[-1] >= (end - start) // 3:
        return start + runs[-1]
    space = window.rfind(" ")
    if space > 0:
        return start + space
    return end


class Hanging:
    """Markup lines drawn wrapped with hanging continuations at whatever width they get."""

    def __init__(self, lines: Iterable[str | Text], indent: int | None = None) -> None:
        self.lines = [line if isinstance(line, Text) else Text.from_markup(line) for line in lines]
        self.indent = indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        rows: list[Text] = []
        for line in self.lines:
            for part in line.split("\n", allow_blank=True):
                rows.extend(wrap_line(part, options.max_width, self.indent))
        text = Text("\n").join(rows)
        text.no_wrap = True
        text.overflow = "crop"
        yield text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((line.cell_len for line in self.lines), default=0)
        return Measurement(min(8, widest), widest)


def wrapped_height(lines: Sequence[str], width: int) -> int:
    """How many rows `lines` take when wrapped to `width`."""
    return sum(len(wrap_line(part, width)) for line in lines
               for part in Text.from_markup(line).split("\n", allow_blank=True))
