"""Toa Nuva Reconstruct Trading Card Game (Upper Deck, 2002): 2 players build a Toa Nuva."""

from ..descriptor import Descriptor
from .book import picture_book
from .rules import ReconstructGame, ReconstructState, load_game

GAME = load_game()
DESCRIPTOR = Descriptor(
    layout={"toa.toml": {"part": "id", "toa": "id"}, "actions.toml": {"deck": None, "card": "id"}},
    load=lambda folder: load_game(folder / "actions.toml", folder / "toa.toml"),
    render=f"{__name__}.render", picture_book=picture_book, view="reconstruct",
    heuristics="matanui.ai.heuristics.reconstruct", encoding="matanui.envs.encodings.reconstruct",
    batched="matanui.batch.reconstruct:BatchedReconstruct",
    random_play_wins=True)  # random games on our data are won; a deck short of a part's add card's are not

__all__ = ["DESCRIPTOR", "GAME", "ReconstructGame", "ReconstructState", "load_game"]
