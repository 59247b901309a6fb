"""`make site` (app/site.py): static pages of the executed course that work offline.

The unit tests check the plotly conversion and the index page without a kernel. The browser
tests (marked ``browser``, like ``tests/app/test_browser.py``) build the site for two small
notebooks into a temporary folder and open each page from its file in the system Chromium with
Playwright. Every request that is not a ``file://`` URL is aborted and recorded. They assert
that no such request was made, that the page logged no console error and raised nothing, that
MathJax typeset the math, that the default widgets rendered from the stored state (controls,
not their JSON), that the plotly figure is drawn and shows a hover label, and that each exercise's
hint and reveal are ``<details>`` that open on a click. Without Chromium,
Playwright or the npm packages (``npm`` and no cached tarballs) they skip with the reason.
"""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PAGES = ("00_start_here", "01_segmentation_lattice")  # small; 01 has a plotly figure in a panel


def _site_module():
    spec = importlib.util.spec_from_file_location("workbench_site_builder", ROOT / "app/site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


site = _site_module()


# ---------------------------------------------------------------------------- no browser
def _notebook_with_plotly() -> nbformat.NotebookNode:
    fig = {"data": [{"type": "bar", "x": ["a"], "y": [1]}],
           "layout": {"title": {"text": "</script>"}}}
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("fig")
    cell.outputs = [nbformat.v4.new_output("display_data", data={
        site.PLOTLY_MIME: fig, "text/plain": "<plotly figure>"})]
    nb.cells = [nbformat.v4.new_markdown_cell("intro\n# The title\ntext"), cell]
    nb.metadata["widgets"] = {site.WIDGET_STATE: {"state": {
        "m1": {"model_name": "OutputModel", "state": {"outputs": [
            {"output_type": "display_data", "data": {site.PLOTLY_MIME: fig}, "metadata": {}}]}},
        "m2": {"model_name": "IntSliderModel", "state": {"value": 3}}}}}
    return nb


def test_plotly_bundles_become_html_in_cells_and_output_widgets():
    nb = _notebook_with_plotly()
    assert site.plotly_to_html(nb) == 2
    out = nb.cells[1].outputs[0]["data"]
    assert site.PLOTLY_MIME not in out and out["text/plain"] == "<plotly figure>"
    assert "Plotly.newPlot" in out["text/html"] and '"type": "bar"' in out["text/html"]
    assert "</script>" not in out["text/html"].split("<script", 1)[1][:-len("</script>")]
    state = nb.metadata["widgets"][site.WIDGET_STATE]["state"]
    assert "text/html" in state["m1"]["state"]["outputs"][0]["data"]
    assert state["m2"]["state"] == {"value": 3}
    assert site.plotly_to_html(nb) == 0  # nothing left to convert


def test_title_and_index_page():
    assert site.title_of(_notebook_with_plotly(), "x") == "The title"
    assert site.title_of(nbformat.v4.new_notebook(), "fallback") == "fallback"
    page = site.index_page([("01_a.html", "A & B", 3.2)])
    assert '<a href="01_a.html">A &amp; B</a>' in page and "executed in 3 s" in page
    assert "http" not in page


def test_index_links_the_api_reference_when_built_with_it(tmp_path, monkeypatch):
    assert 'href="api/index.html"' not in site.index_page([("01_a.html", "A", 1.0)])
    page = site.index_page([("01_a.html", "A", 1.0)], api=True)
    assert 'href="api/index.html"' in page and "http" not in page
    built = []  # the command builds the reference (Sphinx: tests/docs/test_api_reference.py)
    monkeypatch.setattr(site, "vendor", lambda out: [])
    monkeypatch.setattr(site, "build_api_reference", built.append)
    site.build(tmp_path, [], log=lambda *_: None, api=True)
    assert built == [tmp_path / "api"]
    assert 'href="api/index.html"' in (tmp_path / "index.html").read_text(encoding="utf-8")


def test_write_atomic_replaces_whole_files(tmp_path):
    target = tmp_path / "d" / "f.html"
    site.write_atomic(target, "one")
    site.write_atomic(target, b"two")
    assert target.read_text() == "two" and oct(target.stat().st_mode & 0o777) == "0o644"
    assert [p.name for p in target.parent.iterdir()] == ["f.html"]  # no temporary left


def test_command_rejects_unknown_notebooks(tmp_path, capsys):
    with pytest.raises(SystemExit) as err:
        site.main(["99_nothing", "--out", str(tmp_path)])
    assert err.value.code == 2 and "99_nothing" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


# ---------------------------------------------------------------------------- browser
def _can_vendor() -> bool:
    """The npm tarballs are cached (``make`` fetches them at install): tests never download."""
    return all((site.VENDOR_CACHE / f"{n.lstrip('@').replace('/', '-')}-{v}.tgz").is_file()
               for n, v in site.NPM_FILES)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)):
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian package 'chromium')")
    pytest.importorskip("playwright.sync_api", reason="playwright is in the [dev] extra")
    if not _can_vendor():
        pytest.skip("no cached html-manager / mathjax tarballs for _static/ (`make` fetches them "
                    "with npm at install; npm missing?)")
    out = tmp_path_factory.mktemp("site")
    notebooks = [ROOT / "notebooks" / f"{p}.ipynb" for p in PAGES]
    entries = site.build(out, notebooks, log=lambda *_: None)
    return out, entries


