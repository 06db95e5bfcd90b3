"""The kernel and the games keep their type hints true: mypy, on the files pyproject.toml's
[tool.mypy] names, finds nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_type_errors_in_the_kernel_and_the_games():
    checked = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT,
                             capture_output=True, text=True, timeout=600)
    assert checked.returncode == 0, checked.stdout + checked.stderr
