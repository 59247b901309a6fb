"""``make test``'s scheduling (tests/conftest.py): a file per unit, the browser files one unit.

The scheduler is what keeps two Jupyter/Voilà servers with their browsers from running at
once on two workers (issue 43); these tests check its scopes, and that ``make test`` asks for
it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("xdist", reason="pytest-xdist is in the [dev] extra")

from conftest import BROWSER_FILES, pytest_xdist_make_scheduler  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


class _Config:
    """The two options the scheduler reads."""

    def __init__(self, dist: str) -> None:
        self.options = {"dist": dist, "tx": ["2*popen"]}

    def getvalue(self, name: str):
        return self.options[name]


def test_the_browser_files_are_one_unit_and_every_other_file_its_own() -> None:
    sched = pytest_xdist_make_scheduler(_Config("loadfile"), None)
    scopes = {f: sched._split_scope(f"{f}::test_x[a-b]") for f in sorted(BROWSER_FILES)}
    assert len(set(scopes.values())) == 1 and len(scopes) == 3
    assert all((ROOT / f).is_file() for f in BROWSER_FILES), "a browser file was renamed"
    others = ["tests/app/test_voila_config.py::test_a", "tests/test_wordlevel.py::test_b",
              "workbench/laws.py::workbench.laws.SegmentationLaw"]
    assert [sched._split_scope(n) for n in others] == [
        "tests/app/test_voila_config.py", "tests/test_wordlevel.py", "workbench/laws.py"]
    assert sched._split_scope("tests/test_wordlevel.py::test_c") == \
        sched._split_scope("tests/test_wordlevel.py::test_d")


def test_other_distributions_are_left_to_xdist() -> None:
    assert pytest_xdist_make_scheduler(_Config("load"), None) is None


def test_make_test_asks_for_it() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "-n $(TEST_WORKERS) --dist loadfile" in makefile
