"""Adventure Game: Quest for Makuta (Rose Art / Jumbo, 2001): 2-6 Toa explore Mata Nui and
challenge Makuta."""

from .rules import MakutaGame, MakutaState, load_game

GAME = load_game()

__all__ = ["GAME", "MakutaGame", "MakutaState", "load_game"]
