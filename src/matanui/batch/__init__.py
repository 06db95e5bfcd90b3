"""Batched games: many games of one kind stepped at once as numba kernels over arrays,
checked move for move against the reference engine (matanui.batch.check)."""
