"""The records GRaMPa kernels take, and the τ check.

The kernels of :mod:`.fused`, :mod:`.logspace`, :mod:`.many` and :mod:`.expectations` take
typed named tuples (numba passes them by value) instead of a dozen positional arguments:
:class:`Walk` (everything about a sampler), :class:`Words` (a batch of words as flat code
points), :class:`Output` (where a batch kernel writes its tokens) and :class:`Graph` (one
word's walked graph, Algorithm 1's result in log space).

*Construction coordinates.* Algorithms 1–2 as printed (``direction="r2l"``) count paths from
node 0 and walk back from node ``n``. ``"l2r"`` (the default) is their mirror image: the
kernels run the same construction on the mirrored word with the reversed vocabulary's trie
(``Walk.mirror`` is then True). :func:`workbench.lattice.rules.to_word_arc` maps an arc back to the
word's own coordinates.

This module allocates no per-word memory and samples nothing.

Example
-------
>>> check_tau(4.0), check_tau(float("inf")), check_tau(-2)
(0.25, 0.0, -0.5)
"""

from __future__ import annotations

import math
import sys
from typing import NamedTuple

import numpy as np

from .._core.errors import InvalidValueError
from .._core.validate import check_real
from ..vocab import Vocabulary

#: Words of finite vocabularies up to this length take the fused float-count route
#: (:mod:`.fused`, or :mod:`.interpreted` for small calls before numba is loaded).
SHORT_WORD = 1000
_POWER_TABLE_SIZE = 4096  # c ** alpha tabulated for path counts c below this
_POWER_TABLE_MAX_ALPHA = 80.0  # 4096 ** 80 < 1e290: table entries stay finite and non-zero


class Walk(NamedTuple):
    """A sampler's constants, as the kernels see them.

    Attributes
    ----------
    da, codes, max_len
        The trie walked by Algorithm 1 (:class:`workbench._core.trie.Trie`): the reversed
        vocabulary's for ``mirror``; dummies for the infinite vocabulary.
    infinite : bool
        Every substring is a token (arcs are implicit; no ids).
    ell_min : int
        Soft minimum token length (§4.4).
    alpha : float
        1/τ (0.0 for τ = ±∞).
    powers : numpy.ndarray
        ``powers[c] = c ** alpha`` for small path counts ``c`` (empty where not used).
    mirror : bool
        True for ``direction="l2r"``: the construction runs on the mirrored word.
    """

    da: np.ndarray
    codes: np.ndarray
    max_len: int
    infinite: bool
    ell_min: int
    alpha: float
    powers: np.ndarray
    mirror: bool


#: The smallest ``abs(tau)`` whose reciprocal is a finite float (about 5.6e-309, a subnormal).
TAU_MIN = math.nextafter(1.0 / sys.float_info.max, 1.0)


def check_tau(tau: object) -> float:
    """Validate τ: any real number except 0 and NaN, ±inf allowed, and ``abs(tau)`` at least
    :data:`TAU_MIN` so that α = 1/τ is finite (closer to 0, 1/τ overflows to ±inf, which no
    kernel can take). Returns α = 1/τ."""
    tau = check_real(tau, "tau", allow_inf=True)
    if tau == 0.0:
        raise InvalidValueError("tau must be a non-zero real number or ±inf, got 0.0")
    if math.isinf(tau):
        return 0.0
    alpha = 1.0 / tau
    if math.isinf(alpha):
        raise InvalidValueError(
            f"tau = {tau!r} is too close to 0: 1/tau overflows. |tau| must be at least "
            f"{TAU_MIN:.4g}")
    return alpha


def power_table(alpha: float) -> np.ndarray:
    """``c ** alpha`` for the small path counts ``c`` (exact integers) below 4,096.

    The fused route's skewed steps look weights up here instead of calling ``pow()``; the
    table is empty where it is not needed (α = 0 or 1) or could overflow (|α| > 80).

    >>> power_table(0.5)[:5].tolist(), power_table(1.0).size
    ([0.0, 1.0, 1.4142135623730951, 1.7320508075688772, 2.0], 0)
    """
    if alpha in (0.0, 1.0) or abs(alpha) > _POWER_TABLE_MAX_ALPHA:
        return np.zeros(0)
    with np.errstate(divide="ignore"):
        return np.arange(_POWER_TABLE_SIZE, dtype=np.float64) ** alpha


def make_walk(vocab: Vocabulary, alpha: float, ell_min: int, direction: str) -> Walk:
    """The :class:`Walk` of a sampler (arguments already validated)."""
    mirror = direction == "l2r"
    powers = power_table(alpha)
    if vocab.is_infinite:
        da, codes, max_len = np.full((3, 1), -1, dtype=np.int32), np.zeros(1, dtype=np.int32), 0
    else:
        trie = vocab.reversed_trie if mirror else vocab.trie
        da, codes, max_len = trie.da, trie.codes, trie.max_len
    return Walk(da, codes, int(max_len), bool(vocab.is_infinite), int(ell_min), float(alpha),
                powers, mirror)


class Words(NamedTuple):
    """A batch of words as flat code points: word ``w`` is ``cps[offsets[w]:offsets[w + 1]]``."""

    cps: np.ndarray  # int32 code points
    offsets: np.ndarray  # int64, n_words + 1


class Output(NamedTuple):
    """Where a batch kernel writes word ``w``'s sample.

    Token lengths and ids (word order) from ``lengths[offsets[w]:]`` and ``ids[offsets[w]:]``
    (the :class:`Words` offsets), the token count to ``ntok[w]`` (-1: no segmentation).
    """

    lengths: np.ndarray  # int32
    ids: np.ndarray  # int32 (untouched for the infinite vocabulary)
    ntok: np.ndarray  # int64 per word


class Graph(NamedTuple):
    """One word's walked graph in construction coordinates (:func:`.logspace.count_paths`).

    Attributes
    ----------
    n : int
        Characters of the word (nodes ``0 .. n``).
    span : int
        Longest arc to consider (``max_len``, or ``n`` for the infinite vocabulary).
    logc : numpy.ndarray
        ``logc[j]``: natural log of the number of paths from node 0 to ``j`` (-inf if none).
    sel : numpy.ndarray
        ``sel[j, l]``: the arc of length ``l`` into ``j`` is walked (finite vocabularies).
    table : numpy.ndarray
        ``table[j, l]``: token id of that arc, or -1 (finite vocabularies).
    """

    n: int
    span: int
    logc: np.ndarray
    sel: np.ndarray
    table: np.ndarray
