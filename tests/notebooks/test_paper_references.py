"""Every paper reference in a notebook's markdown exists in the paper it cites.

Issue 27, item 1. A reference is a section (``§4.3``, ``Section 3``), a table (``Table 7``,
``Tables 7 and 8``), an equation (``Eq. 16``, ``Eqs. 43–48``), a figure (``Figure 5``,
``Fig. 11b``, ``Figures 10–12``) or an appendix (``Appendix A.2``, ``App. C.1``,
``Appendices A.1, A.5 and B``). Lists and ranges are checked at every listed number and at
both ends of a range. This file reads the committed ``.ipynb`` JSON and the papers' plain
text; it executes nothing.

Which paper a reference cites
-----------------------------
* By default, the notebook's own paper: the one whose title and first author the
  ``> **Paper.**`` line of its first cell names (``workbench.figures.papers.PAPERS``). A first
  cell that cites several papers (notebook 00, the index) gives no default: there only
  references after a marker are checked.
* Inside one sentence, a reference after a *marker* of another paper (:data:`MARKERS`, e.g.
  ``Rényi paper``, ``Cognetta, Zouhar``, ``Morgan``) cites that paper; the marker nearest
  before the reference wins. A marker of a paper the workbench does not hold
  (``Zouhar et al. (2023)``, ``Kudo``, ``Provilkov``, ...) makes the reference unchecked.
* Markdown code (fenced or inline), link targets and html tags are not read.

What exists in a paper
----------------------
Read from ``paper_inventory.json`` beside this file: what each paper contains, derived from
the paper texts (which the repository does not ship) by :func:`inventory`: sections and
appendices from heading lines
(``4.3 Skewing``, ``## 2.1 Stop word ...``, ``A.5 Non-deterministic ...``; a heading also makes
its parents exist), tables and figures from every ``Table N`` / ``Figure N`` the text names
(captions of some papers were lost in conversion, their mentions were not), equations from
every tag ``(N)`` closing a display line and every ``Eq. N`` / ``Equation (N)`` the text names.
With ``$WORKBENCH_PAPERS`` naming a folder of the papers' text (``000_*.txt`` … ``003_*.txt``),
:func:`test_the_inventory_is_the_papers` parses them and checks the committed file equals
the result; ``python tests/notebooks/test_paper_references.py --write`` (with the variable set)
rewrites it. So the notebooks are always checked, and the inventory against the papers
wherever they are at hand.
"""

from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))

#: The paper text of each key of ``workbench.figures.papers.PAPERS`` (file name prefix).
PAPER_FILES = {"grampa": "000_", "batchbpe": "001_", "greedtok": "002_", "counterexamples": "003_"}

#: Phrases that switch the cited paper for the rest of a sentence; ``None``: a paper the
#: workbench does not hold (its references are not checked).
MARKERS: dict[str, str | None] = {
    "GRaMPa paper": "grampa", "Bauwens": "grampa",
    "Morgan": "batchbpe", "BatchBPE paper": "batchbpe",
    "GreedTok paper": "greedtok", "partition cover paper": "greedtok", "Lim et al": "greedtok",
    "Rényi paper": "counterexamples", "Cognetta, Zouhar": "counterexamples",
    "Two Counterexamples": "counterexamples", "counterexample paper": "counterexamples",
    "Zouhar et al. (2023)": None, "Zouhar et al. 2023": None, "Kudo": None,
    "Provilkov": None, "Hiraoka": None, "Gowda": None,
}

_NUM = r"[A-Z]?\d+(?:\.\d+)*[a-z]?|[A-H](?:\.\d+)*\b"
_LIST = rf"(?:{_NUM})(?:\s*(?:[-–,/]|\band\b|\bor\b|&)\s*(?:{_NUM}))*"
REFERENCE = re.compile(
    rf"(?P<kind>§|Sections?\b|Tables?\b|Eqs?\.|Equations?\b|Figures?\b|Figs?\.|App\.|Appendix\b|"
    rf"Appendices\b)\s*(?P<nums>{_LIST})")
KINDS = {"§": "section", "section": "section", "sections": "section", "table": "table",
         "tables": "table", "eq.": "equation", "eqs.": "equation", "equation": "equation",
         "equations": "equation", "figure": "figure", "figures": "figure", "fig.": "figure",
         "figs.": "figure", "app.": "section", "appendix": "section", "appendices": "section"}
MASKS = (re.compile(r"```.*?```", re.DOTALL), re.compile(r"`[^`]*`"),
         re.compile(r"\]\([^)]*\)"), re.compile(r"<[^>]*>"))
ABBREVIATIONS = ("Eqs.", "Eq.", "Figs.", "Fig.", "App.", "et al.", "e.g.", "i.e.", "cf.", "fn.")


