"""workbench.experiments.course_kept: the warm-up fills what notebooks 07, 09 and 11 read.

The notebooks' own statements (their settings, imports and the calls that reach
:mod:`workbench.experiments.kept`, taken from the committed ``.ipynb`` source) run after
:data:`~workbench.experiments.course_kept.FILLS` on tiny settings, with every computation
behind a kept file replaced by a counter: a notebook whose arguments differ from the fill's
would compute (a file of other inputs), so the counter staying at zero shows both that the
files are read and that the arguments are the same.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from workbench.experiments import course_kept, kept
from workbench.experiments import grampa_efficiency as GE
from workbench.experiments import grampa_regularisation as R
from workbench.experiments import greedtok as GT

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
#: The functions whose results are kept on disk (what a notebook's first visit computes).
KEPT_CALLS = {"figure6", "compute_tokens_per_word", "compute_token_sets", "trained_greedtok",
              "compute_regulariser"}
#: Per notebook: the names its kept calls' arguments are made of.
SETTINGS = {
    "07_baselines.ipynb": {"N_WORDS", "N_SAMPLES", "SEED", "regularisation"},
    "09_partition_cover.ipynb": {"CHARS", "counts", "K", "KS", "un_counts", "GT",
                                 "greedtok_text_chunk_counts", "load_counts"},
    "11_efficiency_vs_regularisation.ipynb": {"LINES", "SEEDS", "SETUPS", "GE"},
}


def _calls(node: ast.AST) -> set[str]:
    return {(n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", ""))
            for n in ast.walk(node) if isinstance(n, ast.Call)}


def _bound(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, ast.Assign):
        return {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return set()


def notebook_kept_statements(name: str) -> tuple[list[str], list[str]]:
    """(the notebook's top-level statements that bind its settings or call a kept function,
    in order; the names of its functions that call one)."""
    doc = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    statements, functions = [], []
    for cell in doc["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(line for line in cell["source"] if not line.startswith(("%", "!")))
        for node in ast.parse(source).body:
            if isinstance(node, ast.FunctionDef) and _calls(node) & KEPT_CALLS:
                functions.append(node.name)
                statements.append(ast.get_source_segment(source, node))
            elif _bound(node) & SETTINGS[name] or (
                    isinstance(node, (ast.Assign, ast.Expr)) and _calls(node) & KEPT_CALLS):
                statements.append(ast.get_source_segment(source, node))
    return statements, functions


class _Ahead:
    """The notebooks' ``Prefetch`` (``AHEAD.settle(key)``): nothing in the background here."""

    def settle(self, key) -> None:
        pass


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """Kept files under tmp_path; the course's settings made tiny; memory caches emptied
    before and after."""
    monkeypatch.setattr(kept, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(kept, "_MEMO", {})
    monkeypatch.setattr(R, "COURSE_FIGURE6", (6, 2, 0))
    monkeypatch.setattr(GT, "COURSE_CHARS", 5_000)
    monkeypatch.setattr(GT, "COURSE_K", 80)          # SentencePiece needs ~320 pieces here
    monkeypatch.setattr(GT, "COURSE_KS", (80,))
    monkeypatch.setattr(GT, "COURSE_UN_K", 10)
    monkeypatch.setattr(GE, "COURSE_LINES", 150)
    monkeypatch.setattr(GE, "COURSE_BPE_SIZE", 300)
    monkeypatch.setattr(GE, "COURSE_SEEDS", (0,))
    caches = (GE.sampled_regulariser, GE._regulariser_data)
    for cache in caches:
        cache.cache_clear()
    yield tmp_path
    for cache in caches:
        cache.cache_clear()


def _count_computations(monkeypatch) -> list[str]:
    """Replace every computation behind a kept file by a counter; return the list it fills."""
    made: list[str] = []

    def counter(name):
        def computed(*args, **kwargs):
            made.append(name)
            raise AssertionError(f"{name} computed instead of read")
        return computed

    monkeypatch.setattr(R, "regularisation_rate", counter("regularisation_rate"))
    monkeypatch.setattr(GT, "train_greedtok_quietly", counter("train_greedtok_quietly"))
    for method in GT.METHODS:
        monkeypatch.setitem(GT._TRAINERS, method, counter(f"train {method}"))
    monkeypatch.setattr(GE, "_sampled_regulariser", counter("_sampled_regulariser"))
    return made


def test_after_the_fill_the_notebooks_read_their_kept_results(tiny, monkeypatch) -> None:
    for fill in course_kept.FILLS:
        fill.run()
    names = sorted(p.name for p in tiny.iterdir())
    assert sum(n.startswith("kept_grampa_regularisation_figure6_") for n in names) == 1
    assert sum(n.startswith("kept_greedtok_") for n in names) == 4  # 3 methods, UN's model
    assert sum(n.startswith("kept_grampa_efficiency_regulariser_") for n in names) == (
        len(GE.REGULARISER_POINTS["bpe"]) + len(GE.REGULARISER_POINTS["ulm"]))
    assert all(kept._read(tiny / name, kept.MAX_BYTES) is not None for name in names)  # checked

    monkeypatch.setattr(kept, "_MEMO", {})           # a new kernel, as the student's
    GE.sampled_regulariser.cache_clear()
    GE._regulariser_data.cache_clear()
    made = _count_computations(monkeypatch)
    called = set()
    for notebook in SETTINGS:
        statements, functions = notebook_kept_statements(notebook)
        called |= {c for s in statements for c in _calls(ast.parse(s)) & KEPT_CALLS}
        namespace = {"AHEAD": _Ahead()}
        exec("\n".join(statements), namespace)       # noqa: S102 -- the notebook's own lines
        for name in functions:                       # at their defaults, as the page opens
            namespace[name]()
    assert called == KEPT_CALLS                      # every kept call of the three was run
    assert made == []
    assert sorted(p.name for p in tiny.iterdir()) == names  # nothing new written


def test_the_notebooks_take_the_settings_from_experiments() -> None:
    """Each setting is bound once, from the experiments module the warm-up reads."""
    bound = {}
    for notebook in SETTINGS:
        for statement in notebook_kept_statements(notebook)[0]:
            node = ast.parse(statement).body[0]
            if isinstance(node, ast.Assign):
                for name in _bound(node):
                    assert name not in bound, f"{notebook}: {name} bound twice"
                    bound[name] = ast.unparse(node.value)
    assert bound["N_WORDS"] == bound["SEED"] == "regularisation.COURSE_FIGURE6"
    assert (bound["CHARS"], bound["K"], bound["KS"]) == (
        "GT.COURSE_CHARS", "GT.COURSE_K", "list(GT.COURSE_KS)")
    assert (bound["LINES"], bound["SEEDS"], bound["SETUPS"]) == (
        "GE.COURSE_LINES", "GE.COURSE_SEEDS", "GE.course_setups()")


def test_the_course_settings_are_the_notebooks_numbers() -> None:
    """What the notebooks' prose describes (their numbers were these before they moved)."""
    assert R.COURSE_FIGURE6 == (200, 4, 0)
    assert (GT.COURSE_CHARS, GT.COURSE_K, GT.COURSE_KS, GT.COURSE_UN_K) == (
        300_000, 400, (100, 200, 400, 800), 1000)
    assert (GE.COURSE_LINES, GE.COURSE_BPE_SIZE, GE.COURSE_SEEDS) == (4000, 1024, (0, 1))
