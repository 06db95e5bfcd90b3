"""The audit every game makes of its pieces (engine/audit.py): each in one place, none lost."""

import pytest

from matanui.engine.audit import one_place


def test_one_place_says_where_each_thing_is():
    where = one_place("card", [("draw", [1, 2]), ("hand", [3])], {1, 2, 3})
    assert where == {1: "draw", 2: "draw", 3: "hand"}


def test_a_thing_in_two_places_is_named_with_both():
    with pytest.raises(AssertionError, match="card 2 is both in draw and hand"):
        one_place("card", [("draw", [1, 2]), ("hand", [2])])


def test_a_lost_thing_and_one_that_does_not_belong_are_named():
    with pytest.raises(AssertionError, match=r"tokens lost: \[3\]; tokens that do not belong: \[9\]"):
        one_place("token", [("bag", [1, 2, 9])], {1, 2, 3})
