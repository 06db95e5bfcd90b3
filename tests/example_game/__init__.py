"""Race to ten: an example fourth game, everything docs/architecture.md's "Adding a game"
asks and nothing more (its rules, data with provenance, a terminal drawing, the key, the
lobby's introduction, and its descriptor). tests/test_example_game.py registers it with one
line and plays it through the contract and the interfaces."""

from matanui.games.descriptor import Descriptor

from .rules import RaceGame, RaceState, load_game

GAME = load_game()
RUNNERS = GAME.characters()
DESCRIPTOR = Descriptor(
    layout={"race.toml": {"race": None}},
    load=lambda folder: load_game(folder / "race.toml"),
    render=f"{__name__}.render")

__all__ = ["DESCRIPTOR", "GAME", "RUNNERS", "RaceGame", "RaceState", "load_game"]
