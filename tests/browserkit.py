"""Shared helpers of the real-browser tests: servers on a copy of notebooks/, system Chromium.

Used by ``tests/app/test_browser.py`` (every notebook in JupyterLab and in ``make app``'s Voilà:
Run All, the exercises through :data:`EXERCISE_ANSWERS_CODE` and :func:`drive_exercise`, every
panel control) and ``tests/app/test_voila_plain.py`` (plain ``voila notebooks/`` and JupyterLab's
Voilà preview).

A server (:func:`lab_server`, :func:`voila_server`) is started on a temporary copy of
``notebooks/`` (nothing is written into the repository), listens on 127.0.0.1 with a free
port and a random token, and is stopped through its own process handle. The browser is the
Debian ``chromium``; Playwright never downloads one.
What this module does not do: assert anything about the notebooks (the test modules do).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: Notebooks without an ``interactive_panel``: a page is ready without a control to move.
NO_PANEL = {"00_start_here.ipynb"}


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here, or ``None``."""
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)):
        return (f"no Chromium at {CHROMIUM} (Debian package 'chromium'; `make test` installs it "
                "when run as root)")
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def copy_notebooks(base: Path) -> Path:
    """``notebooks/`` copied to ``base/notebooks`` (a server's autosave never reaches the repo)."""
    root = base / "notebooks"
    shutil.copytree(ROOT / "notebooks", root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return root


#: Longest runtime directory a kernel's Unix sockets fit under: ``app/voila.json`` puts kernels
#: on IPC (``<runtime>/kernel-<uuid>-ipc-<n>``, 50 bytes more), and a socket path has at most
#: 107 bytes.
RUNTIME_DIR_MAX = 56


def server_env(base: Path, **extra: str) -> dict[str, str]:
    """The environment of a server (and so of its kernels) that runs this checkout's package.

    Its runtime directory (connection files, and beside them the kernels' sockets) is
    ``base/r``: short, for the sockets' path limit (:data:`RUNTIME_DIR_MAX`).
    """
    runtime = base / "r"
    assert len(str(runtime)) <= RUNTIME_DIR_MAX, (
        f"{runtime} is too long for a kernel's Unix socket path: run pytest with a shorter "
        "--basetemp")
    return {**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime),
            "MPLBACKEND": "module://matplotlib_inline.backend_inline",
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
            **extra}


def install_voila_config(venv: Path) -> Path:
    """``make voila-config VENV=venv`` (what ``make`` installs into a venv); its Jupyter config
    directory, to be given to a server as ``JUPYTER_CONFIG_PATH``."""
    subprocess.run(["make", "-s", "-C", str(ROOT), "voila-config", f"VENV={venv}"], check=True,
                   capture_output=True)
    return venv / "etc" / "jupyter"


def lab_settings(base: Path) -> dict[str, str]:
    """Environment of a JupyterLab with its own settings: no cell virtualisation (every output
    is in the DOM, every cell laid out: the slowest page), nothing restored from another run."""
    settings = base / "settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True, exist_ok=True)
    # "none" (every cell attached, JupyterLab's slowest mode); BROWSER_LAB_WINDOWING sets
    # another, e.g. JupyterLab's own default, "contentVisibility"
    mode = os.environ.get("BROWSER_LAB_WINDOWING", "none")
    (settings / "tracker.jupyterlab-settings").write_text(
        json.dumps({"windowingMode": mode}), encoding="utf-8")
    return {"JUPYTERLAB_SETTINGS_DIR": str(base / "settings"),
            "JUPYTERLAB_WORKSPACES_DIR": str(base / "workspaces")}


def lab_command(root: Path, port: int, token: str) -> list[str]:
    """JupyterLab serving ``root`` (with the app object exposed to the page, no news, no
    update check); ``--allow-root`` when run as root."""
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
           f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
           f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
           "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    if os.getuid() == 0:
        cmd.append("--allow-root")
    return cmd