def split_numbers(nums: str) -> list[str]:
    """The numbers a list or range names, subfigure letters dropped.

    >>> split_numbers("7 and 8"), split_numbers("43–48"), split_numbers("A.1, A.5 and B")
    (['7', '8'], ['43', '48'], ['A.1', 'A.5', 'B'])
    >>> split_numbers("11b"), split_numbers("4/8")
    (['11'], ['4', '8'])
    """
    parts = re.split(r"\s*(?:[-–,/]|\band\b|\bor\b|&)\s*", nums.strip())
    return [re.sub(r"(?<=\d)[a-z]$", "", p) for p in parts if p]


def sentences(text: str) -> list[str]:
    """``text`` cut into sentences, abbreviations such as ``Eq.`` or ``et al.`` kept whole."""
    for i, abbr in enumerate(ABBREVIATIONS):
        text = text.replace(abbr, abbr.replace(".", f"\0{i}\0"))
    out = re.split(r"(?<=[.!?:])\s+(?=[A-Z*#>(])|\n\s*\n|\n(?=\s*[*-] )", text)
    restore = re.compile(r"\0(\d+)\0")
    return [restore.sub(".", s) for s in out]


def references(text: str, default: str | None) -> list[tuple[str, str, str | None, str]]:
    """``(kind, number, paper key or None, sentence)`` for every reference in ``text``.

    >>> refs = references("GRaMPa's §4.3. The Rényi paper's §4 and Table 2.", "grampa")
    >>> [r[:3] for r in refs]  # doctest: +NORMALIZE_WHITESPACE
    [('section', '4.3', 'grampa'), ('section', '4', 'counterexamples'),
     ('table', '2', 'counterexamples')]
    >>> references("Kudo (2018, §3)", "grampa")[0][2] is None
    True
    """
    for mask in MASKS:
        text = mask.sub(" ", text)
    found = []
    for sentence in sentences(text):
        marks = sorted((m.start(), key) for phrase, key in MARKERS.items()
                       for m in re.finditer(re.escape(phrase), sentence))
        for ref in REFERENCE.finditer(sentence):
            before = [key for start, key in marks if start < ref.start()]
            paper = before[-1] if before else default
            kind = KINDS[ref["kind"].lower()]
            for number in split_numbers(ref["nums"]):
                if kind == "section" and ref["kind"] == "§" and not re.match(r"[A-H\d]", number):
                    continue
                found.append((kind, number, paper, " ".join(sentence.split())))
    return found


# ---------------------------------------------------------------- the papers' inventories

HEADING = re.compile(r"^(?:#+\s*)?(?:Appendix\s+)?([A-H]|\d{1,2})((?:\.\d{1,2})*)\.?\s+[A-Z]")
EQUATION_TAG = re.compile(r"\((\d{1,3})\)\s*(?:\$\$)?\s*$|\\quad\s*\((\d{1,3})\)")
MENTION = {
    "table": re.compile(r"\bTables?\s+(\d+)(?:\s*(?:and|,|–|-)\s*(\d+))?"),
    "figure": re.compile(r"\b(?:Figures?|Figs?\.)\s+(\d+)(?:\s*(?:and|,|–|-)\s*(\d+))?"),
    "equation": re.compile(r"\b(?:Eqs?\.|Equations?)\s*\(?(\d+)\)?"),
}


def inventory(text: str) -> dict[str, set[str]]:
    """What a paper's text holds: the numbers of its sections, tables, figures and equations.

    >>> inv = inventory("4.2.1 Relation to X\\nA.5 Cost of it\\nsee Table 7 and Figures 3–4"
    ...                 "\\n$$x$$ (12)")
    >>> sorted(inv["section"]), sorted(inv["table"]), sorted(inv["figure"]), inv["equation"]
    (['4', '4.2', '4.2.1', 'A', 'A.5'], ['7'], ['3', '4'], {'12'})
    """
    out: dict[str, set[str]] = {"section": set(), "table": set(), "figure": set(),
                                "equation": set()}
    for line in text.splitlines():
        heading = HEADING.match(line)
        if heading and len(line) < 200 and "\t" not in line and "|" not in line:
            parts = [heading[1]] + heading[2].split(".")[1:]
            out["section"].update(".".join(parts[:k]) for k in range(1, len(parts) + 1))
        for tag in EQUATION_TAG.finditer(line):
            out["equation"].add(tag[1] or tag[2])
    for kind, pattern in MENTION.items():
        for m in pattern.finditer(text):
            out[kind].update(g for g in m.groups() if g)
    return out


INVENTORY = Path(__file__).with_name("paper_inventory.json")


def _parsed_papers() -> dict[str, dict[str, set[str]]] | None:
    """Each held paper's inventory parsed from ``$WORKBENCH_PAPERS``, or None without it."""
    env = os.environ.get("WORKBENCH_PAPERS")
    if not env:
        return None
    out = {}
    for key, prefix in PAPER_FILES.items():
        files = sorted(Path(env).glob(f"{prefix}*.txt"))
        assert files, f"$WORKBENCH_PAPERS has no {prefix}*.txt"
        out[key] = inventory(files[0].read_text(encoding="utf-8"))
    return out


