"""What the rest of matanui needs of a game package beside its rules, in one place: each
game's `__init__.py` defines `DESCRIPTOR` beside `GAME` (docs/architecture.md, "Adding a
game"), and the data packs, the service's catalog and the browser read it from there."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matanui.engine import Game


@dataclass(frozen=True)
class Descriptor:
    """`layout`: each data file, each of its tables, and the field that names a table's entry
    (None: a data pack replaces the table whole). `load`: the game on a folder holding every
    one of its data files. `picture_book`: the printed components its board view draws,
    as JSON-safe data (None: none). `view`: the browser's board view,
    web/js/views/<view>.js ("plain" lists the observation and the legal actions).
    `render`, `heuristics`, `encoding`: the modules of its terminal drawing, its sensible
    player (matanui.ai.heuristics) and its research encoding (matanui.envs.encodings), by
    name, since games/ imports neither ai/ nor envs/ (None: it has none). `batched`: its
    batched numba engine (matanui.batch) as "module:class", by name too (None: none).
    `random_play_wins`: random play on its built-in data always finds a winner, so a data
    pack on which none of the random games of its check is won cannot finish a game and is
    refused (games/packs.py); False where random games are often drawn by a turn limit."""

    layout: Mapping[str, Mapping[str, str | None]]
    load: Callable[[Path], Game]
    render: str
    picture_book: Callable[[Any], dict[str, Any]] | None = None
    view: str = "plain"
    heuristics: str | None = None
    encoding: str | None = None
    batched: str | None = None
    random_play_wins: bool = False
