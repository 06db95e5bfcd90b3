"""The line-by-line terminal (`matanui play --plain`, `matanui tutorial --plain`, and what the
full screen of matanui.tui plays through): answers read safely (answers.py), boards drawn
whole (boards.py), the game loop (game.py), its set-up and saves (session.py) and the
tutorial walked there (tutorial.py)."""
