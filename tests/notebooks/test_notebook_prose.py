"""The notebooks' prose: numbers come from the computation, every notebook has one skeleton.

Issue 21, items 2 and 4. This file reads the committed ``.ipynb`` JSON only; it executes
nothing (``tests/notebooks/test_notebooks.py`` runs the notebooks and their Checks, which assert the
qualitative claims of the prose against the output).

Numbers in markdown
-------------------
A markdown cell may state a number only when it is

* a reference: ``Eq. 27``, ``Table 7``, ``Figure 5``, ``Fig. 11b``, ``§4.6``, ``Section 3``,
  ``Theorem 4.1``, ``Lemma``, ``Corollary``, ``Algorithm 3``, ``Alg. 4``, ``App. C.1``,
  ``Appendix B``, ``Definition``, ``Example 2``, ``Code Block 1``, ``notebook 04``, ``line 6``;
* inside a blockquote (the paper's own words), inline code, LaTeX math or a link target;
* a single digit standing alone (``τ = 2``, ``two`` written ``2``): parameters and small
  counts of definitions, too common to declare one by one;
* listed, with its reason, in the notebook's metadata ``workbench.prose_numbers``
  (a mapping ``"number as written" -> "why it is not computed"``: a year in a citation, a
  constant of the paper, a slider's bounds).

Everything else (a count, a ratio, a run time, a measured percentage) is produced by a code
cell that renders Markdown from the same objects the figure uses.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("[0-9][0-9]_*.ipynb"))

REFERENCE = re.compile(
    r"(?:Eqs?\.|Equations?|Tables?|Figures?|Figs?\.|§|Sections?|Theorems?|Lemmas?|Corollar(?:y|ies)|"
    r"Algorithms?|Algs?\.|App\.|Appendi(?:x|ces)|Definitions?|Examples?|Code Blocks?|"
    r"notebooks?|lines?)\s*[A-Z]?\d+(?:\.\d+)*[a-z]?"
    r"(?:\s*(?:[-–,]|and|or|&)\s*[A-Z]?\d+(?:\.\d+)*[a-z]?)*",
    re.IGNORECASE,
)
MASKS = (
    re.compile(r"```.*?```", re.DOTALL),  # code blocks
    re.compile(r"`[^`]*`"),  # inline code
    re.compile(r"\$\$.*?\$\$", re.DOTALL),  # display math
    re.compile(r"\$[^$]*\$"),  # inline math
    re.compile(r"\]\([^)]*\)"),  # link targets
    re.compile(r"<[^>]*>"),  # html tags
)
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _markdown_cells(nb: dict) -> list[str]:
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


def _bare_numbers(text: str) -> list[str]:
    """Numbers left in ``text`` once references, quotes, code and math are taken out.

    >>> _bare_numbers("Eq. 27 gives 0.78 (see `x = 3`) and $2^{n-1}$, notebook 04.")
    ['0.78']
    """
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith(">")]
    text = "\n".join(lines)
    for mask in MASKS:
        text = mask.sub(" ", text)
    text = REFERENCE.sub(" ", text)
    text = re.sub(r"^#+\s*\d\d\s*·", " ", text, flags=re.MULTILINE)  # the title's number
    return [x for x in NUMBER.findall(text) if not re.fullmatch(r"\d", x)]


def test_bare_numbers_worked_example() -> None:
    assert _bare_numbers("Eq. 27 gives 0.78 (see `x = 3`) and $2^{n-1}$, notebook 04.") == ["0.78"]
    assert _bare_numbers("> the paper says 42\nTables 7 and 8, §4.6; Fig. 11b") == []
    assert _bare_numbers("# 08 · Batching, 30 of 32,512 merges") == ["30", "32,512"]
    assert _bare_numbers("at τ = 2, 3.5 times") == ["3.5"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_prose_numbers_are_computed_or_declared(path: Path) -> None:
    nb = json.loads(path.read_text(encoding="utf-8"))
    declared = nb["metadata"].get("workbench", {}).get("prose_numbers", {})
    found: set[str] = set()
    for text in _markdown_cells(nb):
        found.update(_bare_numbers(text))
    undeclared = sorted(found - set(declared))
    assert not undeclared, (
        f"{path.name}: numbers typed in markdown, neither a reference nor declared in "
        f"metadata workbench.prose_numbers (compute them, or declare why not): {undeclared}"
    )
    stale = sorted(set(declared) - found)
    assert not stale, f"{path.name}: prose_numbers declares numbers no longer in the text: {stale}"
    for number, why in declared.items():
        assert isinstance(why, str) and why.strip(), f"{path.name}: {number!r} needs a reason"


_M = re.IGNORECASE | re.MULTILINE
SKELETON = (
    ("the paper blockquote", re.compile(r"^>", re.MULTILINE)),
    ("a 'What to look at' section", re.compile(r"^#+ .*what to look at", _M)),
    ("a 'Try it' / 'What to try' section", re.compile(r"^#+ .*(try it|what to try)", _M)),
    ("a 'What this notebook does not show' section",
     re.compile(r"^#+ .*what this (notebook )?does not", _M)),
    ("a '## Checks' section", re.compile(r"^## Checks", re.MULTILINE)),
)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_notebook_has_the_skeleton(path: Path) -> None:
    nb = json.loads(path.read_text(encoding="utf-8"))
    text = "\n".join(_markdown_cells(nb))
    missing = [what for what, pattern in SKELETON if not pattern.search(text)]
    assert not missing, f"{path.name} lacks {missing}"
    first = "\n".join(_markdown_cells(nb)[:2])
    assert re.search(r"^>", first, re.MULTILINE), (
        f"{path.name}: the paper blockquote opens the notebook")


EXERCISE = re.compile(r"\bExercise(?:\.(?:number|sequence|collection|choice))?\(")
FILE_PATH = re.compile(r"`workbench/[\w/.-]+\.py`")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_notebook_asks_teaches_and_concludes(path: Path) -> None:
    """Issue 27, items 2-3: the question and 2-3 learning goals open the notebook; exercises
    (two or more from notebook 01 on); "What we conclude" computed by a code cell; file paths
    only in the one "Where this lives in the code" line before the Checks."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = nb["cells"]
    text = ["".join(c["source"]) for c in cells]
    md = [c["cell_type"] == "markdown" for c in cells]
    question = [i for i, t in enumerate(text) if md[i] and t.startswith("## The question")]
    assert question and question[0] <= 2, f"{path.name}: '## The question' must open the notebook"
    goals = re.findall(r"^\d\. ", text[question[0]].split("**Learning goals.**")[-1], re.MULTILINE)
    assert "**Learning goals.**" in text[question[0]] and 2 <= len(goals) <= 3, \
        f"{path.name}: the question cell needs two or three numbered learning goals"
    checks = next(i for i, t in enumerate(text) if md[i] and t.startswith("## Checks"))
    conclude = [i for i, t in enumerate(text[:checks])
                if md[i] and t.startswith("## What we conclude")]
    assert len(conclude) == 1, f"{path.name}: one '## What we conclude' before the Checks"
    after = conclude[0] + 1
    assert not md[after] and "conclusions(" in text[after], \
        f"{path.name}: the conclusions are computed by the code cell after the heading"
    where = [i for i, t in enumerate(text[:checks]) if md[i] and t.startswith("**Where this lives")]
    assert where and where[0] > conclude[0], f"{path.name}: 'Where this lives in the code' closes"
    stray = [i for i, t in enumerate(text[:where[0]]) if md[i] and FILE_PATH.search(t)]
    assert not stray, (f"{path.name}: file paths in the reading flow (cells {stray}); move them "
                       "to the 'Where this lives in the code' line")
    if path.stem != "00_start_here":
        exercises = [i for i, t in enumerate(text[:checks]) if not md[i] and EXERCISE.search(t)]
        assert len(exercises) >= 2, f"{path.name}: needs at least two exercises, has {exercises}"
