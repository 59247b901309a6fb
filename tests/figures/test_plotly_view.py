"""workbench.figures.plotly_view: the in-place plotly widget (its traitlet, the plotly.js it
sends on request, its static fallback). The browser test (tests/app/test_browser.py) checks
that the graph follows the sliders in JupyterLab and Voilà."""

from __future__ import annotations

import json

import pytest

go = pytest.importorskip("plotly.graph_objects")
pytest.importorskip("anywidget")

from workbench.figures.plotly_view import ESM, PlotlyView, figure_json, freeze  # noqa: E402


def test_figure_json_leaves_out_uids() -> None:
    a, b = go.Figure(go.Scatter(y=[1, 2])), go.Figure(go.Scatter(y=[1, 2]))
    a.data[0].uid, b.data[0].uid = "one", "two"
    assert figure_json(a) == figure_json(b) and "uid" not in figure_json(a)
    assert figure_json(a) != figure_json(go.Figure(go.Scatter(y=[1, 3])))


def test_show_sends_only_a_changed_figure() -> None:
    view = PlotlyView(go.Figure(go.Bar(y=[1, 2]), layout={"height": 300}))
    sent = []
    view.observe(lambda change: sent.append(change["new"]), names="figure")
    assert not view.show(go.Figure(go.Bar(y=[1, 2]), layout={"height": 300}))
    assert view.show(go.Figure(go.Bar(y=[2, 1]), layout={"height": 300}))
    assert len(sent) == 1 and json.loads(sent[0])["layout"]["height"] == 300


def test_plotly_js_is_sent_on_request_only(monkeypatch) -> None:
    import plotly.offline

    view = PlotlyView()
    sent = []
    monkeypatch.setattr(view, "send", sent.append)
    view._answer(view, {"request": "something else"}, [])
    assert sent == []
    view._answer(view, {"request": "plotly.js"}, [])
    assert sent == [{"plotly_js": plotly.offline.get_plotlyjs()}]


def test_static_fallback_is_plotly_mime_bundle() -> None:
    fig = go.Figure(go.Scatter(y=[3, 1]))
    data, _meta = PlotlyView(fig)._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["application/vnd.plotly.v1+json"] == json.loads(figure_json(fig))
    data, _meta = PlotlyView()._repr_mimebundle_()
    assert "application/vnd.plotly.v1+json" not in data


def test_view_updates_with_plotly_react() -> None:
    """The ESM changes the graph in place and loads plotly.js once per page."""
    assert "Plotly.react" in ESM and "patchFigure(graph, shown" in ESM
    # drawn anew (newPlot) only after a patch that failed half way
    assert ESM.count("newPlot") == 2 and "anew ? Plotly.newPlot : Plotly.react" in ESM
    assert 'model.on("change:figure"' in ESM and "window.workbenchPlotly" in ESM
    # graphs changed before the next frame are redrawn in it, together; tick labels are
    # not measured one by one against the div's edge
    assert "requestAnimationFrame" in ESM and "window.workbenchPlotlyQueue" in ESM
    assert 'ticklabeloverflow = "allow"' in ESM


def test_panel_starts_with_the_view_when_a_front_end_is_connected(monkeypatch) -> None:
    """Without a live front end (nbconvert) a plotly slot first shows plotly's bundle, which a
    static page can draw; with one (JupyterLab, Voilà) the view."""
    import ipywidgets

    from workbench.figures.panel import interactive_panel, set_panel_values
    from workbench.figures.panel_view import widgets_drawn_live

    def draw(n: int) -> go.Figure:
        return go.Figure(go.Scatter(y=list(range(n))))

    for name in ("JPY_SESSION_NAME", "VOILA_PREHEAT"):
        monkeypatch.delenv(name, raising=False)
    assert not widgets_drawn_live()
    cold = interactive_panel(lambda n: n, draw, n=ipywidgets.IntSlider(value=2, max=9))
    assert cold.view.slots[0]["view"] is None
    monkeypatch.setattr(ipywidgets.Widget, "_control_comm", object())
    assert widgets_drawn_live()
    monkeypatch.setattr(ipywidgets.Widget, "_control_comm", None)
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    assert widgets_drawn_live()
    monkeypatch.delenv("VOILA_PREHEAT")
    monkeypatch.setenv("JPY_SESSION_NAME", "notebooks/05_rejection_cost.ipynb")
    assert widgets_drawn_live()
    live = interactive_panel(lambda n: n, draw, n=ipywidgets.IntSlider(value=2, max=9))
    view = live.view.slots[0]["view"]
    assert isinstance(view, PlotlyView) and view.figure == figure_json(draw(2))
    set_panel_values(live, n=5)
    assert live.view.slots[0]["view"] is view and view.figure == figure_json(draw(5))


def test_a_frozen_figure_is_serialised_once() -> None:
    """freeze stores the JSON figure_json gives; figure_json then returns it (a panel's figure
    drawn ahead costs the step that shows it no serialising); a copy is not frozen."""
    import copy

    fig = go.Figure(go.Scatter(y=[1, 2, 3]))
    before = figure_json(fig)
    assert freeze(fig) is fig and figure_json(fig) == before
    fig.update_layout(title="changed after freezing")  # documented: not sent
    assert figure_json(fig) == before
    assert figure_json(copy.deepcopy(fig)) != before


def test_a_panel_draw_freezes_its_plotly_figures() -> None:
    """The panel's draw (what warm_neighbours is given) serialises each plotly figure once,
    and what it stores is the figure's own JSON."""
    import ipywidgets
    import plotly.io as pio

    from workbench.figures.panel import interactive_panel

    panel = interactive_panel(lambda n: n, lambda n: {"a": go.Figure(go.Bar(y=[n])), "b": None},
                              n=ipywidgets.IntSlider(value=2, min=0, max=5))
    shown = panel.draw(4)["a"]
    stored = json.loads(shown.__dict__["_workbench_json"])
    whole = json.loads(pio.to_json(shown, validate=False, remove_uids=True))
    # the figure's own JSON, but for the template's defaults of trace types it has none of
    assert set(stored["layout"]["template"]["data"]) == {"bar"}
    whole["layout"]["template"]["data"] = {"bar": whole["layout"]["template"]["data"]["bar"]}
    assert stored == whole
    assert panel.last_figures["a"].__dict__["_workbench_json"] == figure_json(
        go.Figure(go.Bar(y=[2])))
