"""`python -m tests.example_game.serve serve ...`: the matanui command line with Race to ten
registered (the one line of docs/architecture.md) before anything reads the registry, for
tests that need a real server process playing it (tests/browser/test_example_game.py)."""

from matanui import games

games._MODULES["race"] = "tests.example_game"

from matanui.cli import app  # noqa: E402  (after the registration, which the service reads)

if __name__ == "__main__":
    app()
