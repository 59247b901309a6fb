"""figures/ only draws: an import allow-list, checked on every module (and on a synthetic one).

A module of ``workbench/figures/`` may import

* plotting and display libraries — ``matplotlib``, ``plotly``, ``ipywidgets``, ``IPython``,
  ``anywidget`` and its ``traitlets`` (the in-place plotly view), ``PIL``, ``tqdm`` (a
  progress bar) — ``numpy`` (a figure's data are arrays) and
  ``pandas`` (a table is drawn as a DataFrame), and the standard library;
* its siblings, ``workbench.figures.*`` (``common``'s colours and labels, ``panel``'s UI, …);
* from the rest of the package, only what draws or describes data, not what computes it:
  **classes** (result records such as ``SkewPanel`` and domain types such as ``Lattice``,
  for ``isinstance`` and annotations) and **constants** (grids, limits, names);
* and the functions of :data:`NAMED`, each with its reason (writing a drawn figure to a
  file, the vocabularies a reader picks in a panel, where a τ sits on the skew axis).

Any other function imported from the package is computation: it belongs to
``workbench.experiments`` (or the domain), and the notebook passes its result (or, for a
panel, the function itself) to the figure. No violation is tolerated: a figures module
re-exports no computation.
"""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

import workbench

FIGURES = Path(workbench.__file__).parent / "figures"

LIBRARIES = {"matplotlib", "plotly", "ipywidgets", "IPython", "anywidget", "traitlets", "PIL",
             "numpy", "pandas", "tqdm"}

#: package functions a figure may call, and why each draws rather than computes
NAMED = {
    "workbench.experiments.grampa_skew.skew_coordinate":
        "where a τ sits on the skew axis (−1/τ, footnote 10): a coordinate, not a law",
    "workbench._core.io.atomic_write": "writing a drawn figure or its caption to a file",
    "workbench._core.io.write_atomic": "writing a drawn figure or its caption to a file",
    "workbench._core.io.check_output_path": "where a drawn figure is written",
    "workbench._core.validate.check_choice": "panel.py: the save button's file format",
    "workbench.datasets.catalog.vocabulary_options": "the vocabularies a panel offers",
    "workbench.datasets.catalog.vocabulary_from_bytes": "a vocabulary a reader uploads",
    "workbench.datasets.catalog.vocabulary_from_text": "a vocabulary a reader pastes",
    "workbench.lattice.format_segmentation": "how a segmentation is written (the CLI's words)",
    "workbench.experiments.prefetch.setting_key":
        "a panel's setting as the key it is computed ahead by (its arguments, sorted)",
}

#: modules that compose data and plots, as a notebook does, with the reason
COMPOSERS = {
    "paper_figures.py": "python -m workbench figures: takes data from experiments and plots "
                        "from figures, as a notebook does",
}

def _resolve(module: str, level: int, path: Path, package_root: Path) -> str:
    """The absolute module of an import in ``path`` (``from ..x import y`` → ``workbench.x``),
    ``package_root`` being the ``workbench`` directory."""
    if not level:
        return module
    package = ["workbench", *path.relative_to(package_root).parent.parts]
    base = package[: len(package) - (level - 1)]
    return ".".join([*base, module] if module else base)


def _allowed(module: str, name: str | None) -> bool:
    """Whether importing ``name`` from ``module`` (or the module itself) is on the list."""
    top = module.split(".")[0]
    if top != "workbench":
        return top in LIBRARIES or top in sys.stdlib_module_names
    if module == "workbench.figures" or module.startswith("workbench.figures."):
        return True
    if name is None:  # ``import workbench.x``: a whole computing module
        return False
    if f"{module}.{name}" in NAMED:
        return True
    obj = getattr(importlib.import_module(module), name)
    return isinstance(obj, type) or not callable(obj)


def import_violations(path: Path, package_root: Path = FIGURES.parent) -> set[str]:
    """Every import of ``path`` (module level or inside functions) not on the allow-list,
    as ``module.name`` (or ``module``); ``package_root`` is the ``workbench`` directory
    relative imports start from."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if not _allowed(alias.name, None)}
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(node.module or "", node.level, path, package_root)
            for alias in node.names:
                target = f"{module}.{alias.name}"
                if importlib.util.find_spec(module) is not None and _is_module(target):
                    ok = _allowed(target, None)
                else:
                    ok = _allowed(module, alias.name)
                if not ok:
                    found.add(target)
    return found


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def test_figures_import_only_what_draws() -> None:
    found = {p.name: import_violations(p) for p in sorted(FIGURES.glob("*.py"))
             if p.name not in COMPOSERS}
    assert {name: sorted(v) for name, v in found.items() if v} == {}, "figures import computation"


def test_named_exceptions_exist() -> None:
    for target in NAMED:
        module, _, name = target.rpartition(".")
        assert callable(getattr(importlib.import_module(module), name)), target
    assert all((FIGURES / name).is_file() for name in COMPOSERS)


def test_the_checker_finds_computation(tmp_path: Path) -> None:
    figures = tmp_path / "workbench" / "figures"
    figures.mkdir(parents=True)
    bad = figures / "bad.py"
    bad.write_text(
        "import json\n"
        "import numpy as np\n"
        "import scipy.stats\n"                                    # not a plotting library
        "import workbench.stats\n"                                 # a computing module
        "from matplotlib.figure import Figure\n"
        "from ..experiments.grampa_skew import SkewPanel, TAU_GRID, skew_panel\n"
        "from ..grampa import arc_probabilities\n"
        "from .common import tau_label\n"
        "from ..experiments.grampa_skew import skew_coordinate\n"
        "def f():\n"
        "    from ..stats import tv_distance\n"                    # inside a function too
        "    return tv_distance\n", encoding="utf-8")
    root = tmp_path / "workbench"
    assert import_violations(bad, root) == {
        "scipy.stats", "workbench.stats", "workbench.experiments.grampa_skew.skew_panel",
        "workbench.grampa.arc_probabilities", "workbench.stats.tv_distance"}
    good = figures / "good.py"
    good.write_text("from ..experiments.grampa_skew import SkewPanel, TAU_GRID\n"
                    "from ..lattice.summary import LatticeSummary\n"
                    "from . import common\n", encoding="utf-8")
    assert import_violations(good, root) == set()


@pytest.mark.parametrize("module", ["lattice", "lattice_plotly", "skew_plots", "skew_plotly",
                                    "skew_widget"])
def test_notebook_01_02_modules_re_export_nothing(module: str) -> None:
    """Notebooks import ``experiments`` for data and ``figures`` for plots: what a figures
    module lists as public is defined in it."""
    mod = importlib.import_module(f"workbench.figures.{module}")
    foreign = [name for name in mod.__all__
               if getattr(getattr(mod, name), "__module__", mod.__name__) != mod.__name__]
    assert foreign == []
