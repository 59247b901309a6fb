"""Every claim of :mod:`workbench.theory`, checked symbolically, exactly and statistically.

One module per concept registers its checks (:func:`.registry.register`); importing them here,
in this order, makes :func:`verify` run them all:

* :mod:`.laws` — uniform-sampling laws (Eqs. 11–36);
* :mod:`.rejection` — rejection samplers and costs (Eqs. 43–47);
* :mod:`.grampa` — GRaMPa's samples are uniform under the infinite vocabulary;
* :mod:`.lock` — LOCK keys (App. C).

Statistical checks use fixed seeds and pass iff their p-value exceeds ``P_THRESHOLD`` (1e-3).
This subpackage does not time anything (see ``benchmarks/bench_lock.py``) and does not plot.

Example
-------
>>> rows = verify(only="Eq. 21")
>>> [(r.equation, r.status) for r in rows]
[('Eq. 21', 'pass')]
"""

from . import grampa, laws, lock, rejection  # noqa: F401  (each registers its checks)
from .grampa import check_grampa_uniform
from .registry import (
    CHECKS,
    P_THRESHOLD,
    STATUSES,
    CheckResult,
    Skip,
    all_passed,
    format_table,
    register,
    to_frame,
    verify,
)

__all__ = ["CHECKS", "P_THRESHOLD", "STATUSES", "CheckResult", "Skip", "all_passed",
           "check_grampa_uniform", "format_table", "register", "to_frame", "verify"]
