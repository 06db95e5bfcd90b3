"""Bit sets as ints inside numba kernels (hands, piles and parts held as bitmasks)."""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def popcount(bits: int) -> int:
    """How many bits are set."""
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


@njit(cache=True, inline="always")
def lowest(bits: int) -> int:
    """The index of the lowest set bit (bits > 0)."""
    index = 0
    while not (bits >> index) & 1:
        index += 1
    return index
