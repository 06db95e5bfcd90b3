"""docs/research.md's table of encoding sizes is the one the encodings give (it had drifted:
Makuta's actions and observation floats, Masks' observation floats)."""

from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the encodings need the 'research' extra")

from matanui.envs.sizes import size_table

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def test_the_documented_sizes_are_the_encodings_sizes():
    assert size_table() in DOC.read_text(encoding="utf-8"), (
        "docs/research.md's size table differs from the encodings: paste in the output of "
        "`python -m matanui.envs.sizes`")
