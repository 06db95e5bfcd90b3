"""The accounts table: who may sign in (server/accounts.py signs them in; ratings and seats
refer to an account by its `id`, never by its name, which is shown but may be re-cased)."""

from __future__ import annotations

from sqlalchemy import Column, Float, String, Table, Text

from .storage import metadata

users_table = Table(
    "users",
    metadata,
    Column("id", String(32), primary_key=True),  # random, never shown
    Column("name", String(32), nullable=False),  # as its holder typed it
    Column("name_key", String(32), nullable=False, unique=True),  # casefolded: one "Tahu" only
    Column("password_hash", Text, nullable=False),  # argon2id, with its parameters
    Column("created", Float, nullable=False),
    Column("password_changed", Float, nullable=False),
)
