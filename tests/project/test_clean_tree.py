"""The suite fails when it leaves a file in the working tree (``tests/cleantree.py``).

A small repository is made in ``tmp_path`` with the real hooks; one suite writes a file into
that repository and must fail naming it, one writes through a relative path (which lands in
the temporary working directory) and must pass.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cleantree import left_behind, tree_state

TESTS = Path(__file__).resolve().parents[1]

CONFTEST = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
from cleantree import pytest_sessionfinish, pytest_sessionstart, work_in_a_temporary_directory
"""


def _repo(tmp_path: Path, test_body: str) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "pyproject.toml").write_text("[tool.pytest.ini_options]\n", encoding="utf-8")
    (repo / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (repo / "test_it.py").write_text(test_body, encoding="utf-8")
    for cmd in (["git", "init", "-q"], ["git", "add", "."],
                ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]):
        subprocess.run(cmd, cwd=repo, check=True, capture_output=True)
    return repo


def _run(repo: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()  # a plain run, not an xdist worker's
           if k != "WORKBENCH_RECORD_RUN_TIMES" and not k.startswith("PYTEST_XDIST")}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "test_it.py"], cwd=repo, capture_output=True, text=True, env=env,
                          timeout=120)


def test_a_file_left_in_the_tree_fails_the_run(tmp_path):
    repo = _repo(tmp_path, "from pathlib import Path\n\ndef test_writes():\n"
                           f"    Path({str(tmp_path / 'repo' / 'oops.txt')!r}).write_text('x')\n")
    out = _run(repo)
    assert out.returncode == pytest.ExitCode.TESTS_FAILED, out.stdout + out.stderr
    assert "oops.txt" in out.stdout and "changed the working tree" in out.stdout


def test_a_relative_path_lands_outside_the_tree(tmp_path):
    repo = _repo(tmp_path, "from pathlib import Path\n\ndef test_writes():\n"
                           "    Path('h').write_text('x')\n    Path('NaN').write_text('x')\n")
    out = _run(repo)
    assert out.returncode == 0, out.stdout + out.stderr
    assert not (repo / "h").exists() and not (repo / "NaN").exists()


def test_left_behind_and_what_a_variable_allows(monkeypatch):
    before = {" M a.py"}
    after = {" M a.py", "?? b", " M notebooks/run_times.json"}
    monkeypatch.delenv("WORKBENCH_RECORD_RUN_TIMES", raising=False)
    assert left_behind(before, after) == [" M notebooks/run_times.json", "?? b"]
    monkeypatch.setenv("WORKBENCH_RECORD_RUN_TIMES", "1")
    assert left_behind(before, after) == ["?? b"]


def test_tree_state_outside_a_checkout(tmp_path):
    assert tree_state(tmp_path) is None
