"""Every rule in docs/rules/<game>.md is named by a test, and every named rule exists."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LEDGERS = sorted((ROOT / "docs" / "rules").glob("*.md"))
ROW = re.compile(r"^\|\s*`?([A-Z]+(?:-[A-Z0-9]+)+)`?\s*\|", re.MULTILINE)


def ledger_ids(path: Path) -> list[str]:
    return ROW.findall(path.read_text(encoding="utf-8"))


def named_ids() -> set[str]:
    """The ids passed as string arguments to `rule(...)` anywhere under tests/."""
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if called == "rule":
                    names.update(a.value for a in node.args if isinstance(a, ast.Constant))
    return names


@pytest.mark.parametrize("ledger", LEDGERS, ids=[p.stem for p in LEDGERS])
def test_every_ledger_rule_is_named_by_a_test(ledger: Path) -> None:
    ids = ledger_ids(ledger)
    assert ids, f"{ledger.name} has no rule rows"
    assert len(ids) == len(set(ids)), f"{ledger.name} repeats a rule id"
    missing = [rule_id for rule_id in ids if rule_id not in named_ids()]
    assert not missing, f"rules in {ledger.name} that no test names: {missing}"


def test_every_named_rule_is_in_a_ledger() -> None:
    known = {rule_id for ledger in LEDGERS for rule_id in ledger_ids(ledger)}
    unknown = sorted(named_ids() - known)
    assert not unknown, f"tests name rule ids that no ledger has: {unknown}"
