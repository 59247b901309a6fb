"""workbench.figures.panel_view: the display bundle of a plotly figure (the rest of the view
is tested with the panel, in ``test_panel.py``)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

go = pytest.importorskip("plotly.graph_objects")


def _figure() -> go.Figure:
    """Two traces with numpy data (plotly encodes arrays), a subplot and a set height."""
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=2, subplot_titles=("counts", "mass"))
    fig.add_trace(go.Scatter(x=np.arange(5), y=np.array([3.0, 1.5, 2.0, np.nan, 4.0]),
                             name="a"), row=1, col=1)
    fig.add_trace(go.Bar(x=["x", "y"], y=np.array([2, 7], dtype=np.int64), name="b"),
                  row=1, col=2)
    fig.update_layout(height=320, title="one figure")
    return fig


def test_plotly_bundle_is_what_plotlys_mime_renderer_made() -> None:
    """The bundle made without ``plotly.io.renderers`` equals the one that renderer made
    (the bundle ``make site`` and nbconvert stored before), plus the same text/plain."""
    import plotly.io as pio

    from workbench.figures.panel_view import _plotly_bundle, render_outputs

    fig = _figure()
    data, meta = _plotly_bundle(fig)
    old = pio.renderers["plotly_mimetype"].to_mimebundle(fig.to_dict())
    assert meta == {}
    assert data == {**old, "text/plain": "<plotly figure: 2 traces>"}
    assert data["application/vnd.plotly.v1+json"]["layout"]["height"] == 320
    assert render_outputs({"figure": fig}) == [(data, meta)]


def test_rendering_in_a_plain_process_leaves_it_as_it_was() -> None:
    """Outside IPython (a script, pytest), rendering a plotly figure, a table and a number,
    in bundles and in a panel's widgets, imports no ``plotly.io.renderers`` (it imports
    nbformat → jsonschema: about 3 s in a fresh kernel) and makes no IPython shell (one
    would replace ``sys.modules["__main__"]``: multiprocessing and Dask then fail)."""
    code = """if True:
        import sys
        main = sys.modules["__main__"]
        import plotly.graph_objects as go
        from IPython.core.interactiveshell import InteractiveShell
        from workbench.figures.panel_view import PanelView, render_outputs
        class Table:
            def _repr_html_(self):
                return "<table><tr><td>1</td></tr></table>"
        items = {"fig": go.Figure(go.Scatter(y=[1, 3, 2])), "table": Table(), "n": 7}
        bundles = render_outputs(items)
        view = PanelView()
        view.show(items, "")
        view.show({**items, "n": 8}, "")
        print(sorted(m for m in ("plotly.io._renderers", "nbformat", "jsonschema")
                     if m in sys.modules), InteractiveShell.initialized(),
              sys.modules["__main__"] is main, [sorted(data) for data, _ in bundles])
    """
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip().splitlines()[-1]
    assert out == ("[] False True [['application/vnd.plotly.v1+json', 'text/plain'], "
                   "['text/html', 'text/plain'], ['text/plain']]")
