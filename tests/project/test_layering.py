"""Imports point down the layers of ARCHITECTURE.md, never up.

Every ``import`` of every module of ``workbench/`` (module-level and inside functions) is
resolved to the module it reaches, relative imports exactly like absolute ones:
``from .. import X`` reaches the module ``X`` of the parent package if there is one, and
otherwise the parent package itself (``X`` is a name it re-exports) — so
``from .. import Vocabulary`` in ``bpe/model.py`` is an import of the package root. The module
is then mapped to its component (``workbench.grampa.sampler`` → ``grampa``) and checked:

* every component (folder or top-level module of ``workbench/``) is listed in :data:`RANKS`;
  an unlisted one fails (give a new paper's package its rank, do not let it default);
* a module imports its own component and components of a lower rank; equal ranks only among
  the paper packages (:data:`PAPER_RANK`), which may use each other;
* ``checks``, ``figures``, ``course`` (and ``warmup``) are siblings at rank 6: none imports
  another;
* nothing imports the package root except ``__main__`` (import the defining module);
* ``__init__`` is the public API: it may gather components of rank <= 5;
* ``__main__`` (the CLI) sits on top and may import anything.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "workbench"

#: Every component of the package and its rank; lower ranks are more basic.
RANKS = {
    "_core": 0,                     # config, rng, trie, validate: imports nothing of the package
    "interfaces": 1,                # Sampler, Segmenter, MergeModel protocols
    "vocab": 1, "counts": 1, "stats": 1, "metrics": 1,
    "laws": 1,                      # SegmentationLaw: the exact law of a sampler on one word
    "wordlevel": 2,                 # WordTokenizer, TokenSampler: the word-level verbs from two
    "textlevel": 2,                 # TextLevelTokenizer, TextSampler: the text-level verbs
    "lattice": 2,
    "theory": 2,                    # exact closed forms, one module per paper
    "grampa": 3, "segmenters": 3, "samplers": 3, "datasets": 3,
    "pretokenise": 4, "bpe": 4, "greedtok": 4, "counterexamples": 4,  # the paper packages
    "experiments": 5,               # setups, training recipes, runners writing results/
    "checks": 6, "figures": 6,      # verify() and the notebooks' layer: siblings
    "course": 6,                    # exercises and conclusions of the notebooks: their sibling
    "warmup": 6,                    # `python -m workbench warmup`: runs every kernel once
    "__main__": 7,                  # the CLI
    "cli_words": 7,                 # the CLI's typed words (only __main__ imports it)
}
PAPER_RANK = 4  # components of this rank may import each other
PUBLIC_API_MAX_RANK = 5  # what workbench/__init__.py may gather

def _module_name(path: Path, package: Path) -> str:
    parts = path.relative_to(package).with_suffix("").parts
    name = ".".join((package.name,) + parts)
    return name.removesuffix(".__init__")


def _is_module(dotted: str, package: Path) -> bool:
    """Is ``dotted`` (``workbench.x.y``) a module or subpackage of the package on disk?"""
    path = package.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _from_targets(base: str, names: list[str], package: Path) -> list[str]:
    """``from base import a, b``: each name is a module of ``base`` or a name ``base`` defines."""
    return [f"{base}.{n}" if _is_module(f"{base}.{n}", package) else base for n in names]


def imports_of(path: Path, package: Path = PACKAGE) -> tuple[str, list[str]]:
    """``(module, modules it imports)``, every relative import resolved to an absolute one."""
    module = _module_name(path, package)
    root = package.name
    here = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.split(".")[0] == root]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = here.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                if node.module:
                    base = f"{base}.{node.module}"
            elif node.module and node.module.split(".")[0] == root:
                base = node.module
            else:
                continue
            out += _from_targets(base, [a.name for a in node.names if a.name != "*"] or ["*"],
                                 package)
    return module, out


def _component(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def components(package: Path = PACKAGE) -> set[str]:
    """Every top-level module and subpackage of the package (``__init__`` excluded)."""
    out = {p.stem for p in package.glob("*.py") if p.name != "__init__.py"}
    out |= {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}
    return out


def violations(package: Path = PACKAGE,
               ranks: dict[str, int] = RANKS) -> list[tuple[str, str, str]]:
    """``(importing module or "component", imported component or name, message)`` per breach."""
    bad = [("component", c, f"component {c!r} is not listed in RANKS: give it a rank")
           for c in sorted(components(package) - set(ranks))]
    for path in sorted(package.rglob("*.py")):
        module, targets = imports_of(path, package)
        own = _component(module)
        for target in targets:
            other = _component(target)
            if other == own or own == "__main__":
                continue
            if other == "__init__":
                bad.append((module, other, f"{module} imports the package root ({target}): "
                                           "import the module that defines the name"))
                continue
            if other not in ranks:
                bad.append((module, other, f"{module} imports {target}, whose component "
                                           "is not listed in RANKS"))
                continue
            if own == "__init__":
                if ranks[other] > PUBLIC_API_MAX_RANK:
                    bad.append((module, other, f"the public API imports {target} "
                                               f"(rank {ranks[other]} > {PUBLIC_API_MAX_RANK})"))
                continue
            if own not in ranks:
                continue  # reported once above as an unlisted component
            mine, theirs = ranks[own], ranks[other]
            if theirs > mine or (theirs == mine and mine != PAPER_RANK):
                bad.append((module, other, f"{module} (rank {mine}) imports {target} "
                                           f"(rank {theirs})"))
    return bad


def test_no_module_imports_upward():
    assert [msg for _, _, msg in violations()] == []


def test_every_component_has_a_rank_and_every_rank_a_component():
    assert components() - set(RANKS) == set()
    assert set(RANKS) - components() == set()


def test_the_guard_catches_an_upward_import(tmp_path):
    """The rule is not vacuous: in a copy of the real package, a fake _core module importing
    grampa is reported (the copy, so that no test writes into the package)."""
    package = tmp_path / "workbench"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    assert violations(package) == []
    (package / "_core" / "_layering_probe.py").write_text("from ..grampa import Grampa\n",
                                                         encoding="utf-8")
    assert any("_layering_probe" in msg for _, _, msg in violations(package))


# --------------------------------------------------------------------------- the guard itself
def _tree(root: Path, files: dict[str, str]) -> Path:
    """A miniature ``workbench`` package under ``root`` (tests never write into the real one)."""
    package = root / "workbench"
    for name, text in {"__init__.py": "from .vocab import Vocabulary\n", **files}.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for folder in list(package.rglob("*")):
        if folder.is_dir() and not (folder / "__init__.py").exists():
            (folder / "__init__.py").write_text("", encoding="utf-8")
    return package


MINI = {
    "_core/validate.py": "",
    "vocab/__init__.py": "from .vocabulary import Vocabulary\n",
    "vocab/vocabulary.py": "class Vocabulary: ...\n",
    "grampa/__init__.py": "from .sampler import Grampa\n",
    "grampa/sampler.py": "from ..vocab import Vocabulary\nclass Grampa: ...\n",
}


def _messages(package: Path) -> list[str]:
    return [msg for _, _, msg in violations(package)]


def test_guard_accepts_a_clean_tree(tmp_path):
    assert _messages(_tree(tmp_path, MINI)) == []


@pytest.mark.parametrize("text", [
    "from ..grampa import Grampa\n",
    "from ..grampa.sampler import Grampa\n",
    "from workbench.grampa import Grampa\n",
    "import workbench.grampa.sampler\n",
    "def late():\n    from .. import grampa\n",  # a deferred import of a module of the root
])
def test_guard_catches_an_upward_import(tmp_path, text):
    package = _tree(tmp_path, {**MINI, "_core/probe.py": text})
    assert any("workbench._core.probe (rank 0) imports workbench.grampa" in m
               for m in _messages(package))


@pytest.mark.parametrize("text", [
    "from .. import Vocabulary\n",  # a name the root re-exports: an import of the root
    "from workbench import Vocabulary\n",
    "import workbench\n",
    "def late():\n    from .. import Vocabulary\n",
])
def test_guard_catches_a_name_imported_from_the_root(tmp_path, text):
    package = _tree(tmp_path, {**MINI, "grampa/probe.py": text})
    assert any("workbench.grampa.probe imports the package root" in m
               for m in _messages(package))


def test_from_root_import_of_a_module_is_that_module(tmp_path):
    """``from .. import vocab`` (a module) reaches ``vocab``, not the root: allowed downward,
    reported upward."""
    ok = _tree(tmp_path / "a", {**MINI, "grampa/probe.py": "from .. import vocab\n"})
    assert _messages(ok) == []
    up = _tree(tmp_path / "b", {**MINI, "vocab/probe.py": "from .. import grampa\n"})
    assert _messages(up) == ["workbench.vocab.probe (rank 1) imports workbench.grampa (rank 3)"]


def test_guard_catches_an_unlisted_folder_and_module(tmp_path):
    package = _tree(tmp_path, {**MINI, "newpaper/model.py": "from ..vocab import Vocabulary\n",
                               "helpers.py": ""})
    msgs = _messages(package)
    assert "component 'newpaper' is not listed in RANKS: give it a rank" in msgs
    assert "component 'helpers' is not listed in RANKS: give it a rank" in msgs


def test_guard_rules_for_siblings_papers_api_and_cli(tmp_path):
    package = _tree(tmp_path, {
        **MINI,
        "bpe/model.py": "from ..greedtok import encoder\n",  # paper packages: allowed
        "greedtok/encoder.py": "from ..vocab import Vocabulary\n",
        "checks/bpe.py": "from ..figures import common\n",  # siblings: refused
        "figures/common.py": "",
        "experiments/run.py": "from ..checks import bpe\n",  # upward: refused
        "__main__.py": "import workbench\nfrom workbench.figures import common\n",  # CLI: anything
    })
    (package / "__init__.py").write_text("from .figures import common\n", encoding="utf-8")
    assert sorted(_messages(package)) == [
        "the public API imports workbench.figures.common (rank 6 > 5)",
        "workbench.checks.bpe (rank 6) imports workbench.figures.common (rank 6)",
        "workbench.experiments.run (rank 5) imports workbench.checks.bpe (rank 6)",
    ]
