"""Events: what an action caused, as structured fields plus one sentence of narration.

An event may carry a secret (a drawn card, a revealed token) meant for one seat only. The
public narration never contains it; `view(seat)` adds the secret for its owner alone.
"""

from __future__ import annotations

from typing import Any


class Event:
    """Made by `State.emit`, whose callers name the secret's arguments. They are positional
    here: `emit` runs once or twice at every step of a playout, and passing them by keyword
    made each event about 40% dearer (Reconstruct's `matanui bench` some 5% slower)."""

    __slots__ = ("fields", "kind", "seat", "secret", "secret_text", "text")

    def __init__(
        self,
        kind: str,
        text: str,
        fields: dict[str, Any] | None = None,
        seat: int | None = None,
        secret: dict[str, Any] | None = None,
        secret_text: str | None = None,
    ) -> None:
        self.kind = kind
        self.text = text
        self.fields = fields if fields is not None else {}
        self.seat = seat  # the seat allowed to see `secret`
        self.secret = secret
        self.secret_text = secret_text

    def view(self, seat: int | None) -> dict[str, Any]:
        """The JSON-safe form of this event as `seat` may see it (None: spectators)."""
        data: dict[str, Any] = {**self.fields}
        if self.secret is not None and seat is not None and seat == self.seat:
            data.update(self.secret)
            data["text"] = self.secret_text or self.text
        else:
            data["text"] = self.text
        data["kind"] = self.kind  # last: a field of the same name never hides what happened
        return data

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.text!r})"
