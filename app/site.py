"""`make site`: the executed course as static HTML pages that work offline.

Usage: ``python app/site.py [--out site] [--notebooks notebooks] [NAME ...]`` (NAME: a
notebook's file name or stem; default all). Writes ``OUT/<notebook>.html`` for each notebook,
``OUT/index.html`` linking them, and ``OUT/_static/`` with every script the pages load.

How a page is made:

1. **Executed** by nbconvert's ``ExecutePreprocessor`` with ``store_widget_state=True`` (the
   ipywidgets state goes into the notebook's metadata), from ``notebooks/`` as working
   directory, skipping cells tagged ``checks`` as Voilà does (``app/voila.py``). Kernel
   replies are polled in 0.2 s slices, for the reason ``workbench/course/kernelpoll.py`` explains.
2. **Plotly** figures are shown by the notebooks as plotly's mime bundle
   (``application/vnd.plotly.v1+json``), which JupyterLab's plotly extension draws and a
   static page cannot. Each bundle, in a cell output or inside an ``Output`` widget's stored
   state, becomes ``text/html``: a ``<div>`` and a ``Plotly.newPlot`` call on the same figure
   JSON. Hover, zoom and legend clicks work without a kernel; sliders do not recompute.
3. **Marked as a snapshot**: a note at the top of each page (:func:`add_snapshot_note`) says
   that its controls show the default settings and do nothing here, and how to run the
   notebook live (``make lab`` or ``make app``).
4. **Exported** by nbconvert's ``HTMLExporter`` with the ``lab`` template, code cells hidden
   (as in Voilà). The template normally loads require.js, MathJax and the widget manager
   from public CDNs. Here every one comes from ``_static/`` (``app/site_template``).

Where ``_static/`` comes from. Nothing is downloaded when a page is opened:

* ``plotly.min.js``: the installed ``plotly`` package (``plotly.offline.get_plotlyjs``);
* ``require.min.js``: the installed ``voila`` package (its base template's static files);
* ``embed-amd.js`` and its fonts: the npm package ``@jupyter-widgets/html-manager``
  (ipywidgets' own standalone renderer: it renders the stored state and draws the default
  widgets); ``tex-svg-full.js``: the npm package ``mathjax`` (SVG output, so no font files).
  No Python package ships these two. ``npm pack`` fetches them once when the site is
  built, into ``.venv/share/workbench-site/`` (``VENDOR_CACHE``), where ``make clean-venv``
  removes them. They are never committed.

Measured (2026-11-24, 2 cores, warm numba cache): all twelve notebooks in 117 s wall
(81 s CPU), 23 MB; no page requests anything but its own files, no console error.

The command (``build(..., api=True)``) also builds the API reference (``docs/``: Sphinx and
numpydoc, warnings as errors, as ``make docs``) into ``OUT/api/`` and links it from the index;
Sphinx writes those pages itself.

Every file is written atomically (temporary file + ``os.replace``). This script is not part
of the ``workbench`` package: it builds pages and changes no notebook (the executed copies
live in memory only).
"""

from __future__ import annotations

import argparse
import html
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_DIR = Path(__file__).resolve().parent / "site_template"
VENDOR_CACHE = ROOT / ".venv" / "share" / "workbench-site"
#: npm packages vendored into ``_static/`` (name, version, member → file name).
NPM_FILES = {
    ("@jupyter-widgets/html-manager", "1.0.15"): "dist/",  # embed-amd.js and its fonts
    ("mathjax", "3.2.2"): "es5/tex-svg-full.js",
}
PLOTLY_MIME = "application/vnd.plotly.v1+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
CELL_TIMEOUT = 900  # seconds per cell
#: Seconds a cell's outputs are waited for after its reply: every Voilà's (``voila.json``, which
#: says why; nbclient stops collecting a cell's outputs when the wait runs out).
IOPUB_TIMEOUT = json.loads((Path(__file__).resolve().parent / "voila.json").read_text(
    encoding="utf-8"))["VoilaExecutor"]["iopub_timeout"]


# ---------------------------------------------------------------------------- writing
def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)  # a web page: readable by a server's user
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# ---------------------------------------------------------------------------- _static
def _npm_tarball(name: str, version: str) -> Path:
    """The npm package's tarball in :data:`VENDOR_CACHE`, fetched with ``npm pack`` once."""
    stem = name.lstrip("@").replace("/", "-")
    tgz = VENDOR_CACHE / f"{stem}-{version}.tgz"
    if not tgz.is_file():
        if shutil.which("npm") is None:
            raise SystemExit(f"`make site` needs {name}@{version} from npm; install npm "
                             f"(Debian package `npm`) or put {tgz.name} into {VENDOR_CACHE}")
        VENDOR_CACHE.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=VENDOR_CACHE) as tmp:
            subprocess.run(["npm", "pack", "--silent", f"{name}@{version}",
                            "--pack-destination", tmp], check=True, stdout=subprocess.DEVNULL)
            os.replace(Path(tmp) / tgz.name, tgz)
    return tgz


