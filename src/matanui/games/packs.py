"""Data packs: a user's own cards, mats and boards in place of our reconstructions.

A pack is a folder holding `pack.toml` (name, game, version, author, description) and any of
the game's data files (the same TOML files the engine reads, laid out as the game's
descriptor says). A pack may be partial: each entry of a pack's file replaces the built-in
entry with the same identity (the field the descriptor's `layout` names per table: a card's
number, a board's id), or is added when none has it; a table without an identity (a single
table such as `[deck]`, or Makuta's locks) is replaced whole. The merged files are then read
by the game's own loader, so a pack is held to exactly the checks our data is.

A game built from a pack is its own Game object, named as the game is, whose `data` names
the pack and the hash of its contents; records carry it (engine/record.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from matanui import games
from matanui.engine import Game, MatanuiError
from matanui.engine.data import MAX_PACK_NAME, EntryChecker, load_toml
from matanui.engine.errors import DataFileError, RecordError
from matanui.engine.untrusted import printable, shortened

PACK_FILE = "pack.toml"
PACK_FIELDS = ("name", "game", "version", "author", "description")
# Optional: `whole = ["actions.toml"]` names the pack's files that replace ours whole instead
# of entry by entry (so that an entry deleted from them is gone, and a deck may shrink).
WHOLE = "whole"


SMOKE_GAMES = 5  # random games a pack must play to the end in `data check`
SMOKE_STEPS = 20_000


class PackError(MatanuiError):
    """A pack that cannot be used; the message lists every problem found."""


def _layout(game: str) -> Mapping[str, Mapping[str, str | None]]:
    """Each data file of `game`, its tables and the field that names an entry (None: the
    table is replaced whole when a pack gives it): the game's descriptor's."""
    return games.descriptor(game).layout


def builtin_folder(game: str) -> Path:
    return games.data_folder(game)


def builtin(game: str, file: str) -> dict[str, Any]:
    return load_toml(builtin_folder(game) / file)


@dataclass(frozen=True)
class Pack:
    folder: Path
    meta: dict[str, str]  # the fields of pack.toml
    files: dict[str, dict[str, Any]]  # data file -> its parsed overrides
    whole: tuple[str, ...] = ()  # the files that replace ours whole

    @property
    def name(self) -> str:
        return self.meta["name"]

    @property
    def game(self) -> str:
        return self.meta["game"]

    @property
    def hash(self) -> str:
        """A digest of what the pack changes (its parsed data, so comments and layout do not
        count; pack.toml's words do not either)."""
        text = json.dumps({"files": self.files, WHOLE: sorted(self.whole)}, sort_keys=True, default=str)
        return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()

    @property
    def data(self) -> dict[str, str]:
        return {"name": self.name, "hash": self.hash}


# -- reading -------------------------------------------------------------------------------


def _parsed(path: Path, problems: list[str]) -> dict | None:
    """A TOML file's tables, or None after adding why it cannot be read (engine/data.py:
    not a file, too large, not UTF-8, not TOML, nested too deep)."""
    try:
        return load_toml(path)
    except DataFileError as exc:
        problems.append(str(exc))
        return None


def _read_meta(folder: Path, problems: list[str]) -> tuple[dict[str, str], tuple[str, ...]] | None:
    path = folder / PACK_FILE
    if not path.exists():
        problems.append(f"{path}: missing; a pack needs a {PACK_FILE} with "
                        f"{', '.join(PACK_FIELDS)}")
        return None
    raw = _parsed(path, problems)
    if raw is None:
        return None
    meta: dict[str, str] = {}
    check = EntryChecker(PACK_FILE, "pack", raw)
    for name in raw:
        if name not in (*PACK_FIELDS, WHOLE):
            problems.append(f"{PACK_FILE}: pack.{name} is not a known field; known: "
                            f"{', '.join(PACK_FIELDS)}, {WHOLE}")
    for name in PACK_FIELDS:
        try:
            meta[name] = check.choice(name, games.names()) if name == "game" else check.get(name, str)
        except DataFileError as exc:
            problems.append(str(exc))
    if len(meta.get("name", "")) > MAX_PACK_NAME:
        problems.append(f"{PACK_FILE}: pack.name is {len(meta.pop('name')):,} characters long; a "
                        f"pack's name is at most {MAX_PACK_NAME}")
    if len(meta) != len(PACK_FIELDS):
        return None
    try:
        whole = tuple(check.choices(WHOLE, _layout(meta["game"]), min_items=0)) if WHOLE in raw else ()
    except DataFileError as exc:
        problems.append(str(exc))
        return None
    for file in whole:
        if not (folder / file).is_file():
            problems.append(f"{PACK_FILE}: pack.{WHOLE} names {file}, which the pack does not hold")
    return meta, whole


def _read_file(path: Path, layout: Mapping[str, str | None], problems: list[str]) -> dict | None:
    """The parsed file, or None after adding its problems: each table must be one the game
    knows, and each entry of an entry-by-entry table must name itself once."""
    data = _parsed(path, problems)
    if data is None:
        return None
    before = len(problems)
    for table, value in data.items():
        if table not in layout:
            problems.append(f"{path}: [{table}] is not a table of {path.name}; known: "
                            f"{', '.join(layout)}")
            continue
        key = layout[table]
        if key is None:
            continue
        if not isinstance(value, list):
            problems.append(f"{path}: {table} must be an array of tables ([[{table}]])")
            continue
        seen: set[Any] = set()
        for number, entry in enumerate(value, start=1):
            if not isinstance(entry, dict):
                problems.append(f"{path}: {table}[{number}] must be a table")
            elif key not in entry:
                problems.append(f"{path}: {table}[{number}].{key} is missing; every "
                                f"[[{table}]] of a pack names the entry it replaces or adds by {key}")
            elif not isinstance(entry[key], (str, int)) or isinstance(entry[key], bool):
                problems.append(f"{path}: {table}[{number}].{key} must be a string or a "
                                f"whole number, not {entry[key]!r}")
            elif entry[key] in seen:
                problems.append(f"{path}: {table}[{number}].{key} repeats {entry[key]!r}; "
                                f"each {key} may appear once")
            else:
                seen.add(entry[key])
    return data if len(problems) == before else None


def _read(folder: Path) -> tuple[Pack | None, list[str]]:
    problems: list[str] = []
    if not folder.is_dir():
        return None, [f"{folder}: is not a folder (a pack is a folder with {PACK_FILE})"]
    read_meta = _read_meta(folder, problems)
    if read_meta is None:
        return None, problems
    meta, whole = read_meta
    layout = _layout(meta["game"])
    files: dict[str, dict[str, Any]] = {}
    try:
        paths = sorted(folder.iterdir())
    except OSError as exc:
        return None, [f"{folder}: cannot be read: {exc.strerror or exc}"]
    for path in paths:
        if path.name == PACK_FILE or path.name.startswith(".") or path.suffix != ".toml":
            continue
        if path.name not in layout:
            problems.append(f"{path}: is not a data file of {meta['game']}; its files are: "
                            f"{', '.join(layout)}")
            continue
        data = _read_file(path, layout[path.name], problems)
        if data is not None:
            files[path.name] = data
    return Pack(folder, meta, files, whole), problems


# -- merging and building ------------------------------------------------------------------


@dataclass(frozen=True)
class Merged:
    """One merged data file, and where each entry came from (for naming it in messages)."""

    data: dict[str, Any]
    origin: dict[tuple[str, int], str]  # (table, merged index) -> how to name the entry


def merge(game: str, file: str, overrides: Mapping[str, Any], whole: bool = False) -> Merged:
    """The built-in file with the pack's entries over it (`whole`: the pack's file alone)."""
    data = {} if whole else builtin(game, file)
    origin: dict[tuple[str, int], str] = {}
    for table, value in overrides.items():
        key = _layout(game)[file][table]
        if key is None:
            data[table] = value
            continue
        entries = list(data.get(table, []))
        where = {entry.get(key): index for index, entry in enumerate(entries)}
        for number, entry in enumerate(value, start=1):
            index = where.get(entry[key], len(entries))
            if index == len(entries):
                entries.append(entry)
            else:
                entries[index] = entry
            origin[(table, index + 1)] = f"{table}[{number}] ({key} = {entry[key]!r})"
        data[table] = entries
        for index, entry in enumerate(entries, start=1):
            origin.setdefault((table, index), f"built-in {table} {key} = {entry.get(key)!r}")
    return Merged(data, origin)


_WHERE = re.compile(r"^(?P<file>[\w.-]+\.toml): (?P<table>\w+)\[(?P<index>\d+)\]")


def _name_entries(message: str, merged: Mapping[str, Merged], folder: Path) -> str:
    """Rewrite a loader's 'file: table[i]' (an index into the merged file) as the pack's own
    entry, so the user finds it in the file they wrote."""
    found = _WHERE.match(message)
    if found is None or found["file"] not in merged:
        file = message.split(":", 1)[0]
        return f"{folder / file}{message[len(file):]}" if file in merged else message
    named = merged[found["file"]].origin.get((found["table"], int(found["index"])))
    head = f"{folder / found['file']}: {named or found.group(0).split(': ', 1)[1]}"
    return head + message[found.end():]


def _build(game: str, files: Mapping[str, Mapping[str, Any]], folder: Path,
           whole: tuple[str, ...] = ()) -> Game:
    """The game built from its built-in data with `files` merged over it (those in `whole`
    replacing ours)."""
    merged = {file: merge(game, file, files.get(file, {}), file in whole and file in files)
              for file in _layout(game)}
    scratch = Path(tempfile.mkdtemp(prefix="matanui-pack-"))
    try:
        for file, one in merged.items():
            (scratch / file).write_bytes(tomli_w.dumps(one.data).encode())
        return games.descriptor(game).load(scratch)
    except DataFileError as exc:
        raise DataFileError(_name_entries(str(exc), merged, folder)) from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _smoke(game: Game) -> list[str]:
    """Random games on the pack's data: each must end without an error, and one at least with
    a winner where the game's descriptor says `random_play_wins` (random Makuta and Masks
    games are often drawn by their turn limits, so they prove nothing). Any failure of the
    rules on the pack's data, whatever it is, is the pack's problem: the pack is refused
    with it."""
    winners = 0
    for seed in range(SMOKE_GAMES):
        rng = random.Random(seed)
        players = rng.sample(game.characters(), game.min_players)
        try:
            state = game.new_game(seed, players)
            for _ in range(SMOKE_STEPS):
                if state.is_over:
                    break
                actions = state.legal_actions()
                state.apply(actions[rng.randrange(len(actions))])
        except Exception as exc:  # any failure: see the docstring
            return [f"the data loads but random game {seed} fails: {type(exc).__name__}: {exc}"]
        if not state.is_over:
            return [f"random game {seed} does not end within {SMOKE_STEPS} actions"]
        winners += bool(state.winners)
    if not winners and games.descriptor(game.name).random_play_wins:
        return [f"none of {SMOKE_GAMES} random games ended with a winner (all drawn): can this "
                "data finish a game?"]
    return []


def _verified(folder: Path) -> tuple[Pack | None, Game | None, list[str]]:
    """The pack, its game (None unless it has no problem) and every problem found: its own
    files first; then each file merged over the built-in data alone, so that each file's
    first problem is found; then the whole pack, the game's own checks of it (playability
    included: a game no one could win is refused), and random games played on it. The one
    check that `data check`, `--data` and `serve --data-dir` all run."""
    pack, found = _read(folder)
    if pack is None:
        return None, None, found
    for file, data in pack.files.items():
        try:
            _build(pack.game, {file: data}, folder, pack.whole)
        except DataFileError as exc:
            found.append(str(exc))
    if found:
        return pack, None, found
    try:
        game = _build(pack.game, pack.files, folder, pack.whole)
    except DataFileError as exc:
        return pack, None, [str(exc)]
    found = _smoke(game)
    if found:
        return pack, None, found
    game.data = pack.data
    return pack, game, []


def problems(folder: str | Path) -> list[str]:
    """Every problem of a pack (empty when it is good): see `_verified`."""
    return _verified(Path(folder))[2]


def read(folder: str | Path) -> Pack:
    """A pack's files, read but not built (for its name, game and hash)."""
    pack, found = _read(Path(folder))
    if found or pack is None:
        raise PackError(f"data pack {folder} cannot be used:\n  " + "\n  ".join(found))
    return pack


def load_game(folder: str | Path, game: str | None = None) -> Game:
    """The game a pack describes, once it passes every check `problems` makes: a Game of its
    own whose `data` names the pack. `game`, when given, must be the pack's game."""
    pack, built, found = _verified(Path(folder))
    if pack is not None and game is not None and game != pack.game:
        raise PackError(f"data pack {folder} is for {pack.game}, not {game}")
    if built is None:
        raise PackError(f"data pack {folder} cannot be used:\n  " + "\n  ".join(found))
    return built


def game_for(name: str, folder: str | Path | None) -> Game:
    """The game `name` on a pack's data, or on the built-in data when no folder is given."""
    return games.get(name) if folder is None else load_game(folder, name)


# -- export and diff -----------------------------------------------------------------------


def export(game: str, folder: str | Path, name: str | None = None) -> list[Path]:
    """Write the game's complete current data as an editable pack (the built-in files as
    they are, comments and provenance included, and a pack.toml)."""
    if game not in games.names():
        raise PackError(games.unknown(game))
    folder = Path(folder)
    if folder.exists() and any(folder.iterdir()):
        raise PackError(f"{folder} is not empty; export writes into a new or empty folder")
    folder.mkdir(parents=True, exist_ok=True)
    meta = {"name": name or f"my-{game}", "game": game, "version": "1", "author": "",
            "description": f"My own {games.get(game).title} data (exported from matanui)."}
    written = [folder / PACK_FILE]
    written[0].write_text(
        "# Change name, author and description; keep game. Each entry of the data files below\n"
        "# replaces ours with the same identity (docs/data.md); delete the ones you keep as\n"
        "# they are. To remove entries (a smaller deck), name the file in `whole`: it then\n"
        '# replaces ours whole, e.g. whole = ["actions.toml"].\n' + tomli_w.dumps(meta),
        encoding="utf-8")
    for file in _layout(game):
        shutil.copyfile(builtin_folder(game) / file, folder / file)
        written.append(folder / file)
    return written


def diff(folder: str | Path) -> list[str]:
    """One line per entry the pack changes, adds or (in a file it replaces whole) removes
    against the built-in data, with each field that differs."""
    pack = read(folder)
    lines = []
    for file, overrides in pack.files.items():
        base = builtin(pack.game, file)
        if file in pack.whole:
            lines += _removed(pack.game, file, base, overrides)
        for table, value in overrides.items():
            key = _layout(pack.game)[file][table]
            if key is None:
                pairs = [(table, base.get(table), value)]
            else:
                old = {entry.get(key): entry for entry in base.get(table, [])}
                pairs = [(f"{table} {key} = {e[key]!r}", old.get(e[key]), e) for e in value]
            for label, before, after in pairs:
                if before is None:
                    lines.append(f"{file}: {label}: added")
                elif before != after:
                    changed = _changed_fields(before, after)
                    lines.append(f"{file}: {label}: " + "; ".join(changed))
    return lines


def _removed(game: str, file: str, base: dict[str, Any], overrides: dict[str, Any]) -> list[str]:
    lines = []
    for table, key in _layout(game)[file].items():
        if table not in base:
            continue
        if key is None or table not in overrides:
            if table not in overrides:
                lines.append(f"{file}: {table}: removed")
            continue
        kept = {entry[key] for entry in overrides[table]}
        lines += [f"{file}: {table} {key} = {entry.get(key)!r}: removed"
                  for entry in base[table] if entry.get(key) not in kept]
    return lines


def _changed_fields(before: Any, after: Any) -> list[str]:
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return [f"{before!r} -> {after!r}"]
    return [f"{field} {before.get(field, '(none)')!r} -> {after.get(field, '(none)')!r}"
            for field in dict.fromkeys([*before, *after]) if before.get(field) != after.get(field)]


# -- the library of packs a server offers --------------------------------------------------

# The folder of packs this process offers; spawned worker processes read it from the
# environment they inherit, so that a bot or a replay finds the pack a record names.
LIBRARY_ENV = "MATANUI_DATA_DIR"
_library: dict[tuple[str, str], Game] = {}  # (game, pack hash) -> the game on that pack
_library_folder: str | None = None


def install_library(folder: str | Path | None) -> list[str]:
    """Offer every good pack in the subfolders of `folder` (None: none); returns the problems
    of the packs that are not offered, one line each, for the server to print."""
    global _library_folder
    _library.clear()
    _library_folder = None if folder is None else str(Path(folder).resolve())
    if _library_folder is None:
        os.environ.pop(LIBRARY_ENV, None)
        return []
    os.environ[LIBRARY_ENV] = _library_folder
    skipped = []
    for sub in sorted(p for p in Path(_library_folder).iterdir() if p.is_dir()):
        _, game, found = _verified(sub)
        if game is None:
            skipped.append(printable(f"{sub.name}: not offered: " + "; ".join(found)))
            continue
        _library[(game.name, pack_of(game)["hash"])] = game
    return skipped


def pack_of(game: Game) -> Mapping[str, str]:
    """The name and hash of the pack a game of the library is on (every one is on a pack)."""
    if game.data is None:
        raise PackError(f"{game.name} is on the built-in data, not a pack")
    return game.data


def library(game: str) -> list[Game]:
    """The packs offered for `game`, by name."""
    _follow_environment()
    return sorted((g for (name, _), g in _library.items() if name == game),
                  key=lambda g: pack_of(g)["name"])


def find(game: str, data: Mapping[str, str] | None) -> Game:
    """The game on the pack a record names ({"name", "hash"}; None: the built-in data)."""
    if not data:
        return games.get(game)
    _follow_environment()
    found = _library.get((game, data.get("hash", "")))
    if found is None:
        raise RecordError(f'the game was played with data pack "{data.get("name")}" (hash '
                        f'{data.get("hash")}), which is not offered here; give that pack\'s folder '
                        "with --data (or put it in the --data-dir of `matanui serve`)")
    return found


def _follow_environment() -> None:
    """In a worker process: load the library its server offers, once."""
    folder = os.environ.get(LIBRARY_ENV)
    if folder and folder != _library_folder:
        install_library(folder)


def offered(game: str, data_hash: str | None) -> Game:
    """The game on the offered pack with this hash (None: the built-in data)."""
    if data_hash is None:
        return games.get(game)
    _follow_environment()
    found = _library.get((game, data_hash))
    if found is None:
        names = ", ".join(f'"{pack_of(g)["name"]}" ({pack_of(g)["hash"]})' for g in library(game)) or "none"
        raise PackError(f"no data pack with hash {shortened(data_hash)} is offered for {game}; "
                        f"offered: {names}")
    return found
