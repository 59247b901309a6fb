"""``PATCH_JS`` and ``WARM_JS`` in Chromium: a patched graph equals a fresh draw of the new
figure; the warm-up redraws off the page, within its budget, and leaves nothing behind.

The view (:mod:`workbench.figures.plotly_view`) writes what a τ step changes in notebook 02's
curve and lattice into the graph plotly.js drew instead of redrawing it. Here plotly.js (the
copy the ``plotly`` package ships) draws figure A, ``patchFigure`` turns it into B, and a
second graph draws B from scratch: the texts, point positions, shapes, annotation boxes,
plotly.js's per-point data (what hover reads) and its copies of the figure must agree, and
hover must show B's text. Figures with other differences must be refused untouched.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from browserkit import chromium, chromium_missing

from workbench.datasets import figure1_vocabulary
from workbench.experiments import grampa_skew as skew
from workbench.figures.lattice_plotly import plotly_lattice
from workbench.figures.plotly_view import PATCH_JS, WARM_JS, figure_json
from workbench.figures.skew_plotly import plotly_segmentality_curve, plotly_skew_panel
from workbench.vocab import Vocabulary

pytestmark = pytest.mark.browser
if chromium_missing():
    pytest.skip(chromium_missing(), allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the [dev] extra")

#: Annotations are placed by plotly.js on whole pixels; a moved one may sit this far from
#: where a fresh draw puts it.
ANNOTATION_PX = 1.0

# Draws A in #a, patches it to B, draws B in #b; returns whether it patched and both states.
_COMPARE_JS = """async ([A, B]) => {
  const copy = (x) => JSON.parse(JSON.stringify(x));
  const draw = async (id, fig) => {
    const gd = document.getElementById(id);
    Plotly.purge(gd);
    gd.style.width = fig.layout.width + 'px';
    gd.style.height = fig.layout.height + 'px';
    await Plotly.newPlot(gd, copy(fig.data), copy(fig.layout), {});
    return gd;
  };
  const state = (gd) => {
    const r0 = gd.getBoundingClientRect();
    const box = (e) => { const r = e.getBoundingClientRect();
                         return [r.left - r0.left, r.top - r0.top, r.width, r.height]; };
    return {
      texts: [...gd.querySelectorAll('.textpoint text')].map(
        e => [e.textContent, e.getAttribute('data-unformatted'), e.getAttribute('x'),
              e.getAttribute('y')]),
      points: [...gd.querySelectorAll('.point')].map(e => e.getAttribute('transform')),
      shapes: [...gd.querySelectorAll('.shapelayer path')].map(e => e.getAttribute('d')),
      annotations: [...gd.querySelectorAll('.annotation')].map(e => [e.textContent, box(e)]),
      calc: JSON.stringify(gd.calcdata.map(cd => cd.map(p => [p.x, p.y, p.tx, p.htx, p.data]))),
      data: JSON.stringify(gd.data.map(t => [t.x, t.y, t.text, t.hovertext, t.customdata])),
      layout: JSON.stringify([gd.layout.meta, gd.layout.shapes, gd.layout.annotations]),
    };
  };
  const a = await draw('a', A);
  const before = state(a);
  const patched = patchFigure(a, copy(A), copy(B));
  const b = await draw('b', B);
  return {patched, before, after: state(a), fresh: state(b)};
}"""
# Hovers point `point` of trace `trace` in #a; the hover label's text.
_HOVER_JS = """([trace, point]) => {
  const gd = document.getElementById('a');
  Plotly.Fx.hover(gd, [{curveNumber: trace, pointNumber: point}]);
  const label = gd.querySelector('.hoverlayer .hovertext');
  return label ? label.textContent : null;
}"""


@pytest.fixture(scope="module")
def page():
    import plotly

    plotly_js = (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_text()
    with chromium(sync_api) as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_content('<html><body><div id="a"></div><div id="b"></div></body></html>')
        page.add_script_tag(content=plotly_js)
        page.add_script_tag(content=PATCH_JS)
        page.add_script_tag(content=WARM_JS)
        yield page


def _fig(fig) -> dict:
    return json.loads(figure_json(fig))


def _compare(page, a, b) -> dict:
    return page.evaluate(_COMPARE_JS, [_fig(a), _fig(b)])


def _assert_like_fresh(result: dict) -> None:
    after, fresh = result["after"], result["fresh"]
    for key in ("texts", "points", "shapes", "calc", "data", "layout"):
        assert after[key] == fresh[key], key
    assert [t for t, _ in after["annotations"]] == [t for t, _ in fresh["annotations"]]
    for (_, box), (_, want) in zip(after["annotations"], fresh["annotations"]):
        assert all(abs(u - v) <= ANNOTATION_PX for u, v in zip(box, want)), (box, want)


def _curve(word, vocab, tau, ell_min=1):
    curve = skew.segmentality_curve(word, vocab, skew.TAU_SLIDER_GRID, ell_min=ell_min)
    current = skew.segmentality_moments(word, vocab, tau, ell_min=ell_min)
    return plotly_segmentality_curve(curve, current_tau=tau, current=current, title="curve")


def _lattice(word, vocab, tau):
    return plotly_lattice(skew.skew_summary(word, vocab, tau, 1, "l2r", 1.0, 200, 0).lattice)


@pytest.mark.parametrize("taus", [(1.0, 2.0), (1.0, -1.0), (0.25, math.inf)])
def test_a_tau_step_patches_curve_and_lattice_like_a_fresh_draw(page, taus) -> None:
    vocab = figure1_vocabulary()
    for make in (_curve, _lattice):
        result = _compare(page, make("GRAMPA", vocab, taus[0]), make("GRAMPA", vocab, taus[1]))
        assert result["patched"], make.__name__
        assert result["before"] != result["after"]  # it did change the graph
        _assert_like_fresh(result)


def test_hover_shows_the_patched_text(page) -> None:
    vocab = figure1_vocabulary()
    a, b = _lattice("GRAMPA", vocab, 1.0), _lattice("GRAMPA", vocab, -1.0)
    result = _compare(page, a, b)
    assert result["patched"]
    labelled = next(i for i, t in enumerate(b.data) if t.text and t.hovertext)
    want = b.data[labelled].hovertext[0]
    assert want != a.data[labelled].hovertext[0]
    shown = page.evaluate(_HOVER_JS, [labelled, 0])
    # plotly.js draws <br> and <b> as layout: compare the characters
    assert shown is not None
    assert "".join(shown.split()) == "".join(re.sub("<[^>]+>", "", want).split())


def test_other_changes_are_redrawn_and_the_graph_left_untouched(page) -> None:
    vocab, infinite = figure1_vocabulary(), Vocabulary.infinite()
    panel = lambda tau: plotly_skew_panel(  # noqa: E731
        skew.skew_panel("GRAMPA", vocab, tau, n_samples=200, seed=0), title="t")
    retitled = _curve("GRAMPA", vocab, 1.0)
    retitled.update_layout(title_text="another title")
    autorange = _curve("GRAMPA", vocab, 1.0)
    autorange.update_layout(xaxis_autorange=True)
    moved = _curve("GRAMPA", vocab, 2.0)
    moved.update_layout(xaxis_autorange=True)
    pairs = {
        "histograms at another τ": (panel(1.0), panel(2.0)),
        "curve at another ℓ_min": (_curve("GRAMPA", vocab, 1.0),
                                   _curve("GRAMPA", vocab, 1.0, ell_min=2)),
        "another word": (_lattice("GRAMPA", vocab, 1.0), _lattice("abcde", infinite, 1.0)),
        "a new title": (_curve("GRAMPA", vocab, 1.0), retitled),
        "a marker moved on an autoranged axis": (autorange, moved),
    }
    for what, (a, b) in pairs.items():
        result = _compare(page, a, b)
        assert not result["patched"], what
        assert result["after"] == result["before"], what


# The SVG plotly.js draws for a figure, each element's attributes sorted (their order is not
# drawn); _normalised numbers its random ids (clip paths, trace uids) in order of appearance.
_SVG_JS = """async (fig) => {
  const gd = document.getElementById('a');
  Plotly.purge(gd);
  gd.style.width = fig.layout.width + 'px';
  gd.style.height = fig.layout.height + 'px';
  await Plotly.newPlot(gd, fig.data, fig.layout, {});
  const canon = (e) => e.nodeType === 3 ? e.textContent : `<${e.tagName} ` +
    [...e.attributes].map(a => `${a.name}="${a.value}"`).sort().join(' ') + '>' +
    [...e.childNodes].map(canon).join('') + `</${e.tagName}>`;
  return [...gd.querySelectorAll('svg.main-svg')].map(canon).join('');
}"""


def _normalised(svg: str) -> str:
    ids: dict[str, str] = {}
    return re.sub(r"(clip|trace|legend|defs-|topdefs-)[0-9a-f]{6}\w*",
                  lambda m: ids.setdefault(m.group(0), f"id{len(ids)}"), svg)


def test_the_trimmed_template_draws_the_same(page) -> None:
    """figure_json leaves out the template's defaults of trace types a figure has none of:
    notebook 02's four figures draw the same SVG with and without them."""
    import plotly.io as pio

    vocab = figure1_vocabulary()
    summary = skew.skew_summary("GRAMPA", vocab, 2.0, 1, "l2r", 1.0, 200, 0, skew.PAPER_TAUS)
    figures = [_curve("GRAMPA", vocab, 2.0), plotly_skew_panel(summary.panel, title="t"),
               plotly_lattice(summary.lattice)]
    from workbench.figures.skew_plotly import plotly_m_histograms_per_tau

    figures.append(plotly_m_histograms_per_tau(summary.per_tau, title="Figure 3"))
    for fig in figures:
        whole = json.loads(pio.to_json(fig, validate=False, remove_uids=True))
        trimmed = _fig(fig)
        assert len(json.dumps(trimmed)) < len(json.dumps(whole))
        assert (_normalised(page.evaluate(_SVG_JS, trimmed))
                == _normalised(page.evaluate(_SVG_JS, whole)))


