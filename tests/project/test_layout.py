"""The tree a contributor moves into: tests mirror the package, the root holds project files only.

Every test file sits under the module it tests — ``tests/<package path>/test_<module>.py``, or
``test_<module>_<aspect>.py`` for one aspect of a module, or ``test_<package>.py`` for what a
package's ``__init__`` defines — or in one of the named cross-cutting folders of
:data:`CROSS_CUTTING`. The root of the repository holds only the entries of :data:`ROOT_ENTRIES`
(issue 26: a test once committed 25 files it wrote into the root).

What this module does not do: check that the suite leaves the tree clean (``conftest.py``
compares ``git status`` before and after the session and fails the run).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "workbench"
TESTS = ROOT / "tests"

#: Folders of ``tests/`` for what spans modules, each with what it holds.
CROSS_CUTTING = {
    "robustness": "hostile inputs, budgets and reproducers across the public API",
    "notebooks": "the course notebooks: executed headless, their prose checked",
    "app": "Voilà, the static site and the real-browser test",
    "project": "the repository itself: layout, layering, install, README, clean clone",
    "docs": "the API reference built from the docstrings",
}

#: What may stand at the root of the repository (tracked files and folders).
ROOT_ENTRIES = {
    ".ci", ".gitattributes", ".gitignore", "ARCHITECTURE.md", "BENCHMARKS.md", "CITATION.cff",
    "LICENSE", "Makefile", "README.md", "app", "benchmarks", "data", "docs", "environment.yml",
    "notebooks", "pyproject.toml", "results", "tests", "workbench",
}


def mirrored_names(package_dir: Path) -> set[str]:
    """The names a test file in the mirror of *package_dir* may be named after.

    Examples
    --------
    >>> sorted(mirrored_names(PACKAGE / "lattice"))
    ['chain', 'chain_kernels', 'interpreted', 'kernels', 'lattice', 'rules', 'summary']
    """
    names = {package_dir.name}
    for module in package_dir.glob("*.py"):
        if module.stem == "__init__":
            continue
        names.add("main" if module.stem == "__main__" else module.stem.lstrip("_"))
    return names


def misplaced(test_file: Path) -> str | None:
    """Why *test_file* (under ``tests/``) does not mirror the package, or ``None``."""
    rel = test_file.relative_to(TESTS)
    if rel.parts[0] in CROSS_CUTTING:
        return None
    stem = rel.stem.removeprefix("test_")
    package_dir = PACKAGE.joinpath(*rel.parts[:-1])
    if not (package_dir / "__init__.py").is_file():
        return f"tests/{rel}: workbench/{'/'.join(rel.parts[:-1])} is no package"
    names = mirrored_names(package_dir)
    if stem == package_dir.name and len(rel.parts) > 1:
        return None
    if any(stem == n or stem.startswith(n + "_") for n in names - {package_dir.name}):
        return None
    return (f"tests/{rel}: names no module of workbench/{'/'.join(rel.parts[:-1])} "
            f"({', '.join(sorted(names))})")


def test_every_test_file_mirrors_a_module() -> None:
    problems = [p for f in sorted(TESTS.rglob("test_*.py")) if (p := misplaced(f))]
    assert not problems, "\n".join(problems)


def test_misplaced_names_what_is_wrong() -> None:
    assert misplaced(TESTS / "lattice" / "test_rules.py") is None
    assert misplaced(TESTS / "lattice" / "test_lattice.py") is None
    assert misplaced(TESTS / "bpe" / "test_counting_patterns.py") is None
    assert misplaced(TESTS / "test_main.py") is None
    assert misplaced(TESTS / "robustness" / "test_anything.py") is None
    assert "names no module" in misplaced(TESTS / "figures" / "test_grampa.py")
    assert "is no package" in misplaced(TESTS / "nowhere" / "test_x.py")
    # the root package's name is no module: tests/test_workbench.py would test nothing
    assert "names no module" in misplaced(TESTS / "test_workbench.py")


def test_every_cross_cutting_folder_exists() -> None:
    missing = [name for name in CROSS_CUTTING if not (TESTS / name).is_dir()]
    assert not missing, missing


def _tracked_root_entries() -> set[str]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    return {p.split("/", 1)[0] for p in out.stdout.decode("utf-8", "surrogateescape").split("\0")
            if p}


def test_root_holds_only_project_files() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: nothing is tracked")
    extra = sorted(_tracked_root_entries() - ROOT_ENTRIES)
    assert not extra, f"files at the repository root that are not project files: {extra!r}"
