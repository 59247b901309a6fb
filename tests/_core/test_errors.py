"""Every error the package raises is a ``workbench.WorkbenchError`` (issue 37 item 4).

Three checks, so a new module cannot slip past them:

* read from the syntax tree of every module of ``workbench/``: no ``raise`` (or ``return``
  of an exception to raise) names a built-in exception, but for the protocol cases of
  :data:`BUILTIN_RAISES_ALLOWED`;
* every exception class the package defines derives from ``WorkbenchError`` and from the
  built-in a caller expects, and is public at the top level (:data:`NOT_PUBLIC` lists the
  internal ones, with the reason);
* the old ``except ValueError`` / ``except TypeError`` code still catches what it caught.
"""

from __future__ import annotations

import ast
import builtins
import importlib
from pathlib import Path

import pytest

import workbench
from workbench import (
    ArgumentTypeError,
    BudgetError,
    InvalidValueError,
    SegmentationError,
    Vocabulary,
    WorkbenchError,
)

PACKAGE = Path(workbench.__file__).resolve().parent
BUILTIN_EXCEPTIONS = {name for name, value in vars(builtins).items()
                      if isinstance(value, type) and issubclass(value, BaseException)}

#: (module, enclosing function, exception) → why a built-in is right there.
BUILTIN_RAISES_ALLOWED = {
    ("__init__.py", "__getattr__", "AttributeError"): "PEP 562: a missing module attribute",
    ("bpe/__init__.py", "__getattr__", "AttributeError"): "PEP 562",
    ("grampa/__init__.py", "__getattr__", "AttributeError"): "PEP 562",
    ("bpe/semantics.py", "__getitem__", "KeyError"): "the Mapping protocol (get() relies on it)",
    ("wordlevel.py", "tokenize_batch", "NotImplementedError"): "an abstract method",
    ("textlevel.py", "encode", "NotImplementedError"): "an abstract method",
    ("bpe/_lawkernels.py", "mask_law", "ValueError"): "inside a numba kernel: a capacity guard "
                                                       "the wrapper's estimate never reaches",
}

#: Exception classes of the package that are not public, and why.
NOT_PUBLIC = {
    "_DuplicateKey": "the JSON reader's internal signal, caught where it is raised",
    "Skip": "verify's control flow (checks.registry), caught by the registry",
}


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _enclosing(tree: ast.AST) -> dict[int, str]:
    """id(node) → the name of the innermost function around it."""
    out: dict[int, str] = {}

    def visit(node: ast.AST, name: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                else name
            out[id(child)] = inner
            visit(child, inner)

    visit(tree, "<module>")
    return out


def builtin_raises(source: str) -> list[tuple[str, str, int]]:
    """``(function, exception, line)`` of each ``raise`` / ``return`` of a built-in exception.

    >>> builtin_raises("def f():\\n    raise ValueError('x')\\n")
    [('f', 'ValueError', 2)]
    >>> builtin_raises("def f():\\n    raise InvalidValueError('x')\\n")
    []
    """
    tree = ast.parse(source)
    where = _enclosing(tree)
    found = []
    for node in ast.walk(tree):
        value = node.exc if isinstance(node, ast.Raise) else \
            node.value if isinstance(node, ast.Return) else None
        func = value.func if isinstance(value, ast.Call) else value
        if isinstance(func, ast.Name) and func.id in BUILTIN_EXCEPTIONS:
            if isinstance(node, ast.Return) and not isinstance(value, ast.Call):
                continue  # returning the class itself, not raising
            found.append((where.get(id(node), "<module>"), func.id, node.lineno))
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_raises_a_bare_builtin(path: Path) -> None:
    rel = str(path.relative_to(PACKAGE))
    found = [(f, e, line) for f, e, line in builtin_raises(path.read_text(encoding="utf-8"))
             if (rel, f, e) not in BUILTIN_RAISES_ALLOWED]
    assert not found, (f"{rel} raises built-in exceptions {found}: raise the package's "
                       "(workbench._core.errors: InvalidValueError for a ValueError, "
                       "ArgumentTypeError for a TypeError, ...)")


def test_the_allowed_builtin_raises_are_still_there() -> None:
    """An entry of BUILTIN_RAISES_ALLOWED whose raise went away is removed from it."""
    present = {(str(p.relative_to(PACKAGE)), f, e) for p in _modules()
               for f, e, _ in builtin_raises(p.read_text(encoding="utf-8"))}
    assert set(BUILTIN_RAISES_ALLOWED) <= present, set(BUILTIN_RAISES_ALLOWED) - present


def _defined_exceptions() -> dict[str, type]:
    """Every exception class defined in a module of the package, by name."""
    found: dict[str, type] = {}
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [n.name for n in tree.body if isinstance(n, ast.ClassDef)]
        if not names:
            continue
        rel = path.relative_to(PACKAGE).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        module = importlib.import_module(".".join(["workbench", *parts]))
        for name in names:
            value = getattr(module, name, None)
            if isinstance(value, type) and issubclass(value, BaseException) \
                    and not issubclass(value, Warning):
                found[name] = value
    return found


def test_every_exception_class_is_a_workbench_error_and_public() -> None:
    defined = _defined_exceptions()
    assert len(defined) >= 15  # the scan found them (a test that cannot pass vacuously)
    not_ours = {n for n, cls in defined.items()
                if n not in NOT_PUBLIC and not issubclass(cls, WorkbenchError)}
    assert not not_ours, f"not a WorkbenchError: {sorted(not_ours)}"
    hidden = {n for n in defined if n not in NOT_PUBLIC and n not in workbench.__all__}
    assert not hidden, f"not public at the top level (workbench.__all__): {sorted(hidden)}"
    for name in set(defined) - set(NOT_PUBLIC):
        assert getattr(workbench, name) is defined[name]


@pytest.mark.parametrize(("cls", "builtin"), [
    ("InvalidValueError", ValueError), ("ArgumentTypeError", TypeError),
    ("ArgumentTypeError", ValueError), ("BudgetError", ValueError),
    ("MissingFileError", FileNotFoundError), ("UnknownNameError", KeyError),
    ("MissingDependencyError", ImportError), ("SegmentationError", ValueError),
    ("VocabularyFormatError", ValueError), ("CountsFormatError", ValueError),
    ("RejectionLimitError", BudgetError), ("TextDecodeError", UnicodeDecodeError),
])
def test_each_error_is_also_the_builtin_a_caller_expects(cls: str, builtin: type) -> None:
    assert issubclass(getattr(workbench, cls), (WorkbenchError,))
    assert issubclass(getattr(workbench, cls), builtin)


def test_old_except_clauses_still_catch_and_the_base_catches_all() -> None:
    v = Vocabulary(["a", "b"])
    for call, old in ((lambda: workbench.count_segmentations(3, v), TypeError),
                      (lambda: v.id_of("c"), KeyError),
                      (lambda: workbench.count_segmentations("ab", v, 0), ValueError),
                      (lambda: workbench.Grampa(v).sample("c"), SegmentationError)):
        with pytest.raises(old) as info:
            call()
        assert isinstance(info.value, WorkbenchError), type(info.value)


def test_unknown_name_error_reads_as_its_message() -> None:
    """A KeyError's str() is the repr of its key; ours is the message as written."""
    assert str(workbench.UnknownNameError("no vocabulary 'x'")) == "no vocabulary 'x'"
    assert str(InvalidValueError("n must be >= 0")) == "n must be >= 0"
    assert isinstance(ArgumentTypeError("x"), ValueError)
