"""Tournaments, ratings and batch simulation of agents against each other."""

from .match import MatchResult, play_match

__all__ = ["MatchResult", "play_match"]
