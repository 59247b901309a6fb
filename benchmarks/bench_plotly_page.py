"""Notebook 02's four plotly figures redrawn in a bare Chromium page (no Jupyter).

Two measurements, with the plotly.js the ``plotly`` package ships and the system Chromium:

* *redraw*: the median ``Plotly.react`` of each figure between two settings (τ = 1 ↔ ℓ_min = 2),
  with plotly's whole template and with the one :func:`workbench.figures.plotly_view.figure_json`
  sends (the defaults of absent trace types left out), after warming (``--reps`` redraws);
* *first redraws*: in a fresh page, the first three redraws of each figure after it is drawn,
  without and with :data:`workbench.figures.plotly_view.WARM_JS`'s warm-up (each figure
  redrawn 5 times off the page first), the pages alternated ``--repeats`` times.

What it does not time: Jupyter, the kernel, the messages (``benchmarks/bench_browser_step.py``
and ``tests/app/test_browser.py`` do). Usage::

    python benchmarks/bench_plotly_page.py --repeats 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

_SETUP_JS = """async ([figs]) => {
  for (const [n, f] of Object.entries(figs)) {
    const gd = document.createElement('div'); gd.id = n; document.body.appendChild(gd);
    gd.style.cssText = `width:${f.layout.width}px;height:${f.layout.height}px;contain:strict`;
  }
}"""
_REDRAW_JS = """async ([a, b, reps]) => {
  const copy = (x) => JSON.parse(JSON.stringify(x)), out = {};
  for (const n of Object.keys(a)) {
    const gd = document.getElementById(n);
    await Plotly.newPlot(gd, copy(a[n].data), copy(a[n].layout));
    const ts = [];
    for (let i = 0; i < reps; i++) {
      const f = i % 2 ? a[n] : b[n], t = performance.now();
      await Plotly.react(gd, copy(f.data), copy(f.layout));
      document.body.offsetHeight;
      ts.push(performance.now() - t);
    }
    ts.sort((x, y) => x - y);
    out[n] = ts[Math.floor(ts.length / 2)];
  }
  return out;
}"""
_FIRST_JS = """async ([a, b, texts, warm]) => {
  const copy = (x) => JSON.parse(JSON.stringify(x)), out = {};
  for (const n of Object.keys(a))
    await Plotly.newPlot(document.getElementById(n), copy(a[n].data), copy(a[n].layout));
  if (warm) {
    for (const t of texts) warmPlotly(Plotly, t);
    const w = window.workbenchPlotlyWarm;
    while (w.running || w.timer !== undefined) await new Promise(r => setTimeout(r, 20));
  }
  for (const f of [b, a, b]) for (const n of Object.keys(a)) {
    const t = performance.now();
    await Plotly.react(document.getElementById(n), copy(f[n].data), copy(f[n].layout));
    document.body.offsetHeight;
    (out[n] = out[n] || []).push(performance.now() - t);
  }
  return out;
}"""


def _figures() -> tuple[dict, dict, dict, dict]:
    """02's figures at τ = 1 and at ℓ_min = 2 (ulm-8k, " tokenisation"), as sent and whole."""
    import plotly.io as pio

    from workbench.datasets.catalog import vocabulary_options
    from workbench.experiments import grampa_skew as skew
    from workbench.figures import skew_widget
    from workbench.figures.panel import set_panel_values
    from workbench.figures.plotly_view import figure_json

    panel = skew_widget.skew_widget(skew.skew_summary, vocabulary_options(),
                                    word=" tokenisation", vocabulary="ulm-8k")
    sent, whole = [], []
    for setting in ({"tau": 1.0, "ell_min": 1}, {"tau": 1.0, "ell_min": 2}):
        set_panel_values(panel, **setting)
        figs = panel.last_figures
        sent.append({n: json.loads(figure_json(f)) for n, f in figs.items()})
        whole.append({n: json.loads(pio.to_json(f, validate=False, remove_uids=True))
                      for n, f in figs.items()})
    return sent[0], sent[1], whole[0], whole[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="fresh pages per case")
    parser.add_argument("--reps", type=int, default=21, help="redraws per figure (median)")
    args = parser.parse_args()

    import contextlib
    import io

    import plotly
    from browserkit import chromium
    from playwright import sync_api

    from workbench.figures.plotly_view import WARM_JS

    with contextlib.redirect_stdout(io.StringIO()):  # the panel displays itself
        a, b, a_whole, b_whole = _figures()
    plotly_js = (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_text()
    texts = [json.dumps(f) for f in a.values()]

    def page(browser):
        p = browser.new_page(viewport={"width": 1400, "height": 1000})
        p.set_content("<html><body></body></html>")
        p.add_script_tag(content=plotly_js)
        p.add_script_tag(content=WARM_JS)
        p.evaluate(_SETUP_JS, [a])
        return p

    with chromium(sync_api) as browser:
        for label, (x, y) in (("whole template", (a_whole, b_whole)), ("as sent", (a, b))):
            p = page(browser)
            ms = p.evaluate(_REDRAW_JS, [x, y, args.reps])
            p.close()
            print(f"redraw, {label:14s}: " + ", ".join(f"{n} {v:.1f}" for n, v in ms.items())
                  + " ms (median)")
        firsts: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(args.repeats):
            for warm in (False, True):
                p = page(browser)
                ms = p.evaluate(_FIRST_JS, [a, b, texts, warm])
                p.close()
                firsts[warm].append(sum(v[0] for v in ms.values()))
        for warm, totals in firsts.items():
            print(f"first redraw of all four, {'with' if warm else 'without'} warm-up: median "
                  f"{statistics.median(totals):.0f} ms over {len(totals)} pages "
                  f"({', '.join(f'{t:.0f}' for t in totals)})")


if __name__ == "__main__":
    main()
