"""Records: saved games rebuild exactly; malformed records get a clear error."""

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matanui import games
from matanui.engine import BadSetup, MatanuiError, Record, RecordError, replay


def finished_record():
    state = games.get("reconstruct").new_game(9, ["onua", "lewa"])
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    return state


def test_a_record_round_trips_through_a_file(tmp_path):
    state = finished_record()
    path = tmp_path / "game.json"
    state.record().save(path)
    again = replay(Record.load(path))
    assert again.observation(None) == state.observation(None)


def test_replay_can_stop_part_way():
    state = finished_record()
    halfway = replay(state.record(), upto=10)
    assert halfway.history == state.history[:10]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"game": "reconstruct"}', "has no 'rules_version' field"),
        ('{"game": "reconstruct", "rules_version": "1", "seed": "x", "players": [], "options": {}, '
         '"actions": []}', "'seed' must be an integer, not a string"),
        ('{"game": "chess", "rules_version": "1", "seed": 1, "players": [], "options": {}, '
         '"actions": []}', "no game named 'chess'"),
        ('{"game": "reconstruct", "rules_version": "0", "seed": 1, "players": ["tahu", "gali"], '
         '"options": {}, "actions": []}', "rules version 0"),
        ('{"game": "reconstruct", "rules_version": "1", "seed": 1, "players": ["tahu", "gali"], '
         '"options": {}, "actions": ["fly"]}', "action 1 of the record .'fly'. fails"),
        ('{"format": 9, "game": "reconstruct"}', "format 9 is not supported"),
        ('{"game": "reconstruct", "rules_version": "1", "seed": 1, "players": ["tahu", "gali"], '
         '"options": {}, "actions": [], "names": ["Ana"]}', "'names' must be null or a list"),
        ('{"game": "reconstruct", "rules_version": "1", "seed": 1, "players": ["tahu", "gali"], '
         '"options": {}, "actions": [], "names": "Ana"}', "'names' must be null or a list"),
        ('{"game": "reconstruct", "rules_version": "1", "seed": 1, "players": ["tahu", "gali"], '
         '"options": {}, "actions": [], "names": ["Ana", 7]}', "'names' must be null or a list"),
    ],
)
def test_a_malformed_record_says_what_is_wrong(text, message):
    with pytest.raises(Exception) as error:
        replay(Record.from_json(text))
    assert isinstance(error.value, (RecordError, games.UnknownGame))
    assert error.match(message)


def test_a_missing_record_file_is_a_clear_error(tmp_path):
    with pytest.raises(RecordError, match="cannot read record"):
        Record.load(tmp_path / "nope.json")


def test_display_names_travel_in_the_record_and_replay_tells_the_same_story():
    game = games.get("reconstruct")
    state = game.new_game(9, ["onua", "lewa"], names=["Ana", None])
    assert state.names == ("Ana", "Lewa Nuva")
    narration = [e.text for e in state.setup_events]
    assert narration[0].startswith("Ana (Onua Nuva) and Lewa Nuva each build their Toa Nuva.")
    for _ in range(6):
        narration += [e.text for e in state.apply(state.legal_actions()[0])]
    assert any(text.startswith("Ana ") for text in narration)
    record = Record.from_json(state.record().to_json())
    assert record.names == ["Ana", "Lewa Nuva"]
    again = replay(record)
    assert again.names == state.names and again.history == state.history
    assert [e.text for e in again.setup_events] == [e.text for e in state.setup_events]


def test_a_record_without_names_says_the_characters_names_and_writes_none():
    state = finished_record()
    assert "names" not in state.record().to_dict()
    old = state.record().to_dict()
    again = replay(Record.from_dict(old))
    assert again.names == ("Onua Nuva", "Lewa Nuva")


@pytest.mark.parametrize(("names", "message"), [
    ("Ana", "names must be a list of 2 display names"),
    (["Ana"], "names must be a list of 2 display names"),
    (["Ana", 3], "a display name is a string"),
])
def test_bad_display_names_are_refused_saying_what_is_allowed(names, message):
    with pytest.raises(BadSetup, match=message):
        games.get("reconstruct").new_game(1, ["onua", "lewa"], names=names)


# -- hostile record files: every fault is the library's own error, said in one short line --

GOOD = {"game": "reconstruct", "rules_version": "1", "seed": 1, "players": ["tahu", "gali"],
        "options": {}, "actions": []}


def record_file(tmp_path, data: bytes):
    path = tmp_path / "record.json"
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(("data", "message"), [
    (json.dumps(GOOD).encode("utf-16"), "is not UTF-8 text .it starts with a UTF-16 byte-order mark"),
    (b'{"game": "r\xe9"}', r"is not UTF-8 text: byte 0xe9 at line 1, column 12"),
    (b"[" * 100_000 + b"]" * 100_000, "nests lists and objects more than 32 deep"),
    (b"{" + b'"a": {' * 40 + b"}" * 41, "nests lists and objects more than 32 deep"),
    (b'{"seed": ' + b"9" * 5000 + b"}", "holds a number of more than 4300 digits"),
], ids=["utf-16", "latin-1", "100000-deep", "41-deep", "5000-digit-seed"])
def test_a_record_file_that_cannot_be_read_gets_a_record_error_not_a_traceback(tmp_path, data, message):
    with pytest.raises(RecordError, match=message):
        Record.load(record_file(tmp_path, data))


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le",
                                      "utf-32-be", "latin-1"])
