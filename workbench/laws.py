"""The exact law of a stochastic tokeniser on one word: :class:`SegmentationLaw`.

A law maps each segmentation of a word (a tuple of token strings) to the probability that a
sampler returns it, plus a ``failure_mass``: the probability that the sampler fails on the
word (MaxMatch-dropout can leave a rest no token starts). From the mapping it derives the
summaries a researcher compares samplers by: the mode, the entropy, the token-count law, the
distance to the uniform law over the word's segmentations, the regularisation rate and the
expected number of distinct segmentations after ``M`` samples.

Probabilities stay exact :class:`fractions.Fraction` when every input is one (tests build
laws of rational parameters that way); otherwise they are floats. Entropy and KL are floats.

A law is either enumerated (built from the mapping) or *chain-backed*
(:meth:`SegmentationLaw.from_chain`): the samplers that walk the segmentation graph one
token at a time (GRaMPa, ULM over every segmentation, MaxMatch-dropout) give their summaries,
the mode and the probability of one segmentation by dynamic programming for words of any
length, and enumerate only when the mapping itself is asked for (within a budget).

A law may also be *array-backed* (:meth:`SegmentationLaw.from_arrays`): a compiled kernel
hands over its segmentations as token ids with float64 probabilities (BPE-dropout's 10^5-10^6
states); the checks run vectorised once, the summaries come from the arrays and the tuples
of :meth:`SegmentationLaw.probabilities` are built only when asked for.

This module computes no law of any sampler (each sampler's ``law(word)`` builds one: GRaMPa
in :mod:`workbench.grampa.sampler`, the baselines in :mod:`workbench.samplers`, BPE-dropout
in :mod:`workbench.bpe.laws`), enumerates no lattice and samples nothing.

Example
-------
>>> from fractions import Fraction as F
>>> law = SegmentationLaw("ab", {("ab",): F(3, 4), ("a", "b"): F(1, 4)},
...                       n_segmentations=2, deterministic=("ab",))
>>> law.mode, law.regularisation_rate, law.tv_to_uniform
(('ab',), Fraction(1, 4), Fraction(1, 4))
>>> law.expected_distinct(2)
Fraction(11, 8)
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Mapping, Sequence
from fractions import Fraction
from numbers import Real
from typing import Protocol

import numpy as np

from ._core.bigint import about_count
from ._core.deprecation import warn_deprecated
from ._core.errors import ArgumentTypeError, InvalidValueError
from ._core.gcpause import gc_paused
from ._core.law_arrays import ArrayTable, array_order, gather, start_masks
from ._core.validate import (
    PY_ENTRY_BYTES,
    BudgetError,
    check_budget,
    check_int,
    check_tokens,
    log_base,
)

__all__ = ["SegmentationLaw", "LawChain", "MAX_SUPPORT", "SUM_TOLERANCE"]

#: Largest support a law holds (the samplers refuse words that would need more, before work).
MAX_SUPPORT = 2_000_000
#: Float laws must sum, with their failure mass, to 1 within this; Fraction laws exactly.
SUM_TOLERANCE = 1e-9
#: ``expected_distinct(M)`` of a Fraction law is exact up to this ``M``, a float beyond
#: (``(1 - P)^M`` as a Fraction grows with ``M``).
EXACT_DISTINCT_MAX_M = 1024

Prob = Fraction | float


def _why_not_probability(value: float | Fraction) -> str:
    """Why a number outside [0, 1] (or NaN) is no probability, in plain words."""
    if value != value:
        return "NaN is not a number"
    return "a probability cannot be negative" if value < 0 else "a probability cannot exceed 1"


def _check_prob(value: object, what: object) -> Prob:
    """``value`` as a Fraction (ints too) or a float in [0, 1]; ``what`` names it on error:
    an argument's name, or a segmentation (its entry of ``probabilities``)."""
    if type(value) is float and 0.0 <= value <= 1.0:  # the common case, fast (no ABC check)
        return value
    what = what if isinstance(what, str) else f"probabilities[{what!r:.60}]"
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ArgumentTypeError(f"{what} must be a probability (a real number in [0, 1]), not "
                                f"{type(value).__name__}")
    out: Prob = Fraction(value) if isinstance(value, (Fraction, int)) else float(value)
    if not (0 <= out <= 1):  # also refuses NaN
        raise InvalidValueError(f"{what} must be a probability in [0, 1], got {value!r} "
                                f"({_why_not_probability(out)})")
    return out


