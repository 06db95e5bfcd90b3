"""The accounts table: who may sign in (server/accounts.py signs them in; ratings and seats
refer to an account by its `id`, never by its name, which is shown but may be re-cased).

Beside it, what every part may ask of an account without the database: `Account`, and the
names of the accounts this process has met (`remember`, `name_of`), so that a seat list can
show who holds a seat without a query per seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Column, Float, String, Table, Text

from .storage import metadata

users_table = Table(
    "users",
    metadata,
    Column("id", String(32), primary_key=True),  # random, never shown
    Column("name", String(32), nullable=False),  # as its holder typed it
    Column("name_key", String(32), nullable=False, unique=True),  # PRECIS-mapped: one "Tahu" only
    # Its UTS #39 skeleton (names.py): no new name looks like it. NULL in older databases until
    # the start fills it in (accounts.remember_names).
    Column("name_skeleton", String(128), nullable=True, unique=True),
    Column("password_hash", Text, nullable=False),  # argon2id, with its parameters
    Column("created", Float, nullable=False),
    Column("password_changed", Float, nullable=False),
    # A hash of the address it was created from (accounts.address_mark): accounts made from one
    # address do not rate each other (ratings.py). NULL: made by an older matanui.
    Column("created_from", String(64), nullable=True),
)


@dataclass(frozen=True)
class Account:
    """A signed-in account: its id (what seats and ratings store) and its user name (shown)."""

    id: str
    name: str


_names: dict[str, str] = {}  # account id -> user name, of the accounts this process has met


def remember(account_id: str, name: str) -> None:
    _names[account_id] = name


def name_of(account_id: str | None) -> str | None:
    """The user name of an account this process has met (None: anonymous, or not met yet)."""
    return None if account_id is None else _names.get(account_id)
