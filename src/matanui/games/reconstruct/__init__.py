"""Toa Nuva Reconstruct Trading Card Game (Upper Deck, 2002): 2 players build a Toa Nuva."""

from .rules import ReconstructGame, ReconstructState, load_game

GAME = load_game()

__all__ = ["GAME", "ReconstructGame", "ReconstructState", "load_game"]
