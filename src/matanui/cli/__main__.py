"""`python -m matanui.cli`: the same as the `matanui` command."""

from matanui.cli import main

main()