def test_the_warm_up_redraws_off_the_page_within_its_budget(page) -> None:
    """Each figure queued is redrawn WARM_REDRAWS times in a hidden graph (once the page has
    stopped queueing for WARM_AFTER ms), the page's total stops at WARM_BUDGET, the hidden
    graph is removed, and the page's own graphs and document are as before."""
    vocab = figure1_vocabulary()
    texts = [figure_json(_curve("GRAMPA", vocab, tau)) for tau in (1.0, 2.0, 5.0, -1.0)]
    redraws, budget = (int(re.search(rf"{name} = (\d+)", WARM_JS.replace(", ", "; "))
                           .group(1)) for name in ("WARM_REDRAWS", "WARM_BUDGET"))
    before = page.evaluate("() => document.body.innerHTML")
    state = page.evaluate("""async ([texts, wait]) => {
      for (const text of texts) warmPlotly(Plotly, text);
      warmPlotly(Plotly, "{}");  // nothing to warm: not queued
      const w = window.workbenchPlotlyWarm;
      const hidden = () => document.querySelector('.workbench-plotly-warm');
      let seen = null;
      const t0 = performance.now();
      const busy = () => w.running || w.timer !== undefined;  // started, or about to
      if (!busy()) return {started: false};
      while (busy() && performance.now() - t0 < wait) {
        if (hidden()) seen = getComputedStyle(hidden()).visibility;
        await new Promise(r => setTimeout(r, 20));
      }
      return {started: true, running: busy(), spent: w.spent, left: !!hidden(), seen};
    }""", [texts * 3, 60_000])
    assert state["started"] and not state["running"] and not state["left"]
    assert state["seen"] == "hidden"
    assert state["spent"] == budget == 6 * redraws   # 12 figures queued, 6 warmed
    assert page.evaluate("() => document.body.innerHTML") == before
