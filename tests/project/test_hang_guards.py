"""Every wall-clock bound in the suite is a hang guard (issue 43).

A test may bound a call's time only through ``tests/hangguard.py`` (:func:`hang_guard` or
:func:`bound`: ten times a stated quiet figure, never under ten seconds), so the suite passes
on a busy machine; timings belong to ``benchmarks/``. Two rules, read from every test file's
syntax tree:

* only the files in :data:`CLOCK_READERS` read a clock (``time.perf_counter``,
  ``time.monotonic``, ``time.time``, ``time.process_time``), each for a stated reason;
* no ``assert`` compares a duration read from a clock (``clock() - start``, or a name bound
  to one in the same function) with anything.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
CLOCKS = {"perf_counter", "monotonic", "time", "process_time", "perf_counter_ns",
          "monotonic_ns", "time_ns"}

#: The test files that may read a clock, and why (none of them asserts on what it reads;
#: the second rule checks that).
CLOCK_READERS = {
    "hangguard.py": "the one place a test bounds a call's time",
    "browserkit.py": "deadlines of polling loops, and the time a Voila page takes, returned "
                     "to the browser tests (which bound it with hangguard.bound)",
    "app/test_browser.py": "deadlines of polling loops; times printed for BENCHMARKS.md",
    "app/test_voila_plain.py": "times printed for BENCHMARKS.md",
    "robustness/issue19_probes.py": "the deadline of a child process (a hang guard)",
    "notebooks/test_notebooks.py": "a notebook's run time, compared with notebook 00's "
                                   "table by start_here.run_time_disagrees (tenfold slack)",
    "_core/test_cachedir.py": "'now', to make files of a given age",
}


def _is_clock_call(node: ast.AST) -> bool:
    """``time.perf_counter()`` and the like (also as a bare ``perf_counter()``)."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr in CLOCKS and isinstance(func.value, ast.Name) \
            and func.value.id == "time"
    return isinstance(func, ast.Name) and func.id in CLOCKS - {"time"}


def _is_elapsed(node: ast.AST, elapsed: set[str]) -> bool:
    """A duration read from a clock: ``clock() - x``, ``x - clock()``, or a name bound to one."""
    if isinstance(node, ast.Name):
        return node.id in elapsed
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and any(
        _is_clock_call(n) or (isinstance(n, ast.Name) and n.id in elapsed)
        for side in (node.left, node.right) for n in ast.walk(side))


def _scope_offences(scope: ast.AST, lines: list[str]) -> list[str]:
    elapsed: set[str] = set()
    body = [n for n in ast.walk(scope)]
    for node in body:  # names bound to a duration in this scope
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None \
                and _is_elapsed(node.value, elapsed):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            elapsed |= {t.id for t in targets if isinstance(t, ast.Name)}
    return [f"{node.lineno}: {lines[node.lineno - 1].strip()}" for node in body
            if isinstance(node, ast.Assert) and any(
                isinstance(c, ast.Compare) and any(_is_elapsed(o, elapsed)
                                                   for o in [c.left, *c.comparators])
                for c in ast.walk(node.test))]


def clock_offences(source: str) -> list[str]:
    """Where ``source`` asserts a comparison of a duration read from a clock: ``line: text``.

    A duration is ``clock() - start`` or a name bound to one in the same function.

    >>> clock_offences("import time\\nt = time.perf_counter()\\nassert time.perf_counter() - t < 2")
    ['3: assert time.perf_counter() - t < 2']
    >>> clock_offences("import time\\nnow = time.time()\\nassert f(now=now + 5) == []")
    []
    """
    tree = ast.parse(source)
    lines = source.splitlines()
    scopes = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    module = ast.Module(body=[n for n in tree.body if not isinstance(
        n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))], type_ignores=[])
    found = {o for scope in [module, *scopes] for o in _scope_offences(scope, lines)}
    return sorted(found, key=lambda o: int(o.split(":")[0]))


def _test_files() -> list[Path]:
    return sorted(TESTS.rglob("*.py"))


@pytest.mark.parametrize("path", [p for p in _test_files() if p.name != "hangguard.py"],
                         ids=lambda p: str(p.relative_to(TESTS)))
def test_no_assert_compares_a_clock(path: Path) -> None:
    offences = clock_offences(path.read_text(encoding="utf-8"))
    assert not offences, (f"{path.relative_to(TESTS)} bounds a time outside tests/hangguard.py "
                          f"(use hang_guard with the call's quiet figure): {offences}")


def test_only_the_listed_files_read_a_clock() -> None:
    readers = {str(p.relative_to(TESTS)) for p in _test_files()
               if any(_is_clock_call(n) for n in ast.walk(ast.parse(p.read_text("utf-8"))))}
    assert readers - set(CLOCK_READERS) == set(), (
        "these test files read a clock: bound a call with tests/hangguard.py, or list the file "
        "in CLOCK_READERS with the reason")
    assert set(CLOCK_READERS) - readers == set(), "CLOCK_READERS lists files that read no clock"


def test_the_rules_catch_the_two_forms_issue_43_found() -> None:
    """The memory-free form of both failures: a bound on a difference, and on a name."""
    direct = "import time\nt = time.perf_counter()\nf()\nassert time.perf_counter() - t < 2.0\n"
    named = ("import time\nstart = time.monotonic()\nf()\nelapsed = time.monotonic() - start\n"
             "assert elapsed < 5.0, 'slow'\n")
    assert clock_offences(direct) == ["4: assert time.perf_counter() - t < 2.0"]
    assert clock_offences(named) == ["5: assert elapsed < 5.0, 'slow'"]


def test_no_property_test_sets_a_deadline() -> None:
    """Hypothesis's per-example deadline is a wall-clock bound too: conftest.py turns it off
    for every test, and no test turns it back on."""
    import hypothesis

    assert hypothesis.settings.default.deadline is None
    timed = [f"{p.relative_to(TESTS)}:{n.lineno}" for p in _test_files()
             for n in ast.walk(ast.parse(p.read_text("utf-8")))
             if isinstance(n, ast.keyword) and n.arg == "deadline"
             and not (isinstance(n.value, ast.Constant) and n.value.value is None)]
    assert not timed, f"hypothesis deadlines set: {timed}"
