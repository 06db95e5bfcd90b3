"""docs/research.md's tables of the encodings are the ones the encodings give: the sizes (they
had drifted: Makuta's actions and observation floats, Masks' observation floats) and every
observation and memory piece, each described in words."""

from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the encodings need the 'research' extra")

from matanui import games
from matanui.envs.encoding import encoding_for, encoding_variants, has_encoding
from matanui.envs.sizes import piece_tables, size_table

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def test_the_documented_sizes_are_the_encodings_sizes():
    assert size_table() in DOC.read_text(encoding="utf-8"), (
        "docs/research.md's size table differs from the encodings: paste in the output of "
        "`python -m matanui.envs.sizes`")


def test_the_size_table_has_a_row_for_makutas_compact_encoding():
    assert "| makuta | compact | 2 / 3 / 4 / 5 / 6 | 1,364 | 6,054 / " in size_table()


def test_the_documented_pieces_are_the_encodings_pieces():
    assert piece_tables() in DOC.read_text(encoding="utf-8"), (
        "docs/research.md's per-piece tables differ from the encodings: paste in the output of "
        "`python -m matanui.envs.sizes --pieces`")


@pytest.mark.parametrize("name", [n for n in games.names() if has_encoding(n)])
def test_every_piece_of_every_encoding_is_described_and_no_description_is_stale(name):
    for variant in encoding_variants(name):
        encoding = encoding_for(name, games.get(name).min_players, variant)
        pieces = [piece for layout in (encoding.observation_layout, encoding.memory_layout)
                  for piece, _, _ in layout.pieces]
        assert sorted(encoding.about) == sorted(pieces), (name, variant)
        assert all(encoding.about[piece].strip() for piece in pieces)
