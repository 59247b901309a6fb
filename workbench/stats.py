"""Statistical comparisons of samples with exact laws, shared by checks, figures and tests.

Goodness of fit (:func:`chisquare_test`) and a z-test of a mean (:func:`z_test`). Fixed
thresholds live with the caller (e.g. ``workbench.theory.checks.P_THRESHOLD``). This module
samples nothing.

Example
-------
>>> import numpy as np
>>> stat, p, dof = chisquare_test(np.array([50, 50]), [0.5, 0.5])
>>> (stat, p, dof)
(0.0, 1.0, 1)
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np


def chisquare_test(observed: np.ndarray, probs: Iterable[float], min_expected: float = 5.0
               ) -> tuple[float, float, int]:
    """Pearson chi-square goodness of fit; cells with expected count < 5 are merged.

    Cells are merged from both tails towards the mode. Returns ``(statistic, p, dof)``.
    """
    from scipy.special import chdtrc  # chi-square survival function

    observed = np.asarray(observed, dtype=float)
    probs = np.asarray(list(probs), dtype=float)
    expected = probs / probs.sum() * observed.sum()
    obs, exp = list(observed), list(expected)
    while len(exp) > 2 and exp[0] < min_expected:
        exp[1] += exp.pop(0)
        obs[1] += obs.pop(0)
    while len(exp) > 2 and exp[-1] < min_expected:
        exp[-2] += exp.pop()
        obs[-2] += obs.pop()
    o, e = np.array(obs), np.array(exp)
    stat = float(((o - e) ** 2 / e).sum())
    dof = len(e) - 1
    return stat, float(chdtrc(dof, stat)), dof


def z_test(sample: np.ndarray, mean: float, var: float) -> tuple[float, float]:
    """Two-sided z-test of a sample mean against a known mean and variance."""
    from scipy.special import ndtr  # standard normal cdf

    z = (float(np.mean(sample)) - mean) / np.sqrt(var / sample.size)
    return float(z), float(2 * ndtr(-abs(z)))