def voila_command(root: Path, port: int, token: str, *extra: str) -> list[str]:
    """Plain ``voila root`` from this interpreter's environment, on 127.0.0.1."""
    return [sys.executable, "-m", "voila", str(root), "--no-browser", "--Voila.ip=127.0.0.1",
            f"--port={port}", "--Voila.port_retries=0", f"--token={token}", *extra]


def selected_notebooks(request, test: str) -> list[str]:
    """The notebooks (parameter ``name``) of the test function ``test`` that this session runs
    (``-k`` may select a few): ``request`` is a fixture's ``pytest.FixtureRequest``."""
    return sorted({item.callspec.params["name"] for item in request.session.items
                   if getattr(item, "originalname", None) == test})  # doctests have none


def preheat_only(names: list[str]) -> list[str]:
    """Voilà options that pre-heat kernels for ``names`` only (the other notebooks are put on
    ``VoilaKernelManager.preheat_denylist``, which matches by substring)."""
    return [f"--VoilaKernelManager.preheat_denylist={p.name}" for p in NOTEBOOKS
            if p.name not in names]


@contextlib.contextmanager
def serving(cmd: list[str], env: dict, log_path: Path, ready_url: str, what: str,
            cwd: Path | None = None) -> Iterator[subprocess.Popen]:
    """Start ``cmd``, wait (90 s at most) until ``ready_url`` answers, stop it by its handle."""
    log = open(log_path, "wb")  # noqa: SIM115 (closed below)
    server = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=cwd)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(ready_url, timeout=2):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{what} did not start:\n"
                                       + log_path.read_text(errors="replace")) from None
                time.sleep(0.3)
        yield server
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def on_a_copy(base: Path) -> tuple[Path, int, str, str]:
    """A copy of notebooks/ under ``base``, a free port and a random token: (root, port,
    token, base URL)."""
    port = free_port()
    return copy_notebooks(base), port, secrets.token_hex(16), f"http://127.0.0.1:{port}"


@contextlib.contextmanager
def lab_server(base: Path, env: dict) -> Iterator[tuple[str, str, Path]]:
    """JupyterLab (:func:`lab_command`) on a copy of notebooks/ under ``base`` (its working
    directory, log ``lab.log``): yields (base URL, token, the copy's root)."""
    root, port, token, url = on_a_copy(base)
    with serving(lab_command(root, port, token), env, base / "lab.log",
                 f"{url}/api/status?token={token}", "JupyterLab", cwd=base):
        yield url, token, root


@contextlib.contextmanager
def voila_server(base: Path, env: dict,
                 *extra: str) -> Iterator[tuple[str, str, subprocess.Popen]]:
    """Plain Voilà (:func:`voila_command`, options ``extra``) on a copy of notebooks/ under
    ``base`` (its working directory, log ``voila.log``): yields (base URL, token, process)."""
    root, port, token, url = on_a_copy(base)
    with serving(voila_command(root, port, token, *extra), env, base / "voila.log",
                 f"{url}/?token={token}", "Voilà", cwd=base) as server:
        yield url, token, server


#: Seconds the server and its kernels must stay without CPU use to count as idle, and the
#: CPU use (percent of one core, summed) that counts as none: measured idle, a Voilà server
#: with 13 kernels polled used under 5 (0.7 the server); running a notebook, 30 and more.
IDLE_SECONDS = 5
IDLE_CPU_PERCENT = 10