def _check_segmentation(seg: object, word: str) -> tuple[str, ...]:
    try:  # join refuses a non-str token; one pass per segmentation (laws hold 10^6 of them)
        spelled = "".join(seg) if type(seg) is tuple else None  # type: ignore[arg-type]
    except TypeError:
        spelled = None
    if spelled is None or "" in seg:  # type: ignore[operator]
        raise ArgumentTypeError(f"a segmentation must be a tuple of non-empty str, not {seg!r:.80}")
    if spelled != word:
        raise InvalidValueError(f"segmentation {seg!r:.80} does not spell the word {word!r:.60}")
    return seg


def _check_deterministic(deterministic: object, word: str) -> tuple[str, ...] | None:
    """The ``deterministic`` argument checked: None, or a segmentation of ``word`` (one str
    is refused, not split into characters)."""
    if deterministic is None:
        return None
    return _check_segmentation(check_tokens(deterministic, "deterministic"), word)


class LawChain(Protocol):
    """What a chain-backed law asks of its chain (:class:`workbench.lattice.chain.Chain`).

    Probabilities are floats, not conditioned on success unless said.
    """

    word: str
    failure_mass: float
    success_mass: float

    def entropy(self) -> float: ...  # nats, given success
    def expected_tokens(self) -> float: ...  # given success
    def token_count_pmf(self) -> dict[int, float]: ...  # given success
    def support_size(self) -> int: ...
    def probability(self, tokens: tuple[str, ...]) -> float: ...
    def log_probability(self, tokens: tuple[str, ...]) -> float: ...  # -inf: not a path
    def mode(self) -> tuple[str, ...] | None: ...
    def n_segmentations(self) -> int: ...  # 0: the word has none
    def log_n_segmentations(self) -> float: ...
    def enumerate(self) -> tuple[Mapping[tuple[str, ...], float], float]: ...


def _checked_table(word: str, probabilities: object, failure_mass: object
                   ) -> tuple[bool, Prob, dict[tuple[str, ...], Prob]]:
    """``(exact, failure_mass, law without zeros, most probable first)``, checked."""
    if not isinstance(probabilities, Mapping):
        raise ArgumentTypeError("probabilities must be a mapping from tuples of tokens to "
                                f"probabilities, not {type(probabilities).__name__}")
    check_budget(len(probabilities) * PY_ENTRY_BYTES * 4, "a law of "
                 f"{len(probabilities):,} segmentations")
    if len(probabilities) > MAX_SUPPORT:
        raise InvalidValueError(f"a law holds at most {MAX_SUPPORT:,} segmentations, got "
                                f"{len(probabilities):,}")
    fail = _check_prob(failure_mass, "failure_mass")
    fast = _float_table(word, probabilities) if type(fail) is float else None
    if fast is not None:  # every probability a float in [0, 1], every key a segmentation
        total = math.fsum(fast.values()) + fail
        if abs(total - 1.0) > SUM_TOLERANCE:
            raise InvalidValueError(f"probabilities and failure_mass sum to {total!r}, not 1")
        return False, fail, fast
    probs = {_check_segmentation(s, word): _check_prob(p, s) for s, p in probabilities.items()}
    exact = isinstance(fail, Fraction) and all(isinstance(p, Fraction) for p in probs.values())
    if not exact:
        fail = float(fail)
        probs = {s: float(p) for s, p in probs.items()}
    total = sum(probs.values(), Fraction(0) if exact else 0.0) + fail
    if (total != 1) if exact else abs(total - 1.0) > SUM_TOLERANCE:
        raise InvalidValueError(f"probabilities and failure_mass sum to {float(total)!r}, not 1")
    return exact, fail, _ordered(list(probs.items()))


def _ordered(items: list[tuple[tuple[str, ...], Prob]]) -> dict[tuple[str, ...], Prob]:
    """The law without zeros, most probable first (ties: fewer tokens, then the tokens)."""
    return dict(sorted(((s, p) for s, p in items if p > 0),
                       key=lambda sp: (-sp[1], len(sp[0]), sp[0])))