#: Where html-manager's stylesheet looks for its icon fonts, relative to the page (its
#: webpack public path resolves there when the page is a file).
FONT_DIRS = ("@jupyter-widgets", "@jupyter-widgets/html-manager/dist")
FONT_SUFFIXES = (".woff", ".woff2", ".ttf", ".eot", ".svg")


def vendor(out: Path) -> list[str]:
    """Fill ``out/_static`` (and html-manager's font folders) with every file the pages load.

    Returns the paths written, relative to ``out``.
    """
    import plotly.offline
    from jupyter_core.paths import jupyter_path

    written: dict[str, bytes] = {}
    written["_static/plotly.min.js"] = plotly.offline.get_plotlyjs().encode("utf-8")
    for base in jupyter_path("voila", "templates", "base", "static"):
        if (Path(base) / "require.min.js").is_file():
            written["_static/require.min.js"] = (Path(base) / "require.min.js").read_bytes()
            break
    else:
        raise SystemExit("require.min.js not found: is voila installed (the [dev] extra)?")
    for (name, version), member in NPM_FILES.items():
        with tarfile.open(_npm_tarball(name, version)) as tar:
            for info in tar.getmembers():
                rel = info.name.removeprefix("package/")
                wanted = rel.startswith(member) if member.endswith("/") else rel == member
                file_name = Path(rel).name
                skip = rel.endswith(".map") or file_name.startswith(("embed.js", "libembed"))
                if not (info.isfile() and wanted and not skip):
                    continue
                data = tar.extractfile(info).read()  # type: ignore[union-attr]
                if file_name.endswith(FONT_SUFFIXES):
                    for folder in FONT_DIRS:
                        written[f"{folder}/{file_name}"] = data
                else:
                    written[f"_static/{file_name}"] = data
    for rel, data in written.items():
        write_atomic(out / rel, data)
    return sorted(written)


# ---------------------------------------------------------------------------- executing
def _kernel_manager():
    """A kernel manager whose clients poll kernel replies in slices
    (:mod:`workbench.course.kernelpoll`, the client every Voilà of the environment uses)."""
    from jupyter_client.manager import AsyncKernelManager

    from workbench.course.kernelpoll import SlicedPollKernelClient

    return AsyncKernelManager(kernel_name="python3", client_factory=SlicedPollKernelClient)


def _preprocessor():
    from nbconvert.preprocessors import ExecutePreprocessor

    return ExecutePreprocessor(timeout=CELL_TIMEOUT, store_widget_state=True,
                               iopub_timeout=IOPUB_TIMEOUT, skip_cells_with_tag="checks",
                               allow_errors=False)


def execute(path: Path):
    """The notebook at ``path``, executed in memory (the file is not touched)."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    _preprocessor().preprocess(nb, {"metadata": {"path": str(path.parent)}},
                               km=_kernel_manager())
    return nb


# ---------------------------------------------------------------------------- plotly
def _plotly_html(fig: dict) -> str:
    div = f"wb-plotly-{uuid.uuid4().hex[:12]}"
    payload = json.dumps({"data": fig.get("data", []), "layout": fig.get("layout", {}),
                          "config": {"responsive": True, **fig.get("config", {})}})
    payload = payload.replace("</", "<\\/")  # never close the script tag early
    return (f'<div id="{div}" class="wb-plotly" style="width:100%;min-height:360px"></div>'
            f'<script type="text/javascript">(function(){{var f={payload};'
            f'Plotly.newPlot("{div}",f.data,f.layout,f.config);}})();</script>')


def _convert_outputs(outputs: list) -> int:
    n = 0
    for out in outputs:
        data = out.get("data")
        if isinstance(data, dict) and PLOTLY_MIME in data:
            data["text/html"] = _plotly_html(data.pop(PLOTLY_MIME))
            n += 1
    return n


def plotly_to_html(nb) -> int:
    """Replace every plotly mime bundle (cells and Output widgets) by HTML; returns how many."""
    n = sum(_convert_outputs(c.get("outputs", [])) for c in nb.cells if c.cell_type == "code")
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    for model in state.values():
        if model.get("model_name") == "OutputModel":
            n += _convert_outputs(model.get("state", {}).get("outputs", []))
    return n


# ---------------------------------------------------------------------------- pages
SNAPSHOT_NOTE = (
    '<div class="wb-snapshot" style="border:1px solid #d0a000;background:#fff8e0;'
    'padding:0.6em 1em;margin:0 0 1em 0">'
    "<strong>A snapshot, not the live notebook.</strong> This page is <code>{name}</code> "
    "executed once with its default settings: figures can be hovered and zoomed, but the "
    "sliders, dropdowns, the upload box and the <em>save figures</em> button do nothing here "
    "(there is no Python behind the page). To run it live, clone the repository and run "
    "<code>make lab</code> (JupyterLab: open <code>notebooks/{name}</code>, then "
    "<b>Run &#9656; Run All Cells</b>) or <code>make app</code> (the notebooks as web apps)."
    "</div>")


def add_snapshot_note(nb, name: str) -> None:
    """Put :data:`SNAPSHOT_NOTE` for notebook file ``name`` at the top of ``nb`` (in memory)."""
    import nbformat

    note = nbformat.v4.new_markdown_cell(SNAPSHOT_NOTE.format(name=html.escape(name)))
    note.metadata["tags"] = ["snapshot-note"]
    nb.cells.insert(0, note)


def export(nb) -> str:
    """The page of an executed notebook (``app/site_template``, scripts from ``_static/``)."""
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="workbench_site",
                            extra_template_basedirs=[str(TEMPLATE_DIR)], exclude_input=True,
                            exclude_input_prompt=True, exclude_output_prompt=True)
    exporter.require_js_url = "_static/require.min.js"
    exporter.widget_renderer_url = "_static/embed-amd.js"
    exporter.mathjax_url = "_static/tex-svg-full.js"
    body, _ = exporter.from_notebook_node(nb)
    return body


def title_of(nb, fallback: str) -> str:
    """The first Markdown heading of the notebook, without its ``#``."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("#"):
                    return line.lstrip("#").strip()
    return fallback


