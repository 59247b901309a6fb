"""workbench.figures.panel: the one interactive_panel, its controls, same_result, the upload box
(with the vocabulary catalog and segmentation wording it relies on)."""

from __future__ import annotations

import subprocess
import sys

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from workbench import Vocabulary  # noqa: E402
from workbench.datasets import figure1_vocabulary, vocabulary_options  # noqa: E402
from workbench.experiments.grampa_uniform_laws import uniform_laws_panel  # noqa: E402
from workbench.figures import uniform_laws  # noqa: E402
from workbench.figures.common import figure_data  # noqa: E402
from workbench.figures.panel import (  # noqa: E402
    interactive_panel,
    panel_controls,
    same_result,
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
        uniform_laws_panel, uniform_laws.plot_uniform_laws,
        n=ipywidgets.IntSlider(value=6, min=2, max=20), n_samples=ipywidgets.fixed(500),
        seed=ipywidgets.fixed(0))
    controls = panel_controls(panel)
    assert set(controls) == {"n"}
    for n in (6, 13):
        controls["n"].value = n
        assert same_result(panel.result, uniform_laws_panel(n, 500, 0))
        shown = figure_data(panel.last_figure)["m-samples"]
        assert shown == pytest.approx(panel.result["m"]["freq"])
    with pytest.raises(TypeError):
        interactive_panel(uniform_laws_panel, uniform_laws.plot_uniform_laws,
                          nope=ipywidgets.IntSlider())