def kernels_idle(server: subprocess.Popen, count: int, timeout: float = 900) -> bool:
    """Wait until the server has at least ``count`` kernels and neither they nor the server
    have used CPU for :data:`IDLE_SECONDS` (every pre-heated kernel has run its notebook);
    ``False`` if that did not happen within ``timeout`` s.

    The server counts too: on a busy machine the kernels sat idle for 2 s after starting,
    before the server had sent them their notebooks, and were taken for finished (issue 43).
    """
    import psutil  # comes with ipykernel

    deadline, quiet_since = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        try:
            parent = psutil.Process(server.pid)
            kernels = [k for k in parent.children(recursive=True)
                       if "ipykernel" in " ".join(k.cmdline())]
            for p in [parent, *kernels]:
                p.cpu_percent(interval=None)  # starts the measurement
            time.sleep(0.5)
            busy = sum(p.cpu_percent(interval=None) for p in [parent, *kernels])
        except psutil.Error:  # a kernel went away meanwhile: look again
            continue
        if len(kernels) >= count and busy < IDLE_CPU_PERCENT:
            quiet_since = quiet_since or time.monotonic()
            if time.monotonic() - quiet_since >= IDLE_SECONDS:
                return True
        else:
            quiet_since = None
    return False


#: Voilà has run every cell and shows them (its "Executing i of n" spinner is gone) and, when
#: the notebook has a panel (argument ``[true]``), the panel's first control is rendered.
VOILA_READY_JS = """([control]) => {
  if (document.getElementById('loading')) return false;
  const cells = document.getElementById('rendered_cells');
  if (!cells || cells.style.display === 'none') return false;
  return !control || document.querySelector(
    '.widget-interact:has(.workbench-output) :is(.noUi-handle, select)') !== null;
}"""


def open_voila(page, url: str, name: str, timeout: float) -> float:
    """Request a Voilà page (``url`` is the full page URL); seconds until it is interactive
    (:data:`VOILA_READY_JS`). Raises Playwright's ``TimeoutError`` after ``timeout`` s."""
    start = time.monotonic()
    page.goto(url, wait_until="commit", timeout=timeout * 1000)
    page.wait_for_function(VOILA_READY_JS, arg=[name not in NO_PANEL],
                           timeout=timeout * 1000, polling=100)
    return time.monotonic() - start


