"""Screens over the game: a page to read (How to play, the whole log) and the hot-seat
handover. Escape, Enter (or the key that opened it) closes a page back to the game."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from matanui.games.text import literal


class Page(ModalScreen[None]):
    """A page (markdown, or lines of markup) over the game, scrolled with the arrow keys."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,q,question_mark,l", "dismiss", "Close")]
    DEFAULT_CSS = """
    Page { align: center middle; }
    Page > Vertical { width: 100%; height: 100%; border: round $accent; background: $surface; }
    Page .hint { dock: bottom; color: $text-muted; }
    """

    def __init__(self, title: str, markdown: str | None = None, lines: list[str] | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.markdown = markdown
        self.lines = lines or []

    def compose(self) -> ComposeResult:
        with Vertical() as frame:
            frame.border_title = literal(self.title_text)
            with VerticalScroll(id="page"):
                if self.markdown is not None:
                    yield Markdown(self.markdown)
                else:
                    yield Static("\n".join(self.lines) or "(nothing yet)")
            yield Static("Escape or Enter closes this page; the arrow keys scroll it.", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#page").focus()

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)


class Handover(ModalScreen[bool]):
    """Hot-seat: the screen between two people, showing nothing of anyone's hand. Enter
    gives it to the next person (True); q saves and quits (False)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "go", "Take over"),
                                             Binding("q", "leave", "Save and quit")]
    DEFAULT_CSS = """
    Handover { align: center middle; background: $background; }
    Handover > Static { width: auto; border: round $accent; padding: 1 2; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name_text = name

    def compose(self) -> ComposeResult:
        yield Static(f"[bold]{literal(self.name_text)}[/], your turn: press Enter "
                     f"(others look away).\nq saves the game and quits.", id="handover")

    def action_go(self) -> None:
        self.dismiss(True)

    def action_leave(self) -> None:
        self.dismiss(False)
