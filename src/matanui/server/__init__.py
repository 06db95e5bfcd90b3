"""The web service: lobby, seats, play over WebSocket, persistence, bots (see docs/protocol.md)."""

from .app import create_app

__all__ = ["create_app"]
