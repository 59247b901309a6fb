"""Where a slider step's time goes in the browser: one timeline per step, in JupyterLab.

Starts JupyterLab on a copy of ``notebooks/`` (``tests/browserkit.py``, as the browser test
does) in the system Chromium, runs a notebook, then steps the controls of one of its panels
forth and back (``tests/app/test_browser.py``'s ``_ARM_JS``/``_WAIT_JS``: key press →
output standing still, 400 ms quiet) and prints, per step, in ms from the key press:

* every kernel message the page sends or receives (``kernel.anyMessage``: when the page
  handled it, and in brackets when the kernel sent it, from its header date), with its
  size: the control's update, ``echo_update``, the status cue, figures, busy/idle;
* the kernel's ``_run`` (``compute``, ``draw``, ``view.show``) start, parts and end
  (``workbench.figures.panel._run`` wrapped in the kernel);
* every ``Plotly.react`` in the page (start, end);
* when the output area last changed (the step's latency).

Then a summary per control: medians of (page sends, kernel starts ``_run``, kernel ends
it, first figure received, last ``Plotly.react`` ends, settled). Without a notebook it
times a trivial panel (``compute`` returns a number, ``draw`` a one-trace plotly figure):
the cost of a step outside compute and draw. Voilà is not timed here (the browser test
times both front ends); this measures nothing without the Debian ``chromium``.

Usage::

    python benchmarks/bench_browser_step.py [NOTEBOOK[:PANEL[:CONTROLS]] ...] [--repeats 3]

e.g. ``python benchmarks/bench_browser_step.py 02_grampa_skew.ipynb:0:2`` (panel 0 of 02,
its first two controls), or no argument for the trivial panel.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "app")]

TRIVIAL = "zz_trivial_panel.ipynb"
TRIVIAL_CELLS = [
    "import ipywidgets as widgets\nimport plotly.graph_objects as go\n"
    "from workbench.figures.panel import interactive_panel\n",
    "def compute(x):\n    return x * 2\n",
    "def draw(r):\n    return go.Figure(go.Scatter(x=[0, 1, 2], y=[0, r, 0]), "
    "layout=dict(height=300))\n",
    "panel = interactive_panel(compute, draw, x=widgets.IntSlider(value=3, min=0, max=10))\n"
    "panel\n",
]

# Records every kernel message of notebook `name` and every Plotly.react in window.__tl.
HOOK_JS = """([name, panelJs]) => {
  const w = (new Function('return ' + panelJs))()(name);
  const kernel = w.sessionContext.session.kernel;
  window.__tl = [];
  kernel.anyMessage.connect((_, a) => {
    const m = a.msg, c = m.content || {};
    let what = m.header.msg_type;
    if (c.data && c.data.method)
      what += ':' + c.data.method + (c.data.state ? ':' + Object.keys(c.data.state).join(',') : '');
    if (what === 'status') what += ':' + c.execution_state;
    window.__tl.push({t: performance.now(), dir: a.direction, what,
                      kt: Date.parse(m.header.date) - performance.timeOrigin,
                      size: JSON.stringify(c).length});
  });
  const P = window.Plotly;
  if (P && !P.workbenchTimed) {
    const react = P.react;
    P.workbenchTimed = true;
    P.react = async function (...args) {
      const t0 = performance.now();
      const r = await react.apply(this, args);
      window.__tl.push({t: t0, what: 'react-start'}, {t: performance.now(), what: 'react-end'});
      return r;
    };
  }
}"""
# Wraps the panels' _run in the kernel: (start, timing, end) per update, in _wb_log.
KERNEL_PATCH = """
import time as _wb_time
import workbench.figures.panel as _wb_panel
_wb_log = []
_wb_run = _wb_panel._run
def _wb_timed(compute, draw, values, view):
    start = _wb_time.time()
    out = _wb_run(compute, draw, values, view)
    _wb_log.append((start, out[3], _wb_time.time()))
    return out
