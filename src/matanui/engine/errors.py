"""The errors every layer raises. All derive from MatanuiError so callers can catch one type."""


class MatanuiError(Exception):
    """Base of every error matanui raises on purpose; the message says what is wrong and
    what is allowed."""


class IllegalAction(MatanuiError):
    """An action that is not legal in the current state. The state is left unchanged."""


class BadSeat(MatanuiError):
    """A seat that is not one of the game's (observation, determinize): says which are."""


class BadSetup(MatanuiError):
    """Bad players, options or arrangement given to a game at creation."""


class DataFileError(MatanuiError):
    """A data file (cards, maps, tokens) that does not validate; names the entry and field."""


class RecordError(MatanuiError):
    """A malformed game record, or one that does not replay."""


class UnknownGame(MatanuiError):
    """A game name that is not registered."""
