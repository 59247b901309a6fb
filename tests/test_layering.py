"""Imports point down the layers of ARCHITECTURE.md, never up.

Every ``import`` of every module of ``workbench/`` (module-level and inside functions) is
resolved to the component it reaches (``workbench.grampa.sampler`` → ``grampa``) and checked
against the component ranks below: a module may import its own component and components of a
lower rank, or of the same rank among the paper packages; ``_core`` imports nothing of the
package; ``figures`` and ``widgets`` are imported by nothing but each other and the CLI.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "workbench"

#: Lower ranks are more basic. Unlisted components (a new paper's package) get PAPER_RANK.
RANKS = {
    "_core": 0,
    "interfaces": 1, "vocab": 1, "counts": 1, "stats": 1, "metrics": 1,
    "lattice": 2,
    "grampa": 3, "segmenters": 3, "datasets": 3,
    "theory": 4,
    "figures": 6, "widgets": 6,
    "__main__": 7,
}
PAPER_RANK = 5
NOTEBOOK_RANK = 6  # figures and widgets: the notebooks' layer; they may use each other
#: (importing module, imported component) pairs allowed against the rule, with the reason.
EXEMPT = {
    ("workbench.theory.checks.grampa", "__init__"):
        "check_grampa_uniform checks the public API as a user meets it (and skips if absent)",
}


def _component(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _rank(component: str) -> int:
    return RANKS.get(component.removesuffix(".py"), PAPER_RANK)


def _imports(path: Path) -> list[str]:
    module = "workbench." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
    module = module.removesuffix(".__init__")
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.split(".")[0] == "workbench"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
                if not node.module:  # "from . import x": x are modules of base
                    out += [f"{target}.{a.name}" for a in node.names]
                    continue
                out.append(target)
            elif node.module and node.module.split(".")[0] == "workbench":
                if node.module == "workbench":
                    out += [f"workbench.{a.name}" if (PACKAGE / a.name).exists()
                            or (PACKAGE / f"{a.name}.py").exists() else "workbench"
                            for a in node.names]
                else:
                    out.append(node.module)
    return [module] + out


def _violations() -> list[str]:
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module, *targets = _imports(path)
        own = _component(module)
        for target in targets:
            other = _component(target)
            if other == own or (module, other) in EXEMPT:
                continue
            if own == "__init__":  # the public API may gather anything but figures and CLI
                if other in ("figures", "widgets", "__main__"):
                    bad.append(f"{module} imports {target}")
                continue
            if own == "__main__":  # the CLI sits on top: it may use the public API too
                continue
            if other == "__init__":
                bad.append(f"{module} imports the package root ({target}): import the module")
            elif own == "_core":
                bad.append(f"{module} (_core) imports {target}")
            elif other in ("figures", "widgets") and own not in ("figures", "widgets",
                                                                  "__main__"):
                bad.append(f"{module} imports {target} (only notebooks and the CLI may)")
            elif _rank(other) > _rank(own) or (_rank(other) == _rank(own)
                                               not in (PAPER_RANK, NOTEBOOK_RANK)):
                bad.append(f"{module} (rank {_rank(own)}) imports {target} "
                           f"(rank {_rank(other)})")
    return bad


def test_no_module_imports_upward():
    assert _violations() == []


def test_the_guard_catches_an_upward_import(tmp_path, monkeypatch):
    """The rule is not vacuous: a fake _core module importing grampa is reported."""
    fake = PACKAGE / "_core" / "_layering_probe.py"
    fake.write_text("from ..grampa import Grampa\n", encoding="utf-8")
    try:
        assert any("_layering_probe" in v for v in _violations())
    finally:
        fake.unlink()
