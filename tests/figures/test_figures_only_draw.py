"""figures/ only draws: no module checks arguments (those moved to experiments), and
``python -m workbench figures`` checks its output before building anything."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import workbench
from workbench._core.validate import MAX_SAMPLES, check_samples
from workbench.datasets.corpora import demo_word as corpora_demo_word
from workbench.experiments.grampa_rejection_words import top_segmentations

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


def test_check_samples() -> None:
    assert check_samples(1) == 1 and check_samples(MAX_SAMPLES) == MAX_SAMPLES
    for bad in (0, MAX_SAMPLES + 1):
        with pytest.raises(ValueError):
            check_samples(bad)
    with pytest.raises(TypeError):
        check_samples(10.0)


def test_top_segmentations() -> None:
    demo = {"joint": [0.1, 0.4, 0.1, 0.4]}
    assert top_segmentations(demo, 3).tolist() == [1, 3, 0]  # ties: enumeration order
    assert top_segmentations(demo, 10).tolist() == [1, 3, 0, 2]
    assert isinstance(top_segmentations(demo, 1), np.ndarray)
    with pytest.raises(ValueError):
        top_segmentations(demo, 0)
    with pytest.raises(TypeError):
        top_segmentations(demo, 1.5)


def test_write_figures_checks_output_before_building(tmp_path, monkeypatch) -> None:
    from workbench.figures import paper_figures

    built = []
    fake = paper_figures.PaperFigure("grampa", "Figure 0", "nothing",
                                     lambda fast: built.append(fast))
    monkeypatch.setattr(paper_figures, "FIGURES", {"grampa-fig0": fake})
    (tmp_path / "captions.md").mkdir()  # captions.md cannot be written: refuse up front
    with pytest.raises(ValueError, match="is a directory"):
        paper_figures.write_figures(str(tmp_path), progress=False)
    assert built == []


def test_write_figures_writes_atomically(tmp_path, monkeypatch) -> None:
    from matplotlib.figure import Figure

    from workbench.figures import paper_figures

    def build(fast):
        fig = Figure(figsize=(1, 1))
        fig.subplots().plot([0, 1])
        return fig, {"n": 1}

    fake = paper_figures.PaperFigure("grampa", "Figure 0", "a line", build)
    monkeypatch.setattr(paper_figures, "FIGURES", {"grampa-fig0": fake})
    out = tmp_path / "figs"
    written = paper_figures.write_figures(str(out), fast=True, progress=False)
    assert [Path(p).name for p in written] == ["grampa-fig0.svg", "grampa-fig0.png",
                                               "captions.md"]
    assert sorted(p.name for p in out.iterdir()) == ["captions.md", "grampa-fig0.png",
                                                     "grampa-fig0.svg"]  # no temp files
    assert (out / "grampa-fig0.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "grampa-fig0.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert "Figure 0 of" in (out / "captions.md").read_text(encoding="utf-8")