@contextlib.contextmanager
def chromium(sync_api) -> Iterator:
    """The system Chromium driven by Playwright (``sync_api`` is ``playwright.sync_api``)."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


# The notebook panel of JupyterLab showing `name`: JupyterLab is started with the app object
# exposed to the page (lab_command).
LAB_PANEL_JS = """(name) => {
  for (const x of window.jupyterapp.shell.widgets('main'))
    if (x.context && x.context.path === name) return x;
  return null;
}"""
#: The state of a notebook in JupyterLab: kernel status, code cells not yet run, error outputs,
#: stderr texts, widget outputs.
LAB_STATE_JS = """(name) => {
  if (!window.jupyterapp) return null;
  const w = (""" + LAB_PANEL_JS + """)(name);
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
# Runs `code` in the notebook's kernel; resolves with its stdout (and any error as text).
_LAB_EXECUTE_JS = """async ([name, code]) => {
  const w = (""" + LAB_PANEL_JS + """)(name);
  const future = w.sessionContext.session.kernel.requestExecute(
    {code: code, silent: false, store_history: false});
  let out = '';
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === 'stream') out += msg.content.text;
    if (msg.header.msg_type === 'error') out += 'ERROR ' + msg.content.ename + ': ' +
                                                msg.content.evalue;
  };
  await future.done;
  return out;
}"""


def lab_run_all(page, url: str, token: str, name: str, timeout: float) -> dict:
    """Open ``name`` in JupyterLab (a fresh workspace), Run All, wait until the kernel is idle
    with every code cell run (or an error shown); :data:`LAB_STATE_JS` then."""
    page.goto(f"{url}/lab/workspaces/{Path(name).stem}/tree/{name}?token={token}&reset",
              wait_until="domcontentloaded")
    arg = json.dumps(name)
    page.wait_for_function(f"() => {{ const s = ({LAB_STATE_JS})({arg}); "
                           "return s && s.status === 'idle'; }", timeout=120_000)
    page.evaluate(f"""async () => {{
      const w = ({LAB_PANEL_JS})({arg});
      window.jupyterapp.shell.activateById(w.id);
      await window.jupyterapp.commands.execute('notebook:run-all-cells');
    }}""")
    page.wait_for_function(f"() => {{ const s = ({LAB_STATE_JS})({arg}); return s && s.status "
                           "=== 'idle' && (s.pending === 0 || s.errors.length > 0); }",
                           timeout=timeout * 1000, polling=250)
    time.sleep(1.0)  # let the last outputs and widget views arrive
    return page.evaluate(f"({LAB_STATE_JS})({arg})")


def lab_execute(page, name: str, code: str) -> str:
    """Run ``code`` in the kernel of notebook ``name`` open in JupyterLab; its stdout."""
    return page.evaluate(_LAB_EXECUTE_JS, [name, code])


def lab_shutdown(page, name: str) -> None:
    """Shut the notebook's kernel down (JupyterLab keeps it when the page closes)."""
    page.evaluate(f"async () => {{ await ({LAB_PANEL_JS})({json.dumps(name)})"
                  ".sessionContext.shutdown(); }")


#: Run in a notebook's kernel after Run All (:func:`lab_execute`), prints as JSON: every exercise
#: widget alive, in the order the widgets were made (= the order they were displayed), with the
#: exercise's own answer text and a wrong answer its checker rejects (preferably one it calls
#: "Not quite").
EXERCISE_ANSWERS_CODE = """
def _workbench_exercise_answers():
    import json
    from ipywidgets.widgets.widget import _instances
    rows = []
    for w in list(_instances.values()):
        if "workbench-exercise" not in getattr(w, "_dom_classes", ()):
            continue
        ex = w.exercise_parts["exercise"]
        rejected = [(t, ex.check(t)) for t in ("0", "1", "2", "-1", "1/3", "no", "yes", "x y",
                                                "abc", "1, 2")]
        rejected = [(t, fb.message) for t, fb in rejected if not fb.correct]
        rejected.sort(key=lambda r: not r[1].startswith("Not quite"))
        wrong, message = rejected[0]
        rows.append({"right": ex.answer_text, "wrong": wrong, "message": message})
    print(json.dumps(rows))
_workbench_exercise_answers()
del _workbench_exercise_answers
"""


def drive_exercise(page, index: int, answer: dict[str, str], what: str) -> None:
    """Drive the ``index``-th exercise on the page with ``answer`` (a row of
    :data:`EXERCISE_ANSWERS_CODE`): the wrong answer → ``✘`` and the checker's message; the
    right one → ``✔ Correct.``; the hint, then the reveal, open on a click."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    exercise = page.locator(".workbench-exercise").nth(index)
    exercise.scroll_into_view_if_needed()
    box = exercise.locator("input").first
    verdict = exercise.locator(".exercise-feedback")
    for typed, expected in ((answer["wrong"], "✘ " + answer["message"]),
                            (answer["right"], "✔ Correct.")):
        box.fill(typed)
        box.press("Enter")  # the box checks on Enter (the Check button does too)
        try:
            verdict.filter(has_text=expected).wait_for(timeout=30_000)
        except PlaywrightTimeout:
            shown = verdict.all_inner_texts()
            raise AssertionError(f"{what}: typed {typed!r}, expected {expected!r}, "
                                 f"shown {shown}") from None
        assert verdict.inner_text().strip() == expected, f"{what}: {verdict.inner_text()!r}"
    details = exercise.locator("details")
    assert details.count() == 2, f"{what}: {details.count()} <details>, expected hint + reveal"
    for k, label in enumerate(("Hint", "Reveal")):
        part = details.nth(k)
        summary = part.locator("summary")
        assert label in summary.inner_text(), f"{what}: <details> {k} is {summary.inner_text()!r}"
        assert not part.evaluate("d => d.open"), f"{what}: {label} is open before a click"
        summary.click()
        assert part.evaluate("d => d.open"), f"{what}: {label} did not open"
        body = part.inner_text().replace(summary.inner_text(), "").strip()
        assert body, f"{what}: {label} opened on nothing"
