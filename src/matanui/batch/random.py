"""Python's Mersenne Twister (`random.Random`) inside numba, bit for bit.

A generator is a uint32 array of 625 words: the 624 words of MT19937's state, then the
index of the next word (as `random.Random.getstate()` holds them). Batched engines keep one
row per game, so a game reset with seed s draws exactly what `random.Random(s)` would:
the same deals, shuffles, samples and randranges as the reference engine.

What is reproduced (CPython 3.11's `_randommodule.c` and `random.py`):
  seeding from an int        init_by_array over the 32-bit words of abs(seed), low first
  getrandbits(k), k <= 32    the top k bits of one 32-bit output
  _randbelow(n)              getrandbits(n.bit_length()) until below n
  shuffle, sample, randrange as `random.py` builds them on _randbelow
"""

from __future__ import annotations

import numpy as np
from numba import njit

from matanui.engine.errors import MatanuiError

N, M = 624, 397
STATE_WORDS = N + 1  # the state, then the index
MATRIX_A = np.uint32(0x9908B0DF)
UPPER, LOWER = np.uint32(0x80000000), np.uint32(0x7FFFFFFF)


def seed_words(seed: int) -> np.ndarray:
    """The init_by_array key Python derives from an int seed: abs(seed)'s 32-bit words."""
    value = abs(int(seed))
    words = []
    while value:
        words.append(value & 0xFFFFFFFF)
        value >>= 32
    return np.array(words or [0], np.uint32)


@njit(cache=True)
def _init_genrand(state: np.ndarray, s: np.uint32) -> None:
    state[0] = s
    for i in range(1, N):
        prev = np.uint32(state[i - 1])
        state[i] = np.uint32(np.uint32(1812433253) * (prev ^ (prev >> np.uint32(30))) + np.uint32(i))
    state[N] = N


@njit(cache=True)
def init_by_array(state: np.ndarray, key: np.ndarray) -> None:
    """Seed `state` (625 words) from `key` as CPython's init_by_array does."""
    _init_genrand(state, np.uint32(19650218))
    i, j = 1, 0
    length = key.shape[0]
    for _ in range(max(N, length)):
        prev = np.uint32(state[i - 1])
        mixed = np.uint32((prev ^ (prev >> np.uint32(30))) * np.uint32(1664525))
        state[i] = np.uint32((np.uint32(state[i]) ^ mixed) + np.uint32(key[j]) + np.uint32(j))
        i += 1
        j += 1
        if i >= N:
            state[0] = state[N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(N - 1):
        prev = np.uint32(state[i - 1])
        mixed = np.uint32((prev ^ (prev >> np.uint32(30))) * np.uint32(1566083941))
        state[i] = np.uint32((np.uint32(state[i]) ^ mixed) - np.uint32(i))
        i += 1
        if i >= N:
            state[0] = state[N - 1]
            i = 1
    state[0] = np.uint32(0x80000000)
    state[N] = N


@njit(cache=True)
def seed(state: np.ndarray, value: int) -> None:
    """Seed `state` as random.Random(value) does, for 0 <= value < 2**63 (inside numba)."""
    words = 1 if value < 4294967296 else 2
    key = np.empty(words, np.uint32)
    key[0] = np.uint32(value & 0xFFFFFFFF)
    if words == 2:
        key[1] = np.uint32(value >> 32)
    init_by_array(state, key)


@njit(cache=True)
def _twist(state: np.ndarray) -> None:
    """The next 624 words, in place, in CPython's three loops (no modulo in the hot path)."""
    for k in range(N - M):
        state[k] = _mixed(state[k + M], state[k], state[k + 1])
    for k in range(N - M, N - 1):
        state[k] = _mixed(state[k + M - N], state[k], state[k + 1])
    state[N - 1] = _mixed(state[M - 1], state[N - 1], state[0])
    state[N] = 0


@njit(cache=True, inline="always")
def _mixed(far: np.uint32, here: np.uint32, after: np.uint32) -> np.uint32:
    y = (np.uint32(here) & UPPER) | (np.uint32(after) & LOWER)
    value = np.uint32(far) ^ (y >> np.uint32(1))
    if y & np.uint32(1):
        value ^= MATRIX_A
    return value


@njit(cache=True)
def twist_if_due(state: np.ndarray) -> None:
    """Do now the twist the next draw would do (it changes no draw): a copy of the state
    made after it does not have to twist again."""
    if state[N] >= N:
        _twist(state)


@njit(cache=True)
def genrand_uint32(state: np.ndarray) -> np.uint32:
    if state[N] >= N:
        _twist(state)
    y = np.uint32(state[state[N]])
    state[N] += 1
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


@njit(cache=True)
def getrandbits(state: np.ndarray, k: int) -> int:
    """random.getrandbits(k) for 0 <= k <= 32."""
    if k == 0:
        return np.int64(0)
    return np.int64(genrand_uint32(state) >> np.uint32(32 - k))


@njit(cache=True)
def _bit_length(n: int) -> int:
    length = 0
    while n:
        n >>= 1
        length += 1
    return length


@njit(cache=True)
def randbelow(state: np.ndarray, n: int) -> int:
    """random.Random._randbelow(n) for 0 < n < 2**32."""
    k = _bit_length(n)
    r = getrandbits(state, k)
    while r >= n:
        r = getrandbits(state, k)
    return r


@njit(cache=True)
def randrange(state: np.ndarray, start: int, stop: int) -> int:
    """random.randrange(start, stop) (step 1, stop > start)."""
    return start + randbelow(state, stop - start)


@njit(cache=True)
def shuffle(state: np.ndarray, values: np.ndarray, length: int) -> None:
    """random.shuffle of values[:length], in place."""
    for i in range(length - 1, 0, -1):
        j = randbelow(state, i + 1)
        values[i], values[j] = values[j], values[i]


@njit(cache=True)
def _sample_setsize(k: int) -> int:
    setsize = 21
    if k > 5:
        power, size = 0, 1
        while size < k * 3:  # 4 ** ceil(log(3k, 4))
            size *= 4
            power += 1
        setsize += size
    return setsize


@njit(cache=True)
def sample_indices(state: np.ndarray, n: int, k: int, out: np.ndarray) -> None:
    """The population indices random.sample(range(n), k) picks, in order, into out[:k]."""
    if n <= _sample_setsize(k):
        pool = np.arange(n)
        for i in range(k):
            j = randbelow(state, n - i)
            out[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        selected = np.zeros(n, np.bool_)
        for i in range(k):
            j = randbelow(state, n)
            while selected[j]:
                j = randbelow(state, n)
            selected[j] = True
            out[i] = j


def new_state(seed: int) -> np.ndarray:
    """A generator equal to random.Random(seed)."""
    state = np.zeros(STATE_WORDS, np.uint32)
    init_by_array(state, seed_words(seed))
    return state


def from_python(generator_state: tuple) -> np.ndarray:
    """A generator from random.Random.getstate() (version 3)."""
    version, internal, _gauss = generator_state
    if version != 3 or len(internal) != STATE_WORDS:
        raise MatanuiError("expected random.Random.getstate() of version 3 (624 words and an index)")
    return np.array(internal, np.uint32)
