"""Seeded random games replay exactly as recorded in tests/golden/ (see tests/golden.py)."""

import difflib

import pytest

from matanui import games
from tests.golden import SEEDS, golden_path, playthrough

CASES = [(name, seed) for name in games.names() for seed in SEEDS]


@pytest.mark.parametrize(("name", "seed"), CASES, ids=[f"{n}-{s}" for n, s in CASES])
def test_golden_playthrough_is_unchanged(name, seed):
    path = golden_path(name, seed)
    assert path.exists(), f"no golden file {path.name}: run `make golden` and review it"
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = playthrough(name, seed).splitlines()
    if actual != expected:
        diff = "\n".join(list(difflib.unified_diff(expected, actual, "golden", "now", lineterm=""))[:40])
        pytest.fail(f"{name} seed {seed} plays differently from its golden file:\n{diff}")
