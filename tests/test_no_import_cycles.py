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

The allow-list
--------------
:data:`ALLOWED_EDGES` names import edges known to close a cycle in modules owned by other
work in progress, each with the reason. The test deletes those edges, then asserts that no
cycle is left, and that every allowed edge still exists and still closes a cycle: when it no
longer does, it must be removed from the list (the list may only shrink).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "workbench"

#: (importing module, imported module) edges that close a cycle today; empty the list as
#: the owners of these modules break them.
ALLOWED_EDGES: dict[tuple[str, str], str] = {}


def module_name(path: Path, root: Path = PACKAGE) -> str:
    """``root/a/b.py`` → ``workbench.a.b``; ``root/a/__init__.py`` → ``workbench.a``."""
    parts = ("workbench", *path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_edges(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Every module of ``root`` mapped to the modules of ``root`` it imports (see above)."""
    paths = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {name: set() for name in paths}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")
                    if node.level - 1 >= len(parts):
                        raise ValueError(f"{path}: relative import beyond the package")
                    base = ".".join(parts[: len(parts) - (node.level - 1)])
                    base = f"{base}.{node.module}" if node.module else base
                else:
                    base = node.module or ""
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base
                           for alias in node.names]
            else:
                continue
            for target in targets:
                while target and target not in paths:  # `import workbench.a.b` → deepest module
                    target = target.rpartition(".")[0]
                if target.split(".")[0] == "workbench" and target:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with a cycle (Tarjan, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterable[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in graph.get(node, ()):
                        found.append(sorted(component))
    return sorted(found)


def _without(graph: dict[str, set[str]], edges: Iterable[tuple[str, str]]
             ) -> dict[str, set[str]]:
    out = {name: set(targets) for name, targets in graph.items()}
    for source, target in edges:
        out.get(source, set()).discard(target)
    return out


def test_no_import_cycles() -> None:
    left = cycles(_without(import_edges(), ALLOWED_EDGES))
    assert left == [], "import cycles (see the module docstring for the rules):\n" + "\n".join(
        " ↔ ".join(c) for c in left)


def test_allowed_edges_still_close_a_cycle() -> None:
    graph = import_edges()
    for (source, target), reason in ALLOWED_EDGES.items():
        assert target in graph.get(source, ()), \
            f"{source} no longer imports {target}: remove it from ALLOWED_EDGES ({reason})"
        others = [e for e in ALLOWED_EDGES if e != (source, target)]
        assert any(source in c and target in c for c in cycles(_without(graph, others))), \
            f"{source} → {target} closes no cycle any more: remove it from ALLOWED_EDGES"


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