def test_import_workbench_does_not_import_matplotlib() -> None:
    code = ("import sys, workbench, workbench.theory, workbench.stats, workbench.datasets; "
            "print('matplotlib' in sys.modules, 'workbench.figures' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "False"]


def test_vocabulary_upload_and_policy(tmp_path) -> None:
    from workbench.datasets import resolve_vocabulary, vocabulary_from_bytes, vocabulary_from_text
    from workbench.experiments.grampa_lattice import lattice_view
    from workbench.figures.lattice import lattice_panel
    from workbench.lattice import format_segmentation, no_segmentation_reason

    v = Vocabulary(["a", "b", "ab"])
    v.save(tmp_path / "v.json")
    assert vocabulary_from_bytes("v.json", (tmp_path / "v.json").read_bytes()) == v
    with pytest.raises(ValueError, match="broken.json"):  # names the upload, not a temp path
        vocabulary_from_bytes("broken.json", b"{not json")
    with pytest.raises(ValueError, match="no tokens"):
        vocabulary_from_text("\n\n")
    with pytest.raises(ValueError, match="valid names: .*infinite"):
        resolve_vocabulary("no-such-vocabulary")
    assert format_segmentation(()) == "∅" and format_segmentation(("a", "b")) == "a | b"
    assert "to_alphabet" not in no_segmentation_reason("Ġ☃", resolve_vocabulary("bpe-8k"),
                                                       spelled=True)
    opts = vocabulary_options()
    panel = lattice_panel(lattice_view, opts, word="ab", vocabulary="figure-1")
    box = panel.vocabulary_upload
    upload, pasted, use, message = box.children
    pasted.value = "a\nb\nab"
    use.click()
    assert panel_controls(panel)["vocabulary"].value.startswith("pasted")
    assert panel.result.lattice.count == 2 and "3 tokens" in message.value
    upload.set_state({"value": [{"name": "bad.model", "type": "", "size": 3,
                                 "last_modified": 0, "content": b"xyz"}]})
    assert "bad.model" in message.value and "color" in message.value  # a message, no traceback


def test_panel_renders_once_and_saves(tmp_path, monkeypatch) -> None:
    import warnings

    from matplotlib.figure import Figure

    from workbench.figures.panel import render_outputs

    fig = Figure()
    fig.add_subplot().set_title("emoji \U0001F600 in a word")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a glyph warning would raise here
        bundles = render_outputs({"f": fig, "none": None})
    assert len(bundles) == 1 and "image/png" in bundles[0][0]
    monkeypatch.chdir(tmp_path)
    panel = interactive_panel(uniform_laws_panel, uniform_laws.plot_uniform_laws,
                              n=4, n_samples=100, seed=0)
    panel.save_button.click()
    assert list((tmp_path / "figures").glob("uniform_laws_panel-figure.png"))


def test_panel_is_ui_only_and_imports_no_notebook_module() -> None:
    """figures.panel imports no figures module but its own view (the figures modules import
    it), neither at the top nor inside a function; importing it loads neither matplotlib nor
    ipywidgets (nor anywidget)."""
    from importgraph import import_edges

    reached = import_edges()["workbench.figures.panel"]
    own = {"workbench.figures.panel_view", "workbench.figures.plotly_view"}
    assert not [m for m in reached if m.startswith("workbench.figures") and m not in own], reached
    assert "workbench.datasets.catalog" in reached
    code = ("import sys, workbench.figures.panel; print(sorted(m for m in sys.modules if "
            "m.startswith('workbench.figures') or m.split('.')[0] in "
            "('matplotlib', 'ipywidgets', 'anywidget')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == ("['workbench.figures', 'workbench.figures.panel', "
                   "'workbench.figures.panel_view']")


def test_panel_height_never_shrinks() -> None:
    """Issue 21 item 4: 01's output area went 1059 → 726 → 396 px, and the page jumped."""
    import ipywidgets as widgets
    from matplotlib.figure import Figure

    from workbench.figures.panel import PANEL_MIN_HEIGHT, interactive_panel, set_panel_values

    def draw(rows: int) -> Figure:
        print("\n".join("line" for _ in range(rows)))
        return Figure(figsize=(3, 1 + rows / 10))

    panel = interactive_panel(lambda rows: rows, draw,
                              rows=widgets.IntSlider(value=30, min=0, max=40))
    tall = int(panel.out.layout.min_height.removesuffix("px"))
    assert tall > PANEL_MIN_HEIGHT  # the first result already sets the height
    set_panel_values(panel, rows=0)
    assert int(panel.out.layout.min_height.removesuffix("px")) == tall
    set_panel_values(panel, rows=40)
    taller = int(panel.out.layout.min_height.removesuffix("px"))
    assert taller > tall
    set_panel_values(panel, rows=5)
    assert int(panel.out.layout.min_height.removesuffix("px")) == taller


def test_panel_updates_figures_in_place() -> None:
    """Issue 27 item 5: each item keeps its widget step after step: a matplotlib figure one
    HTML widget whose PNG is replaced, a plotly figure one output holding, from the first
    change on, one PlotlyView whose figure is replaced; an item ``draw`` returns unchanged is
    not touched; text printed by ``draw`` is shown above; the panel's output area is never
    cleared."""
    import ipywidgets as widgets
    import plotly.graph_objects as go
    from matplotlib.figure import Figure

    from workbench.figures.panel import interactive_panel, set_panel_values
    from workbench.figures.plotly_view import PlotlyView, figure_json

    fixed = Figure(figsize=(2, 2))
    fixed.add_subplot().plot([0, 1])

    def draw(r: tuple[int, str]) -> dict:
        n, kind = r
        print(f"n = {n}")
        fig = go.Figure()
        for i in range(n % 3 + 1):
            if kind == "bar" and i == 1:
                fig.add_bar(x=np.arange(n), y=np.arange(n) ** i, name=f"b{i}")
            else:
                fig.add_scatter(x=np.arange(n), y=np.arange(n) ** i, name=f"t{i}",
                                text=[str(n)] * n if n % 2 else None)
        fig.update_layout(title=f"n = {n}", height=300 + n,
                          **({"xaxis_title": "x"} if n % 2 else {}))
        mpl = Figure(figsize=(2, 2))
        mpl.add_subplot().plot(range(n))
        return {"graph": fig, "sketch": mpl, "fixed": fixed, "none": None}

    panel = interactive_panel(lambda n, kind: (n, kind), draw,
                              n=widgets.IntSlider(value=3, min=1, max=20),
                              kind=widgets.Dropdown(options=["scatter", "bar"]))
    first = dict(panel.view.widgets)
    assert list(first) == ["graph", "sketch", "fixed"]
    assert isinstance(first["graph"], widgets.Output)
    fixed_png = first["fixed"].value
    pngs = {first["sketch"].value}
    assert panel.view.slots[0]["view"] is None  # plotly's mime bundle until the first change
    views = set()
    steps = [(4, "bar"), (5, "scatter"), (2, "bar"), (7, "bar"), (7, "scatter"), (3, "scatter")]
    for n, kind in steps:
        set_panel_values(panel, n=n, kind=kind)
        shown = panel.view.widgets
        assert all(shown[name] is first[name] for name in first)  # updated, not replaced
        view = panel.view.slots[0]["view"]
        assert isinstance(view, PlotlyView) and view.figure == figure_json(
            panel.last_figures["graph"]), (n, kind)  # what the graph shows
        views.add(view)
        assert shown["fixed"].value is fixed_png  # same object returned: not touched
        assert panel.view.text.value == f"<pre>n = {n}</pre>"
        pngs.add(shown["sketch"].value)
    assert len(pngs) == 5  # n = 3, 4, 5, 2, 7: the PNG follows the slider
    assert len(views) == 1  # one view, its figure replaced (Plotly.react), never re-displayed
    assert panel.clear_output is False  # the view is displayed once, never cleared


def test_panel_steps_outside_its_output_area(monkeypatch) -> None:
    """Issue 27 item 5: a step enters the panel's output area (an ``Output`` widget: two
    messages to the page, ``msg_id`` set and cleared) only to show something new there: the
    first result, a traceback, the widgets again after it. An exception keeps the last
    result; text written to stderr (a warning) is shown with the printed text; plotly
    figures are updated after the other items (a table does not wait for the page's
    ``Plotly.react``)."""
    import ipywidgets as widgets
    import matplotlib.pyplot as plt
    import pandas as pd
    import plotly.graph_objects as go

    from workbench.figures.panel import set_panel_values

    plt.close("all")  # figures another test left open in pyplot would be shown (entered)
    entered: list[object] = []
    enter = widgets.Output.__enter__
    monkeypatch.setattr(widgets.Output, "__enter__",
                        lambda self: (entered.append(self), enter(self))[1])
    def compute(n: int) -> int:
        if n == 3:
            raise ValueError("three")
        if n == 4:
            print("four", file=sys.stderr)  # as a warning is shown
        return n

    def draw(n: int) -> dict:
        return {"graph": go.Figure(go.Scatter(y=[0, n])), "table": pd.DataFrame({"n": [n]})}

    panel = interactive_panel(compute, draw, n=widgets.IntSlider(value=1, min=0, max=9))
    assert entered.count(panel.out) == 1  # the first display
    set_panel_values(panel, n=2)
    set_panel_values(panel, n=5)
    assert entered.count(panel.out) == 1 and panel.result == 5
    table = panel.view.widgets["table"]
    view = panel.view.slots[0]["view"]
    order: list[str] = []
    table.observe(lambda _c: order.append("table"), names="value")
    view.observe(lambda _c: order.append("graph"), names="figure")
    set_panel_values(panel, n=6)
    assert order == ["table", "graph"]
    set_panel_values(panel, n=3)  # the traceback is shown in the area; the result kept
    assert entered.count(panel.out) == 2 and panel.result == 6
    set_panel_values(panel, n=4)  # displayed anew after the error
    assert entered.count(panel.out) == 3 and panel.result == 4
    assert "four" in panel.view.text.value


def test_float_sliders_reach_compute_on_their_step_grid() -> None:
    """Issue 27: in the page, 3.0 → 3.1 → back is 3.0000000000000004 (noUiSlider's binary
    arithmetic): notebook 10's panel computed other floats after a step back. A value within
    1e-9 of a step of the grid is put on it; one off the grid (set by code) is left alone."""
    import ipywidgets as widgets

    from workbench.figures.panel import on_step_grid, set_panel_values

    assert on_step_grid(3.0000000000000004, 1.1, 0.1) == 3.0
    assert on_step_grid(0.30000000000000004, 0.0, 0.005) == 0.3
    assert on_step_grid(3e-05 + 1e-16, 0.0, 1e-05) == 3e-05
    assert on_step_grid(0.1 + 1e-6, 0.0, 0.1) == 0.1 + 1e-6  # off the grid
    assert on_step_grid(0.2345678, 0.0, 0.005) == 0.2345678
    assert on_step_grid(7.0000001, 0.0, 0.0) == 7.0000001
    assert np.isnan(on_step_grid(float("nan"), 0.0, 0.1))
    seen: list[object] = []

    def compute(a: float, r: tuple[float, float], n: int) -> float:
        seen.append((a, r, n))
        return a

    panel = interactive_panel(
        compute, lambda a: None, a=widgets.FloatSlider(value=3.0, min=1.1, max=6.0, step=0.1),
        r=widgets.FloatRangeSlider(value=(0.2, 0.4), min=0.0, max=1.0, step=0.1),
        n=widgets.IntSlider(value=3))
    set_panel_values(panel, a=3.0000000000000004, r=(0.30000000000000004, 0.4))
    assert seen[-1] == (3.0, (0.3, 0.4), 3) and panel.result == 3.0
    set_panel_values(panel, a=2.34567)  # set by code, off the grid: as it is
    assert seen[-1][0] == 2.34567