def test_a_record_in_another_encoding_names_the_file_and_says_a_record_is_utf8_json(tmp_path, encoding):
    """With or without a byte-order mark: UTF-16 without one decodes as UTF-8 (its NUL bytes
    are UTF-8 too) and would be called bad JSON, not text in the wrong encoding."""
    text = json.dumps({**GOOD, "game": "récupère"}, ensure_ascii=False)
    path = record_file(tmp_path, text.encode(encoding))
    with pytest.raises(RecordError) as error:
        Record.load(path)
    message = str(error.value)
    assert f"record {path} is not UTF-8 text" in message
    assert message.endswith("it must be a UTF-8 JSON game record")
    assert "\n" not in message and len(message) < 200


def test_a_record_file_that_is_not_json_is_named(tmp_path):
    path = record_file(tmp_path, b"GIF89a this is a picture")
    with pytest.raises(RecordError, match=f"record {re.escape(str(path))} is not valid JSON.*it must "
                                          "be a UTF-8 JSON game record"):
        Record.load(path)


def test_a_record_file_of_the_wrong_shape_is_named_with_what_is_wrong(tmp_path):
    lacking = {key: value for key, value in GOOD.items() if key != "rules_version"}
    path = record_file(tmp_path, b"\xef\xbb\xbf" + json.dumps(lacking).encode())
    with pytest.raises(RecordError, match=f"record {re.escape(str(path))}: .*'rules_version'"):
        Record.load(path)


def test_a_record_may_start_with_a_utf8_byte_order_mark(tmp_path):
    record = Record.load(record_file(tmp_path, b"\xef\xbb\xbf" + json.dumps(GOOD).encode()))
    assert record.players == ["tahu", "gali"]


@pytest.mark.parametrize(("change", "message"), [
    ({"format": True}, "'format' must be the whole number 1, not True"),
    ({"format": 1.0}, "'format' must be the whole number 1, not 1.0"),
    ({"format": "1"}, "'format' must be the whole number 1, not '1'"),
    ({"seed": 10**30}, r"'seed' must be a whole number from -2\*\*63 to 2\*\*63-1"),
    ({"seed": 1.5}, "'seed' must be an integer, not a number with a fraction"),
    ({"seed": "1"}, "'seed' must be an integer, not a string"),
    ({"players": {}}, "'players' must be a list, not an object"),
    ({"options": []}, "'options' must be an object, not a list"),
    ({"game": None}, "'game' must be a string, not null"),
    ({"actions": True}, "'actions' must be a list, not true or false"),
    ({"data": {"name": "x" * 65, "hash": "feed"}}, "'data' must be null or an object"),
])
def test_record_fields_of_the_wrong_kind_or_size_are_refused(change, message):
    with pytest.raises(RecordError, match=message):
        Record.from_dict({**GOOD, **change})


def test_a_record_of_format_1_still_reads():
    assert Record.from_dict({**GOOD, "format": 1}).seed == 1


def test_a_megabyte_action_id_is_refused_in_a_short_message():
    with pytest.raises(RecordError) as error:
        Record.from_dict({**GOOD, "actions": ["pass", "x" * 1_000_000]})
    message = str(error.value)
    assert len(message) < 300, message
    assert "action 2 of the record" in message and "'xxxxxxxxxx" in message
    assert "… (1,000,000 characters)" in message and "at most 100 characters" in message


def test_a_megabyte_string_anywhere_in_a_record_is_refused_in_a_short_message():
    with pytest.raises(RecordError) as error:
        Record.from_dict({**GOOD, "options": {"y" * 1_000_000: 1}})
    assert len(str(error.value)) < 300 and "(1,000,000 characters)" in str(error.value)


def test_an_illegal_long_action_in_a_replay_is_named_shortly():
    record = Record.from_dict({**GOOD, "actions": ["z" * 99]})
    with pytest.raises(RecordError) as error:
        replay(record)
    assert "action 1 of the record ('zzzz" in str(error.value) and "… (99 characters)" in str(error.value)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=15)
FIELDS = st.fixed_dictionaries({}, optional={
    "format": JSON | st.just(1), "game": JSON | st.sampled_from(games.names()),
    "rules_version": JSON | st.just("1"), "seed": JSON | st.integers(),
    "players": JSON | st.just(["tahu", "gali"]),
    "options": JSON | st.just({}), "actions": JSON | st.lists(st.text(max_size=12), max_size=3),
    "arrangement": JSON, "data": JSON, "names": JSON, "terminal": JSON})


def nested(depth: int, opener: str) -> bytes:
    closer = {"[": "]", "{": "}", '{"a":': "}"}[opener]
    inner = "1" if opener == '{"a":' else ""
    return (opener * depth + inner + closer * depth).encode()


HOSTILE_BYTES = (st.binary(max_size=200)
                 | st.builds(nested, st.integers(0, 5000), st.sampled_from(["[", '{"a":']))
                 | FIELDS.map(lambda value: json.dumps(value).encode())
                 | FIELDS.map(lambda value: json.dumps(value).encode("utf-16")))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=HOSTILE_BYTES)
def test_any_bytes_either_load_and_replay_or_raise_the_librarys_own_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("record") / "r.json"
    path.write_bytes(data)
    try:
        replay(Record.load(path))
    except MatanuiError as error:
        assert str(error) and len(str(error)) < 2000
