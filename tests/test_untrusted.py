"""Showing values from outside (engine/untrusted.py): seen, never obeyed; quoted shortly."""

from hypothesis import given, settings
from hypothesis import strategies as st

from matanui.engine.untrusted import hidden, json_text_nests_deeper_than, printable, shortened


def test_every_kind_of_terminal_control_is_written_as_its_escape():
    assert printable("a\x1b[2Jb\rc\x07d\x9be\u202ef\u2066g\u200bh\u2028i\ud800j") == \
        "a\\x1b[2Jb\\x0dc\\x07d\\x9be\\u202ef\\u2066g\\u200bh\\u2028i\\ud800j"


def test_ordinary_text_in_any_script_is_left_as_it_is():
    for text in ("Tahu Nuva", "Kopaka • Pōhatu", "Ana [bold]", "タフ", "Gali 🌊", "a b"):
        assert printable(text) == text


def test_line_breaks_may_be_kept_for_a_message_of_several_lines():
    assert printable("one\ntwo\x1b", keep="\n") == "one\ntwo\\x1b"


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_nothing_hidden_survives_and_nothing_else_changes(text):
    shown = printable(text)
    assert not any(hidden(char) for char in shown)
    if not any(hidden(char) for char in text):
        assert shown == text


def test_a_long_value_is_quoted_by_its_start_and_length():
    assert shortened("x" * 1_000_000) == repr("x" * 60) + "… (1,000,000 characters)"
    assert shortened("pass") == "'pass'"


def test_json_text_depth_counts_brackets_outside_strings_only():
    assert not json_text_nests_deeper_than('{"a": "[[[[[[[[\\"{{{{{{"}', 2)
    assert json_text_nests_deeper_than('{"a": [[[1]]]}', 3)
    assert not json_text_nests_deeper_than('{"a": [[[1]]]}', 4)
    assert json_text_nests_deeper_than("[" * 100_000, 4)  # no recursion, whatever the depth
