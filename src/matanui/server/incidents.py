"""Log lines that clients can bring about, rate-limited: at most one line of a kind every
`every` seconds, the next one saying how many were left out meanwhile. A fault a client can
repeat (a bug its message reaches, a database that refuses every write) must never fill the
log: 32 connections once wrote 10 MB of tracebacks in 12 seconds (issue #22).
"""

from __future__ import annotations

import logging
import time
import traceback
from pathlib import Path

from matanui.engine.untrusted import printable


def where(exc: BaseException) -> str:
    """Where an exception was raised, as `file.py:line in function` (its innermost frame): what
    a traceback would point at, in a few words."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "unknown place"
    frame = frames[-1]
    return f"{Path(frame.filename).name}:{frame.lineno} in {frame.name}"


class Incidents:
    """One log line per kind of incident every `every` seconds."""

    def __init__(self, log: logging.Logger, every: float = 60.0) -> None:
        self.log = log
        self.every = every
        self._last: dict[str, float] = {}  # when each kind was last logged (time.monotonic)
        self._left_out: dict[str, int] = {}

    def report(self, kind: str, level: int, message: str) -> None:
        now = time.monotonic()
        if now - self._last.get(kind, -self.every) < self.every:
            self._left_out[kind] = self._left_out.get(kind, 0) + 1
            return
        left_out = self._left_out.pop(kind, 0)
        if left_out:
            message += f" ({left_out} more like it in the last {self.every:.0f} s were not logged)"
        self._last[kind] = now
        self.log.log(level, "%s", printable(message))

