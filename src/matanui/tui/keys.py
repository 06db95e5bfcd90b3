"""The full screen's keys: ONE table, each key with the modes it acts in. The `?` page shows
the rows of the mode it is in; docs/terminal.md holds the same tables (a test compares)."""

from __future__ import annotations

from dataclasses import dataclass

PLAY, TUTORIAL, REPLAY = "play", "tutorial", "replay"
MODES = (PLAY, TUTORIAL, REPLAY)
DECIDING = frozenset({PLAY, TUTORIAL})
ALL = frozenset(MODES)


@dataclass(frozen=True)
class Key:
    keys: str
    does: str
    modes: frozenset[str]


KEYS = (
    Key("1-9", "take the decision with that number (of the list as shown)", DECIDING),
    Key("Up/Down, Enter", "move in the decision list, take the highlighted one", DECIDING),
    Key("Tab", "between the board, the log and the decision list", DECIDING),
    Key("Tab", "between the board and the log", frozenset({REPLAY})),
    Key("arrows on the board", "pan it; when the decision's actions target spaces, move the cursor "
        "among them (shift+arrows pan)", DECIDING),
    Key("arrows on the board", "pan it", frozenset({REPLAY})),
    Key("Enter or a click on the board", "take the action of the space under the cursor (several on "
        "one space: the list, narrowed to them, chooses)", DECIDING),
    Key("a", "the whole decision list again (with a cursor it shows what is near the cursor, and "
        "every action that targets no space)", DECIDING),
    Key("c / m", "centre the board on your piece / on the piece of whoever made the last move", ALL),
    Key("z", "the board fills the screen (z again: back)", ALL),
    Key("space", "go on at once after a bot's move", frozenset({PLAY})),
    Key("n, space or Enter", "the next action (at the last one it says so and stays)",
        frozenset({REPLAY})),
    Key("b", "back one action", frozenset({REPLAY})),
    Key("digits, then Enter", "go to that action (backspace forgets the digits)", frozenset({REPLAY})),
    Key("?", "How to play and these keys; Escape or Enter closes it", ALL),
    Key("l", "the whole log; Escape or Enter closes it", ALL),
    Key("h", "a hint: the move a strong player would make in your place, and why (the list "
        "highlights it)", frozenset({PLAY})),
    Key("p", "at the tutorial's end: play on against a bot, with hints (h)", frozenset({TUTORIAL})),
    Key("s", "save", frozenset({PLAY})),
    Key("q or ctrl+q", "save and quit (the resume command is printed on leaving)", frozenset({PLAY})),
    Key("q or ctrl+q", "leave (the command that starts it again is printed)", frozenset({TUTORIAL})),
    Key("q or ctrl+q", "leave", frozenset({REPLAY})),
)


def keys_table(mode: str) -> str:
    """The keys of `mode` as a markdown table."""
    rows = [f"| {key.keys} | {key.does} |" for key in KEYS if mode in key.modes]
    return "\n".join(["| Key | What it does |", "| :-- | :-- |", *rows]) + "\n"