def _float_table(word: str, probabilities: Mapping) -> dict[tuple[str, ...], float] | None:
    """The checked, ordered law when every probability is a float in [0, 1] and every key a
    tuple of non-empty str spelling ``word`` (a law a sampler computed: each check one pass
    in C, no sort when it comes in order); ``None`` for anything else, which
    :func:`_checked_table` then checks entry by entry, naming the first bad one.

    >>> _float_table("ab", {("a", "b"): 0.25, ("ab",): 0.75})
    {('ab',): 0.75, ('a', 'b'): 0.25}
    >>> _float_table("ab", {("a", "c"): 1.0}) is None
    True
    """
    items = list(probabilities.items())  # one pass (a mapping over lists zips them)
    if not items:
        return {}
    keys, values = (list(c) for c in zip(*items))
    if set(map(type, values)) != {float} or set(map(type, keys)) != {tuple}:
        return None
    p = np.array(values)
    if not ((p >= 0.0) & (p <= 1.0)).all():  # NaN fails both
        return None
    try:  # join refuses a non-str token
        if set(map("".join, keys)) != {word} or any(map(operator.contains, keys,
                                                         itertools.repeat(""))):
            return None
    except TypeError:
        return None
    if (p > 0.0).all() and _in_order(keys, p):
        return dict(zip(keys, values))
    return _ordered(list(zip(keys, values)))


def _in_order(keys: list[tuple[str, ...]], p: np.ndarray) -> bool:
    """Whether the entries already stand in :func:`_ordered`'s order."""
    if (p[:-1] < p[1:]).any():
        return False
    for i in np.flatnonzero(p[:-1] == p[1:]).tolist():  # ties: fewer tokens, then the tokens
        if (len(keys[i]), keys[i]) > (len(keys[i + 1]), keys[i + 1]):
            return False
    return True


def _checked_arrays(word: str, labels: Sequence[str], pieces: object, offsets: object,
                    probabilities: object, failure_mass: object) -> tuple[float, ArrayTable]:
    """:meth:`SegmentationLaw.from_arrays`' checks (vectorised), zeros dropped, sorted."""
    labels, pieces, offsets, p, fail = _checked_inputs(labels, pieces, offsets, probabilities,
                                                       failure_mass)
    masks = start_masks(word, labels, pieces, offsets)
    keep = np.flatnonzero(p > 0)
    if keep.size < p.size:
        idx, offsets = gather(offsets, keep)
        pieces, p = pieces[idx], p[keep]
        masks = None if masks is None else masks[keep]
    law = ArrayTable(labels, pieces, offsets, p, masks)
    if masks is None and len(set(law.tuples(np.arange(p.size)))) != p.size:
        raise InvalidValueError("a segmentation is listed twice")
    order = array_order(labels, pieces, offsets, p, masks)
    idx, offsets = gather(offsets, order)
    return fail, ArrayTable(labels, pieces[idx], offsets, p[order],
                         None if masks is None else masks[order])


def _checked_inputs(labels: Sequence[str], pieces: object, offsets: object,
                    probabilities: object, failure_mass: object
                    ) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray, float]:
    """The arrays' types, shapes, range and sum checked (int64 / float64 arrays out)."""
    labels = list(labels)
    if not all(type(t) is str and t for t in labels):
        raise ArgumentTypeError("labels must be non-empty str")
    if len(set(labels)) != len(labels):
        raise InvalidValueError("labels must be distinct")
    pieces, offsets = np.asarray(pieces), np.asarray(offsets)
    p = np.asarray(probabilities)
    if pieces.dtype.kind not in "iu" or offsets.dtype.kind not in "iu" or p.dtype.kind != "f":
        raise ArgumentTypeError("pieces and offsets must be integer arrays, probabilities floats")
    p, offsets = p.astype(np.float64, copy=False), offsets.astype(np.int64, copy=False)
    pieces = pieces.astype(np.int64, copy=False)
    n = p.size
    if (p.ndim != 1 or pieces.ndim != 1 or offsets.shape != (n + 1,) or offsets[0] != 0
            or offsets[-1] != pieces.size or (np.diff(offsets) < 0).any()):
        raise InvalidValueError("offsets must rise from 0 to len(pieces), one more than "
                                "probabilities")
    if pieces.size and (pieces.min() < 0 or pieces.max() >= len(labels)):
        raise InvalidValueError("pieces must index labels")
    if n > MAX_SUPPORT:
        raise InvalidValueError(f"a law holds at most {MAX_SUPPORT:,} segmentations, got {n:,}")
    check_budget(n * 64 + pieces.size * 24, f"a law of {n:,} segmentations")
    fail = float(_check_prob(failure_mass, "failure_mass"))
    bad = np.flatnonzero(~((p >= 0.0) & (p <= 1.0)))  # NaN fails both
    if bad.size:
        k = int(bad[0])
        raise InvalidValueError(f"probabilities[{k}] (segmentation {k}) must be a probability "
                                f"in [0, 1], got {float(p[k])!r} ({_why_not_probability(p[k])})")
    total = float(p.sum()) + fail
    if abs(total - 1.0) > SUM_TOLERANCE:
        raise InvalidValueError(f"probabilities and failure_mass sum to {total!r}, not 1")
    return labels, pieces, offsets, p, fail


