"""The game-agnostic kernel: the contract, records and replay, seeded randomness, errors.

It knows no game and imports nothing heavy.
"""

from .errors import (
    BadSeat,
    BadSetup,
    DataFileError,
    IllegalAction,
    MatanuiError,
    RecordError,
    UnknownGame,
)
from .events import Event
from .forfeits import ABORT, FORFEIT_KINDS, forfeit_action
from .record import Record, replay
from .state import Game, State

__all__ = [
    "ABORT",
    "FORFEIT_KINDS",
    "BadSeat",
    "BadSetup",
    "DataFileError",
    "Event",
    "Game",
    "IllegalAction",
    "MatanuiError",
    "Record",
    "RecordError",
    "State",
    "UnknownGame",
    "forfeit_action",
    "replay",
]
