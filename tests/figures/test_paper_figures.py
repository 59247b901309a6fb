"""``python -m workbench figures`` (workbench.figures.paper_figures): the output is checked before
anything is built, and every file is written atomically."""

from __future__ import annotations

from pathlib import Path

import pytest


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
