"""Sphinx configuration of the API reference (``make docs`` → ``docs/_build/html``).

The pages under ``api/`` are written at configuration time by ``apigen.py`` from the
package's ``__all__`` lists, and autosummary writes one page per public name under
``api/generated/``; both are build output. numpydoc reads the docstrings. Nothing is fetched
from the network: no intersphinx, the default theme (alabaster), no math renderer needed.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
if (HERE.parent / "workbench" / "__init__.py").is_file():  # a source tree: document it
    sys.path.insert(0, str(HERE.parent))

import apigen  # noqa: E402

import workbench  # noqa: E402

apigen.write_sources(HERE)

project = "Tokenisation Workbench"
author = "Tokenisation Workbench contributors"
copyright = "2026, Tokenisation Workbench contributors"  # noqa: A001
release = version = workbench.__version__

extensions = ["sphinx.ext.autodoc", "sphinx.ext.autosummary", "numpydoc"]
templates_path = ["_templates"]
exclude_patterns = ["_build"]
root_doc = "index"

autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"  # numpydoc's Parameters sections give the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False

html_theme = "alabaster"
html_title = f"{project} {release}"
html_static_path: list[str] = []
html_show_sourcelink = False
