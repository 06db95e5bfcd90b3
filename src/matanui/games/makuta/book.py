"""Quest for Makuta's picture book, as the browser's board view draws it (data only: no rule
is read or restated here)."""

from __future__ import annotations

from typing import Any


def picture_book(game: Any) -> dict[str, Any]:
    """Every board in its four turns: each space's squares and printed icon, in board-local
    x, y (the island's spaces are named by the first square plus the board's place); board
    names, and each token face's label (a face-up token is named by its view)."""
    return {
        "toa": {t: {"name": toa.name} for t, toa in game.parts.toa.items()},
        "board_names": {board_id: board.name for board_id, board in game.parts.boards.items()},
        "tokens": {token.view: token.label for token in game.parts.tokens},
        "boards": {board_id: [{"size": shape.board.size, "cells": [list(map(list, c)) for c in shape.cells],
                               "icons": list(shape.icons), "temple": [list(sq) for sq in shape.temple]}
                              for shape in shapes]
                   for board_id, shapes in game.shapes.items()},
    }
