"""Agents that see only what a seat may see."""

from .base import Agent, RandomAgent, SeatView
from .registry import agent_names, make_agent

__all__ = ["Agent", "RandomAgent", "SeatView", "agent_names", "make_agent"]
