"""Every CLI subcommand leaves a clone's tree as it was: quick runs never touch ``results/``.

A newcomer's first commands (``python -m workbench experiments --quick``, ``figures --fast``,
``tables --quick``, ...) run from the top of a clone. Each subcommand of
:data:`workbench.__main__.COMMANDS` runs here with cheap arguments in a fresh clone of this
repository (a temporary directory, ``git clone --shared``), importing this checkout's code;
``git status --porcelain`` of the clone, and of this checkout, must not change.
A subcommand without a case here fails :func:`test_every_subcommand_has_a_case`.

The runs that train or sample for tens of seconds are marked ``slow``. Not tested here: that
the outputs are right (``tests/test_main.py``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from workbench.__main__ import COMMANDS

ROOT = Path(__file__).resolve().parents[2]

#: subcommand → cheap arguments (no --out: the defaults are what is tested)
CASES: dict[str, list[str]] = {
    "sample": ["--vocab", "figure-1", "-n", "2", "GRAMPA"],
    "count": ["--vocab", "figure-1", "GRAMPA"],
    "law": ["--sampler", "grampa", "--vocab", "figure-1", "GRAMPA"],
    "verify": ["--only", "Eq. 22"],
    "warmup": [],
    "figures": ["--fast", "--only", "grampa-fig3"],
    "tables": ["--quick"],
    "experiments": ["--quick"],
}
SLOW = {"figures", "tables", "experiments", "warmup"}
#: the whole module clones the repository and runs the CLI in subprocesses: `make test` only
pytestmark = pytest.mark.slow


#: ``python -m workbench`` as run from the clone, but importing this checkout's code (``-m``
#: would put the clone, with the committed code, first on ``sys.path``)
_MAIN = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); sys.argv[0] = 'workbench'; "
         "from workbench.__main__ import _exit, main; _exit(main(sys.argv[1:]))")


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          check=True).stdout


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (a source distribution): nothing to compare")
    path = tmp_path_factory.mktemp("clone") / "repo"
    subprocess.run(["git", "clone", "--quiet", "--shared", str(ROOT), str(path)], check=True,
                   capture_output=True)
    return path


def test_every_subcommand_has_a_case():
    assert set(CASES) == set(COMMANDS), "give each subcommand cheap arguments in CASES"


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=[pytest.mark.slow] if name in SLOW else [])
    for name in CASES])
def test_a_subcommand_changes_no_tracked_or_untracked_file(name, clone):
    before, here_before = _git(clone, "status", "--porcelain"), _git(ROOT, "status",
                                                                     "--porcelain")
    env = {**os.environ, "MPLBACKEND": "Agg"}
    proc = subprocess.run([sys.executable, "-c", _MAIN, name, *CASES[name]], cwd=clone,
                          env=env, capture_output=True, text=True, timeout=900)
    for written in re.findall(r"quick run, writing to (.+?) \(give --out", proc.stderr):
        assert Path(written).parent == Path(tempfile.gettempdir())
        shutil.rmtree(written)  # the quick run's temporary directory, announced on stderr
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _git(clone, "status", "--porcelain") == before, f"{name} changed the clone"
    assert _git(ROOT, "status", "--porcelain") == here_before, f"{name} changed this checkout"
