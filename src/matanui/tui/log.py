"""The log region: every line so far, wrapped to the log's real width (a RichLog wraps at
write time, so a line written before the widget had its width was cut: "Tahu places the
Tahu Mask on the Sta"); written again at the new width when the log is resized."""

from __future__ import annotations

from collections.abc import Sequence

from textual import events
from textual.widgets import RichLog

from .wrapping import Hanging


class Log(RichLog):
    def __init__(self, **kwargs) -> None:
        super().__init__(markup=True, wrap=True, min_width=1, **kwargs)
        self.said: list[str] = []  # the lines (markup), to write again at another width
        self.drawn_width = 0

    def add(self, lines: Sequence[str]) -> None:
        self.said.extend(lines)
        if self.drawn_width:
            for line in lines:
                self._draw(line)

    def forget(self) -> None:
        self.said.clear()
        self.clear()

    def _draw(self, line: str) -> None:
        self.write(Hanging([line], indent=2), width=self.drawn_width, scroll_end=True)

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        width = self.scrollable_content_region.width
        if width > 0 and width != self.drawn_width:
            self.drawn_width = width
            self.clear()
            for line in self.said:
                self._draw(line)
