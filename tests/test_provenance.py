"""Every data entry says where it comes from, and a `printed` or `derived` entry's quote is
really in the rulebook, word for word (docs/data.md: the table of provenances, and "Our
sources, and where they are").

An entry is a top-level table of a data file, or each table of a top-level array of tables;
tables inside an entry are its fields. The rulebooks are the team's, kept in
../shared/rulebooks/ beside the checkout, not in the repository; where they are absent the
quote check is skipped, the labels are still checked.
"""

import re
import tomllib
from pathlib import Path

import pytest

import matanui.games
from matanui.engine.data import PROVENANCES

GAMES_DIR = Path(matanui.games.__file__).parent
RULEBOOKS = Path(__file__).resolve().parents[2] / "shared" / "rulebooks"
RULEBOOK_OF = {
    "reconstruct": "toa-nuva-reconstruct.txt",
    "masks": "quest-for-the-masks.txt",
    "makuta": "quest-for-makuta.txt",
}
DATA_FILES = sorted(GAMES_DIR.glob("*/data/*.toml"))


def normalised(text: str) -> str:
    """Compare words, not typography: curly quotes and dashes as plain ones, one space."""
    for fancy, plain in (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"'), ("–", "-"), ("—", "-"),
                         ("…", "...")):
        text = text.replace(fancy, plain)
    return re.sub(r"\s+", " ", text).strip()


def entries(path: Path):
    """(name, entry) for every entry of a data file."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    for key, value in data.items():
        if isinstance(value, dict):
            yield key, value
        elif isinstance(value, list) and all(isinstance(v, dict) for v in value):
            for index, entry in enumerate(value):
                yield f"{key}[{index}]", entry


def quoted_fragments(source: str) -> list[str]:
    """The pieces of a quote that must each be found: an elision ("...") or a quote-separated
    list of passages ("'first' / 'second'") splits it."""
    pieces = re.split(r"\s*(?:\[\.\.\.\]|\.\.\.|…| / )\s*", normalised(source))
    return [p.strip(" '\"") for p in pieces if len(p.strip(" '\"")) >= 3]


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_data_entry_has_a_provenance_with_its_evidence(path):
    problems = []
    for name, entry in entries(path):
        kind = entry.get("provenance")
        if kind not in PROVENANCES:
            problems.append(f"{name}: provenance {kind!r} (allowed: {', '.join(PROVENANCES)})")
            continue
        if kind in ("printed", "derived") and not entry.get("source"):
            problems.append(f"{name}: {kind} without the rulebook words in `source`")
        if kind != "printed" and not entry.get("why"):
            problems.append(f"{name}: {kind} without `why`")
    assert not problems, f"{path.name}: " + "; ".join(problems)


@pytest.mark.skipif(not RULEBOOKS.is_dir(), reason="the rulebooks are not beside this checkout")
@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_printed_or_derived_quote_is_found_word_for_word_in_the_rulebook(path):
    game = path.parent.parent.name
    quoted = [(name, entry["source"]) for name, entry in entries(path)
              if entry.get("provenance") in ("printed", "derived")]
    if not quoted:
        return  # all of it ours (reconstructed): nothing to find in a rulebook
    assert game in RULEBOOK_OF, f"{path.name} quotes a rulebook: name {game}'s file in RULEBOOK_OF"
    rulebook = normalised((RULEBOOKS / RULEBOOK_OF[game]).read_text(encoding="utf-8"))
    missing = [f"{name}: {fragment!r}" for name, source in quoted
               for fragment in quoted_fragments(source) if fragment not in rulebook]
    assert not missing, f"{path.name}: quotes not in {RULEBOOK_OF[game]}: " + "; ".join(missing[:10])


def test_a_quote_that_is_not_in_the_rulebook_is_caught():
    rulebook = normalised("Each player draws 3 cards from the Game Action draw pile.")
    assert all(f in rulebook for f in quoted_fragments("Each player draws 3 cards ... draw pile."))
    assert all(f in rulebook for f in quoted_fragments("Each player draws / Game Action draw pile."))
    assert not all(f in rulebook for f in quoted_fragments("Each player draws 4 cards"))


def test_an_entry_that_is_not_a_table_is_named_with_its_kind():
    from matanui.engine.data import DataFileError, EntryChecker

    with pytest.raises(DataFileError, match=r"cards.toml: cards\[2\] must be a table, not a list \[...\]"):
        EntryChecker("cards.toml", "cards[2]", ["tahu"])
