"""Every notebook in a real browser: JupyterLab driven in the system Chromium with Playwright.

For each notebook: open it, run all cells, assert no error output and no matplotlib glyph
warning, assert the widgets rendered as controls (not as text such as
``interactive(children=...)``), move the first slider of the first ``interactive_panel`` by keyboard
(focus + ArrowRight; a dropdown by ArrowDown where there is no slider), assert the panel's
output changed, and record the update latency (time from the key press until the output
stops changing). Notebooks whose widgets are not ``interactive_panel`` s are checked for
rendering but not timed.

The server is JupyterLab on 127.0.0.1 with a free port and a random token, serving a
temporary copy of ``notebooks/`` (so autosave never writes outputs into the repository), with
per-test settings (no cell virtualisation, so every output is in the DOM) and the app object
exposed to the page. It is shut down through its own process handle. The browser is the
Debian ``chromium`` (``.ci/run`` and the Makefile install it); Playwright never downloads
one. Without it the module is skipped with the reason.

Latencies are printed (run with ``-s``) and written to ``$BROWSER_LATENCY_FILE`` if set.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
RUN_TIMEOUT = 420  # seconds for Run All of one notebook
STEPS = 3  # slider steps per notebook
MAX_STEP_SECONDS = float(os.environ.get("BROWSER_MAX_STEP_SECONDS", "5"))  # hard cap, loaded CI
LATENCIES: dict[str, list[float]] = {}

if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)):
    pytest.skip(f"no Chromium at {CHROMIUM} (Debian package 'chromium'; `make test` installs "
                "it when run as root)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the [dev] extra")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory):
    """A JupyterLab server on a copy of notebooks/: yields (base_url, token)."""
    base = tmp_path_factory.mktemp("lab")
    root = base / "notebooks"
    shutil.copytree(ROOT / "notebooks", root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    settings = base / "settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    (settings / "tracker.jupyterlab-settings").write_text(
        json.dumps({"windowingMode": "none"}), encoding="utf-8")
    port, token = _free_port(), secrets.token_hex(16)
    env = {**os.environ,
           "JUPYTERLAB_SETTINGS_DIR": str(base / "settings"),
           "JUPYTERLAB_WORKSPACES_DIR": str(base / "workspaces"),
           "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
           "MPLBACKEND": "module://matplotlib_inline.backend_inline",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
           f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
           f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
           "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    if hasattr(os, "getuid") and os.getuid() == 0:
        cmd.append("--allow-root")
    log = open(base / "server.log", "wb")  # noqa: SIM115 (closed below)
    server = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("JupyterLab did not start:\n" + (
                        base / "server.log").read_text(errors="replace")) from None
                time.sleep(0.3)
        yield url, token
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
        if LATENCIES:
            _report()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def _report() -> None:
    rows = {name: {"median_s": round(statistics.median(v), 3), "steps_s": [round(x, 3) for x in v]}
            for name, v in LATENCIES.items()}
    print("\nslider-step latency (key press → output settled):")
    for name, row in rows.items():
        print(f"  {name:32s} median {row['median_s']:.3f} s  steps {row['steps_s']}")
    target = os.environ.get("BROWSER_LATENCY_FILE")
    if target:
        Path(target).write_text(json.dumps(rows, indent=1), encoding="utf-8")


_STATE_JS = """(name) => {
  const app = window.jupyterapp;
  if (!app) return null;
  let w = null;
  for (const x of app.shell.widgets('main')) {
    if (x.context && x.context.path === name) w = x;
  }
  if (!w || !w.content || !w.content.model || !w.sessionContext) return null;
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  const cells = w.content.model.cells;
  const out = {status: kernel ? kernel.status : 'none', pending: 0, errors: [], stderr: [],
               widgets: 0};
  for (let i = 0; i < cells.length; i++) {
    const c = cells.get(i);
    if (c.type !== 'code') continue;
    if (c.executionCount === null) out.pending++;
    for (let j = 0; j < c.outputs.length; j++) {
      const o = c.outputs.get(j).toJSON();
      if (o.output_type === 'error') out.errors.push(i + ': ' + o.ename + ': ' + o.evalue);
      if (o.output_type === 'stream' && o.name === 'stderr') out.stderr.push(String(o.text));
      if (o.data && o.data['application/vnd.jupyter.widget-view+json']) out.widgets++;
    }
  }
  return out;
}"""

# Arms a MutationObserver on the panel's output and a capturing keydown listener; _WAIT_JS
# resolves with the time (ms) from the key press until the output has not changed for
# `quiet` ms, and rejects if nothing changed within `limit` ms.
_ARM_JS = """([selector]) => {
  const control = document.querySelectorAll(selector)[0];
  const panel = control.closest('.widget-interact') || control.closest('.jp-OutputArea');
  const area = panel.querySelector('.widget-output') || panel;
  const st = {t0: null, last: null};
  st.observer = new MutationObserver(() => { st.last = performance.now(); });
  st.observer.observe(area, {subtree: true, childList: true, attributes: true,
                             characterData: true});
  document.addEventListener('keydown', () => { if (st.t0 === null) st.t0 = performance.now(); },
                            {capture: true, once: true});
  window.__workbenchStep = st;
}"""
_WAIT_JS = """async ([quiet, limit]) => {
  const st = window.__workbenchStep;
  while (true) {
    await new Promise(r => setTimeout(r, 25));
    const now = performance.now();
    if (st.last !== null && now - st.last > quiet) {
      st.observer.disconnect(); return st.last - st.t0;
    }
    if (st.last === null && now - st.t0 > limit) {
      st.observer.disconnect(); throw new Error('no change');
    }
  }
}"""


def _control(page) -> tuple[str, str] | None:
    """A CSS selector of the first slider handle (else dropdown) of a panel made by
    :func:`workbench.widgets.interactive_panel` (its output has class ``workbench-output``),
    and the key that moves it."""
    panel = ".widget-interact:has(.workbench-output)"
    for selector, key in ((f"{panel} .noUi-handle", "ArrowRight"),
                          (f"{panel} select", "ArrowDown")):
        if page.locator(selector).count():
            return selector, key
    return None


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_in_browser(path: Path, lab, browser) -> None:
    url, token = lab
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        # a fresh workspace per notebook: nothing restored from the previous test's page
        page.goto(f"{url}/lab/workspaces/{path.stem}/tree/{path.name}?token={token}&reset",
                  wait_until="domcontentloaded")
        name = json.dumps(path.name)
        page.wait_for_function(f"() => {{ const s = ({_STATE_JS})({name}); "
                               "return s && s.status === 'idle'; }", timeout=120_000)
        start = time.monotonic()
        page.evaluate(f"""async () => {{
          const app = window.jupyterapp;
          for (const x of app.shell.widgets('main'))
            if (x.context && x.context.path === {name}) app.shell.activateById(x.id);
          await app.commands.execute('notebook:run-all-cells');
        }}""")
        page.wait_for_function(f"() => {{ const s = ({_STATE_JS})({name}); return s && s.status "
                               "=== 'idle' && (s.pending === 0 || s.errors.length > 0); }",
                               timeout=RUN_TIMEOUT * 1000, polling=250)
        time.sleep(1.0)  # let the last outputs and widget views arrive
        run_all = time.monotonic() - start
        state = page.evaluate(f"({_STATE_JS})({name})")
        assert not state["errors"], f"{path.name}: error outputs {state['errors']}"
        glyphs = [s for s in state["stderr"] if "Glyph" in s and "missing" in s]
        assert not glyphs, f"{path.name}: glyph warnings reached the reader: {glyphs[:1]}"
        as_text = page.locator(".jp-OutputArea-output",
                               has_text="interactive(children=").count()
        assert as_text == 0, f"{path.name}: a widget was shown as text, not as a control"
        if not path.name.startswith("00_"):
            assert state["widgets"] > 0, f"{path.name}: no widget output"
        rendered = page.locator(".jp-OutputArea-output .jupyter-widgets").count()
        assert rendered >= min(state["widgets"], 1), f"{path.name}: widgets not rendered"
        found = _control(page)
        print(f"\n{path.name}: Run All {run_all:.1f} s, {state['widgets']} widget outputs")
        if found is None:  # widgets not made by interactive_panel: rendered, but not timed
            print(f"{path.name}: no interactive_panel; slider latency not measured")
            return
        selector, key = found
        back = {"ArrowRight": "ArrowLeft", "ArrowDown": "ArrowUp"}[key]
        steps = []
        for step in range(STEPS):  # forth, back, forth: a control with two values moves too
            page.evaluate(_ARM_JS, [selector])
            page.locator(selector).first.focus()
            page.keyboard.press(key if step % 2 == 0 else back)
            steps.append(page.evaluate(_WAIT_JS, [400, 30_000]) / 1000)
        LATENCIES[path.name] = steps
        print(f"{path.name}: slider steps {[round(s, 3) for s in steps]} s")
        state = page.evaluate(f"({_STATE_JS})({name})")
        assert not state["errors"], f"{path.name}: errors after moving the slider"
        assert max(steps) < MAX_STEP_SECONDS, f"{path.name}: slider step took {max(steps):.2f} s"
    finally:
        page.close()
