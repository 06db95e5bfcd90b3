"""A game's options, declared once as a typed schema.

Each game gives `Game.options_schema()`: its options by name, each an `Option` of one kind
(a choice among values, true/false, or a whole number between bounds) with a default and a
line of help. Everything else is built from it: the kernel's check of the options a game is
given (BadSetup naming the option and what it allows), `option_help`, `matanui games`, the
catalog the lobby draws its form from, and the OpenAPI document.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .errors import BadSetup

Kind = Literal["choice", "bool", "int"]

# A turn limit only ends a game that would otherwise go on forever; no game of ours needs
# more than a few hundred turns, and a limit of 10**9 would let one game hold a server's
# bots (and a replay) for hours.
MIN_TURN_LIMIT = 10
MAX_TURN_LIMIT = 10_000


@dataclass(frozen=True)
class Option:
    """One option. `default` is its value when not given; an option whose default grows with
    the number of players gives `default_per_player` instead (the default is that many times
    the players). `labels`, when given, name the `choices` for people (the lobby's menu)."""

    kind: Kind
    help: str
    default: Any = None
    choices: tuple[Any, ...] = ()
    labels: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None
    default_per_player: int | None = None

    def default_for(self, players: int) -> Any:
        if self.default_per_player is not None:
            return self.default_per_player * players
        return self.default

    def allowed(self) -> str:
        """What the option allows, in words: "'rps', 0 or 1", "true or false", ..."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "int":
            return f"a whole number from {self.min} to {self.max}"
        shown = [repr(choice) for choice in self.choices]
        return ", ".join(shown[:-1]) + f" or {shown[-1]}" if len(shown) > 1 else shown[0]

    def synopsis(self) -> str:
        """The values as a command line's help writes them: a|b|both, true|false, 10..10000."""
        if self.kind == "bool":
            return "true|false"
        if self.kind == "int":
            return f"{self.min}..{self.max}"
        return "|".join(str(choice) for choice in self.choices)

    def default_words(self) -> str:
        if self.default_per_player is not None:
            return f"{self.default_per_player} per player"
        return _json_words(self.default)

    def describe(self) -> str:
        """The option's line of help: what it allows, its default, what it does."""
        return f"{self.allowed()} (default {self.default_words()}): {self.help}"

    def check(self, value: Any, what: str) -> Any:
        """`value` if the option allows it, else BadSetup: "<what> must be <allowed>, not ...".
        Types are exact: neither True nor 1.0 passes for the number 1, nor 1 for true."""
        if self.kind == "bool":
            good = isinstance(value, bool)
        elif self.kind == "int":
            good = type(value) is int and self.min <= value <= self.max  # type: ignore[operator]
        else:
            good = any(type(value) is type(choice) and value == choice for choice in self.choices)
        if not good:
            raise BadSetup(f"{what} must be {self.allowed()}, not {value!r:.40}")
        return value

    def parse(self, text: str, what: str) -> Any:
        """The value `text` (as typed on a command line) writes for this option: true or false,
        a whole number in the digits 0-9, or one of the choices as the help writes it; then
        checked as `check` does. BadSetup saying what is allowed otherwise."""
        value: Any = text
        digits = text.removeprefix("-")
        if self.kind == "bool" and text in ("true", "false"):
            value = text == "true"
        elif self.kind == "int" and digits.isascii() and digits.isdigit():
            value = int(text)
        elif self.kind == "choice":
            value = next((choice for choice in self.choices if str(choice) == text), text)
        return self.check(value, what)

    def to_json(self) -> dict[str, Any]:
        """The option for the lobby's form (catalog)."""
        data: dict[str, Any] = {"kind": self.kind, "default": self.default, "help": self.help,
                                "text": self.describe()}
        if self.kind == "choice":
            data["choices"] = list(self.choices)
            data["labels"] = list(self.labels or map(str, self.choices))
        if self.kind == "int":
            data["min"], data["max"] = self.min, self.max
        if self.default_per_player is not None:
            data["default_per_player"] = self.default_per_player
        return data

    def json_schema(self) -> dict[str, Any]:
        """The option as JSON Schema (for the OpenAPI document)."""
        schema: dict[str, Any]
        if self.kind == "bool":
            schema = {"type": "boolean"}
        elif self.kind == "int":
            schema = {"type": "integer", "minimum": self.min, "maximum": self.max}
        else:
            schema = {"enum": list(self.choices)}
        if self.default_per_player is None:
            schema["default"] = self.default
        return {**schema, "description": self.describe()}


def _check_names(game: str, schema: Mapping[str, Option], names: Iterable[str]) -> None:
    for key in names:
        if key not in schema:
            known = "; ".join(f"{k}: {o.describe()}" for k, o in schema.items()) or "none"
            raise BadSetup(f"{game} has no option {key!r:.80}; its options are: {known}")


def check_options(game: str, schema: Mapping[str, Option], options: Mapping[str, Any],
                  players: int) -> dict[str, Any]:
    """Every option of `schema`, given or default, in the schema's order; BadSetup for an
    option the game does not have or a value it does not allow."""
    _check_names(game, schema, options)
    return {key: option.check(options[key], f"option {key}") if key in options
            else option.default_for(players) for key, option in schema.items()}


def parse_options(game: str, schema: Mapping[str, Option], pairs: Sequence[str]) -> dict[str, Any]:
    """`["advanced=true", "turn_limit=50"]` -> `{"advanced": True, "turn_limit": 50}`: each
    value read as its option's kind (Option.parse); BadSetup for a pair that is not
    key=value, an option the game does not have, or a value it does not allow."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key:
            raise BadSetup(f"option {pair!r:.80} must look like key=value, e.g. turn_limit=50")
        _check_names(game, schema, [key])
        options[key] = schema[key].parse(text, f"option {key}")
    return options


def options_json_schema(schema: Mapping[str, Option]) -> dict[str, Any]:
    """A game's options as one JSON Schema object."""
    return {"type": "object", "additionalProperties": False,
            "properties": {key: option.json_schema() for key, option in schema.items()}}


def turn_limit(help: str, default: int | None = None, per_player: int | None = None) -> Option:
    """The turn limit every game has, between the same bounds."""
    return Option("int", help, default=default, min=MIN_TURN_LIMIT, max=MAX_TURN_LIMIT,
                  default_per_player=per_player)


FIRST_PLAYER = Option(
    "choice", "who plays first: a seeded Rock-Paper-Scissors, or the first or the second player listed",
    default="rps",
    choices=("rps", 0, 1), labels=("Rock-Paper-Scissors decides", "Player 1", "Player 2"))


def _json_words(value: Any) -> str:
    """A default as the command line and JSON write it: true, 'a', 200."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)
