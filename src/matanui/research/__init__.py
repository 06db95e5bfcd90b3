"""Research tools that need the `research` extra (OpenSpiel): exploitability of policies on
the games' small variants (`python -m matanui.research.exploit`, docs/research.md)."""
