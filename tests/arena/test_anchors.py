"""The bots' anchor ratings are what the committed arena journals give (provenance)."""

from matanui import games
from matanui.arena import anchors


def test_the_committed_anchors_are_what_the_journals_give():
    assert anchors.anchors() == anchors.measure()


def test_every_game_has_its_bots_anchored_with_medium_at_1500():
    for name in games.names():
        levels = anchors.current(name)
        assert levels["medium"] == 1500.0
        assert levels["easy"] < levels["medium"] < levels["hard"]
