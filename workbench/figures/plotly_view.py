"""A plotly figure as a widget updated in place with ``Plotly.react`` (an anywidget; UI only).

:class:`PlotlyView` holds a figure's JSON in one synchronised traitlet; its view (JavaScript,
:data:`ESM`) draws it with ``Plotly.react``, which changes the traces and layout of the
graph it has instead of building a new one. plotly.js is the one the ``plotly`` Python
package ships: the view uses ``window.Plotly`` when the page has it (JupyterLab's and Voilà's
plotly renderer set it once they have drawn a plotly figure), else asks the kernel once per
page for ``plotly.min.js`` and runs it as a classic script. Nothing is downloaded.
What the page does per update is kept small: every graph changed before the page's next
frame is redrawn in that frame (one layout and paint of the page for a panel's step, not
one per graph), a figure of fixed size is laid out on its own (CSS containment) and its tick
labels are not measured one by one (``ticklabeloverflow`` "allow" unless the figure sets
it). :func:`freeze` serialises a figure once, when it is drawn, not on the step showing it.

It is not plotly's ``FigureWidget``: with plotly 7.1 and anywidget 0.11 in JupyterLab 4
that widget's view draws the first figure and applies none of the updates the kernel sends.
Where no widget can be drawn (nbconvert, a static page), :meth:`PlotlyView._repr_mimebundle_`
also offers the figure as plotly's mime bundle. This module draws no figure itself and
knows nothing of panels (:mod:`workbench.figures.panel_view` uses it).
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

__all__ = ["ESM", "PlotlyView", "figure_json", "freeze"]

ESM = r"""
function loadPlotly(model) {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!window.workbenchPlotly) {
    // once per page: the kernel sends plotly.min.js, run as a classic script (AMD's
    // `define` hidden, so the bundle sets window.Plotly)
    window.workbenchPlotly = new Promise((resolve, reject) => {
      const onMessage = (msg) => {
        if (!msg || typeof msg.plotly_js !== "string") return;
        model.off("msg:custom", onMessage);
        try {
          if (!window.Plotly) {
            const define = window.define;
            window.define = undefined;
            const script = document.createElement("script");
            script.textContent = msg.plotly_js;
            document.head.appendChild(script);
            window.define = define;
          }
          window.Plotly ? resolve(window.Plotly) : reject(new Error("plotly.js did not load"));
        } catch (err) {
          reject(err);
        }
      };
      model.on("msg:custom", onMessage);
      model.send({ request: "plotly.js" });
    });
  }
  return window.workbenchPlotly;
}

// Every graph changed before the page's next frame is redrawn in that frame, one after
// another in one task: the browser then lays out and paints the page once for all of them,
// not once per graph (a panel's step changes up to four graphs, whose messages arrive while
// the first one is drawn). A timer stands in for the frame in a hidden tab.
function schedule(redraw) {
  const q = window.workbenchPlotlyQueue || (window.workbenchPlotlyQueue = {
    pending: new Set(), armed: false,
    flush() {
      if (!q.armed) return;
      q.armed = false;
      const due = [...q.pending];
      q.pending.clear();
      for (const f of due) f();
    },
  });
  q.pending.add(redraw);
  if (!q.armed) {
    q.armed = true;
    requestAnimationFrame(() => q.flush());
    setTimeout(() => q.flush(), 100);
  }
}

