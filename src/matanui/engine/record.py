"""Game records: everything needed to rebuild a game exactly, as plain JSON."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .data import MAX_PACK_NAME
from .errors import MatanuiError, RecordError
from .files import read_text, write_atomically
from .untrusted import longest_string, nesting_deeper_than, shortened

if TYPE_CHECKING:
    from .state import Game, State

RECORD_FORMAT = 1
# What a record may hold (docs/architecture.md, "The contract", on `record()`): far more
# than any game needs, so that whatever a file holds, reading it costs little and every
# message about it is short.
MAX_RECORD_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 32  # lists and objects inside one another
MAX_TEXT = 100  # characters of any one string (an action id, a name, a key); no id is a fifth of it
SEED_RANGE = (-(2**63), 2**63 - 1)
RECORD_FILE = "it must be a UTF-8 JSON game record"  # what a message about a record file ends with
# A JSON value's kind as a message names it: "must be an integer, not a string".
JSON_WORDS: dict[type, str] = {str: "a string", int: "an integer", float: "a number with a fraction",
                               bool: "true or false", list: "a list", dict: "an object",
                               type(None): "null"}


def json_kind(kind: type) -> str:
    """The words for a JSON value's kind, with its article."""
    return JSON_WORDS.get(kind, f"a {kind.__name__}")


def read_json(path: str | Path) -> Any:
    """What a record file holds, parsed (Record.from_dict checks it); RecordError, naming the
    file, for a file that is not JSON in UTF-8 within the bounds above."""
    return parse_json(read_text(path, "record", RecordError, MAX_RECORD_BYTES, RECORD_FILE), path)


def parse_json(text: str, path: str | Path | None = None) -> Any:
    """A record's JSON text parsed; RecordError naming the file at `path`, if it came from one."""
    name = "the record" if path is None else f"record {path}"
    try:
        return json.loads(text)
    except RecursionError:
        raise RecordError(f"{name} nests lists and objects more than {MAX_DEPTH} deep") from None
    except json.JSONDecodeError as exc:
        ending = "" if path is None else f"; {RECORD_FILE}"
        raise RecordError(f"{name} is not valid JSON: {exc}{ending}") from None
    except ValueError:  # the only other: a number past Python's digit limit for int()
        raise RecordError(f"{name} holds a number of more than {sys.get_int_max_str_digits()} "
                          "digits") from None


def check_shape(data: Any) -> None:
    """A record is a JSON object nesting at most MAX_DEPTH deep whose actions and other
    strings are at most MAX_TEXT characters; RecordError, quoting a long value shortly,
    for anything else."""
    if not isinstance(data, dict):
        raise RecordError(f"a record must be a JSON object, not {json_kind(type(data))}")
    if nesting_deeper_than(data, MAX_DEPTH):
        raise RecordError(f"the record nests lists and objects more than {MAX_DEPTH} deep")
    actions = data.get("actions")
    for number, action in enumerate(actions if isinstance(actions, list) else [], start=1):
        if isinstance(action, str) and len(action) > MAX_TEXT:
            raise RecordError(f"action {number} of the record is {shortened(action)}; an action "
                              f"id, like every string in a record, is at most {MAX_TEXT} characters")
    longest = longest_string(data)
    if len(longest) > MAX_TEXT:
        raise RecordError(f"the record holds the string {shortened(longest)}; a string in a "
                          f"record is at most {MAX_TEXT} characters")


