"""The API reference builds with warnings as errors and documents every public name.

``docs/`` is copied into ``tmp_path`` and built there (Sphinx + numpydoc, ``-W``), so the
pages it generates (``api/``) and the HTML never land in the working tree. Public names are
``workbench.__all__`` and the ``__all__`` of each public subpackage or module
(``docs/apigen.py`` finds them); each must have its page, under the name of the namespace
that defines it, and be listed on the page of every namespace that exports it. Measured on
2 cores shared with other jobs (load average 5–6, 2026-11-26): 54–73 s wall for this module,
about 23 s of it CPU.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

pytest.importorskip("sphinx", reason="sphinx is in the [dev] extra")
pytest.importorskip("numpydoc", reason="numpydoc is in the [dev] extra")


def _apigen():
    spec = importlib.util.spec_from_file_location("apigen", DOCS / "apigen.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    tmp = tmp_path_factory.mktemp("docs")
    src = tmp / "src"
    shutil.copytree(DOCS, src, ignore=shutil.ignore_patterns("_build", "api", "__pycache__"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
        "PYTHONWARNINGS": "always::UserWarning"}  # numpydoc's warnings, every one of them
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q",
         "-d", str(tmp / "doctrees"), str(src), str(tmp / "html")],
        cwd=tmp, env=env, capture_output=True, text=True, timeout=600)
    return tmp / "html", proc


def test_builds_without_warnings(built):
    html, proc = built
    assert proc.returncode == 0, proc.stderr[-4000:]
    numpydoc = [line for line in proc.stderr.splitlines() if "numpydoc" in line]
    assert not numpydoc, numpydoc
    assert (html / "index.html").is_file() and (html / "api" / "index.html").is_file()


def test_docstrings_parse_into_sections(built):
    """No role is left as literal text: that is what numpydoc makes of a paragraph that follows
    a Parameters section without a heading of its own (it reads the lines as parameters)."""
    html, _ = built
    literal = re.compile(r":(?:meth|func|class|mod|data|attr|exc|obj):(?:`|&#96;)")
    pages = [p.name for p in (html / "api").rglob("*.html")
             if literal.search(p.read_text(encoding="utf-8"))]
    assert not pages, pages
    assert literal.search("see :meth:`Vocabulary.to_alphabet` first")


def test_every_public_name_is_documented(built):
    html, _ = built
    apigen = _apigen()
    spaces = apigen.namespaces()
    assert {"workbench", "workbench.grampa", "workbench.bpe", "workbench.vocab"} <= set(spaces)
    missing, unlisted = [], []
    for space in spaces:
        page = (html / "api" / f"{space}.html").read_text(encoding="utf-8")
        for name in apigen.public_names(space):
            full = apigen.canonical(space, name, spaces)
            stub = html / "api" / "generated" / f"{full}.html"
            if not (stub.is_file() and f'id="{full}"' in stub.read_text(encoding="utf-8")):
                missing.append(full)
            if f'href="generated/{full}.html' not in page:
                unlisted.append(f"{space}.{name}")
    assert not missing, missing
    assert not unlisted, unlisted


def test_reexports_are_documented_once_where_defined():
    apigen = _apigen()
    spaces = apigen.namespaces()
    assert apigen.canonical("workbench", "Grampa", spaces) == "workbench.grampa.Grampa"
    assert apigen.canonical("workbench.grampa", "Grampa", spaces) == "workbench.grampa.Grampa"
    # workbench.lattice declares no __all__: its names are documented at the top level
    assert apigen.canonical("workbench", "Lattice", spaces) == "workbench.Lattice"


def test_pages_load_nothing_from_the_network(built):
    """Scripts, stylesheets and images come from the build (links to other sites may stay)."""
    html, _ = built
    loads = re.compile(r"<(?:script|img)\b[^>]*\bsrc=|<link\b[^>]*\bhref=|@import\s+url\(")
    remote = []
    for page in html.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        for match in loads.finditer(text):
            target = text[match.end():match.end() + 10].lstrip("\"' ")
            if target.startswith(("http:", "https:", "//")):
                remote.append((page.name, text[match.start():match.end() + 60]))
    assert not remote, remote[:5]
    assert loads.search('<script src="https://cdn.example/x.js">')  # the pattern can match