_wb_panel._run = _wb_timed
"""


def _trivial_notebook(path: Path) -> None:
    cells = [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
              "source": src} for src in TRIVIAL_CELLS]
    path.write_text(json.dumps({"cells": cells, "metadata": {"kernelspec": {
        "name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5}), encoding="utf-8")


def _step(page, tb, pi: int, ci: int, control: dict, forth: bool) -> dict:
    page.evaluate("() => { window.__tl.length = 0; }")
    page.evaluate(tb._ARM_JS, [pi])
    tb._move(page, pi, ci, control["kind"], forth)
    done = page.evaluate(tb._WAIT_JS, [400, 30_000])
    state = page.evaluate("() => ({t0: window.__workbenchStep.t0, tl: window.__tl})")
    return {"ms": done["ms"], **state}


def _timeline(step: dict, kernel: tuple | None, origin: float) -> tuple[list[str], dict]:
    """The step's lines and its milestones (ms from the key press)."""
    t0, lines = step["t0"], []
    marks = {"settled": step["ms"]}
    for e in step["tl"]:
        if e["t"] < t0 - 1:
            continue
        line = f"{e['t'] - t0:7.1f} {e.get('dir', ''):4s} {e['what']}"
        if "kt" in e:
            line += f" [kernel {e['kt'] - t0:6.1f}, {e['size']} B]"
        lines.append(line)
        if e.get("dir") == "send":
            marks.setdefault("page sends", e["t"] - t0)
        if e["what"].endswith(":figure"):
            marks.setdefault("figure received", e["t"] - t0)
        if e["what"] == "react-end":
            marks["last react ends"] = e["t"] - t0
    if kernel is not None:
        start, timing, end = kernel
        marks["kernel starts"], marks["kernel ends"] = start * 1e3 - origin - t0, \
            end * 1e3 - origin - t0
        lines.insert(0, f"kernel _run {marks['kernel starts']:.1f} → {marks['kernel ends']:.1f}"
                        f": compute {timing['compute_s'] * 1e3:.1f}, draw "
                        f"{timing['draw_s'] * 1e3:.1f}, show {timing['show_s'] * 1e3:.1f}")
    return lines, marks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("targets", nargs="*", help="NOTEBOOK[:PANEL[:CONTROLS]]")
    parser.add_argument("--repeats", type=int, default=3, help="forth-and-back per control")
    args = parser.parse_args()

    import browserkit as bk
    import test_browser as tb
    from playwright import sync_api

    if bk.chromium_missing():
        sys.exit(bk.chromium_missing())
    targets = args.targets or [TRIVIAL]
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        root, port, token, url = bk.on_a_copy(base)
        _trivial_notebook(root / TRIVIAL)
        env = bk.server_env(base, **bk.lab_settings(base))
        with bk.serving(bk.lab_command(root, port, token), env, base / "lab.log",
                        f"{url}/api/status?token={token}", "JupyterLab", cwd=base), \
                bk.chromium(sync_api) as browser:
            for target in targets:
                name, pi, count = (target.split(":") + ["0", "99"])[:3]
                pi, count = int(pi), int(count)
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                start = time.monotonic()
                bk.lab_run_all(page, url, token, name, 420)
                print(f"== {name}: Run All {time.monotonic() - start:.1f} s", flush=True)
                bk.lab_execute(page, name, KERNEL_PATCH)
                page.locator(tb._PANELS).nth(pi).scroll_into_view_if_needed()
                page.evaluate(HOOK_JS, [name, bk.LAB_PANEL_JS])
                steps = []
                for ci, control in enumerate(page.evaluate(tb._CONTROL_LIST_JS)[pi][:count]):
                    for _ in range(args.repeats):
                        for forth in (not control["atMax"], control["atMax"]):
                            steps.append((ci, control["label"],
                                          _step(page, tb, pi, ci, control, forth)))
                            time.sleep(0.1)
                said = bk.lab_execute(page, name, "print(__import__('json').dumps(_wb_log))")
                log = json.loads(said.strip().splitlines()[-1])
                origin = page.evaluate("() => performance.timeOrigin")
                summary: dict[str, dict[str, list[float]]] = {}
                for ci, label, step in steps:
                    mine = [x for x in log if x[0] * 1e3 - origin >= step["t0"] - 5]
                    lines, marks = _timeline(step, mine[0] if mine else None, origin)
                    print(f"-- {name} panel {pi} control {ci} {label}: "
                          f"settled {step['ms']:.1f} ms")
                    print("\n".join("     " + line for line in lines))
                    for key, ms in marks.items():
                        summary.setdefault(f"{ci} {label}", {}).setdefault(key, []).append(ms)
                print(f"== {name} panel {pi}: medians (ms from the key press)")
                for control, marks in summary.items():
                    print(f"   {control:24s} " + ", ".join(
                        f"{k} {statistics.median(v):.0f}" for k, v in marks.items()))
                bk.lab_shutdown(page, name)
                page.close()


if __name__ == "__main__":
    main()
