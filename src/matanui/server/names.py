"""The names people give: an account's user name, a seat's display name, a chat line's
text. A name is how the others tell who is who, so a name that shows as nothing, or as
another account's name, is refused, saying which character or which account and what is
allowed; a refusal changes nothing.

- Characters are checked with PRECIS (RFC 8264, the `precis-i18n` library): a user name
  with the UsernameCaseMapped profile (RFC 8265), a display name with the Nickname profile
  (RFC 8266, PRECIS's profile for the names people are called by: spaces, symbols and emoji
  are allowed, as they were). Both refuse the default-ignorable characters, which show as
  nothing (U+034F COMBINING GRAPHEME JOINER, U+115F and U+3164 HANGUL FILLERS, the
  variation selectors), the conjoining Hangul jamo, unassigned code points and controls.
- Beyond PRECIS: the few characters that are drawn as blank although assigned a visible
  class (U+2800 BRAILLE PATTERN BLANK, a symbol), at most MAX_MARKS combining marks on one
  character (a stack of marks spills over the lines around it) and none with nothing to sit
  on; a user name is kept to the ASCII subset of UsernameCaseMapped its pattern states (RFC
  8265 lets an application narrow it), and the middle dot is left out of display names.
- A new user name must not look like an existing one: their UTS #39 skeletons (the
  `disarm` library's skeleton_key, Unicode's confusables.txt folded with the TR39 digit
  classes, after case folding) differ. "TAHU", "Tahu" and "tahu" are one skeleton, and so
  are "Iewa" and "Lewa" (I and l), "0nua" and "Onua" (0 and O), "Tahu" with a Cyrillic a
  (U+0430) in it.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata

import disarm
from precis_i18n import get_profile
from precis_i18n.derived import DISALLOWED, UNASSIGNED, derived_property
from precis_i18n.unicode import UnicodeData

from matanui.engine.untrusted import hidden

MAX_MARKS = 2  # combining marks on one character: Vietnamese needs two (ệ), a stack is an attack
MARKS = frozenset({"Mn", "Mc", "Me"})
# Assigned a visible class, drawn as nothing: no name or line is made of them.
BLANK_GLYPHS = frozenset({"\u2800", "\u3164", "\uffa0", "\u115f", "\u1160", "\U0001d159"})
NOT_IN_DISPLAY_NAMES = frozenset({"\u00b7"})  # PRECIS allows it only between two l's (Catalan)

_UCD = UnicodeData()
USERNAME = get_profile("UsernameCaseMapped")
NICKNAME = get_profile("NicknameCasePreserved")

ACCOUNT_NAME = re.compile(r"[A-Za-z0-9_-]{3,24}")
ACCOUNT_NAME_WORDS = "3 to 24 characters, each a letter (a-z, A-Z), a digit, _ or -"


def describe(char: str) -> str:
    """A character as a message names it: its escape or itself, its code and its name."""
    name = unicodedata.name(char, "")
    seen = not (hidden(char) or invisible(char) or unicodedata.category(char) in MARKS)
    shown = char if seen else _escape(ord(char))
    return f"{shown} (U+{ord(char):04X}{' ' + name if name else ''})"


def invisible(char: str) -> bool:
    """Whether a character is drawn as nothing: default-ignorable (PRECIS's ignorable
    properties, noncharacters too) or a blank glyph."""
    return char in BLANK_GLYPHS or _UCD.default_ignorable(ord(char)) or _UCD.noncharacter(ord(char))


def blank(text: str) -> bool:
    """Whether a text shows nothing: only spaces and invisible characters."""
    return all(char.isspace() or invisible(char) for char in text)


def _marks_problem(name: str, what: str, allowed: str) -> str | None:
    run = 0
    for at, char in enumerate(name):
        if unicodedata.category(char) not in MARKS:
            run = 0
            continue
        run += 1
        if at == 0:
            return (f"{what}: it starts with the combining mark {describe(char)}, which has no "
                    f"character to sit on; {allowed}")
        if run > MAX_MARKS:
            return (f"{what}: character {at + 1}, the combining mark {describe(char)}, makes {run} "
                    f"marks on one character; at most {MAX_MARKS} may sit on one (a stack of marks "
                    f"spills over the text around it); {allowed}")
    return None


def _precis_problem(name: str, profile: object, what: str, allowed: str) -> str | None:
    try:
        profile.enforce(name)  # type: ignore[attr-defined]
    except UnicodeEncodeError as exc:
        reason = exc.reason.split("/")[-1].replace("_", " ")
        if not 0 <= exc.start < len(name):  # of the whole name: empty once mapped
            return f"{what}: {reason} (it has {len(name)} characters); {allowed}"
        char = name[exc.start]
        return (f"{what}: character {exc.start + 1}, {describe(char)}, is not allowed in a name "
                f"(PRECIS {profile.name}, RFC {8265 if profile is USERNAME else 8266}: "  # type: ignore[attr-defined]
                f"{reason}); {allowed}")
    return None


def _invisible_problem(name: str, what: str, allowed: str) -> str | None:
    if name and blank(name):
        return f"{what}: it shows as nothing (only invisible characters); {allowed}"
    for at, char in enumerate(name):
        if invisible(char):
            return (f"{what}: character {at + 1}, {describe(char)}, shows as nothing, so the name "
                    f"would look like another; {allowed}")
    return None


def account_name_problem(name: str) -> str | None:
    """What is wrong with a new user name by itself, or None; most particular first."""
    what, allowed = "name", f"a user name is {ACCOUNT_NAME_WORDS}"
    return (_invisible_problem(name, what, allowed) or _marks_problem(name, what, allowed)
            or _precis_problem(name, USERNAME, what, allowed) or _ascii_problem(name, what, allowed))


def _ascii_problem(name: str, what: str, allowed: str) -> str | None:
    if ACCOUNT_NAME.fullmatch(name):
        return None
    at = next((at for at, char in enumerate(name) if not ACCOUNT_NAME.fullmatch(char * 3)), None)
    if at is not None:
        return f"{what}: character {at + 1}, {describe(name[at])}, is not allowed; {allowed}"
    return f"{what}: it has {len(name)} characters; {allowed}"


def account_key(name: str) -> str:
    """The user name as compared and stored unique (UsernameCaseMapped: lower case, NFC):
    the casefold of an ASCII name, as before; a name PRECIS refuses keys by its casefold (no
    account has it)."""
    try:
        return USERNAME.enforce(name)
    except UnicodeEncodeError:
        return name.casefold()


def skeleton(name: str) -> str:
    """The name's UTS #39 skeleton: two names that look alike have the same one."""
    return disarm.skeleton_key(name, digit_policy="tr39")