class SegmentationLaw:
    """The law of a sampler's segmentation of one word.

    Parameters
    ----------
    word : str
        The word; every segmentation must concatenate to it.
    probabilities : mapping tuple of str -> probability
        ``P(sampler returns these tokens)``; zero entries are dropped. Fractions stay exact
        when every probability and ``failure_mass`` is a Fraction (or an int).
    failure_mass : probability, default 0
        ``P(the sampler fails on the word)``. ``sum(probabilities) + failure_mass`` must be 1
        (exactly for Fractions, within :data:`SUM_TOLERANCE` for floats).
    n_segmentations : int, optional
        ``N``, the number of segmentations of the word into tokens of the vocabulary (all of
        them, whatever the sampler can reach); needed by the distances to uniform.
    deterministic : tuple of str, optional
        The sampler's deterministic segmentation (dropout 0, ULM's Viterbi, ...); needed by
        :attr:`regularisation_rate`. A sequence of tokens spelling ``word``: one ``str`` is
        refused with :class:`~workbench.ArgumentTypeError`, not split into characters (the
        one-token segmentation of ``"ab"`` is ``("ab",)``).

    Summaries that need a probability law (entropy, token counts, KL and TV to uniform) are
    of the law *conditioned on success*: probabilities divided by ``1 - failure_mass``.
    """

    def __init__(self, word: str, probabilities: Mapping[tuple[str, ...], Prob], *,
                 failure_mass: Prob = 0, n_segmentations: int | None = None,
                 deterministic: Sequence[str] | None = None) -> None:
        if not isinstance(word, str):
            raise ArgumentTypeError(f"word must be str, not {type(word).__name__}")
        self.word = word
        self._chain: LawChain | None = None
        self._arr: ArrayTable | None = None
        self.exact, self._fail, self._table = _checked_table(word, probabilities, failure_mass)
        if n_segmentations is not None:
            # an exact count: a Python int of any size (2^(n-1) for a long word)
            n_segmentations = check_int(n_segmentations, "n_segmentations", minimum=1,
                                        maximum=math.inf)
            if n_segmentations < len(self._table):
                raise InvalidValueError(f"n_segmentations={n_segmentations:,} is below the support "
                                        f"size {len(self._table):,}")
        self._n_segs = n_segmentations
        self.deterministic = _check_deterministic(deterministic, word)

    @classmethod
    def from_chain(cls, chain: LawChain, *, deterministic: Sequence[str] | None = None
                   ) -> SegmentationLaw:
        """A law backed by a chain (:class:`workbench.lattice.chain.Chain`): any length.

        Failure mass, support size, entropy, E[#tokens], the token-count pmf, KL to uniform,
        the mode, :meth:`probability` and the regularisation rate come from the chain's
        dynamic programs, never from enumerating; :meth:`probabilities`, TV to uniform and
        :meth:`expected_distinct` enumerate on first use through the chain, which refuses
        (``BudgetError``, with the count) words past the sampler's enumeration budget.
        Float law (``exact`` is False).
        """
        law = cls.__new__(cls)
        law.word = chain.word
        law._chain = chain
        law._arr = None
        law.exact = False
        law._fail = float(chain.failure_mass)
        law._table = None
        law._n_segs = None
        law.deterministic = _check_deterministic(deterministic, chain.word)
        return law

    @classmethod
    def from_arrays(cls, word: str, labels: Sequence[str], pieces: np.ndarray,
                    offsets: np.ndarray, probabilities: np.ndarray, *,
                    failure_mass: float = 0.0, n_segmentations: int | None = None,
                    deterministic: Sequence[str] | None = None) -> SegmentationLaw:
        """A float law given as arrays, as a compiled kernel builds it (no tuple per entry).

        Segmentation ``k`` is the tokens ``labels[i]`` for ``i`` in
        ``pieces[offsets[k]:offsets[k + 1]]``, of probability ``probabilities[k]``; the
        other arguments are :class:`SegmentationLaw`'s. The checks are the constructor's,
        vectorised once (distinct non-empty labels; probabilities in [0, 1], not NaN,
        summing with ``failure_mass`` to 1; every segmentation spells ``word``; none twice);
        zero entries are dropped and the rest sorted as :meth:`probabilities` lists them.
        The summaries, the mode and :meth:`probability` come from the arrays; the mapping
        of tuples is built on the first call of :meth:`probabilities` that needs it.
        """
        if not isinstance(word, str):
            raise ArgumentTypeError(f"word must be str, not {type(word).__name__}")
        law = cls.__new__(cls)
        law.word, law._chain, law.exact, law._table = word, None, False, None
        law._fail, law._arr = _checked_arrays(word, labels, pieces, offsets, probabilities,
                                              failure_mass)
        if n_segmentations is not None:
            # an exact count: a Python int of any size (2^(n-1) for a long word)
            n_segmentations = check_int(n_segmentations, "n_segmentations", minimum=1,
                                        maximum=math.inf)
            if n_segmentations < law._arr.p.size:
                raise InvalidValueError(f"n_segmentations={n_segmentations:,} is below the support "
                                        f"size {law._arr.p.size:,}")
        law._n_segs = n_segmentations
        law.deterministic = _check_deterministic(deterministic, word)
        return law

    @property
    def chain(self) -> LawChain | None:
        """The chain backing this law (:meth:`from_chain`), None for an enumerated law."""
        return self._chain

    @property
    def _probs(self) -> dict[tuple[str, ...], Prob]:
        """The enumerated law (a chain-backed law enumerates here, on first use)."""
        if self._table is None and self._arr is not None:
            arr = self._arr
            with gc_paused():  # 10^5 lasting tuples: a collection can free none of them
                self._table = dict(zip(arr.tuples(np.arange(arr.p.size)), arr.p.tolist()))
        if self._table is None:
            assert self._chain is not None
            probs, fail = self._chain.enumerate()
            _, _, self._table = _checked_table(self.word, probs, fail)
        return self._table

    @property
    def n_segmentations(self) -> int | None:
        """``N``, every segmentation of the word into tokens of the vocabulary (or None)."""
        if self._chain is not None and self._n_segs is None:
            self._n_segs = self._chain.n_segmentations() or None
        return self._n_segs

    def __repr__(self) -> str:
        word = repr(self.word) if len(self.word) <= 60 else repr(self.word[:57]) + "…"
        return (f"SegmentationLaw({word}, support={about_count(self.support_size)}, "
                f"failure_mass={float(self._fail):.6g})")

    # ------------------------------------------------------------------ the law itself
    def probabilities(self, limit: int | None = None) -> dict[tuple[str, ...], Prob]:
        """Every segmentation with its probability, most probable first.

        Ties: fewer tokens first, then token order. ``limit`` keeps the ``limit`` most
        probable.
        """
        if limit is None:
            return dict(self._probs)
        limit = check_int(limit, "limit", minimum=0)
        if self._arr is not None and self._table is None:
            return dict(zip(self._arr.first(limit), self._arr.p[:limit].tolist()))
        return dict(list(self._probs.items())[:limit])

    @property
    def failure_mass(self) -> Prob:
        """P(the sampler fails on the word)."""
        return self._fail

    @property
    def success_mass(self) -> Prob:
        """The total probability of the segmentations: ``1 - failure_mass``, or for a
        chain-backed law the chain's own success probability (exactly 0 when no path
        reaches the end, and accurate where ``1 - failure_mass`` would round to 0)."""
        if self._chain is not None:
            return self._chain.success_mass
        return 1 - self._fail

    @property
    def support_size(self) -> int:
        """Number of segmentations of positive probability."""
        if self._chain is not None and self._table is None:
            return self._chain.support_size()
        if self._arr is not None:
            return int(self._arr.p.size)
        return len(self._probs)

    def probability(self, tokens: Sequence[str]) -> Prob:
        """P(the sampler returns ``tokens``); 0 for anything else (other words included).

        A chain-backed law multiplies the path's transition probabilities, or, once
        :meth:`probabilities` has enumerated, reads the enumeration (equal within rounding).

        Parameters
        ----------
        tokens : sequence of str
            A segmentation, e.g. ``("a", "b")``; a sequence holding anything but non-empty
            strings is no segmentation (probability 0).

        Raises
        ------
        ArgumentTypeError
            If ``tokens`` is one ``str`` (``"ab"`` is not split into ``("a", "b")``: the
            one-token segmentation is ``("ab",)``) or not iterable.
        """
        tokens = check_tokens(tokens, "tokens")
        if not all(isinstance(t, str) and t for t in tokens):
            return Fraction(0) if self.exact else 0.0
        if self._chain is not None and self._table is None:  # enumerated: agree with it
            return self._chain.probability(tokens)
        if self._arr is not None and self._arr.masks is not None:
            return self._array_probability(tokens)
        return self._probs.get(tokens, Fraction(0) if self.exact else 0.0)

    def _array_probability(self, tokens: tuple) -> float:
        """:meth:`probability` by the start mask (segmentations spelling the word are
        told apart by where their tokens start)."""
        if not all(type(t) is str and t for t in tokens) or "".join(tokens) != self.word:
            return 0.0
        mask, at = 0, 0
        for t in tokens:
            mask, at = mask | (1 << at), at + len(t)
        hit = np.flatnonzero(self._arr.masks == (mask if tokens else 0))
        return float(self._arr.p[hit[0]]) if hit.size else 0.0

    @property
    def mode(self) -> tuple[str, ...] | None:
        """The most probable segmentation (ties as in :meth:`probabilities`); None if none.

        A chain-backed law finds it by a Viterbi pass (ties within float rounding as in
        :data:`workbench.lattice.chain.MODE_TIE_TOLERANCE`).
        """
        if self._chain is not None:
            return self._chain.mode()
        if self._arr is not None:
            return next(iter(self._arr.first(1)), None)
        return next(iter(self._probs), None)

    def _require_success(self) -> Prob:
        mass = self.success_mass
        if mass == 0:
            raise InvalidValueError(f"the sampler always fails on {self.word!r:.60}: the law "
                                    "conditioned on success is undefined")
        return mass

    def _q(self) -> np.ndarray:
        """An array-backed law's probabilities conditioned on success."""
        assert self._arr is not None
        return self._arr.p / self._require_success()

    def _conditional(self) -> list[Prob]:
        mass = self._require_success()
        return [p / mass for p in self._probs.values()]

    # ------------------------------------------------------------------ summaries
    def shannon_entropy(self, base: float = 2) -> float:
        """Shannon entropy of the law conditioned on success: bits by default (``base=2``,
        as every entropy of the package), ``base=math.e`` for nats.

        >>> SegmentationLaw("ab", {("ab",): 0.5, ("a", "b"): 0.5}).shannon_entropy()
        1.0
        """
        return self._nats() / log_base(base)

    @property
    def entropy(self) -> float:
        """Deprecated: the Shannon entropy in nats; use :meth:`shannon_entropy` (bits, or
        ``base=math.e`` for nats)."""
        warn_deprecated("SegmentationLaw.entropy (nats)",
                        "SegmentationLaw.shannon_entropy() (bits; base=math.e for nats)")
        return self._nats()

    def _nats(self) -> float:
        """Shannon entropy in nats of the law conditioned on success."""
        if self._chain is not None:
            self._require_success()
            return self._chain.entropy()
        if self._arr is not None:
            q = self._q()
            return max(0.0, float(-(q * np.log(q)).sum()))
        return max(0.0, -sum(float(q) * math.log(q) for q in self._conditional()))

    def token_count_pmf(self) -> dict[int, Prob]:
        """P(number of tokens = k | success), for every k with positive probability, by k."""
        if self._chain is not None:
            self._require_success()
            return self._chain.token_count_pmf()
        if self._arr is not None:
            width = self._arr.width
            mass = np.bincount(width, weights=self._q())
            return {k: float(mass[k]) for k in np.unique(width).tolist()}
        out: dict[int, Prob] = {}
        for seg, q in zip(self._probs, self._conditional()):
            out[len(seg)] = out.get(len(seg), 0) + q
        return dict(sorted(out.items()))

    @property
    def expected_tokens(self) -> Prob:
        """E[number of tokens | success]."""
        if self._chain is not None:
            self._require_success()
            return self._chain.expected_tokens()
        return sum((k * q for k, q in self.token_count_pmf().items()),
                   Fraction(0) if self.exact else 0.0)

    def _n(self) -> int:
        if self.n_segmentations is None:
            raise InvalidValueError(
                "this law was built without n_segmentations (the number of segmentations of the "
                "word), so it has no uniform law to compare")
        return self.n_segmentations

    @property
    def kl_to_uniform(self) -> float:
        """KL(law | uniform over the N segmentations) = log N − entropy, in nats."""
        if self._chain is not None:
            entropy = self._nats()  # raises first if the sampler always fails
            return self._chain.log_n_segmentations() - entropy
        return math.log(self._n()) - self._nats()

    @property
    def tv_to_uniform(self) -> Prob:
        """Total variation to the uniform law over the word's N segmentations.

        ``½ (Σ_support |P(x) − 1/N| + (N − support)/N)`` (conditioned on success): the
        segmentations outside the support each contribute ``1/N``, so nothing is enumerated.
        """
        n = self._n()
        # int / int true division: a count past the floats gives 1/N = 0.0, no OverflowError
        u = Fraction(1, n) if self.exact else 1 / n
        outside = Fraction(n - self.support_size, n) if self.exact else (
            (n - self.support_size) / n)
        if self._arr is not None:
            gap = float(np.abs(self._q() - u).sum())
            return (gap + outside) / 2
        gap = sum((abs(q - u) for q in self._conditional()), 0 * u)
        return (gap + outside) / 2

    @property
    def regularisation_rate(self) -> Prob:
        """``1 − P(deterministic segmentation)`` (failures count as regularised draws)."""
        if self.deterministic is None:
            raise InvalidValueError("this sampler has no deterministic segmentation; "
                                    "regularisation_rate is undefined")
        return 1 - self.probability(self.deterministic)

    def expected_distinct(self, m: int) -> Prob:
        """Expected number of distinct segmentations among ``m`` samples: Σ 1 − (1 − P(x))^m.

        Exact for a Fraction law up to ``m`` = 1024, a float beyond.
        """
        m = check_int(m, "m", minimum=0)
        if self.exact and m <= EXACT_DISTINCT_MAX_M:
            return sum((1 - (1 - p) ** m for p in self._probs.values()), Fraction(0))
        if self._arr is not None:
            p = self._arr.p
            below = np.where(p < 1, p, 0.0)  # P = 1 gives 1 (as the loop below)
            hit = np.where(p < 1, -np.expm1(m * np.log1p(-below)), 1.0)
            return float(hit.sum())
        return float(sum(-math.expm1(m * math.log1p(-float(p))) if p < 1 else 1.0
                         for p in self._probs.values()))

    def summary(self, top: int = 10) -> dict[str, object]:
        """The law's summaries as plain JSON values (floats), with the ``top`` segmentations.

        A chain-backed law past its enumeration budget has no ``tv_to_uniform`` and lists
        only its mode as ``top``.
        """
        top = check_int(top, "top", minimum=0)
        try:
            best: dict[tuple[str, ...], Prob] | None = self.probabilities(top)
        except BudgetError:  # a chain-backed law past the enumeration budget
            best = None
        out: dict[str, object] = {
            "word": self.word, "support_size": self.support_size,
            "failure_mass": float(self._fail), "mode": list(self.mode or ()),
        }
        if self.success_mass > 0:
            out["entropy_bits"] = self.shannon_entropy()
            out["entropy_nats"] = self.shannon_entropy(math.e)
            out["expected_tokens"] = float(self.expected_tokens)
            out["token_count_pmf"] = {str(k): float(v) for k, v in self.token_count_pmf().items()}
            if self.n_segmentations is not None:
                out["n_segmentations"] = self.n_segmentations
                out["kl_to_uniform_nats"] = self.kl_to_uniform
                if best is not None:
                    out["tv_to_uniform"] = float(self.tv_to_uniform)
        if self.deterministic is not None:
            out["deterministic"] = list(self.deterministic)
            out["regularisation_rate"] = float(self.regularisation_rate)
        if best is None:
            best = {} if self.mode is None or top == 0 else {
                self.mode: self.probability(self.mode)}
        out["top"] = [{"tokens": list(s), "probability": float(p)} for s, p in best.items()]
        return out
