"""Values from outside (a file, a record, a client): how deep they may nest, how long a
string of them may be, and how one is shown to a person, so that no value can drive the
terminal (escape sequences, a carriage return over the line before, reversed text) or fill
a screen with one message.

Stdlib only: the kernel, the games, the CLI and the server all show values through these.
"""

from __future__ import annotations

import functools
import itertools
import sys
import unicodedata
from typing import Any

# Unicode categories shown as escapes: controls (C0, DEL, C1: ESC, CR, BEL, CSI...), format
# characters (the bidirectional overrides and isolates, zero-width characters), lone
# surrogates (which no terminal encoding can write) and the line and paragraph separators.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
SHORT = 60  # characters of a long value a message quotes


def hidden(char: str) -> bool:
    """Whether a character would act on a terminal (or vanish) instead of being seen."""
    return unicodedata.category(char) in HIDDEN_CATEGORIES


@functools.cache
def hidden_ranges() -> tuple[tuple[int, int], ...]:
    """Every hidden character as runs of code points, (first, last) each, in order: what a
    pattern refusing exactly the characters `hidden` refuses is built from (the server's
    display names). Read from this Python's Unicode database over the whole code space once,
    when first asked (a few tenths of a second on a slow machine), not on import."""
    codes = range(sys.maxunicode + 1)
    categories = map(unicodedata.category, map(chr, codes))  # at C speed: no Python per code point
    runs: list[tuple[int, int]] = []
    for code in itertools.compress(codes, map(HIDDEN_CATEGORIES.__contains__, categories)):
        if runs and runs[-1][1] == code - 1:
            runs[-1] = (runs[-1][0], code)
        else:
            runs.append((code, code))
    return tuple(runs)


def printable(text: str, keep: str = "") -> str:
    r"""`text` with every hidden character written as its escape (`\x1b`, `\u202e`), so it
    is seen, never obeyed; the characters in `keep` (e.g. "\n" for a message of several
    lines) are left as they are."""
    if text.isprintable():  # the common case, at C speed: False wherever a character is hidden
        return text
    return "".join(char if char in keep or not hidden(char) else _escape(char) for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def first_hidden(text: str, allowed: str = "") -> int | None:
    """The index of the first hidden character of `text` not in `allowed`, or None."""
    return next((index for index, char in enumerate(text) if char not in allowed and hidden(char)),
                None)


def shortened(text: str, limit: int = SHORT) -> str:
    """A value as a message quotes it: repr()'d (so hidden characters show as escapes) and,
    when longer than `limit` characters, its first `limit`, an ellipsis and its length:
    `'xxxx…' (1,000,000 characters)`."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


def nesting_deeper_than(value: Any, limit: int) -> bool:
    """Whether lists and dicts nest in `value` more than `limit` deep (counted level by
    level without recursion, so any depth is safe to ask about, and stopping at `limit`)."""
    level, depth = _containers([value]), 0
    while level:
        depth += 1
        if depth > limit:
            return True
        level = _containers(_children(level))
    return False


def json_text_nests_deeper_than(text: str, limit: int) -> bool:
    """Whether arrays and objects nest more than `limit` deep in the JSON `text`, brackets
    inside strings not counted: checked before decoding a short message, whose decoding a few
    thousand brackets would send past Python's recursion limit."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def longest_string(value: Any) -> str:
    """The longest string in `value` (dict keys included), or "" when there is none; `value`
    must nest no deeper than its caller has checked (`nesting_deeper_than`)."""
    longest = value if isinstance(value, str) else ""
    level = _containers([value])
    while level:
        items = _children(level)
        strings = [item for item in items if isinstance(item, str)]
        if strings:
            longest = max(longest, max(strings, key=len), key=len)
        level = _containers(items)
    return longest


def _containers(items: list[Any]) -> list[Any]:
    return [item for item in items if isinstance(item, (dict, list))]


def _children(containers: list[Any]) -> list[Any]:
    """Every value (and dict key) one level inside `containers`."""
    return [child for item in containers
            for child in ([*item.keys(), *item.values()] if isinstance(item, dict) else item)]
