"""A sampler's law on one word as a chain on the segmentation graph: summaries by DP.

GRaMPa (either direction, any τ, soft ℓ_min), ULM over every segmentation (SentencePiece's
``nbest_size=-1``, P ∝ exp(α · score)) and MaxMatch-dropout walk the word's segmentation
graph one token at a time with transition probabilities that depend only on the node, so
their laws are chains (:class:`.chain_kernels.ChainTable`). :class:`Chain` answers what
:class:`workbench.laws.SegmentationLaw` asks of a chain-backed law (the ``LawChain``
protocol): failure mass, entropy, E[#tokens], token-count pmf, support size, the probability
of one segmentation and the mode in O(n·L) (the pmf in O(n²·L)), for words of any length; and
it enumerates only through the sampler's own enumeration, which checks its budget.

The tables themselves come from the samplers (:meth:`workbench.Grampa.law`,
:mod:`workbench.samplers.laws`); this module builds no sampler and samples nothing. Its
kernels are :mod:`.chain_kernels` (imported on first use: importing this module does not
load numba).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import numpy as np

from .._core.validate import check_budget, check_tokens

#: Log-probabilities within this relative gap are a tie for the mode (float rounding).
MODE_TIE_TOLERANCE = 1e-12

Enumeration = Callable[[], tuple[Mapping[tuple[str, ...], float], float]]


class Chain:
    """One word's chain law (see the module docstring).

    Parameters
    ----------
    word : str
    probs : numpy.ndarray
        ``(n + 1, span + 1)`` float64, ``probs[r, l]`` = P(step ``r → r − l``), walked from
        ``n`` to 0 in construction coordinates; an empty row fails.
    mirror : bool
        The construction runs on the mirrored word (GRaMPa ``l2r``, MaxMatch's forward scan).
    enumerate : callable
        ``() -> (segmentation -> probability, failure_mass)``, the sampler's own enumeration
        (raises :class:`~workbench._core.validate.BudgetError` past its budget).
    count : callable
        ``() -> int``: N, every segmentation of the word in the vocabulary.
    log_count : callable, optional
        ``() -> float``: ``log N`` without the exact integer (default ``log(count())``).
    can_fail : bool, default False
        Rows may be empty (MaxMatch-dropout): the failure mass is the flow into empty rows
        (exactly 0 when none is reached). Otherwise it is 0 (GRaMPa, ULM: every row sums
        to 1, up to rounding).

    Assumes checked input (the samplers build it).
    """

    def __init__(self, word: str, probs: np.ndarray, mirror: bool, *, enumerate: Enumeration,
                 count: Callable[[], int], log_count: Callable[[], float] | None = None,
                 can_fail: bool = False) -> None:
        from . import chain_kernels as ck

        self.word = word
        self.table = ck.ChainTable(probs, len(word), probs.shape[1] - 1, bool(mirror))
        self._s = ck.success_mass(self.table)
        reached = float(self._s[len(word)])  # P(success), from the success DP
        # No path reaches the end: the sampler always fails, exactly (the dead-end sum would
        # give 1 - 2e-16 and a success mass of rounding error). A chain that can fail keeps
        # the DP's success mass, which stays accurate where 1 - failure_mass would round.
        self.failure_mass = (0.0 if not can_fail else 1.0 if reached == 0.0
                             else float(ck.dead_end_mass(self.table)))
        self.success_mass = (0.0 if reached == 0.0 else reached if can_fail else 1.0)
        self._enumerate, self._count, self._log_count = enumerate, count, log_count
        self._stats: tuple[float, float, float] | None = None
        self._n: int | None = None

    def _summaries(self) -> tuple[float, float, float]:
        if self._stats is None:
            from .chain_kernels import summaries

            self._stats = summaries(self.table, self._s, np.zeros(0))
        return self._stats

    def entropy(self) -> float:
        """Shannon entropy (nats) of the law given success."""
        return self._summaries()[0]

    def expected_tokens(self) -> float:
        """E[#tokens | success]."""
        return self._summaries()[1]

    def token_count_pmf(self) -> dict[int, float]:
        """P(k tokens | success) for every k with positive probability."""
        from .chain_kernels import summaries

        n = self.table.n
        check_budget(8 * (n + 1) ** 2, f"the token-count law of a {n:,}-character word "
                     "((n + 1)² table)")
        pmf = np.zeros(n + 1)
        summaries(self.table, self._s, pmf)
        return {k: float(p) for k, p in enumerate(pmf.tolist()) if p > 0.0}

    def support_size(self) -> int:
        """Number of segmentations of positive probability (exact)."""
        probs, n, span = self.table.probs, self.table.n, self.table.span
        s = self._s
        count = [1] + [0] * n
        for r in range(1, n + 1):
            count[r] = sum(count[r - ln] for ln in range(1, min(r, span) + 1)
                           if probs[r, ln] > 0.0 and s[r - ln] > 0.0)
        return count[n]

    def probability(self, tokens: tuple[str, ...]) -> float:
        """P(the sampler returns ``tokens``) (not conditioned on success); 0 if not a path.

        ``tokens`` is a tuple of str; one ``str`` is refused (``ArgumentTypeError``), not
        read as its characters.
        """
        tokens = check_tokens(tokens)
        probs, n, span, mirror = self.table
        if "".join(tokens) != self.word:
            return 0.0
        p, i = 1.0, 0
        for t in tokens:
            length = len(t)
            if not 0 < length <= span:
                return 0.0
            p *= float(probs[n - i, length] if mirror else probs[i + length, length])
            i += length
        return p

    def log_probability(self, tokens: tuple[str, ...]) -> float:
        """``log`` of :meth:`probability` without underflow (``-inf``: not a path); one
        ``str`` is refused as there."""
        tokens = check_tokens(tokens)
        probs, n, span, mirror = self.table
        if "".join(tokens) != self.word:
            return -math.inf
        total, i = 0.0, 0
        for t in tokens:
            length = len(t)
            if not 0 < length <= span:
                return -math.inf
            q = float(probs[n - i, length] if mirror else probs[i + length, length])
            if q <= 0.0:
                return -math.inf
            total += math.log(q)
            i += length
        return total

    def mode(self) -> tuple[str, ...] | None:
        """The most probable segmentation (ties within :data:`MODE_TIE_TOLERANCE`: fewer
        tokens, then shorter tokens first); None if the sampler always fails."""
        from .chain_kernels import mode_lengths

        out = np.zeros(self.table.n + 1, dtype=np.int64)
        k = mode_lengths(self.table, MODE_TIE_TOLERANCE, out)
        if k < 0:
            return None
        toks, i = [], 0
        for length in out[:k].tolist():
            toks.append(self.word[i:i + length])
            i += length
        return tuple(toks)

    def n_segmentations(self) -> int:
        """N, every segmentation of the word in the vocabulary (exact, computed once)."""
        if self._n is None:
            self._n = self._count()
        return self._n

    def log_n_segmentations(self) -> float:
        """``log N`` (by a float DP when the sampler gave one)."""
        if self._n is None and self._log_count is not None:
            return self._log_count()
        return math.log(self.n_segmentations())

    def enumerate(self) -> tuple[Mapping[tuple[str, ...], float], float]:
        """Every segmentation with its probability, and the failure mass (budgeted)."""
        return self._enumerate()
