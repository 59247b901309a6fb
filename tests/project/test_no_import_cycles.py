"""No import circles inside ``workbench/``, deferred imports included.

The graph
---------
Nodes are the modules of ``workbench/``; a package is the node of its ``__init__.py``
(``workbench/grampa/__init__.py`` is ``workbench.grampa``). Every ``import`` statement of a
module, wherever it stands (module level, inside a function or a class, under ``if``), gives
one edge per imported name, to the module it resolves to:

* ``import workbench.a.b`` → ``workbench.a.b``;
* ``from <base> import x`` (absolute, or relative with the dots resolved against the
  importing module's package, as Python does) → ``<base>.x`` if that is a module or
  package of ``workbench/``, else ``<base>`` (``x`` is a name defined in ``<base>``);
* imports of anything outside ``workbench`` are ignored.

Python also runs the ``__init__`` of every parent package before a submodule
(``import workbench.grampa.laws`` first runs ``workbench/grampa/__init__.py``). That implicit
step is *not* an edge: it is how packages load, not a dependency a module chose. So a package
``__init__`` that re-exports its submodules (``workbench.grampa`` → ``workbench.grampa.laws``)
is no cycle with them, as long as no submodule imports a *name* from its own package's
``__init__`` (``from .. import Vocabulary`` in ``workbench.bpe.model`` is an edge to
``workbench``, which imports ``workbench.bpe``: a real circle, which only works because of
the order in which the ``__init__`` files happen to run).

A cycle is a strongly connected component of this graph with two or more modules (or a
module importing itself).

The graph is built by ``tests/importgraph.py`` (``figures/test_panel.py`` uses it too).
"""

from __future__ import annotations

from pathlib import Path

from importgraph import cycles, import_edges


def test_no_import_cycles() -> None:
    left = cycles(import_edges())
    assert left == [], "import cycles (see the module docstring for the rules):\n" + "\n".join(
        " ↔ ".join(c) for c in left)


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / "workbench" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "workbench"


def test_the_graph_resolves_relative_deferred_and_package_imports(tmp_path) -> None:
    root = _write(tmp_path, {
        "__init__.py": "from .pkg import thing\n",
        "low.py": "import os\n",
        "pkg/__init__.py": "from .a import thing\nfrom . import b\n",
        "pkg/a.py": "from ..low import x\n\ndef f():\n    from .b import y\n",
        "pkg/b.py": "import workbench.low\nfrom workbench.pkg import c\n",
        "pkg/c.py": "from .. import low\n",
    })
    assert import_edges(root) == {
        "workbench": {"workbench.pkg"},
        "workbench.low": set(),
        "workbench.pkg": {"workbench.pkg.a", "workbench.pkg.b"},
        "workbench.pkg.a": {"workbench.low", "workbench.pkg.b"},
        "workbench.pkg.b": {"workbench.low", "workbench.pkg.c"},
        "workbench.pkg.c": {"workbench.low"},
    }
    assert cycles(import_edges(root)) == []  # an __init__ re-exporting is no cycle


def test_the_guard_catches_a_deferred_cycle_and_a_package_root_import(tmp_path) -> None:
    root = _write(tmp_path, {
        "__init__.py": "from .pkg.a import thing\n",
        "pkg/__init__.py": "",
        "pkg/a.py": "def f():\n    from .b import y\n",
        "pkg/b.py": "from .a import thing\n",
        "pkg/c.py": "from .. import thing\n",
        "pkg/d.py": "from ..pkg.d import z\n",
    })
    assert cycles(import_edges(root)) == [["workbench.pkg.a", "workbench.pkg.b"],
                                         ["workbench.pkg.d"]]
    root_import = _write(tmp_path, {"pkg/a.py": "from .. import thing\n"})
    assert cycles(import_edges(root_import)) == [["workbench", "workbench.pkg.a"],
                                                ["workbench.pkg.d"]]
