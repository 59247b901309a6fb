"""figures/ only draws: no figures module imports the checks, and what it shows it re-uses
(the demo word is re-exported, not copied)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import workbench
from workbench.datasets.corpora import demo_word as corpora_demo_word

FIGURES = Path(workbench.__file__).parent / "figures"


#: the UI's save button checks its file format itself (a choice among "png" / "svg")
UI_ONLY = {"panel.py"}


def _validate_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
            and (node.module or "").endswith("_core.validate") for alias in node.names]


def test_no_figures_module_imports_the_checks() -> None:
    offenders = {p.name: _validate_imports(p) for p in sorted(FIGURES.glob("*.py"))
                 if p.name not in UI_ONLY}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_demo_word_is_re_exported_not_copied() -> None:
    from workbench.figures import common

    assert common.demo_word is corpora_demo_word
    assert corpora_demo_word(27) == "abcdefghijklmnopqrstuvwxyza"
    with pytest.raises(TypeError):
        corpora_demo_word(2.0)
