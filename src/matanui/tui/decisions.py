"""The decision list: the legal actions in the engine's words, numbered; 1-9 pick one
directly, Enter the highlighted one. A list longer than the direct picks (Kanohi Miru's
hundreds of spaces) is narrowed to the actions near the board's cursor; actions that target
no space always stay."""

from __future__ import annotations

from collections.abc import Sequence

from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from matanui.games.text import literal

from .wrapping import Hanging

DIRECT_PICKS = 9  # the keys 1-9; a longer list of targeted actions is narrowed to the cursor


class Decisions(OptionList):
    class Picked(Message):
        def __init__(self, action: str) -> None:
            super().__init__()
            self.action = action

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.choices: list[tuple[str, str]] = []  # (action id, words), the engine's order
        self.shown: list[str] = []
        self.lines: list[str] = []  # the shown decisions' lines, numbered
        self.targeted: set[str] = set()

    def offer(self, choices: Sequence[tuple[str, str]], targeted: set[str] | None = None) -> None:
        """Offer these (action id, words), all of them shown."""
        self.choices = list(choices)
        self.targeted = targeted or set()
        self.narrow(None)

    def narrow(self, allowed: set[str] | None) -> None:
        """Show only the targeted actions in `allowed` (None: all of them); a list short
        enough to pick from directly is never narrowed."""
        if len(self.targeted) <= DIRECT_PICKS:
            allowed = None
        self._list([(a, w) for a, w in self.choices
                    if allowed is None or a not in self.targeted or a in allowed], "near the cursor")

    def narrow_to(self, actions: Sequence[str]) -> None:
        """Show only `actions` (those of one space, chosen on the map), however short the
        list, the first highlighted."""
        self._list([(a, w) for a, w in self.choices if a in actions], "on this space")

    def _list(self, keep: list[tuple[str, str]], which: str) -> None:
        self.shown = [a for a, _ in keep]
        self.lines = [f"{n:>2}. {literal(words)}" for n, (_, words) in enumerate(keep, start=1)]
        # each wrapped under its words, not under its number
        self.set_options(Option(Hanging([line]), id=action)
                         for line, (action, _) in zip(self.lines, keep, strict=True))
        self.border_title = (f"Choose ({len(keep)} of {len(self.choices)} {which}, a: all)"
                             if len(keep) < len(self.choices) else "Choose")
        if keep:
            self.highlighted = 0

    def prompts(self) -> list[str]:
        return self.lines

    def pick_number(self, number: int) -> str | None:
        """The shown action numbered `number` (None if there is none)."""
        if 1 <= number <= len(self.shown):
            return self.shown[number - 1]
        return None

    def highlight_action(self, actions: Sequence[str]) -> None:
        """Highlight the first of `actions` that is shown (the cursor's space, on the map)."""
        for action in actions:
            if action in self.shown:
                self.highlighted = self.shown.index(action)
                return

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(self.Picked(event.option.id))
