"""The verification table: CheckResult, the registry of checks, ``verify()``.

:class:`CheckResult`, the registry every check module adds to, and :func:`verify`
(``python -m workbench verify``).

A check is a function returning rows; a module registers it with :func:`register`, and the
package :mod:`workbench.checks` imports every check module, so a new paper's checks need a new
module and one import line, never an edit here. A check that raises is reported as
``fail`` with the exception in ``computed``; one that raises :class:`Skip` as ``skipped``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass

from .._core.errors import InvalidValueError

P_THRESHOLD = 1e-3
"""A statistical check passes iff its p-value exceeds this."""
STATUSES = ("pass", "fail", "skipped")


@dataclass(frozen=True)
class CheckResult:
    """One row of the verification table."""

    claim: str
    equation: str
    computed: str
    expected: str
    status: str  # "pass" | "fail" | "skipped"

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


class Skip(Exception):
    """Raised by a check that cannot run (e.g. a component that does not exist yet)."""


def row(claim: str, equation: str, computed: object, expected: object,
         ok: bool) -> CheckResult:
    return CheckResult(claim, equation, str(computed), str(expected), "pass" if ok else "fail")


def p_row(claim: str, equation: str, p: float, stat: str) -> CheckResult:
    return row(claim, equation, f"p = {p:.3g} ({stat})", f"p > {P_THRESHOLD:g}",
                bool(p > P_THRESHOLD))


CHECKS: dict[str, tuple[str, Callable[..., list[CheckResult]]]] = {}
"""Every registered check: name → (kind, function returning rows), in registration order."""


def register(name: str, kind: str) -> Callable:
    """Decorator: add a check function to :data:`CHECKS` under ``name`` (kind: symbolic,
    numeric or statistical)."""
    if kind not in ("symbolic", "numeric", "statistical"):
        raise InvalidValueError(f"unknown check kind {kind!r}")

    def add(fn: Callable[..., list[CheckResult]]) -> Callable[..., list[CheckResult]]:
        if name in CHECKS:
            raise InvalidValueError(f"a check named {name!r} is registered already")
        CHECKS[name] = (kind, fn)
        return fn

    return add


def verify(only: str | None = None) -> list[CheckResult]:
    """Run every check (or those whose name or rows mention ``only``) and return the table.

    Parameters
    ----------
    only : str, optional
        Run only the checks of :data:`CHECKS` in whose name ``only`` occurs starting a word
        (case-insensitive: ``"lock"`` selects "LOCK kernel", not "Code Block 1"); rows of
        other checks are not computed.

    Returns
    -------
    list of CheckResult
        One row per claim; ``status`` is "pass", "fail" or "skipped".

    Examples
    --------
    >>> rows = verify(only="Eq. 22")
    >>> rows[0].status
    'pass'
    """
    rows: list[CheckResult] = []
    wanted = None if only is None else re.compile(r"(?<![^\W_])" + re.escape(only), re.I)
    for name, (_, fn) in CHECKS.items():
        if wanted is not None and not wanted.search(name):
            continue
        try:
            rows.extend(fn())
        except Skip as exc:
            rows.append(CheckResult(name, name, str(exc), "—", "skipped"))
        except Exception as exc:  # noqa: BLE001 - a crashing check is a failing check
            rows.append(CheckResult(name, name, f"error: {type(exc).__name__}: {exc}",
                                    "no exception", "fail"))
    return rows


def all_passed(rows: Iterable[CheckResult]) -> bool:
    """True iff no row failed (skipped rows do not count as failures)."""
    return all(r.status != "fail" for r in rows)


def to_frame(rows: Iterable[CheckResult]):
    """The table as a ``pandas.DataFrame`` (columns claim, equation, computed, expected, status)."""
    import pandas as pd

    return pd.DataFrame([r.as_dict() for r in rows],
                        columns=["claim", "equation", "computed", "expected", "status"])


def format_table(rows: Iterable[CheckResult], width: int = 60) -> str:
    """Plain-text table, one line per row, long cells cut to ``width`` characters."""
    rows = list(rows)
    cols = ["status", "equation", "claim", "computed", "expected"]

    def cell(r: CheckResult, c: str) -> str:
        s = getattr(r, c)
        return s if len(s) <= width else s[: width - 1] + "…"

    widths = {c: max([len(c)] + [len(cell(r, c)) for r in rows]) for c in cols}
    lines = ["  ".join(c.ljust(widths[c]) for c in cols),
             "  ".join("-" * widths[c] for c in cols)]
    lines += ["  ".join(cell(r, c).ljust(widths[c]) for c in cols).rstrip() for r in rows]
    counts = Counter(r.status for r in rows)
    lines.append("")
    lines.append(", ".join(f"{counts.get(s, 0)} {s}" for s in STATUSES))
    return "\n".join(lines)
