"""Studies of the games and the agents, run by hand (`python -m matanui.studies.NAME` or
`matanui bench`): balance, ablation, fitted evaluations, search strength and engine speed.
They use the library; nothing in the library imports them."""
