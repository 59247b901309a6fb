"""``verify()``: every paper's claims checked against the real code, one module per paper.

Each module registers its checks (:func:`.registry.register`); importing them here makes
:func:`verify` (``python -m workbench verify``) run them all, paper by paper:

* :mod:`.bpe` — BatchBPE (Morgan 2024): Code Block 1's safe batches against serial training
  (§3.5–3.6), stop words (§2.1) and the frequency cut-off (§2.2) on the real trainer;
* :mod:`.grampa` — GRaMPa: the sampler (Algorithms 1–2), the uniform laws (Eqs. 11–36),
  LOCK keys (App. C), rejection samplers and costs (Eqs. 43–47);
* :mod:`.greedtok` — GreedTok: Theorem 1's reduction on every small graph, Table 1's
  witnesses, the invariant Σ gains = bytes − tokens of a trained model;
* :mod:`.laws` — exact segmentation laws (issue 28): sums, dropout 0 and 1, ULM α = 0 =
  GRaMPa τ = 1 = uniform, DP = law, BPE-dropout's kernel against its law;
* :mod:`.renyi` — Theorems 4.1–4.3 and Example 2 of the Rényi counterexamples paper.

The closed forms live in :mod:`workbench.theory`; this package exercises them together with
the packages that implement each paper. Statistical checks use fixed seeds and pass iff their
p-value exceeds ``P_THRESHOLD`` (1e-3). It does not time anything (``benchmarks/``), does not
plot and is imported by nothing but the CLI (and notebooks).

Example
-------
>>> rows = verify(only="Eq. 21")
>>> [(r.equation, r.status) for r in rows]
[('Eq. 21', 'pass')]
"""

from . import bpe, grampa, greedtok, laws, renyi  # noqa: F401  (each registers its checks)
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
