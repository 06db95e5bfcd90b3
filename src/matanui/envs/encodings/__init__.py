"""One encoding per game (see matanui.envs.encoding): a module named after the game that
defines ENCODING, an Encoding subclass."""
