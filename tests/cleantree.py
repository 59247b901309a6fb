"""The suite leaves the tree as it found it: hooks and a fixture that ``conftest.py`` imports.

Issue 26 found 25 files that a test had written into the repository root, committed (a
hypothesis example's relative path, run with the root as working directory). So every test
runs in a temporary working directory (:func:`work_in_a_temporary_directory`), and the run
fails when ``git status`` differs after it from before (:func:`pytest_sessionfinish`).
``tests/project/test_clean_tree.py`` runs a small suite that writes into its tree and checks the
run fails.

What this module does not do: stop a test from writing (it reports after the fact).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Tracked files a run may change on purpose, by the variable that asks for it.
_MAY_CHANGE = {"WORKBENCH_RECORD_RUN_TIMES": "notebooks/run_times.json"}


def tree_state(root: Path = ROOT) -> set[str] | None:
    """``git status`` of *root* as a set of entries (untracked files listed one by one), or
    ``None`` outside a git checkout. Ignored files (caches, the venv) are not listed.

    Examples
    --------
    >>> import tempfile
    >>> tree_state(Path(tempfile.mkdtemp())) is None
    True
    """
    try:
        out = subprocess.run(["git", "status", "--porcelain=v1", "-z", "--untracked-files=all"],
                             cwd=root, capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0 or not (root / ".git").exists():
        return None
    return {e for e in out.stdout.decode("utf-8", "surrogateescape").split("\0") if e}


def left_behind(before: set[str], after: set[str]) -> list[str]:
    """Entries of *after* that *before* did not have, less what a variable allowed."""
    allowed = {path for var, path in _MAY_CHANGE.items() if os.environ.get(var) == "1"}
    return sorted(e for e in after - before if e[3:] not in allowed)


def pytest_sessionstart(session):
    if os.environ.get("PYTEST_XDIST_WORKER"):  # with pytest-xdist the controller checks
        return
    session.config._tree_before = tree_state(Path(str(session.config.rootpath)))


def pytest_sessionfinish(session, exitstatus):
    before = getattr(session.config, "_tree_before", None)
    after = tree_state(Path(str(session.config.rootpath))) if before is not None else None
    if after is None:
        return
    extra = left_behind(before, after)
    if extra:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        message = ("the test run changed the working tree (tests write only under tmp_path):\n  "
                   + "\n  ".join(repr(e) for e in extra))
        if reporter is not None:
            reporter.write_line(message, red=True)
        else:
            print(message, file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session", autouse=True)
def work_in_a_temporary_directory(tmp_path_factory):
    """Run the whole session in a temporary working directory, so that a relative path a test
    (or a hypothesis example) writes to never lands in the repository. Session-scoped: a
    function-scoped autouse fixture would trip hypothesis' health check on every ``@given``."""
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(tmp_path_factory.mktemp("cwd"))
        yield