@dataclass
class Record:
    game: str
    rules_version: str
    seed: int
    players: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    arrangement: dict[str, Any] | None = None
    actions: list[str] = field(default_factory=list)
    # The data pack the game was played with ({"name", "hash"}); None (and absent from the
    # JSON, as in every older record) means the game's built-in data.
    data: dict[str, str] | None = None
    # Each seat's display name, for narration only (an entry null: that character's name);
    # None (and absent from the JSON, as in every older record) means the characters' names.
    names: list[str | None] | None = None

    def to_dict(self) -> dict[str, Any]:
        fields = asdict(self)
        for optional in ("data", "names"):
            if fields[optional] is None:
                del fields[optional]
        return {"format": RECORD_FORMAT, **fields}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def save(self, path: str | Path) -> None:
        """Write the record so that a crash leaves the old file or the new one, never half."""
        write_atomically(path, self.to_json() + "\n")

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        check_shape(data)
        version = data.get("format", RECORD_FORMAT)
        if type(version) is not int:
            raise RecordError(f"the record's 'format' must be the whole number {RECORD_FORMAT}, "
                              f"not {version!r}")
        if version != RECORD_FORMAT:
            raise RecordError(
                f"record format {data.get('format')!r} is not supported; this matanui "
                f"reads format {RECORD_FORMAT}"
            )
        expected: dict[str, type] = {
            "game": str,
            "rules_version": str,
            "seed": int,
            "players": list,
            "options": dict,
            "actions": list,
        }
        for name, kind in expected.items():
            if name not in data:
                raise RecordError(f"the record has no {name!r} field")
            if not isinstance(data[name], kind) or isinstance(data[name], bool):
                raise RecordError(f"the record's {name!r} must be {json_kind(kind)}, "
                                  f"not {json_kind(type(data[name]))}")
        if not SEED_RANGE[0] <= data["seed"] <= SEED_RANGE[1]:
            raise RecordError(f"the record's 'seed' must be a whole number from -2**63 to 2**63-1, "
                              f"not one of {len(str(abs(data['seed'])))} digits")
        if not all(isinstance(a, str) for a in data["actions"]):
            raise RecordError("every entry of the record's 'actions' must be a string")
        arrangement = data.get("arrangement")
        if arrangement is not None and not isinstance(arrangement, dict):
            raise RecordError("the record's 'arrangement' must be an object or null")
        pack = data.get("data")
        if pack is not None and not (isinstance(pack, dict) and set(pack) == {"name", "hash"}
                                     and all(isinstance(v, str) for v in pack.values())
                                     and len(pack["name"]) <= MAX_PACK_NAME):
            raise RecordError("the record's 'data' must be null or an object with the data "
                              f"pack's 'name' (at most {MAX_PACK_NAME} characters) and 'hash' "
                              "(strings)")
        names = data.get("names")
        if names is not None and not (isinstance(names, list) and len(names) == len(data["players"])
                                      and all(n is None or isinstance(n, str) for n in names)):
            raise RecordError("the record's 'names' must be null or a list of display names "
                              "(strings, or null for the character's name), one per player")
        return cls(
            game=data["game"],
            rules_version=data["rules_version"],
            seed=data["seed"],
            players=list(data["players"]),
            options=dict(data["options"]),
            arrangement=arrangement,
            actions=list(data["actions"]),
            data=dict(pack) if pack else None,
            names=list(names) if names is not None else None,
        )

    @classmethod
    def from_json(cls, text: str) -> Record:
        return cls.from_dict(parse_json(text))

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """The record in a file; RecordError, naming the file and saying what is wrong, for
        any other bytes."""
        data = read_json(path)
        try:
            return cls.from_dict(data)
        except RecordError as problem:
            raise RecordError(f"record {path}: {problem}") from None


# How `replay` finds a game by the name a record gives. The kernel knows no registry: the
# registry (matanui.games, imported with the matanui package) installs its lookup here.
_find_game: Callable[[str, dict[str, str] | None], Game] | None = None


def set_game_finder(find: Callable[[str, dict[str, str] | None], Game]) -> None:
    """Install the lookup from a record's game name and data pack to its Game (the registry
    calls this)."""
    global _find_game
    _find_game = find


def data_words(data: dict[str, str] | None) -> str:
    """'the built-in data' or 'data pack "NAME" (hash H)'."""
    return "the built-in data" if not data else f'data pack "{data["name"]}" (hash {data["hash"]})'


def check_data(record: Record, game: Game) -> None:
    """Refuse to rebuild a record on other data than it was played with: the same actions
    would mean another game, or none."""
    have = dict(game.data) if game.data else None
    if (record.data or {}).get("hash") == (have or {}).get("hash"):
        return
    needed = data_words(record.data)
    how = ("give that pack's folder with --data" if record.data
           else "run it without --data")
    raise RecordError(f"the record was played with {needed}, not {data_words(have)}; {how}")


def replay(record: Record, upto: int | None = None, *, game: Game | None = None) -> State:
    """Rebuild the state a record describes (after its first `upto` actions, or all). The
    game is found by the record's name and data pack, unless given."""
    if game is None:
        if _find_game is None:
            raise RecordError("no game registry is installed; import matanui.games first")
        game = _find_game(record.game, record.data)
    elif game.name != record.game:
        raise RecordError(f"the record is of {record.game}, not {game.name}")
    if record.rules_version != game.rules_version:
        raise RecordError(
            f"the record was made with {record.game} rules version {record.rules_version}, "
            f"this matanui has version {game.rules_version}"
        )
    check_data(record, game)
    state = game.new_game(record.seed, record.players, record.options, record.arrangement,
                          record.names)
    actions = record.actions if upto is None else record.actions[:upto]
    for number, action in enumerate(actions, start=1):
        try:
            state.apply(action)
        except MatanuiError as exc:
            raise RecordError(f"action {number} of the record ({shortened(action)}) fails: "
                              f"{exc}") from None
    return state
