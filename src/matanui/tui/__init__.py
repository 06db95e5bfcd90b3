"""The full-screen terminal game (Textual): `matanui play`, `tutorial` and `replay` when
stdin and stdout are terminals and `--plain` is not given.

Like the line mode it applies no rule itself: the engine decides what is legal, the games'
render modules draw (through `drawing.drawing`), and the game is set up, resumed and saved by
`matanui.terminal` (the same checks and the same save file as the line mode)."""
