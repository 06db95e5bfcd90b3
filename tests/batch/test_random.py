"""batch.random reproduces Python's random.Random bit for bit."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matanui.batch import random as mt
from matanui.engine.errors import MatanuiError

SEEDS = [0, 1, 2, 42, -7, 2**32 - 1, 2**32, 2**32 + 5, 2**63 - 1, 2**63, 123456789012345]


@pytest.mark.parametrize("seed", SEEDS)
def test_seeding_from_an_int_gives_python_state(seed):
    assert list(mt.new_state(seed)) == list(random.Random(seed).getstate()[1])


@pytest.mark.parametrize("seed", SEEDS)
def test_getrandbits_sequences_equal_python(seed):
    ref, state = random.Random(seed), mt.new_state(seed)
    for k in [32, 1, 5, 0, 17, 31] * 200:  # past one twist of 624 words
        assert mt.getrandbits(state, k) == ref.getrandbits(k)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**63), length=st.integers(0, 40), k=st.integers(0, 40),
       bound=st.integers(1, 2**32 - 1))
def test_shuffle_sample_randrange_equal_python(seed, length, k, bound):
    ref, state = random.Random(seed), mt.new_state(seed)
    values = list(range(length))
    ref.shuffle(values)
    mine = np.arange(length)
    mt.shuffle(state, mine, length)
    assert list(mine) == values
    k = min(k, length)
    out = np.zeros(max(k, 1), np.int64)
    mt.sample_indices(state, length, k, out)
    assert list(out[:k]) == ref.sample(range(length), k)
    assert mt.randrange(state, 0, bound) == ref.randrange(bound)
    assert mt.randrange(state, 3, 3 + bound) == ref.randrange(3, 3 + bound)


def test_a_large_sample_uses_pythons_set_method():
    ref, state = random.Random(9), mt.new_state(9)
    out = np.zeros(3, np.int64)
    mt.sample_indices(state, 1000, 3, out)
    assert list(out) == ref.sample(range(1000), 3)


def test_a_state_loads_from_getstate_mid_stream():
    ref = random.Random(5)
    for _ in range(700):
        ref.getrandbits(32)
    state = mt.from_python(ref.getstate())
    assert [mt.getrandbits(state, 32) for _ in range(1000)] == [ref.getrandbits(32) for _ in range(1000)]


def test_a_foreign_state_is_refused_clearly():
    with pytest.raises(MatanuiError, match="getstate"):
        mt.from_python((2, (1, 2), None))


@given(st.integers(0, 2**63 - 1))
@settings(max_examples=40, deadline=None)
def test_seeding_inside_numba_equals_python_for_every_int64(seed):
    state = np.zeros(mt.STATE_WORDS, np.uint32)
    mt.seed(state, seed)
    assert list(state) == list(random.Random(seed).getstate()[1])


def test_twisting_early_changes_no_draw():
    state, ref = mt.new_state(77), random.Random(77)
    mt.twist_if_due(state)
    assert [mt.getrandbits(state, 32) for _ in range(700)] == [ref.getrandbits(32) for _ in range(700)]
