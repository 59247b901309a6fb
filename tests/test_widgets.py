"""workbench.widgets: the one interactive_panel, its controls, same_result, vocabulary options."""

from __future__ import annotations

import subprocess
import sys

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from workbench import Vocabulary  # noqa: E402
from workbench.figures import uniform_laws  # noqa: E402
from workbench.figures.common import figure_data  # noqa: E402
from workbench.figures.lattice import figure1_vocabulary  # noqa: E402
from workbench.widgets import (  # noqa: E402
    interactive_panel,
    panel_controls,
    same_result,
    vocabulary_options,
)

SMALL = Vocabulary(["a", "b", "c", "ab", "bc", "abc", "ca"], name="small")


def test_vocabulary_options_always_offers_the_builtins() -> None:
    opts = vocabulary_options({"small": SMALL})
    assert list(opts)[-3:] == ["infinite", "figure-1", "small"]
    assert opts["figure-1"]() == figure1_vocabulary() and opts["infinite"]().is_infinite
    assert opts["small"]() is SMALL


def test_same_result() -> None:
    a = {"x": np.arange(3), "y": [("a", "b")], "z": None, "f": float("nan")}
    b = {"x": np.arange(3), "y": [("a", "b")], "z": None, "f": float("nan")}
    assert same_result(a, b)
    assert not same_result(a, {**b, "x": np.arange(4)})
    assert not same_result(a, {**b, "y": [["a", "b"]]})
    assert not same_result(a, {k: v for k, v in b.items() if k != "z"})
    assert not same_result(np.array([1.0]), [1.0])


def test_same_result_of_panels() -> None:
    a = {"x": np.array([1.0, np.nan]), "y": [1, (2, 3)], "z": {"k": 1.5}}
    b = {"x": np.array([1.0, np.nan]), "y": [1, (2, 3)], "z": {"k": 1.5}}
    assert same_result(a, b)
    assert not same_result(a, {**b, "z": {"k": 1.25}})
    assert not same_result(a, {**b, "x": np.array([1.0, 2.0])})
    assert not same_result(a, {k: v for k, v in b.items() if k != "y"})
    assert not same_result(np.zeros(2), np.zeros(3))
    assert same_result(float("nan"), float("nan"))


def test_interactive_panel_result_is_a_direct_call() -> None:
    ipywidgets = pytest.importorskip("ipywidgets")
    panel = interactive_panel(
        uniform_laws.uniform_laws_panel, uniform_laws.plot_uniform_laws,
        n=ipywidgets.IntSlider(value=6, min=2, max=20), n_samples=ipywidgets.fixed(500),
        seed=ipywidgets.fixed(0))
    controls = panel_controls(panel)
    assert set(controls) == {"n"}
    for n in (6, 13):
        controls["n"].value = n
        assert same_result(panel.result, uniform_laws.uniform_laws_panel(n, 500, 0))
        shown = figure_data(panel.last_figure)["m-samples"]
        assert shown == pytest.approx(panel.result["m"]["freq"])
    with pytest.raises(TypeError):
        interactive_panel(uniform_laws.uniform_laws_panel, uniform_laws.plot_uniform_laws,
                          nope=ipywidgets.IntSlider())


def test_import_workbench_does_not_import_matplotlib() -> None:
    code = ("import sys, workbench, workbench.theory, workbench.stats, workbench.widgets; "
            "print('matplotlib' in sys.modules, 'workbench.figures' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "False"]
