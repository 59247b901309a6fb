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
it). A figure that differs from the one shown only in what :data:`PATCH_JS` can write into
the graph plotly.js drew (point text and hover text, ``layout.meta``, a markers-only trace, a
line shape or an annotation moved on a fixed linear axis) is not redrawn: plotly.js redraws
a whole graph for any change (20–60 ms), the patch takes about 1–5 ms. The result equals a
fresh draw of the new figure (``tests/figures/test_plotly_view_patch.py``, in Chromium).
Once a page has drawn its graphs, it redraws them a few times off the page while idle
(:data:`WARM_JS`): plotly.js's code is then optimised before a reader's first slider step,
whose redraws it makes 20–45 % faster.
:func:`freeze` serialises a figure once, when it is drawn, not on the step showing it.

It is not plotly's ``FigureWidget``: with plotly 7.1 and anywidget 0.11 in JupyterLab 4
that widget's view draws the first figure and applies none of the updates the kernel sends.
Where no widget can be drawn (nbconvert, a static page), :meth:`PlotlyView._repr_mimebundle_`
also offers the figure as plotly's mime bundle. This module draws no figure itself and
knows nothing of panels (:mod:`workbench.figures.panel_view` uses it).
"""

from __future__ import annotations

import json
from typing import Any

import anywidget
import traitlets

__all__ = ["ESM", "PATCH_JS", "WARM_JS", "PlotlyView", "figure_json", "freeze"]

PATCH_JS = r"""
// A figure drawn in place of the one shown, when what differs can be written into the graph
// plotly.js drew (its SVG, its copies of the figure and its per-point data) without a redraw:
// `layout.meta`; the text, hovertext and customdata of scatter points (equal lengths, plain
// text); the positions of a markers-only scatter trace, and line shapes' x0/x1 and
// annotations' x moved by the same distance, on linear axes of fixed range. A redraw costs
// plotly.js 20–60 ms per graph whatever changed (react, restyle and relayout alike); a move
// of notebook 02's τ slider changes only such parts of two of its three graphs. Returns
// whether the figure was patched; false (nothing touched) for any other difference.
function patchFigure(gd, from, to) {
  const ops = [];
  const plain = (v) => typeof v === "string" && !/[<>&$\n]/.test(v);
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const isList = (v) => Array.isArray(v);
  const full = gd._fullLayout;
  if (!full || !gd.calcdata || !gd._fullData) return false;
  const axisOf = (id) => full[String(id).replace(/^([xy])(\d*)$/,
                                                 (_, a, n) => `${a}axis${n === "1" ? "" : n}`)];
  const fixedLinear = (id) => {
    const ax = axisOf(id);
    return ax && ax.type === "linear" && ax.autorange === false && ax.r2p ? ax : null;
  };
  // layout: meta anywhere; shapes' x0/x1 and annotations' x; nothing else
  const fl = from.layout || {}, tl = to.layout || {};
  for (const key of new Set([...Object.keys(fl), ...Object.keys(tl)])) {
    if (same(fl[key], tl[key])) continue;
    if (key === "meta") {
      ops.push(() => { gd.layout.meta = tl.meta; full.meta = tl.meta; });
      continue;
    }
    if (key !== "shapes" && key !== "annotations") return false;
    const a = fl[key], b = tl[key];
    if (!isList(a) || !isList(b) || a.length !== b.length) return false;
    for (let k = 0; k < a.length; k++) {
      if (same(a[k], b[k])) continue;
      const moved = key === "shapes" ? ["x0", "x1"] : ["x"];
      for (const f of new Set([...Object.keys(a[k]), ...Object.keys(b[k])]))
        if (!moved.includes(f) && !same(a[k][f], b[k][f])) return false;
      const ax = fixedLinear(b[k].xref || "x");
      const numbers = moved.every((f) => typeof a[k][f] === "number"
                                  && typeof b[k][f] === "number");
      if (!ax || !numbers) return false;
      const dx = ax.r2p(b[k][moved[0]]) - ax.r2p(a[k][moved[0]]);
      if (key === "shapes") {
        const dx1 = ax.r2p(b[k].x1) - ax.r2p(a[k].x1);
        if (b[k].type !== "line" || Math.abs(dx1 - dx) > 1e-6) return false;
        const el = gd.querySelector(`.shapelayer path[data-index="${k}"]`);
        const m = el && /^M([-\d.e]+),([-\d.e]+)L([-\d.e]+),([-\d.e]+)$/.exec(el.getAttribute("d"));
        if (!m) return false;
        ops.push(() => {
          el.setAttribute("d", `M${+m[1] + dx},${m[2]}L${+m[3] + dx},${m[4]}`);
          for (const f of moved) gd.layout.shapes[k][f] = full.shapes[k][f] = b[k][f];
        });
      } else {
        const el = gd.querySelector(`.annotation[data-index="${k}"]`);
        if (!el) return false;
        ops.push(() => {
          const was = +(el.dataset.workbenchDx || 0);
          el.dataset.workbenchDx = String(was + dx);
          el.setAttribute("transform", `translate(${was + dx},0)`);
          gd.layout.annotations[k].x = full.annotations[k].x = b[k].x;
        });
      }
    }
  }
  // data: per scatter trace, text / hovertext / customdata, and x / y of a markers-only one
  const fd = from.data || [], td = to.data || [];
  if (fd.length !== td.length) return false;
  for (let i = 0; i < td.length; i++) {
    const a = fd[i], b = td[i];
    if (same(a, b)) continue;
    const trace = gd._fullData[i], cd = gd.calcdata[i];
    if (!trace || trace.index !== i || trace.type !== "scatter"
        || (b.type || "scatter") !== "scatter" || !cd || !gd.data[i]) return false;
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])]
      .filter((f) => !same(a[f], b[f]));
    const trg = gd.querySelector(`.scatterlayer .trace${trace.uid}`);
    if (!trg) return false;
    for (const f of keys) {
      if (!["text", "hovertext", "customdata", "x", "y"].includes(f)) return false;
      const va = a[f], vb = b[f];
      if (!isList(va) || !isList(vb) || va.length !== vb.length
          || cd.length !== vb.length) return false;
      if (f === "text") {
        if (!vb.every(plain) || !va.every(plain) || b.texttemplate !== undefined) return false;
        const nodes = [...trg.querySelectorAll(".textpoint text")];
        if (nodes.length !== vb.length
            || nodes.some((n) => !n.__data__ || !(n.__data__.i in vb))) return false;
        ops.push(() => {
          for (const n of nodes) {
            const s = vb[n.__data__.i];
            n.textContent = s;
            n.setAttribute("data-unformatted", s);
          }
          cd.forEach((p, j) => { p.tx = vb[j]; });
        });
      } else if (f === "hovertext") {
        if (!vb.every((v) => v === null || typeof v === "string")) return false;
        ops.push(() => cd.forEach((p, j) => { p.htx = vb[j]; }));
      } else if (f === "customdata") {
        ops.push(() => cd.forEach((p, j) => { p.data = vb[j]; }));
      } else {  // x or y: the points of a markers-only trace moved
        const ax = fixedLinear(f === "x" ? (trace.xaxis || "x") : (trace.yaxis || "y"));
        const points = [...trg.querySelectorAll(".point")];
        if (!ax || trace.mode !== "markers" || trace.error_x?.visible || trace.error_y?.visible
            || !vb.every((v) => typeof v === "number") || points.length !== vb.length
            || points.some((n) => !n.__data__ || !(n.__data__.i in vb))) return false;
        ops.push(() => {
          cd.forEach((p, j) => { p[f] = vb[j]; });
          const xa = axisOf(trace.xaxis || "x"), ya = axisOf(trace.yaxis || "y");
          for (const n of points) {
            const p = n.__data__;
            n.setAttribute("transform", `translate(${xa.c2p(p.x)},${ya.c2p(p.y)})`);
          }
        });
      }
      ops.push(() => { gd.data[i][f] = vb; trace[f] = vb; });
    }
  }
  if (!ops.length) return false;
  for (const op of ops) op();
  return true;
}
"""
"""The JavaScript function ``patchFigure(gd, from, to)`` the view runs before ``Plotly.react``
(see the module docstring); a string of its own so that a test can run it in a plain page."""

WARM_JS = r"""
// plotly.js runs slowly until V8 has optimised its code: a page's first redraws of a graph
// take longer than later ones (notebook 02's four graphs in a bare page: 20-45 % less after
// this warm-up; benchmarks/bench_plotly_page.py).
// warmPlotly(Plotly, text) queues a figure (its JSON) for a hidden graph, off the page, that
// redraws it WARM_REDRAWS times while the page is idle (one redraw per idle period, the
// figures taken in turn, at most WARM_BUDGET redraws per page), so that a reader's first
// slider steps find plotly.js's code warm. It starts WARM_AFTER ms after the last figure was
// queued, when the page has drawn what it opened with. Nothing of it is shown; the hidden
// graph is removed when the queue is done.
const WARM_REDRAWS = 5, WARM_BUDGET = 30, WARM_AFTER = 1500;
function warmPlotly(Plotly, text) {
  const w = window.workbenchPlotlyWarm || (window.workbenchPlotlyWarm = {
    queue: [], spent: 0, queued: 0, running: false, div: null});
  if (!text || text === "{}" || w.queued + WARM_REDRAWS > WARM_BUDGET) return;
  w.queued += WARM_REDRAWS;
  w.queue.push({text, left: WARM_REDRAWS});
  const idle = window.requestIdleCallback || ((f) => setTimeout(f, 200));
  if (w.running) return;
  if (w.timer !== undefined) clearTimeout(w.timer);  // the page is still drawing: later
  w.timer = setTimeout(() => {
    w.timer = undefined;
    w.running = true;
    idle(step);
  }, WARM_AFTER);
  const step = async () => {
    const job = w.queue.shift();
    if (!job) {
      if (w.div) { Plotly.purge(w.div); w.div.remove(); w.div = null; }
      w.running = false;
      return;
    }
    if (!w.div) {
      w.div = document.createElement("div");
      w.div.className = "workbench-plotly-warm";
      w.div.style.cssText = "position:absolute;left:-100000px;top:0;visibility:hidden;" +
                            "contain:strict;pointer-events:none";
      document.body.appendChild(w.div);
    }
    try {
      const fig = JSON.parse(job.text), layout = fig.layout || {};
      w.div.style.width = `${layout.width > 0 ? layout.width : 700}px`;
      w.div.style.height = `${layout.height > 0 ? layout.height : 450}px`;
      layout.datarevision = ++w.spent;  // a new revision: a whole redraw, as a step makes
      await Plotly.react(w.div, fig.data || [], layout);
      if (--job.left > 0) w.queue.push(job);  // the figures in turn
    } catch (err) {
      w.queue.length = 0;  // a figure plotly.js cannot draw off the page: stop warming
    }
    idle(step);
  };
}
"""
"""The JavaScript function ``warmPlotly(Plotly, text)`` the view calls after its first draw
(see the comment in it); a string of its own so that a test can run it in a plain page."""

ESM = PATCH_JS + WARM_JS + r"""
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
  let busy = null, again = false, drawn = null, shown = null, gone = false;
  const react = async () => {
    do {
      if (gone) return;  // the view was removed while its redraw waited for the frame
      again = false;
      const text = model.get("figure") || "{}";
      if (text === drawn) continue;
      const fig = JSON.parse(text);
      // what differs from the figure shown written into the graph, if it can be (patchFigure)
      let patched = false, anew = false;
      try {
        patched = shown !== null && patchFigure(graph, shown, JSON.parse(text));
      } catch (err) {
        anew = true;  // drawn anew below (Plotly.newPlot), whatever the patch left
      }
      if (patched) {
        shown = fig;
        drawn = text;
        graph.workbenchFigure = text;
        continue;
      }
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
      // plotly's default config, as JupyterLab's plotly renderer draws the first figure; a
      // figure without one passes none (react then keeps the graph's, instead of copying
      // and comparing plotly.js's whole default config on every redraw)
      await (anew ? Plotly.newPlot : Plotly.react)(graph, fig.data || [], layout, fig.config);
      shown = JSON.parse(text);  // as sent: plotly.js writes into the objects it was given
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
  warmPlotly(Plotly, drawn);
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
    """A plotly figure as the JSON :class:`PlotlyView` sends; for a figure :func:`freeze`
    has seen, the JSON it stored.

    Trace ``uid`` s are left out (equal figures give equal strings), and so are the
    template's defaults for trace types the figure has none of (plotly's default template
    carries them for some 30 types; plotly.js reads ``template.data[type]`` only for traces
    of that type, so the figure draws the same, and a bar chart's redraw is 10–25 % faster).

    >>> import plotly.graph_objects as go
    >>> sorted(json.loads(figure_json(go.Figure(go.Bar(y=[1]))))["layout"]["template"]["data"])
    ['bar']
    """
    frozen = fig.__dict__.get("_workbench_json")
    if frozen is not None:
        return frozen
    import plotly.io as pio

    spec = fig.to_dict()
    traces = spec.get("data") or []
    for trace in traces:
        trace.pop("uid", None)
    template = (spec.get("layout") or {}).get("template")
    if isinstance(template, dict) and isinstance(template.get("data"), dict):
        used = {trace.get("type", "scatter") for trace in traces}
        template["data"] = {kind: v for kind, v in template["data"].items() if kind in used}
    return pio.to_json(spec, validate=False)


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
        bundle = super()._repr_mimebundle_(**kwargs)
        data, meta = bundle if isinstance(bundle, tuple) else (bundle, {})
        if self.figure:
            data = {**data, "application/vnd.plotly.v1+json": json.loads(self.figure)}
        return data, meta
