"""GRaMPa's samples (Algorithms 1–2) under the infinite vocabulary are uniform over compositions.

The default sampler is :class:`workbench.grampa.Grampa`; with the module attribute ``Grampa``
set to ``None`` (a build without it) the check reports "skipped". This module checks
:mod:`workbench.grampa`'s output, not the laws themselves (:mod:`.laws`).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

from ..._core.errors import InvalidValueError
from ...grampa import Grampa
from ...stats import chisquare_test, z_test
from ...theory.grampa.laws import (
    expected_chars_per_token,
    uniform_token_count_pmf,
    uniform_token_length_pmf,
)
from ...theory.grampa.lock import (
    lock_keys,
)
from ...vocab import Vocabulary
from ..registry import CheckResult, p_row, register


@register("GRaMPa", "statistical")
def check_grampa_uniform(sample_lengths: Callable | None = None, *, n: int = 12,
                         size: int = 40_000, seed: int = 0) -> list[CheckResult]:
    """Statistical checks of GRaMPa (τ = 1, ℓ_min = 1, infinite vocabulary) against §3.1.

    Parameters
    ----------
    sample_lengths : callable, optional
        ``sample_lengths(word, size) -> (lengths, offsets)``. Default: the method of
        :class:`workbench.grampa.Grampa` on the infinite vocabulary with ``τ = 1``,
        ``ℓ_min = 1``, ``direction="l2r"`` and ``seed``; skipped if ``Grampa`` is ``None``.
    n, size, seed : int
        Word length, number of samples, seed (sampler and thinning).

    Returns
    -------
    list of CheckResult
        Token-count law (χ²), token-length law Eq. 12 (χ² on size-biased single tokens,
        which are i.i.d. draws from P(ℓ|n)), E[R] (z-test, exact variance), uniformity over
        the ``2^(n-1)`` compositions (χ² over LOCK keys).

    Examples
    --------
    >>> def coins(word, size, rng=np.random.default_rng(1)):
    ...     cuts = rng.random((size, len(word) - 1)) < 0.5
    ...     out = [np.diff(np.flatnonzero(np.r_[True, c, True])) for c in cuts]
    ...     return np.concatenate(out), np.r_[0, np.cumsum([len(o) for o in out])]
    >>> sorted({r.status for r in check_grampa_uniform(coins, n=8, size=5000)})
    ['pass']
    """
    claim = f"GRaMPa (τ=1, infinite V) samples, n={n}"
    if sample_lengths is None:
        if Grampa is None:
            return [CheckResult(claim + ": laws of §3.1/A.3/A.4", "§3.1, Eq. 12, 36",
                                "workbench.Grampa not available", "—", "skipped")]
        sampler = Grampa(Vocabulary.infinite(), tau=1.0, ell_min=1, direction="l2r", seed=seed)
        sample_lengths = sampler.sample_lengths
    word = "".join(chr(ord("a") + i % 26) for i in range(n))
    lengths, offsets = sample_lengths(word, size)
    lengths = np.asarray(lengths, dtype=np.int64)
    offsets = np.asarray(offsets, dtype=np.int64)
    if offsets.shape != (size + 1,):
        raise InvalidValueError(f"offsets has shape {offsets.shape}, expected ({size + 1},)")
    m = np.diff(offsets)
    rows = []
    # token count
    law = uniform_token_count_pmf(n)
    stat, p, dof = chisquare_test(np.bincount(m, minlength=n + 1)[1:],
                              [float(law[j]) for j in range(1, n + 1)])
    rows.append(p_row(claim + ": token count m ~ 1 + Binom(n-1, 1/2)", "§3.1", p,
                       f"χ²={stat:.1f}, dof={dof}"))
    # token length: keep sample k with prob m_k/n, then one uniform token of it
    rng = np.random.default_rng(seed + 12345)
    keep = np.flatnonzero(rng.random(size) < m / n)
    pick = offsets[keep] + np.floor(rng.random(keep.size) * m[keep]).astype(np.int64)
    pmf = uniform_token_length_pmf(n)
    stat, p, dof = chisquare_test(np.bincount(lengths[pick], minlength=n + 1)[1:],
                              [float(pmf[x]) for x in range(1, n + 1)])
    rows.append(p_row(claim + ": token length P(ℓ|n) = M(ℓ,n)/Σ M", "Eq. 12, 16", p,
                       f"χ²={stat:.1f}, dof={dof}, {keep.size} tokens"))
    # characters per token
    r = n / m
    mean = expected_chars_per_token(n)
    var = sum(Fraction(n, j) ** 2 * q for j, q in law.items()) - mean ** 2
    z, p = z_test(r, float(mean), float(var))
    rows.append(p_row(claim + ": mean of R = n/m is 2(1 - 2^-n)", "Eq. 36", p,
                       f"mean {r.mean():.4f} vs {float(mean):.4f}, z={z:.2f}"))
    # uniform over compositions
    keys = lock_keys(lengths, offsets, n)
    stat, p, dof = chisquare_test(np.bincount(keys, minlength=1 << (n - 1)), np.ones(1 << (n - 1)))
    rows.append(p_row(claim + ": uniform over the 2^(n-1) compositions", "Eq. 11", p,
                       f"χ²={stat:.0f}, dof={dof}"))
    return rows
