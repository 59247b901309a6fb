"""Old spellings kept for one release, each with a warning naming the new call.

One name per knob (ARCHITECTURE.md, "One name per concept"): when a public keyword is renamed,
the function is decorated with :func:`renamed_keywords`, which still accepts the old keyword,
warns with a :class:`WorkbenchDeprecationWarning` (a ``DeprecationWarning``) that names the
new call, and passes the value on under the new name. Giving both is an error. The signature
(``inspect.signature``, the API reference) shows only the new names. A call whose old form
is told apart by its arguments (a list where one word is now meant) warns through
:func:`warn_deprecated`.

The test suite turns :class:`WorkbenchDeprecationWarning` into an error (``pyproject.toml``),
so no code of the package, its notebooks or its tests uses an old spelling unnoticed; the
tests of an old spelling catch it with ``pytest.warns``.

This module imports nothing of the package but its errors (rank 0).

>>> @renamed_keywords(processes="num_threads")
... def count(text, *, num_threads=None):
...     return num_threads
>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     count("a", processes=2)
2
>>> print(caught[0].message)
count(processes=...) is deprecated and goes in the next release: use count(num_threads=...)
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

from .errors import ArgumentTypeError

__all__ = ["WorkbenchDeprecationWarning", "renamed_keywords", "warn_deprecated"]

F = TypeVar("F", bound=Callable[..., Any])


class WorkbenchDeprecationWarning(DeprecationWarning):
    """An old spelling of the package's API, kept for one release (the message names the new)."""

    __module__ = "workbench"


def warn_deprecated(old: str, new: str, stacklevel: int = 3) -> None:
    """Warn that ``old`` goes in the next release and ``new`` replaces it.

    ``stacklevel=3`` names the caller of the function that calls this one.
    """
    warnings.warn(f"{old} is deprecated and goes in the next release: use {new}",
                  WorkbenchDeprecationWarning, stacklevel=stacklevel)


def renamed_keywords(**renames: str) -> Callable[[F], F]:
    """Accept each old keyword (``old="new"``) for one release, warning that it is renamed.

    Parameters
    ----------
    **renames : str
        The old keyword's name mapped to the new one's.

    Returns
    -------
    callable
        A decorator for the function whose keywords were renamed.
    """
    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in renames.items():
                if old not in kwargs:
                    continue
                name = func.__qualname__
                if new in kwargs:
                    raise ArgumentTypeError(f"{name}() got {old}= (the old name) and {new}=; "
                                            f"give {new}= alone")
                warn_deprecated(f"{name}({old}=...)", f"{name}({new}=...)")
                kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        wrapper.renamed_keywords = dict(renames)  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate
