"""The real app under test: a FastAPI TestClient over a fresh SQLite file."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from matanui.server import create_app

from .helpers import TEST_HOSTS


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app per test module (its bot worker process starts once)."""
    database = tmp_path_factory.mktemp("db") / "matanui.db"
    with TestClient(create_app(f"sqlite:///{database}", allowed_hosts=TEST_HOSTS)) as test_client:
        yield test_client
