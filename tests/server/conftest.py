"""The real app under test: a FastAPI TestClient over a fresh SQLite file."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from matanui.server import create_app
from matanui.server.quotas import Limits

from .helpers import TEST_HOSTS, postgres_url

# The shared test app creates many games from one address; tests of the limits make their own.
ROOMY = Limits(games_per_minute=10_000, bot_games_per_client=1_000, bot_games=1_000,
               messages_per_second=10_000, hellos_per_minute=10_000, accounts_per_hour=10_000)
# Scripted clients answer at once: a response window as short as that keeps their games quick,
# counted from the action that opened it (they never say they drew it: no wait for a drawing).
WINDOW = 0.05
NO_DRAW_WAIT = 0.0
QUICK_WINDOWS = {"response_window": WINDOW, "draw_grace": NO_DRAW_WAIT}  # create_app's arguments


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app per test module (its bot worker process starts once)."""
    database = tmp_path_factory.mktemp("db") / "matanui.db"
    app = create_app(f"sqlite:///{database}", allowed_hosts=TEST_HOSTS, limits=ROOMY, **QUICK_WINDOWS)
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def postgres() -> Iterator[tuple[TestClient, TestClient]]:
    """Two instances on the PostgreSQL that MATANUI_TEST_POSTGRES names (skipped without one)."""
    url = postgres_url()
    limits = Limits(**{**vars(ROOMY), "gone_after": 1.0})
    with TestClient(create_app(url, allowed_hosts=TEST_HOSTS, limits=limits)) as a, \
            TestClient(create_app(url, allowed_hosts=TEST_HOSTS, limits=limits)) as b:
        yield a, b