async function render({ model, el }) {
  const graph = document.createElement("div");
  graph.classList.add("workbench-plotly-view");
  el.appendChild(graph);
  const Plotly = await loadPlotly(model);
  // one Plotly.react at a time per graph; a change arriving meanwhile is drawn after it
  // (the latest only)
  let busy = null, again = false, drawn = null, gone = false;
  const react = async () => {
    do {
      if (gone) return;  // the view was removed while its redraw waited for the frame
      again = false;
      const text = model.get("figure") || "{}";
      if (text === drawn) continue;
      const fig = JSON.parse(text);
      const layout = fig.layout || {};
      // a figure of fixed size is laid out and painted on its own (CSS containment): the
      // text plotly.js measures while it draws then lays out this graph, not the whole page
      if (layout.width > 0 && layout.height > 0) {
        graph.style.width = `${layout.width}px`;
        graph.style.height = `${layout.height}px`;
        graph.style.contain = "strict";
      } else {
        graph.style.width = graph.style.height = graph.style.contain = "";
      }
      // tick labels kept where plotly.js would measure each one against the div's edge to
      // hide it (its default, "hide past div"): one forced layout per label
      for (const key of Object.keys(layout)) {
        if (/^[xy]axis[0-9]*$/.test(key) && layout[key].ticklabeloverflow === undefined) {
          layout[key].ticklabeloverflow = "allow";
        }
      }
      // plotly's default config, as JupyterLab's plotly renderer draws the first figure
      await Plotly.react(graph, fig.data || [], layout, fig.config || {});
      // the figure as the kernel sent it, drawn (plotly.js writes what it computes, e.g.
      // autoranges, into graph.layout; the browser test compares this instead)
      drawn = text;
      graph.workbenchFigure = text;
    } while (again);
  };
  const draw = () => {
    if (busy) { again = true; return busy; }
    busy = react().finally(() => { busy = null; });
    return busy;
  };
  const onChange = () => { schedule(draw); };
  model.on("change:figure", onChange);
  await draw();
  return () => {
    gone = true;
    model.off("change:figure", onChange);
    Plotly.purge(graph);
  };
}

export default { render };
"""
"""The view's JavaScript module (anywidget's ``_esm``)."""


def figure_json(fig: Any) -> str:
    """A plotly figure as the JSON :class:`PlotlyView` sends (trace ``uid`` s left out, so
    equal figures give equal strings); for a figure :func:`freeze` has seen, the JSON it
    stored."""
    frozen = fig.__dict__.get("_workbench_json")
    if frozen is not None:
        return frozen
    import plotly.io as pio

    return pio.to_json(fig, validate=False, remove_uids=True)


def freeze(fig: Any) -> Any:
    """Store ``fig``'s :func:`figure_json` on it (once) and return ``fig``: a figure that
    will not change again (one a panel drew and keeps) is serialised when it is drawn, e.g.
    while a panel warms the settings next to its own, not again on the slider step that
    shows it. Changing a frozen figure afterwards does not change what is sent."""
    if fig.__dict__.get("_workbench_json") is None:
        fig.__dict__["_workbench_json"] = figure_json(fig)
    return fig


class PlotlyView(anywidget.AnyWidget):
    """A plotly figure drawn in the page and updated in place (``Plotly.react``).

    Parameters
    ----------
    fig : plotly.graph_objects.Figure, optional
        The figure shown first.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> view = PlotlyView(go.Figure(go.Scatter(y=[1, 3, 2])))
    >>> view.show(go.Figure(go.Scatter(y=[1, 3, 2]))), view.show(go.Figure())
    (False, True)
    """

    _esm = ESM
    figure = traitlets.Unicode("").tag(sync=True)

    def __init__(self, fig: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if fig is not None:
            self.show(fig)
        self.on_msg(self._answer)

    def show(self, fig: Any) -> bool:
        """Show ``fig``; return whether anything is sent (False when it is the figure shown)."""
        new = figure_json(fig)
        if new == self.figure:
            return False
        self.figure = new
        return True

    def _answer(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """Send plotly.js to a view that asks for it (a page without ``window.Plotly``)."""
        if isinstance(content, dict) and content.get("request") == "plotly.js":
            import plotly.offline

            self.send({"plotly_js": plotly.offline.get_plotlyjs()})

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget's view, and the figure as plotly's mime bundle for front ends that
        draw no widget."""
        import json

        bundle = super()._repr_mimebundle_(**kwargs)
        data, meta = bundle if isinstance(bundle, tuple) else (bundle, {})
        if self.figure:
            data = {**data, "application/vnd.plotly.v1+json": json.loads(self.figure)}
        return data, meta
