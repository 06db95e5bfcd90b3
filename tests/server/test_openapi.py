"""The OpenAPI document tells the truth: schemathesis generates requests from it (valid and
invalid ones) and checks every answer against it with all of its checks: declared statuses
and bodies, valid requests accepted, invalid ones refused, no 5xx, honest 405s."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, settings

from matanui.server import create_app
from matanui.server.quotas import Limits

from .helpers import TEST_HOSTS

# Generated requests create many games from one address: no limit of the service is reached
# (a 429 is declared, but it would hide what the operation answers).
UNLIMITED = Limits(games_per_minute=100_000, bot_games_per_client=100_000, bot_games=100_000)
EXAMPLES = 30  # per operation: a few hundred requests over the whole API


def service(database: str) -> FastAPI:
    return create_app(database, allowed_hosts=TEST_HOSTS, limits=UNLIMITED)


# The document does not depend on the database: it is read from an app that never starts.
schema = schemathesis.openapi.from_dict(service("sqlite://").openapi())


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    """The app the requests reach (schemathesis runs its lifespan), over a fresh SQLite file."""
    yield service(f"sqlite:///{tmp_path_factory.mktemp('db') / 'matanui.db'}")


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_answer_is_the_one_the_document_promises(case, app):
    case.call_and_validate(app=app)
