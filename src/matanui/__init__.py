"""matanui: a digital tabletop for three BIONICLE games of 2001-2002."""

__version__ = "0.1.0"