def index_page(entries: list[tuple[str, str, float]], *, api: bool = False) -> str:
    """``index.html``: one link per page (file name, title, seconds it took to execute), and
    with ``api`` a link to the API reference in ``api/``."""
    items = "\n".join(
        f'<li><a href="{html.escape(f)}">{html.escape(t)}</a> '
        f'<span class="t">({html.escape(Path(f).stem)}, executed in {s:.0f} s)</span></li>'
        for f, t, s in entries)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Tokenisation Workbench: the course</title>
<style>body{{font-family:sans-serif;max-width:46em;margin:2em auto;line-height:1.5}}
.t{{color:#666;font-size:90%}}</style></head>
<body><h1>Tokenisation Workbench: the course</h1>
<p>The notebooks, executed, as static pages: figures can be hovered and zoomed, controls show
their default settings (moving them needs Python: <code>make lab</code> or
<code>make app</code>). Nothing is loaded from the network.</p>
<ol>
{items}
</ol>{API_LINK if api else ""}</body></html>
"""


API_LINK = """
<p><a href="api/index.html">API reference</a>: every public name of the <code>workbench</code>
package with its docstring (<code>make docs</code> builds the same pages).</p>
"""


def build_api_reference(out: Path) -> None:
    """The API reference (``docs/``, Sphinx + numpydoc, warnings as errors) as HTML in ``out``."""
    with tempfile.TemporaryDirectory() as doctrees:
        subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q",
                        "-d", doctrees, str(ROOT / "docs"), str(out)], cwd=ROOT, check=True)


def build(out: Path, notebooks: list[Path], *, log=print,
          api: bool = False) -> list[tuple[str, str, float]]:
    """Execute and export ``notebooks`` into ``out`` with ``_static/`` and ``index.html``
    (and with ``api`` the API reference in ``out/api``, linked from the index)."""
    vendor(out)
    entries = []
    for path in notebooks:
        t0 = time.perf_counter()
        nb = execute(path)
        seconds = time.perf_counter() - t0
        n_plotly = plotly_to_html(nb)
        title = title_of(nb, path.stem)
        add_snapshot_note(nb, path.name)
        write_atomic(out / f"{path.stem}.html", export(nb))
        entries.append((f"{path.stem}.html", title, seconds))
        log(f"{path.name}: executed in {seconds:.1f} s, {n_plotly} plotly figure(s)")
    if api:
        build_api_reference(out / "api")
        log("api/: the API reference")
    write_atomic(out / "index.html", index_page(entries, api=api))
    return entries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python app/site.py", description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="notebooks (file name or stem); default all")
    parser.add_argument("--out", default=str(ROOT / "site"), help="output directory")
    parser.add_argument("--notebooks", default=str(ROOT / "notebooks"), help="notebook folder")
    parser.add_argument("--fetch-only", action="store_true",
                        help="only fetch the npm tarballs into the cache (`make` runs it "
                             "at install)")
    args = parser.parse_args(argv)
    if args.fetch_only:
        for name, version in NPM_FILES:
            print(f"site: {_npm_tarball(name, version)}", file=sys.stderr)
        return 0
    folder = Path(args.notebooks)
    every = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    chosen = every if not args.names else [
        p for p in every if p.name in args.names or p.stem in args.names]
    unknown = set(args.names) - {p.name for p in chosen} - {p.stem for p in chosen}
    if unknown or not chosen:
        parser.error(f"no such notebook in {folder}: {', '.join(sorted(unknown)) or '(none)'}")
    t0 = time.perf_counter()
    build(Path(args.out), chosen, api=True)
    print(f"site: {len(chosen)} page(s) in {args.out} in {time.perf_counter() - t0:.0f} s",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
