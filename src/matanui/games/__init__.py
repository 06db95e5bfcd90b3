"""The game registry: `get(name)`, `names()`, each game's `descriptor(name)` and what is
found through it (`renderer`, `data_folder`), and the one message for a name nobody knows
(`unknown`, `require`). Games are imported only when asked for."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType

from matanui.engine import Game, UnknownGame
from matanui.engine.record import set_game_finder
from matanui.engine.untrusted import shortened

from .descriptor import Descriptor

# name -> the package that defines GAME and DESCRIPTOR. A new game adds one line here.
_MODULES: dict[str, str] = {
    "reconstruct": "matanui.games.reconstruct",
    "masks": "matanui.games.masks",
    "makuta": "matanui.games.makuta",
}
_loaded: dict[str, Game] = {}


def names() -> list[str]:
    return list(_MODULES)


def unknown(name: str) -> str:
    """What every interface says of a game name it does not know."""
    return f"no game named {shortened(name)}; the games are: {', '.join(_MODULES)}"


def require(name: str) -> None:
    """UnknownGame, saying which games there are, unless `name` is one."""
    if name not in _MODULES:
        raise UnknownGame(unknown(name))


def get(name: str) -> Game:
    game = _loaded.get(name)
    if game is None:
        require(name)
        game = _loaded[name] = importlib.import_module(_MODULES[name]).GAME
    return game


def descriptor(name: str) -> Descriptor:
    """The game's descriptor, its package's DESCRIPTOR (games/descriptor.py)."""
    get(name)
    return importlib.import_module(_MODULES[name]).DESCRIPTOR


def data_folder(name: str) -> Path:
    """The folder of the game's built-in data files: `data/` in its package."""
    require(name)
    spec = importlib.util.find_spec(_MODULES[name])
    assert spec is not None and spec.submodule_search_locations, f"{_MODULES[name]} is a package"
    return Path(next(iter(spec.submodule_search_locations))) / "data"


def renderer(name: str) -> ModuleType:
    """The game's terminal drawing, its descriptor's `render` module (`render`, `regions`,
    `targets`, `preview`)."""
    return importlib.import_module(descriptor(name).render)


def _find(name: str, data: dict[str, str] | None) -> Game:
    """A record's game: built in, or on a data pack this process offers (games/packs.py)."""
    if not data:
        return get(name)
    from matanui.games.packs import find

    return find(name, data)


set_game_finder(_find)
