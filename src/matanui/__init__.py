"""matanui: a digital tabletop for three BIONICLE games of 2001-2002."""

__version__ = "0.1.0"

# The game registry installs itself as the kernel's way to find a record's game (the kernel
# itself imports no game). It loads no game until one is asked for.
from matanui import games as _games  # noqa: F401
