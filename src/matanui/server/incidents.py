"""Log lines that clients can bring about, rate-limited: at most one line of a kind every
`every` seconds, the next one saying how many were left out meanwhile. A fault a client can
repeat (a bug its message reaches, a database that refuses every write) must never fill the
log: 32 connections once wrote 10 MB of tracebacks in 12 seconds.
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


class Throttle:
    """At most one of each kind every `every` seconds, counting the ones left out."""

    def __init__(self, every: float = 60.0) -> None:
        self.every = every
        self._last: dict[str, float] = {}  # when each kind was last let through (time.monotonic)
        self._left_out: dict[str, int] = {}

    def admit(self, kind: str) -> str | None:
        """None: leave this one out; else what to add to its line ("" or how many like it were
        left out since the last one let through)."""
        now = time.monotonic()
        if now - self._last.get(kind, -self.every) < self.every:
            self._left_out[kind] = self._left_out.get(kind, 0) + 1
            return None
        self._last[kind] = now
        left_out = self._left_out.pop(kind, 0)
        if not left_out:
            return ""
        return f" ({left_out} more like it in the last {self.every:.0f} s were not logged)"


class Incidents:
    """One log line per kind of incident every `every` seconds."""

    def __init__(self, log: logging.Logger, every: float = 60.0) -> None:
        self.log = log
        self.throttle = Throttle(every)

    def report(self, kind: str, level: int, message: str) -> None:
        more = self.throttle.admit(kind)
        if more is not None:
            self.log.log(level, "%s", printable(message + more))


class ClientNoise(logging.Filter):
    """uvicorn's own lines about a client's malformed request (a request line that is not
    HTTP, an upgrade it does not speak), which any client can repeat thousands of times a
    second: each kind at most once a minute, as our incidents."""

    NOISE = frozenset(("Invalid HTTP request received.", "Unsupported upgrade request."))

    def __init__(self, every: float = 60.0) -> None:
        super().__init__()
        self.throttle = Throttle(every)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if message not in self.NOISE:
            return True
        more = self.throttle.admit(message)
        if more is None:
            return False
        record.msg, record.args, record.exc_info = message + more, (), None
        return True
