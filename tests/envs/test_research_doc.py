"""Every Python example in docs/research.md runs as written (the training loop shortened)."""

import re
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="the research examples need the 'research' extra")

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_document_has_examples_for_each_adapter():
    text = "\n".join(BLOCKS)
    assert "matanui.envs.gymnasium" in text and "matanui.envs.pettingzoo" in text
    assert "matanui.envs import openspiel" in text


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_research_example_runs(number, capsys):
    code = BLOCKS[number].replace("EPISODES = 400", "EPISODES = 100")
    exec(compile(code, f"{DOC.name} example {number + 1}", "exec"), {"__name__": "__example__"})
    assert capsys.readouterr().out.strip()  # every example prints what it found
