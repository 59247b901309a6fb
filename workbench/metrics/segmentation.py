"""Statistics of segmentations (GRaMPa paper §3.1, Tables 7 and 8), from token lengths alone.

* :func:`segmentation_stats` — per segmentation: ``m``, mean token length ``ℓ``,
  ``R = |s|/m`` and segmentality ``S = (m-1)/(|s|-1)`` (NaN for one-character words);
* :func:`table7` — corpus level: ``m`` and ``R``, ``S`` averaged over words (macro), ``ℓ``
  over tokens (micro), each with its standard deviation;
* :func:`distribution_stats` — one word's ``M`` samples as Table 8: ``H1/H0`` with
  ``H0 = log2 min(M, N_V(s))``, the same without the reference (most likely or
  deterministic) segmentation, the regularisation rate against it, coverage ``C = u/N_V``,
  uniqueness ``U = u/M`` and ``max(C, U)``;
* :func:`table8` — their means and standard deviations over words with ``N_V(s) > 1``.

Pure functions of segmentations (token-length tuples); this module samples nothing and
knows no vocabulary (exact statistics of GRaMPa: :mod:`workbench.grampa.statistics`).

Example
-------
>>> segmentation_stats([2, 1, 3])
{'m': 3, 'ell': 2.0, 'R': 2.0, 'S': 0.4}
>>> t = table7([[2, 1, 3], [1]])
>>> t["m_mean"], t["S_mean"], t["ell_mean"]
(2.0, 0.4, 1.75)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import check_int, check_lengths

STATS7 = ("m", "ell", "R", "S")
STATS8 = ("H1pr_H0pr", "H1_H0", "RR", "maxCU", "C", "U")


def segmentation_stats(lengths: Sequence[int]) -> dict[str, float]:
    """``m``, ``ell`` (mean token length), ``R`` and ``S`` of one segmentation."""
    t = check_lengths(lengths)
    n, m = sum(t), len(t)
    return {"m": m, "ell": n / m, "R": n / m, "S": (m - 1) / (n - 1) if n > 1 else math.nan}


def table7(segmentations: Iterable[Sequence[int]]) -> dict[str, float]:
    """Table 7 row: ``{stat}_mean`` / ``{stat}_std`` for m, ℓ (over tokens), R and S (words).

    ``S`` skips one-character words (undefined; NaN if every word has one character);
    standard deviations are population ones. An empty input raises ``ValueError``; a bad
    segmentation ``TypeError`` / ``ValueError`` naming its index.
    """
    if isinstance(segmentations, (str, bytes)) or not isinstance(segmentations, Iterable):
        raise ArgumentTypeError("segmentations must be an iterable of token-length sequences, not "
                                f"{type(segmentations).__name__}")
    ms, rs, ss, ells = [], [], [], []
    for k, seg in enumerate(segmentations):
        try:
            t = check_lengths(seg)
        except (TypeError, ValueError) as err:
            raise type(err)(f"segmentations[{k}]: {err}") from None
        n, m = sum(t), len(t)
        ms.append(m)
        rs.append(n / m)
        if n > 1:
            ss.append((m - 1) / (n - 1))
        ells.extend(t)
    if not ms:
        raise InvalidValueError("segmentations is empty: table 7 needs at least one segmentation")
    out = {}
    for name, values in (("m", ms), ("ell", ells), ("R", rs), ("S", ss)):
        out.update(_mean_std(values, name))
    return out


def _mean_std(values: Sequence[float], name: str) -> dict[str, float]:
    """``{name}_mean`` and ``{name}_std`` (population) of ``values``; both NaN only for a
    statistic defined for no item (the callers refuse an empty input first)."""
    arr = np.asarray(values, dtype=float)
    if arr.size == 0:
        return {f"{name}_mean": math.nan, f"{name}_std": math.nan}
    return {f"{name}_mean": float(arr.mean()), f"{name}_std": float(arr.std())}


def _entropy(counts: Iterable[int]) -> float:
    c = np.asarray(list(counts), dtype=float)
    if c.sum() == 0:
        return 0.0
    p = c / c.sum()
    return float(-(p * np.log2(p)).sum())


def distribution_stats(samples: Sequence[Sequence[int]], n_segmentations: int,
                       reference: Sequence[int] | None = None) -> dict[str, float]:
    """Table 8's statistics of one word from ``M`` sampled segmentations.

    Parameters
    ----------
    samples : sequence of token-length sequences
        The ``M`` samples.
    n_segmentations : int
        ``N_V(s)``, the size of the domain (>= 1).
    reference : token lengths, optional
        The segmentation ``pr`` refers to (the deterministic one); default: the most
        frequent sample.

    Returns
    -------
    dict
        ``H1_H0``, ``H1pr_H0pr`` and ``RR`` (regularisation rate) as fractions (NaN where
        ``H0 = 0``), ``C``, ``U``, ``maxCU``; ``u`` and ``M``.

    Examples
    --------
    >>> s = distribution_stats([(1, 1), (2,), (2,), (1, 1)], 2, reference=(2,))
    >>> s["H1_H0"], s["RR"], s["C"], s["U"]
    (1.0, 0.5, 1.0, 0.5)
    """
    n_seg = check_int(n_segmentations, "n_segmentations", minimum=1)
    counts = Counter(tuple(s) for s in samples)
    big_m = sum(counts.values())
    if big_m == 0:
        raise InvalidValueError("distribution_stats needs at least one sample")
    ref = tuple(reference) if reference is not None else counts.most_common(1)[0][0]
    u = len(counts)
    if u > n_seg:
        raise InvalidValueError(f"the samples hold {u} distinct segmentations, more than "
                                f"n_segmentations = {n_seg} (the size of the domain)")
    h0 = math.log2(min(big_m, n_seg))
    rest = [c for s, c in counts.items() if s != ref]
    h0pr = math.log2(min(sum(rest), n_seg - 1)) if rest and n_seg > 1 else 0.0
    return {
        "H1_H0": _entropy(counts.values()) / h0 if h0 > 0 else math.nan,
        "H1pr_H0pr": _entropy(rest) / h0pr if h0pr > 0 else math.nan,
        "RR": 1.0 - counts.get(ref, 0) / big_m,
        "C": u / n_seg, "U": u / big_m, "maxCU": u / min(n_seg, big_m), "u": u, "M": big_m,
    }


def table8(per_word: Iterable[dict[str, float]]) -> dict[str, float]:
    """Means and standard deviations of :func:`distribution_stats` rows (NaNs skipped).

    An empty ``per_word``, or a row that lacks one of :data:`STATS8`, raises ``ValueError``
    naming the row and the statistic; a row that is not a dict, or a statistic that is not a
    number, ``TypeError``. A statistic that is NaN in every row (not defined for any word)
    stays NaN.
    """
    if isinstance(per_word, (str, bytes, Mapping)) or not isinstance(per_word, Iterable):
        raise ArgumentTypeError("per_word must be an iterable of distribution_stats rows (dicts), "
                                f"not {type(per_word).__name__}")
    rows = list(per_word)
    if not rows:
        raise InvalidValueError("per_word is empty: table 8 needs at least one word's statistics")
    for k, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise ArgumentTypeError(f"per_word[{k}] must be a dict of distribution_stats, not "
                                    f"{type(row).__name__}")
        missing = [name for name in STATS8 if name not in row]
        if missing:
            raise InvalidValueError(f"per_word[{k}] lacks the statistic(s) {', '.join(missing)} (a "
                                    f"row of distribution_stats has {', '.join(STATS8)})")
        for name in STATS8:
            value = row[name]
            if isinstance(value, (bool, np.bool_)) or not isinstance(
                    value, (int, float, np.integer, np.floating)):
                raise ArgumentTypeError(f"per_word[{k}][{name!r}] must be a number, got "
                                        f"{value!r:.40}")
            if isinstance(value, (int, np.integer)) and abs(value) > 2**53 or math.isinf(value):
                raise InvalidValueError(f"per_word[{k}][{name!r}] must be finite (or NaN), got "
                                        f"{value!r:.40}")
    out = {}
    for name in STATS8:
        arr = np.asarray([r[name] for r in rows], dtype=float)
        out.update(_mean_std(arr[~np.isnan(arr)], name))
    out["words"] = len(rows)
    return out
