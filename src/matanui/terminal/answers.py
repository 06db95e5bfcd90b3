"""Reading what a person types: an answer that cannot be read is said so and asked again."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console

from matanui.games.text import literal

MAX_ANSWER = 100  # characters: longer than any action id or number of one


class QuitGame(Exception):
    """The person asked to stop; the game is saved."""


class BadAnswer(Exception):
    """An answer that cannot be read; the message says what to type instead."""


def read_answer(raw: str) -> str:
    """A typed line, stripped; BadAnswer if it is too long or holds control characters
    (arrow and function keys type escape sequences where the terminal has no line editing)."""
    answer = raw.strip()
    if len(answer) > MAX_ANSWER:
        raise BadAnswer(f"That answer is {len(answer):,} characters long; type a number or a "
                        f"command (? for help).")
    if not answer.isprintable():
        raise BadAnswer("That answer holds control characters (an arrow or function key?); "
                        "type just a number or a command (? for help).")
    return answer


def ask_readable(console: Console, ask: Callable[[], str]) -> str | None:
    """Ask until the person types a line that can be read (see read_answer), telling them
    what was wrong in between; None when they leave (end of input or Ctrl-C)."""
    while True:
        try:
            return read_answer(ask())
        except (EOFError, KeyboardInterrupt):
            console.print()
            return None
        except BadAnswer as problem:
            console.print(f"[red]{literal(str(problem))}[/]")


def number_in(answer: str) -> int | None:
    """The number a read answer is, if it is one: the ASCII digits 0-9 only. Digits of other
    scripts (Arabic-Indic U+0661, fullwidth U+FF11), which int() would read, are a BadAnswer
    saying what to type, so that none is taken for a number unseen; superscripts and
    fractions are not digits at all."""
    if not answer.isdecimal():
        return None
    if not answer.isascii():
        raise BadAnswer(f"{answer!r} is not a number here: type numbers with the digits 0 to 9.")
    return int(answer)


def ask_line(console: Console, ask: Callable[[], str]) -> tuple[str, int | None] | None:
    """Ask until the person types a line that can be read, as ask_readable does, and that is
    a number only if written with the digits 0-9: the line and its number (None if it is not
    one). None when they leave: end of input, Ctrl-C or q."""
    while True:
        answer = ask_readable(console, ask)
        if answer is None:
            return None
        try:
            number = number_in(answer)
        except BadAnswer as problem:
            console.print(f"[red]{literal(str(problem))}[/]")
            continue
        return None if answer.lower() == "q" else (answer, number)


def choices_words(count: int) -> str:
    """Which numbers may be typed for `count` actions, as an answer says it."""
    return "1 for the only action" if count == 1 else f"a number from 1 to {count}"
