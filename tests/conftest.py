"""Fixtures every test folder may use."""

from __future__ import annotations

import pytest

from matanui import games


@pytest.fixture
def race(monkeypatch):
    """Race to ten (tests/example_game), the example fourth game, registered as
    docs/architecture.md says: one line in the registry."""
    monkeypatch.setitem(games._MODULES, "race", "tests.example_game")
    yield games.get("race")
    games._loaded.pop("race", None)
