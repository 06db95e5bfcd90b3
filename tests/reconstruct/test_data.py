"""The deck data file: validated on load, with clear errors naming the entry and field."""

from pathlib import Path

import pytest

from matanui.engine import DataFileError
from matanui.games.reconstruct import load_game
from matanui.games.reconstruct.cards import DATA

GOOD = (DATA / "actions.toml").read_text(encoding="utf-8")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deck.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_every_entry_has_provenance():
    game = load_game()
    assert {card.provenance for card in game.deck.cards.values()} <= {"printed", "reconstructed"}


def test_a_users_own_deck_file_is_loaded_over_ours(tmp_path):
    text = GOOD.replace('kind = "stop"\ncolour = "purple"', 'kind = "stop"\ncolour = "red"', 1)
    game = load_game(write(tmp_path, text))
    assert sum(c.colour == "red" for c in game.deck.cards.values()) == 9


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('kind = "add"', 'kind = "build"', 1), r"card\[1\]\.kind is 'build'; allowed: add, remove, stop"),
        (('colour = "red"', 'colour = "pink"', 1), r"card\[1\]\.colour is 'pink'; allowed: red"),
        (('"left-leg", "right-leg", "tool"', '"left-leg", "elbow"', 1), r"card\[1\]\.parts has 'elbow'"),
        (('provenance = "reconstructed"', 'provenance = "guessed"', 1),
         r"card\[1\]\.provenance is 'guessed'"),
        (("id = 2\n", "id = 1\n", 1), r"card\[2\]\.id repeats 1"),
        (("size = 36", "size = 35", 1), r"deck.size says 35 cards but 36"),
        (('kind = "add"', 'kind = "add"\nshape = "round"', 1), r"card\[1\]\.shape is not a known field"),
        (("[deck]", "[deck", 1), "is not valid TOML"),
    ],
)
def test_a_bad_deck_file_names_the_entry_and_the_field(tmp_path, change, message):
    old, new, count = change
    with pytest.raises(DataFileError, match=message):
        load_game(write(tmp_path, GOOD.replace(old, new, count)))
