"""Adventure Game: Quest for Makuta (Rose Art / Jumbo, 2001): 2-6 Toa explore Mata Nui and
challenge Makuta."""

from ..descriptor import Descriptor
from .book import picture_book
from .rules import MakutaGame, MakutaState, load_game

GAME = load_game()
DESCRIPTOR = Descriptor(
    layout={"components.toml": {"contents": None, "rules": None, "temple": None, "toa": "id", "die": "id",
                                "segment": "colour"},
            "tokens.toml": {"kanohi": "id", "turaga": "id", "key": "id", "rahi": "id", "lock": None},
            "boards.toml": {"board": "id"}},
    load=lambda folder: load_game(folder / "components.toml", folder / "tokens.toml", folder / "boards.toml"),
    render=f"{__name__}.render", picture_book=picture_book, view="makuta",
    heuristics="matanui.ai.heuristics.makuta", encoding="matanui.envs.encodings.makuta")

__all__ = ["DESCRIPTOR", "GAME", "MakutaGame", "MakutaState", "load_game"]
