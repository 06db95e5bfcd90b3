"""Quest for the Masks (Upper Deck, 2001): two Toa race across Mata Nui for six Great Masks."""

from .rules import MasksGame, MasksState, load_game

GAME = load_game()

__all__ = ["GAME", "MasksGame", "MasksState", "load_game"]
