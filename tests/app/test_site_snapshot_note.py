"""Each static-site page says at its top that its controls are a snapshot, and how to run it.

Cheap: the note is checked on a small notebook, in memory and through the page exporter's
Markdown step; ``tests/test_site.py`` builds real pages.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]


def _site_module():
    spec = importlib.util.spec_from_file_location("workbench_site_note", ROOT / "app/site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


site = _site_module()


def test_the_note_comes_first_and_names_the_notebook_and_the_live_commands():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# 08 · Title"),
                                         nbformat.v4.new_code_cell("1 + 1")])
    title = site.title_of(nb, "x")
    site.add_snapshot_note(nb, "08_batch_bpe.ipynb")
    assert len(nb.cells) == 3 and nb.cells[1].source == "# 08 · Title"
    note = nb.cells[0].source
    assert "snapshot" in note and "do nothing here" in note
    assert "notebooks/08_batch_bpe.ipynb" in note
    assert "make lab" in note and "make app" in note
    assert site.title_of(nb, "x") == title  # the note has no heading to take the title


def test_the_note_is_in_the_exported_page():
    from nbconvert import HTMLExporter

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# T")])
    site.add_snapshot_note(nb, "01_x.ipynb")
    body, _ = HTMLExporter(template_name="basic").from_notebook_node(nb)
    assert body.index("A snapshot, not the live notebook") < body.index(">T<")