def display_name_problem(name: str, allowed: str) -> str | None:
    """What is wrong with a display name (as given; a blank one is no name and fine), or None."""
    what = "name"
    if not name.strip():
        return None
    for at, char in enumerate(name):
        if char in NOT_IN_DISPLAY_NAMES:
            return (f"{what}: character {at + 1}, {describe(char)}, is not allowed in a display name; "
                    f"{allowed}")
    return (_invisible_problem(name, what, allowed) or _marks_problem(name, what, allowed)
            or _precis_problem(name.strip(), NICKNAME, what, allowed))


def display_name_allowed(char: str) -> bool:
    """Whether a character may stand in a display name at all (the document's pattern)."""
    if hidden(char) or invisible(char) or char in NOT_IN_DISPLAY_NAMES:
        return False
    return derived_property(ord(char), _UCD)[0] not in (DISALLOWED, UNASSIGNED)


@functools.cache
def display_name_pattern() -> str:
    r"""A JSON Schema pattern of the display names `display_name_problem` accepts, but for
    PRECIS's context rules (a Katakana middle dot beside kana, the Arabic-Indic digits not
    mixed): `^(?:[N][M]{0,2})*$`, N the allowed characters that are not combining marks, M
    the allowed marks, each as runs written as escapes (\x9b, \u202e, \U000e0001), which
    Python's `re` and the Rust engine of schemathesis's validator read alike. Read from this
    Python's Unicode database (Cn and private use skipped at C speed) when first asked."""
    bases: list[tuple[int, int]] = []
    marks: list[tuple[int, int]] = []
    categories = map(unicodedata.category, map(chr, range(sys.maxunicode + 1)))
    for code, category in enumerate(categories):
        if category in ("Cn", "Co", "Cs") or not display_name_allowed(chr(code)):
            continue
        runs = marks if category in MARKS else bases
        if runs and runs[-1][1] == code - 1:
            runs[-1] = (runs[-1][0], code)
        else:
            runs.append((code, code))

    def char_class(runs: list[tuple[int, int]]) -> str:
        return "[" + "".join(_escape(first) + (f"-{_escape(last)}" if last > first else "")
                             for first, last in runs) + "]"
    return f"^(?:{char_class(bases)}{char_class(marks)}{{0,{MAX_MARKS}}})*$"


def _escape(code: int) -> str:
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
