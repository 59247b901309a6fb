"""The package's exceptions: one base, :class:`WorkbenchError`, under every error it raises.

``except workbench.WorkbenchError`` catches whatever the package refuses, and nothing else
(a bug in a caller's own code, a ``KeyboardInterrupt``). Each class is also the built-in
exception a caller would expect, so code written against the built-ins keeps working: a
wrong value is a ``ValueError``, a wrong type a ``TypeError`` (and, as before the checks were
unified, a ``ValueError``: NumPy's ``AxisError`` is likewise two things), a missing file a
``FileNotFoundError``, a missing optional package an ``ImportError``, a failed check of the
package's own results an ``AssertionError``.

The errors of one subject (a vocabulary file, a segmentation, a count table) are subclasses
defined beside the code that raises them, each public at the top level (``workbench.
SegmentationError``); this module holds the base and the generic kinds. What it leaves out:
warnings (they are ``UserWarning`` subclasses where they are issued) and the control-flow
exception of ``verify`` (``checks.registry.Skip``, never seen by a caller).

This module imports nothing of the package (rank 0).

>>> issubclass(BudgetError, WorkbenchError) and issubclass(BudgetError, ValueError)
True
>>> try:
...     raise ArgumentTypeError("n must be int, not str")
... except TypeError as err:
...     print(type(err).__name__, isinstance(err, ValueError))
ArgumentTypeError True
"""

from __future__ import annotations

__all__ = [
    "ArgumentTypeError",
    "BudgetError",
    "InvalidValueError",
    "InvariantError",
    "MissingDependencyError",
    "MissingFileError",
    "NotWritableError",
    "UnknownNameError",
    "WorkbenchError",
    "public",
]


def public(cls: type) -> type:
    """Name ``cls`` by its public path, ``workbench.<name>``, in tracebacks and pickles.

    A caller reads ``workbench.BudgetError: …``, the name to catch, not the private module
    that defines it; pickling finds the class there too (the package resolves it lazily).
    """
    cls.__module__ = "workbench"
    return cls


@public
class WorkbenchError(Exception):
    """The base of every error the package raises."""


@public
class InvalidValueError(WorkbenchError, ValueError):
    """A value of the right type that the call cannot take: out of range, NaN, empty, or
    inconsistent with another argument (the message names the argument and the limit)."""


@public
class ArgumentTypeError(WorkbenchError, TypeError, ValueError):
    """An argument of the wrong type (``True`` or ``2.0`` for an int, ``None`` for a number).

    It is a ``TypeError``; it is also a ``ValueError``, because some public functions raised
    ``ValueError`` for these mistakes before their checks were unified, and code that
    catches that must keep working (as NumPy's ``AxisError`` is both ``ValueError`` and
    ``IndexError``).
    """


@public
class BudgetError(InvalidValueError):
    """A request would exceed a stated memory or time budget (raised before any work)."""


@public
class MissingFileError(WorkbenchError, FileNotFoundError):
    """A file or directory the call needs does not exist (the message names it)."""


@public
class UnknownNameError(WorkbenchError, KeyError):
    """A name or key the package does not know: a token looked up in a vocabulary without
    it, a paper, a panel control (the message says which, and what is known)."""

    def __str__(self) -> str:  # the message as given, not KeyError's quoted repr
        return str(self.args[0]) if len(self.args) == 1 else super().__str__()


@public
class MissingDependencyError(WorkbenchError, ImportError):
    """An optional package the call needs is not installed (the message names the extra)."""


@public
class NotWritableError(WorkbenchError, PermissionError):
    """An output path the call would write is not writable (checked before any work)."""


@public
class InvariantError(WorkbenchError, AssertionError):
    """A claim the package checks about its own results failed: a theorem's check on a
    case, or an invariant of an algorithm. A bug to report, never a refusal of input."""