def _open(page_path: Path, actions=None) -> dict:
    from playwright.sync_api import sync_playwright

    report: dict = {"network": [], "errors": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--headless", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update"])
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})

            def route(r):
                if r.request.url.startswith("file://"):
                    r.continue_()
                else:
                    report["network"].append(r.request.url)
                    r.abort()

            page.route("**/*", route)
            page.on("console", lambda m: m.type == "error" and report["errors"].append(m.text))
            page.on("pageerror", lambda e: report["errors"].append(f"pageerror: {e}"))
            page.on("requestfailed", lambda r: report["errors"].append(f"failed: {r.url}"))
            page.goto(page_path.as_uri())
            page.wait_for_load_state("load")
            page.wait_for_timeout(2500)  # widgets render and MathJax typesets asynchronously
            report["math"] = page.locator("mjx-container").count()
            report["widgets"] = page.locator(".jupyter-widgets").count()
            report["controls"] = page.locator(", ".join(
                f".widget-{kind}" for kind in ("slider", "dropdown", "toggle-buttons", "checkbox")
            )).count()
            report["text"] = page.inner_text("body")
            if actions:
                actions(page, report)
        finally:
            browser.close()
    return report


def _hover_plotly(page, report):
    plot = page.locator(".js-plotly-plot").first
    report["plots"] = page.locator(".js-plotly-plot").count()
    report["in_widget"] = plot.evaluate("e => !!e.closest('.jupyter-widgets')")
    plot.scroll_into_view_if_needed()
    box = plot.locator(".nsewdrag").first.bounding_box()
    report["hover"] = 0
    for fx in (0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9):
        for fy in (0.2, 0.4, 0.6, 0.8):
            page.mouse.move(box["x"] + fx * box["width"], box["y"] + fy * box["height"])
            page.wait_for_timeout(40)
            report["hover"] += page.locator(".js-plotly-plot .hoverlayer .hovertext").count() > 0


@pytest.mark.browser
def test_index_links_every_page(built):
    out, entries = built
    index = (out / "index.html").read_text(encoding="utf-8")
    for name in PAGES:
        assert f'href="{name}.html"' in index and (out / f"{name}.html").is_file()
    assert len(entries) == len(PAGES)
    report = _open(out / "index.html")
    assert not report["network"] and not report["errors"]


@pytest.mark.browser
def test_pages_work_offline_with_widgets_math_and_plotly(built):
    out, _ = built
    for name in PAGES:
        html = (out / f"{name}.html").read_text(encoding="utf-8")
        assert "unpkg.com" not in html and "cdnjs" not in html and "cdn.jsdelivr" not in html
    plain = _open(out / "00_start_here.html")
    assert not plain["network"], plain["network"]
    assert not plain["errors"], plain["errors"]
    assert "Traceback" not in plain["text"]
    lattice = _open(out / "01_segmentation_lattice.html", _hover_plotly)
    assert not lattice["network"], lattice["network"]
    assert not lattice["errors"], lattice["errors"]
    assert lattice["math"] > 0  # MathJax from _static typeset the markdown
    assert lattice["widgets"] > 0 and lattice["controls"] > 0  # the default panel rendered
    assert "interactive(children" not in lattice["text"] and "model_id" not in lattice["text"]
    assert lattice["plots"] >= 1 and lattice["in_widget"]  # the panel's plotly figure
    assert lattice["hover"] > 0  # hovering shows plotly's label
    page = (out / "01_segmentation_lattice.html").read_text(encoding="utf-8")
    state = json.loads(page.split('<script type="application/vnd.jupyter.widget-state+json">')[1]
                       .split("</script>")[0])  # the stored widget state is in the page
    assert state["version_major"] == 2 and state["state"]


def _open_exercises(page, report):
    exercises = page.locator(".workbench-exercise")
    report["exercises"] = exercises.count()
    report["details"] = page.locator(".workbench-exercise details").count()
    if not report["exercises"]:
        return
    reveal = exercises.first.locator("details").nth(1)
    reveal.scroll_into_view_if_needed()
    report["open_before"] = reveal.evaluate("d => d.open")
    reveal.locator("summary").click()
    report["open_after"] = reveal.evaluate("d => d.open")
    report["reveal_text"] = reveal.inner_text()


@pytest.mark.browser
def test_exercises_reveal_as_details_that_open_offline(built):
    """The site cannot check an answer (no kernel), but each exercise's hint and reveal are
    ``<details>`` rendered from the stored widget state, and the reveal opens on a click."""
    out, _ = built
    report = _open(out / "01_segmentation_lattice.html", _open_exercises)
    assert not report["network"], report["network"]
    assert not report["errors"], report["errors"]
    assert report["exercises"] >= 2, "01's exercises are not on its page"
    assert report["details"] == 2 * report["exercises"]  # a hint and a reveal each
    assert not report["open_before"] and report["open_after"]
    assert "Reveal the answer" in report["reveal_text"] and \
        len(report["reveal_text"]) > len("Reveal the answer") + 5  # the answer is in it

def test_execution_polls_in_slices():
    """preprocess() gets a kernel manager whose clients poll in slices (the client of
    workbench.course.kernelpoll, as every Voilà), whichever path (sync or async) it starts
    them on."""
    km = site._kernel_manager()
    assert km.client_factory.__name__ == "SlicedPollKernelClient"
    for name in ("shell", "iopub", "control"):
        channel = getattr(km.client_factory, f"{name}_channel_class").default_value
        assert channel.__name__ == "SlicedPollChannel"
    ep = site._preprocessor()
    assert ep.store_widget_state and ep.skip_cells_with_tag == "checks"
