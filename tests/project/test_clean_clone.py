"""A fresh clone stays clean: the notebook output filter leaves committed notebooks unchanged.

``make`` installs nbstripout as this clone's git ``clean`` filter for ``*.ipynb``
(``nbstripout --install --attributes .gitattributes``). Git compares a file through that
filter with what is committed, so a committed notebook that the filter would rewrite (outputs,
execution counts, or cell ids other than the ``"0"``, ``"1"``, ... the filter numbers them
with) shows as modified right after checkout, and ``git checkout`` cannot clear it. Here every
tracked notebook's staged blob (in a clean clone: the committed one) goes through the filter
command ``nbstripout --install`` configures, ``<python> -m nbstripout`` (and, where this clone
has the filter installed, through the configured command too) and must come back byte for byte.

Not tested here: that the filter is installed (``make`` does it; a clone without it simply
does not strip outputs), nor notebooks outside git (a source distribution skips this module).
A notebook committed without the filter is repaired by ``git add --renormalize notebooks/``.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _git(*args: str, stdin: bytes | None = None) -> bytes:
    return subprocess.run(["git", "-C", str(ROOT), *args], input=stdin, capture_output=True,
                          check=True).stdout


def _tracked_notebooks() -> list[tuple[str, str]]:
    """(path, staged blob id) of every tracked ``*.ipynb``; skips outside a git work tree."""
    try:
        listing = _git("ls-files", "-s", "--", "*.ipynb").decode()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git work tree (the filter only acts in one)", allow_module_level=True)
    rows = [line.split("\t", 1) for line in listing.splitlines()]
    return [(path, meta.split()[1]) for meta, path in rows]


NOTEBOOKS = _tracked_notebooks()


def test_gitattributes_and_makefile_name_the_filter() -> None:
    attributes = (ROOT / ".gitattributes").read_text(encoding="utf-8").split("\n")
    assert "*.ipynb filter=nbstripout" in attributes
    install = re.findall(r"nbstripout (--install[^;\n]*)", (ROOT / "Makefile").read_text())
    # the options that reach the installed clean command; nbstripout --install forwards none,
    # so the command below is what every clone gets
    assert install == ["--install --attributes .gitattributes"], install
    assert len(NOTEBOOKS) >= 12, NOTEBOOKS


def _filters() -> list[list[str]]:
    """The filter ``make`` installs, plus this clone's configured one when it differs."""
    commands = [[sys.executable, "-m", "nbstripout"]]
    try:
        configured = _git("config", "--get", "filter.nbstripout.clean").decode().strip()
    except subprocess.CalledProcessError:
        return commands
    command = shlex.split(configured)
    if command[1:] != commands[0][1:] or not Path(command[0]).exists():
        pytest.fail(f"the configured clean filter is not `<python> -m nbstripout`: {configured}")
    return commands if Path(command[0]).resolve() == Path(sys.executable).resolve() \
        else [*commands, command]


@pytest.mark.parametrize(("path", "blob"), NOTEBOOKS, ids=[p for p, _ in NOTEBOOKS])
def test_committed_notebook_is_a_fixed_point_of_the_filter(path: str, blob: str) -> None:
    committed = _git("cat-file", "blob", blob)
    for command in _filters():
        filtered = subprocess.run(command, input=committed, capture_output=True, check=True,
                                  cwd=ROOT).stdout
        assert filtered == committed, (
            f"{path}: the nbstripout filter ({' '.join(command)}) rewrites the committed "
            "notebook, so a fresh clone shows it modified; commit it through the filter "
            f"(`git add --renormalize {path}`)")
