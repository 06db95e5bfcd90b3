"""Naming the rulebook rules a test checks: `@rule("RECON-WIN")`.

tests/test_ledger.py reads these names (from the source, not by running the tests) and fails
when a row of docs/rules/<game>.md has no test that names it, or a test names an unknown id.
"""

import pytest


def rule(*ids: str):
    return pytest.mark.rule(*ids)
