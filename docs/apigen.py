"""The API reference's source pages, written from the package's ``__all__`` lists.

A *namespace* is ``workbench`` itself and every public subpackage or module directly under it
that declares ``__all__`` (found by reading the source, so finding them imports nothing).
:func:`write_sources` writes ``api/index.rst`` and one ``api/<namespace>.rst`` per namespace:
the namespace's docstring, then an autosummary table of its ``__all__``, whose per-name pages
Sphinx's autosummary generates (``api/generated/``). A name that several namespaces export
(``workbench.Grampa`` is ``workbench.grampa.Grampa``) is documented once, in the namespace
that defines it, and linked from the others.

This module writes reStructuredText only: it runs no Sphinx, and what it writes is build
output (``docs/api/`` is not committed). ``docs/conf.py`` calls it; the docs test uses
:func:`namespaces` and :func:`canonical` to check that every public name is in the built
reference.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

PACKAGE = "workbench"


def _declares_all(path: Path) -> bool:
    """Whether the module at ``path`` assigns ``__all__`` at its top level."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) else [])
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            return True
    return False


def namespaces() -> list[str]:
    """``workbench`` and its public children (package or module) that declare ``__all__``."""
    root = Path(importlib.import_module(PACKAGE).__file__).parent
    found = [PACKAGE]
    for path in sorted(root.iterdir()):
        name = path.stem if path.suffix == ".py" else path.name
        source = path / "__init__.py" if path.is_dir() else path
        if name.startswith("_") or not source.is_file() or source.suffix != ".py":
            continue
        if _declares_all(source):
            found.append(f"{PACKAGE}.{name}")
    return found


def public_names(namespace: str) -> list[str]:
    """The namespace's ``__all__``, in its own order."""
    return list(importlib.import_module(namespace).__all__)


def canonical(namespace: str, name: str, spaces: list[str] | None = None) -> str:
    """The full name under which ``namespace.name`` is documented.

    A class or function exported by several namespaces is documented in the one whose name
    is the longest prefix of the module that defines it; anything else where it is listed.
    """
    obj = getattr(importlib.import_module(namespace), name)
    if not (inspect.isclass(obj) or inspect.isroutine(obj)):
        return f"{namespace}.{name}"
    home = getattr(obj, "__module__", "") or ""
    best = namespace
    for other in spaces if spaces is not None else namespaces():
        if other == namespace or name not in public_names(other):
            continue
        if getattr(importlib.import_module(other), name) is not obj:
            continue
        if (home == other or home.startswith(other + ".")) and len(other) > len(best):
            best = other
    if not (home == best or home.startswith(best + ".")) and best == namespace:
        return f"{namespace}.{name}"
    return f"{best}.{name}"


def _relative(full: str, namespace: str) -> str:
    """``full`` without the ``namespace.`` prefix, when it has it."""
    return full[len(namespace) + 1:] if full.startswith(namespace + ".") else full


def _title(text: str, rule: str) -> str:
    return f"{text}\n{rule * len(text)}\n"


def namespace_page(namespace: str, spaces: list[str]) -> str:
    """The reStructuredText page of one namespace."""
    own, elsewhere = [], []
    for name in public_names(namespace):
        full = canonical(namespace, name, spaces)
        (own if full == f"{namespace}.{name}" else elsewhere).append((name, full))
    lines = [_title(f"``{namespace}``", "="),
             f".. automodule:: {namespace}", "   :no-members:", "",
             f".. currentmodule:: {namespace}", ""]
    if own:
        lines += [_title("Public names", "-"), ".. autosummary::", "   :toctree: generated",
                  "   :nosignatures:", ""]
        lines += [f"   {name}" for name, _ in sorted(own, key=lambda nf: nf[0].lower())]
        lines.append("")
    if elsewhere:
        lines += [_title("Also exported here", "-"),
                  "Documented in the namespace that defines them.", "",
                  ".. autosummary::", "   :nosignatures:", ""]
        # relative to the current module, as autosummary requires for names inside it
        lines += [f"   ~{_relative(full, namespace)}"
                  for _, full in sorted(elsewhere, key=lambda nf: nf[0].lower())]
        lines.append("")
    return "\n".join(lines)


def index_page(spaces: list[str]) -> str:
    """``api/index.rst``: one entry per namespace."""
    lines = [_title("API reference", "="),
             "Every name in ``workbench.__all__`` and in the ``__all__`` of each public",
             "subpackage or module, with its docstring.", "",
             ".. toctree::", "   :maxdepth: 1", ""]
    lines += [f"   {space}" for space in spaces]
    return "\n".join(lines) + "\n"


def _write_if_changed(path: Path, text: str) -> None:
    """Write ``text`` unless the file already holds it (keeps Sphinx's rebuilds incremental)."""
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def write_sources(docs: Path) -> list[str]:
    """Write ``docs/api/index.rst`` and one page per namespace; return the namespaces."""
    spaces = namespaces()
    api = docs / "api"
    api.mkdir(exist_ok=True)
    _write_if_changed(api / "index.rst", index_page(spaces))
    for space in spaces:
        _write_if_changed(api / f"{space}.rst", namespace_page(space, spaces))
    return spaces
