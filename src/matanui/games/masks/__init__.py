"""Quest for the Masks (Upper Deck, 2001): two Toa race across Mata Nui for six Great Masks."""

from ..descriptor import Descriptor
from .book import picture_book
from .rules import MasksGame, MasksState, load_game

GAME = load_game()
DESCRIPTOR = Descriptor(
    layout={"toa.toml": {"toa": "id", "mask": "id", "mask_card": "number", "turaga_card": "number",
                         "theme_deck": "number"},
            "cards.toml": {"challenge": "number", "mission": "number", "action": "number"},
            "maps.toml": {"legend": "symbol", "side": "id", "island": "id"}},
    load=lambda folder: load_game(folder, folder / "maps.toml"),
    render=f"{__name__}.render", picture_book=picture_book, view="masks",
    heuristics="matanui.ai.heuristics.masks", encoding="matanui.envs.encodings.masks",
    batched="matanui.batch.masks:BatchedMasks")

__all__ = ["DESCRIPTOR", "GAME", "MasksGame", "MasksState", "load_game"]