def _as_json(papers: dict[str, dict[str, set[str]]]) -> str:
    return json.dumps({k: {kind: sorted(v) for kind, v in sorted(inv.items())}
                       for k, inv in sorted(papers.items())}, indent=1, ensure_ascii=False) + "\n"


@functools.cache
def inventories() -> dict[str, dict[str, set[str]]]:
    """Each held paper's inventory, as committed in :data:`INVENTORY`."""
    data = json.loads(INVENTORY.read_text(encoding="utf-8"))
    return {key: {kind: set(v) for kind, v in inv.items()} for key, inv in data.items()}


def _default_paper(nb: dict) -> str | None:
    from workbench.figures.papers import PAPERS

    first = "".join(nb["cells"][0]["source"])
    quote = next((line for line in first.splitlines() if line.startswith("> **Paper.**")), first)
    cited = [p.key for p in PAPERS.values()
             if p.title in quote and p.authors.split(",")[0] in quote]
    assert cited, "the first cell must cite a paper"
    return cited[0] if len(cited) == 1 else None


# ---------------------------------------------------------------------------- the tests


def test_parsers_on_examples() -> None:
    inv = inventory("3 Rejection\n3.2 Rejection sampling is hard\nTable 1 shows\n"
                    "$$a = b \\quad (4)$$\n1000 | 2000\n2\t(0.2, 0.3)\n")
    assert inv["section"] == {"3", "3.2"} and inv["table"] == {"1"} and inv["equation"] == {"4"}
    text = ("**Used here:** §4.2–4.6, Appendix A.2–A.4 (Eqs. 11–36), Figures 4 and 8. "
            "Its counterexamples from Cognetta, Zouhar, Moon, Okazaki, §4. Not `§9`.")
    got = [(k, n, p) for k, n, p, _ in references(text, "grampa")]
    assert got == [("section", "4.2", "grampa"), ("section", "4.6", "grampa"),
                   ("section", "A.2", "grampa"), ("section", "A.4", "grampa"),
                   ("equation", "11", "grampa"), ("equation", "36", "grampa"),
                   ("figure", "4", "grampa"), ("figure", "8", "grampa"),
                   ("section", "4", "counterexamples")]


def test_the_inventory_is_the_papers() -> None:
    parsed = _parsed_papers()
    if parsed is None:
        pytest.skip("WORKBENCH_PAPERS (a folder with the papers' text) is not set")
    assert _as_json(parsed) == INVENTORY.read_text(encoding="utf-8"), \
        "rewrite it: python tests/notebooks/test_paper_references.py --write"


def test_the_inventory_knows_the_papers() -> None:
    papers = inventories()
    grampa = papers["grampa"]
    assert {"4.3", "4.6", "5.2", "6.3", "A.5", "C.2", "E"} <= grampa["section"]
    assert "5.3" not in grampa["section"] and "9" not in grampa["section"]
    assert {"1", "6", "7", "8"} <= grampa["table"] and {"1", "5", "12"} <= grampa["figure"]
    assert {"4", "16", "27", "47", "63"} <= grampa["equation"]
    renyi = papers["counterexamples"]
    assert {"4", "4.1", "4.2", "5.3"} <= renyi["section"] and "6.3" not in renyi["section"]
    assert {"1", "15", "16"} <= renyi["equation"]
    assert {"2.1", "3.6", "4"} <= papers["batchbpe"]["section"]
    assert "3" in papers["greedtok"]["table"] and "5.3" in papers["greedtok"]["section"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_reference_exists_in_the_cited_paper(path: Path) -> None:
    papers = inventories()
    nb = json.loads(path.read_text(encoding="utf-8"))
    default = _default_paper(nb)
    missing = []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        for kind, number, paper, sentence in references("".join(cell["source"]), default):
            if paper is not None and number not in papers[paper][kind]:
                missing.append(f"cell {i}: {kind} {number} of {paper}: {sentence[:120]}")
    assert not missing, f"{path.name}: references the cited paper does not have:\n" + \
        "\n".join(missing)


def test_a_reference_the_paper_lacks_is_reported() -> None:
    """The check can fail: references that do not exist in the cited paper are caught."""
    papers = inventories()
    text = ("GRaMPa's §5.3 and Table 11. The Rényi paper's §6.3 (Eq. 40). "
            "Morgan's Figure 9. But Kudo's §9 is not ours to check.")
    wrong = [(k, n, p) for k, n, p, _ in references(text, "grampa")
             if p is not None and n not in papers[p][k]]
    assert wrong == [("section", "5.3", "grampa"), ("table", "11", "grampa"),
                     ("section", "6.3", "counterexamples"), ("equation", "40", "counterexamples"),
                     ("figure", "9", "batchbpe")]


if __name__ == "__main__":
    import sys

    parsed = _parsed_papers()
    if sys.argv[1:] != ["--write"] or parsed is None:
        sys.exit("usage: WORKBENCH_PAPERS=<folder> python tests/notebooks/test_paper_references.py "
                 "--write")
    INVENTORY.write_text(_as_json(parsed), encoding="utf-8")
