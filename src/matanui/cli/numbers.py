"""The command line's whole numbers."""

from __future__ import annotations

from typer import BadParameter


def integer(text: str | int) -> int:
    """A whole number written in the digits 0-9 only (the command line's numbers): Python's
    int() also reads other scripts' digits (ARABIC-INDIC DIGIT ONE as 1), which a person who
    typed one did not mean as a number. Named `integer` for the INTEGER the help shows."""
    if isinstance(text, int):  # a default, already a number
        return text
    digits = text.strip().removeprefix("-").removeprefix("+")
    if not (digits.isascii() and digits.isdigit()):
        raise BadParameter(f"{text!r} is not a number: write it with the digits 0 to 9")
    return int(text)
