"""Kernels take records, not long positional tuples (ARCHITECTURE.md, "The triple").

Every ``@njit`` function of the package is read from its source (no numba compilation):
none may take :data:`MAX_ARGS` + 1 or more positional arguments; group them into
``NamedTuple`` records instead (``grampa.params.Walk``, ``bpe._kernels.TrainState``, ...).
"""

from __future__ import annotations

import ast
from pathlib import Path

import workbench

MAX_ARGS = 8
PACKAGE = Path(workbench.__file__).resolve().parent


def _kernels():
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and any(
                    "njit" in ast.unparse(d) for d in node.decorator_list):
                yield f"{path.relative_to(PACKAGE).as_posix()}:{node.name}", node


def test_the_scan_finds_kernels():
    names = {name for name, _ in _kernels()}
    assert "grampa/fused.py:_short_word" in names
    assert "bpe/_kernels.py:train_steps" in names
    assert len(names) > 50


def test_no_kernel_takes_a_long_positional_tuple():
    over = {name: len(node.args.args) for name, node in _kernels()
            if len(node.args.args) > MAX_ARGS}
    assert over == {}, f"kernels with more than {MAX_ARGS} arguments: {over}"


def test_no_kernel_takes_varargs():
    assert [name for name, node in _kernels() if node.args.vararg] == []
