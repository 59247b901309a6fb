"""GRaMPa: path-counting stochastic segmentation (Bauwens et al., §4, Algorithms 1–3).

A word's walked graph (see :mod:`workbench.lattice`) is turned into a first-order Markov
chain: counting paths from the construction's start node (Algorithm 1), the arcs into node
``j`` get probabilities ``c_i / c_j`` (Eq. 2), skewed by power normalisation with exponent
``α = 1/τ`` (Eq. 4). Sampling walks back from the far end (Algorithm 2). ``direction="r2l"``
is the paper's printed algorithm; ``"l2r"`` (the default, as in the paper's experiments) is
its mirror image: l2r(s, V) = reverse of r2l(reverse(s), reverse(V)).

Numerics: path counts are kept as natural logarithms and every normalisation subtracts the
largest (for α > 0) or smallest (α < 0) exponent first, so no count, weight or probability
overflows at any word length.

The private ``@njit`` kernels never see unchecked input; :class:`Grampa` validates and
converts. This module does not train vocabularies, compute closed-form laws
(:mod:`workbench.theory`) or multiplex (:mod:`workbench.segmenters`).

Example
-------
>>> from workbench import Vocabulary
>>> g = Grampa(Vocabulary(["a", "b", "ab"]), seed=0)
>>> g.distribution("ab")
{('a', 'b'): 0.5, ('ab',): 0.5}
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numba import njit, prange

from ._core.config import JIT, JIT_INLINE, JIT_PARALLEL
from ._core.rng import as_generator, base_seed, next_double, stream_state
from ._core.trie import child, word_codes
from .lattice import (
    MAX_WORD_LENGTH,
    Lattice,
    SegmentationError,
    _fill_arc_table,
    _select_arcs,
    check_direction,
    check_ell_min,
    check_vocab,
    check_word,
    code_points,
    count_segmentations,
    enumerate_segmentations,
)
from .vocabulary import Vocabulary

#: Words longer than this under the infinite vocabulary are refused (O(n²) time).
MAX_INFINITE_LENGTH = 20_000
#: ``distribution`` refuses words with more segmentations than this.
MAX_DISTRIBUTION_SIZE = 200_000
_TABLE_BUDGET = 1 << 24  # cells of a per-word probability table before falling back to rows
_CHUNK = 64  # words per parallel task
_PARALLEL_MIN_WORDS = 512  # smaller batches run serially: a thread launch costs more
_PARALLEL_MIN_CELLS = 1 << 16  # samples x characters below which sample_lengths is serial
#: Words of finite vocabularies up to this length take the fused float-count kernel.
SHORT_WORD = 1000
_POWER_TABLE_SIZE = 4096  # c ** alpha tabulated for path counts c below this
_POWER_TABLE_MAX_ALPHA = 80.0  # 4096 ** 80 < 1e290: table entries stay finite and non-zero


# =========================================================================== kernels
@njit(**JIT)
def _has_arc(j, length, sel, infinite, ell_min):
    if infinite:
        if j >= ell_min:
            return length >= ell_min
        return length == j
    return sel[j, length]


@njit(**JIT)
def _build(cps, da, codes, max_len, infinite, ell_min, table, sel,
           reach, logc):
    """Algorithm 1 (with reachability) on ``cps``; log path counts into ``logc``.

    Returns the longest arc length to consider (``max_len``, or ``n`` if infinite).
    """
    n = cps.shape[0]
    if infinite:
        span = n
        reach[: n + 1] = True
    else:
        span = max_len
        _fill_arc_table(cps, da, codes, max_len, table)
        _select_arcs(table, n, max_len, ell_min, sel, reach)
    logc[0] = 0.0
    for j in range(1, n + 1):
        if not reach[j]:
            logc[j] = -np.inf
            continue
        top = -np.inf
        for length in range(1, min(j, span) + 1):
            if _has_arc(j, length, sel, infinite, ell_min) and logc[j - length] > top:
                top = logc[j - length]
        total = 0.0
        for length in range(1, min(j, span) + 1):
            if _has_arc(j, length, sel, infinite, ell_min):
                total += np.exp(logc[j - length] - top)
        logc[j] = top + np.log(total)
    return span


@njit(**JIT)
def _row(j, span, alpha, logc, sel, infinite, ell_min, row):
    """Unnormalised weights of the arcs into ``j`` (``row[l]`` for length ``l``); their sum."""
    hi = min(j, span)
    if alpha == 1.0:
        ref = logc[j]
    elif alpha == 0.0:
        ref = 0.0
    else:  # largest exponent alpha * logc[i] becomes 0: no overflow for either sign of alpha
        ref = np.nan
        for length in range(1, hi + 1):
            if _has_arc(j, length, sel, infinite, ell_min):
                v = logc[j - length]
                if ref != ref or (alpha > 0.0 and v > ref) or (alpha < 0.0 and v < ref):
                    ref = v
    total = 0.0
    for length in range(1, hi + 1):
        w = 0.0
        if _has_arc(j, length, sel, infinite, ell_min):
            w = 1.0 if alpha == 0.0 else np.exp(alpha * (logc[j - length] - ref))
        row[length] = w
        total += w
    return total


@njit(**JIT)
def _pick(row, hi, total, u):
    """Index ``l`` in 1..hi chosen with probability ``row[l] / total`` given uniform ``u``."""
    target = u * total
    acc = 0.0
    last = -1
    for length in range(1, hi + 1):
        w = row[length]
        if w > 0.0:
            acc += w
            last = length
            if acc > target:
                return length
    return last  # rounding left u * total above the running sum: take the last arc


@njit(**JIT)
def _reverse_span(values, start, count):
    """Reverse ``values[start:start + count]`` in place."""
    a, b = start, start + count - 1
    while a < b:
        values[a], values[b] = values[b], values[a]
        a += 1
        b -= 1


@njit(**JIT)
def _walk(n, span, alpha, logc, sel, infinite, ell_min, row, state, out, start):
    """One backward walk (Algorithm 2) from node n; lengths to ``out[start:]``, last first."""
    j = n
    k = 0
    while j > 0:
        hi = min(j, span)
        total = _row(j, span, alpha, logc, sel, infinite, ell_min, row)
        u, state = next_double(state)
        length = _pick(row, hi, total, u)
        out[start + k] = length
        k += 1
        j -= length
    return k, state


@njit(**JIT_INLINE)
def _short_word(wc, n, base, check, terminal, ell_min, alpha, powers, reverse, state, work,
                indeg, arc_len, arc_id, arc_cum, row, out_len, out_id, start):
    """Fused Algorithm 1 + 2 for one word of a finite vocabulary, ``n <= SHORT_WORD``.

    ``wc`` holds the word's trie codes in construction order, ending in a 0
    (:func:`workbench._trie.word_codes`). ``work`` is a ``(2, >= n + 1)`` float workspace:
    path counts ``c`` (plain floats: exact integers up to 2**53, no overflow below 2**1000)
    and, per node, the total weight ``Σ c_i ** α`` of the arcs into it; ``arc_cum[j, k]`` is
    that total over the first ``k + 1`` arcs kept into ``j``. All are built in one forward
    pass. Where every weight is exact without rescaling (τ = 1: the counts themselves;
    τ = ±∞: ones; otherwise counts below the ``powers`` table's size), a sampling step is
    one uniform and a count of prefix sums. Otherwise the step rescales by the largest
    (α > 0) or smallest (α < 0) count first, so no weight overflows.

    Arcs into each node are kept in the order Algorithm 1 finds them (longest first); the
    walk picks among them as if accumulating by increasing length and draws one uniform per
    node, exactly like :func:`_walk`, so both kernels give the same sample for the same
    stream (up to rounding at the boundaries). Returns ``(k, state)``: the number of tokens
    written to ``out_*[start:]`` in word order, or -1 if the word has no segmentation.
    """
    counts, wsum = work[0], work[1]
    n_powers = powers.shape[0]
    for j in range(n + 1):
        counts[j] = 0.0
        wsum[j] = 0.0
        indeg[j] = 0
    counts[0] = 1.0
    tabulated = True  # every weight is c ** alpha itself, without rescaling
    for i in range(n):
        c_i = counts[i]
        if c_i == 0.0:  # unreachable: its arcs carry no paths and are not kept
            continue
        if alpha == 1.0:
            w_i = c_i
        elif alpha == 0.0:
            w_i = 1.0
        elif c_i < n_powers:
            w_i = powers[int(c_i)]
        else:
            w_i = 0.0
            tabulated = False
        node = np.int64(0)
        j = i
        while True:  # stops at the first code that leaves the trie (wc[n] = 0 at the latest)
            node = child(base, check, node, wc[j])
            if node < 0:
                break
            j += 1
            tid = terminal[node]
            if tid < 0:
                continue
            length = j - i
            if length >= ell_min or indeg[j] == 0:
                k = indeg[j]
                arc_len[j, k] = length
                arc_id[j, k] = tid
                indeg[j] = k + 1
                counts[j] += c_i
                wsum[j] += w_i
                arc_cum[j, k] = wsum[j]
    if counts[n] == 0.0:
        return -1, state
    j = n
    k = 0
    while j > 0:
        m = indeg[j]
        u, state = next_double(state)
        pick = m - 1  # arcs were stored longest first; m - 1 is the shortest
        if m > 1:
            if tabulated:
                # the shortest arcs a..m-1 carry total - cum[a-1]: pick the largest a whose
                # share exceeds u * total, i.e. count the prefix sums below (1 - u) * total
                total = wsum[j]
                threshold = total - u * total
                pick = 0
                for a in range(m - 1):
                    pick += arc_cum[j, a] < threshold
            else:
                ref = counts[j - arc_len[j, 0]]
                for a in range(1, m):
                    v = counts[j - arc_len[j, a]]
                    if (alpha > 0.0 and v > ref) or (alpha < 0.0 and v < ref):
                        ref = v
                total = 0.0
                for a in range(m):
                    w = (counts[j - arc_len[j, a]] / ref) ** alpha
                    row[a] = w
                    total += w
                target = u * total
                acc = 0.0
                for a in range(m - 1, -1, -1):
                    if row[a] > 0.0:
                        acc += row[a]
                        pick = a
                        if acc > target:
                            break
        length = arc_len[j, pick]
        out_len[start + k] = length
        out_id[start + k] = arc_id[j, pick]
        k += 1
        j -= length
    if not reverse:  # r2l emits the last token first
        _reverse_span(out_len, start, k)
        _reverse_span(out_id, start, k)
    return k, state


@njit(**JIT_INLINE)
def _longest(offsets, lo, hi):
    """Length of the longest of words ``lo .. hi-1`` (sizes a chunk's workspace)."""
    longest = 0
    for w in range(lo, hi):
        longest = max(longest, offsets[w + 1] - offsets[w])
    return longest


@njit(**JIT)
def _short_chunk(cps, offsets, lo, hi, reverse, da, codes, max_len, ell_min, alpha, powers,
                 seed, out_len, out_id, ntok):
    """Words ``lo .. hi-1`` through :func:`_short_word`, sharing one workspace."""
    longest = _longest(offsets, lo, hi)
    wc = np.empty(longest + 1, dtype=np.int32)
    work = np.empty((2, longest + 1))
    indeg = np.empty(longest + 1, dtype=np.int32)
    arc_len = np.empty((longest + 1, max(max_len, 1)), dtype=np.int32)
    arc_id = np.empty((longest + 1, max(max_len, 1)), dtype=np.int32)
    arc_cum = np.empty((longest + 1, max(max_len, 1)))
    row = np.empty(max(max_len, 1))
    base, check, terminal = da[0], da[1], da[2]
    for w in range(lo, hi):
        start = offsets[w]
        n = offsets[w + 1] - start
        word_codes(cps, start, n, reverse, codes, wc)
        k, _ = _short_word(wc, n, base, check, terminal, ell_min, alpha, powers, reverse,
                           stream_state(seed, w), work, indeg, arc_len, arc_id, arc_cum, row,
                           out_len, out_id, start)
        ntok[w] = k


@njit(**JIT_PARALLEL)
def _sample_batch_short(cps, offsets, reverse, da, codes, max_len, ell_min, alpha, powers,
                        seed, out_len, out_id, ntok):
    """:func:`_short_chunk` over all words, in parallel over chunks (same results)."""
    n_words = offsets.shape[0] - 1
    n_chunks = (n_words + _CHUNK - 1) // _CHUNK
    for c in prange(n_chunks):
        _short_chunk(cps, offsets, c * _CHUNK, min(n_words, (c + 1) * _CHUNK), reverse, da,
                     codes, max_len, ell_min, alpha, powers, seed, out_len, out_id, ntok)


@njit(**JIT)
def _prob_table(n, span, alpha, logc, sel, infinite, ell_min, probs):
    """``probs[j, l]``: normalised probability of the arc of length ``l`` into node ``j``."""
    row = np.zeros(span + 1)
    probs[:, :] = 0.0
    for j in range(1, n + 1):
        if logc[j] == -np.inf:
            continue
        total = _row(j, span, alpha, logc, sel, infinite, ell_min, row)
        for length in range(1, min(j, span) + 1):
            probs[j, length] = row[length] / total


@njit(**JIT)
def _workspace(longest, max_len, infinite):
    """Arrays for :func:`_build` on words of up to ``longest`` characters.

    The arc table and selection are ``(longest + 1, max_len + 1)`` (dummies for the infinite
    vocabulary, whose arcs are implicit); ``reach`` and ``logc`` have one entry per node.
    """
    rows = longest + 1
    shape = (1, 1) if infinite else (rows, max_len + 1)
    return (np.empty(shape, dtype=np.int32), np.zeros(shape, dtype=np.bool_),
            np.zeros(rows, dtype=np.bool_), np.empty(rows))


@njit(**JIT)
def _prepare(cps, reverse, da, codes, max_len, infinite, ell_min):
    """Allocate workspace and run :func:`_build` on ``cps`` (reversed first if asked)."""
    n = cps.shape[0]
    work = np.empty(n, dtype=np.int32)
    for k in range(n):
        work[k] = cps[n - 1 - k] if reverse else cps[k]
    table, sel, reach, logc = _workspace(n, max_len, infinite)
    span = _build(work, da, codes, max_len, infinite, ell_min,
                  table, sel, reach, logc)
    return table, sel, logc, span


@njit(**JIT)
def _general_chunk(cps, offsets, lo, hi, reverse, da, codes, max_len, infinite, ell_min,
                   alpha, seed, out_len, out_id, ntok):
    """One sample for each of words ``lo .. hi-1`` with the log-space kernel.

    Word ``w`` is ``cps[offsets[w]:offsets[w+1]]``; its token lengths (in word order) and
    ids go to ``out_len/out_id[offsets[w]:]`` and its token count to ``ntok[w]`` (-1 when
    the word has no segmentation). Word ``w`` draws from stream ``w`` of ``seed``.
    """
    longest = _longest(offsets, lo, hi)
    table, sel, reach, logc = _workspace(longest, max_len, infinite)
    row = np.empty(longest + 1 if infinite else max_len + 1)
    work = np.empty(longest, dtype=np.int32)
    for w in range(lo, hi):
        start = offsets[w]
        n = offsets[w + 1] - start
        for k in range(n):
            work[k] = cps[start + n - 1 - k] if reverse else cps[start + k]
        span = _build(work[:n], da, codes, max_len, infinite, ell_min, table, sel, reach,
                      logc)
        if logc[n] == -np.inf:
            ntok[w] = -1
            continue
        state = stream_state(seed, w)
        k, state = _walk(n, span, alpha, logc, sel, infinite, ell_min, row, state, out_len,
                         start)
        # lengths come out last-token-first in construction order: in word order for
        # l2r (construction on the reversed word), reversed for r2l.
        if not reverse:
            _reverse_span(out_len, start, k)
        if not infinite:
            j = n
            for t in range(k):  # ids follow the construction order, then get placed
                length = out_len[start + (t if reverse else k - 1 - t)]
                out_id[start + (t if reverse else k - 1 - t)] = table[j, length]
                j -= length
        ntok[w] = k


@njit(**JIT_PARALLEL)
def _sample_batch(cps, offsets, reverse, da, codes, max_len, infinite, ell_min, alpha, seed,
                  out_len, out_id, ntok):
    """:func:`_general_chunk` over all words, in parallel over chunks (same results)."""
    n_words = offsets.shape[0] - 1
    n_chunks = (n_words + _CHUNK - 1) // _CHUNK
    for c in prange(n_chunks):
        _general_chunk(cps, offsets, c * _CHUNK, min(n_words, (c + 1) * _CHUNK), reverse,
                       da, codes, max_len, infinite, ell_min, alpha, seed, out_len, out_id,
                       ntok)


@njit(**JIT)
def _many_chunk(n, span, alpha, logc, sel, infinite, ell_min, reverse, use_table, probs, seed,
                first, lo, hi, out_len, ntok):
    """Samples ``first+lo .. first+hi-1`` of one word; sample ``s`` uses stream ``s``.

    With ``use_table`` the walk reads the precomputed arc probabilities ``probs``; otherwise
    it recomputes each visited node's row (for words too long for a table).
    """
    row = np.empty(span + 1)
    for s in range(lo, hi):
        state = stream_state(seed, first + s)
        start = s * n
        if use_table:
            j = n
            k = 0
            while j > 0:
                u, state = next_double(state)
                length = _pick(probs[j], min(j, span), 1.0, u)
                out_len[start + k] = length
                k += 1
                j -= length
        else:
            k, state = _walk(n, span, alpha, logc, sel, infinite, ell_min, row, state, out_len,
                             start)
        if not reverse:
            _reverse_span(out_len, start, k)
        ntok[s] = k


@njit(**JIT_PARALLEL)
def _sample_many(n, span, alpha, logc, sel, infinite, ell_min, reverse, use_table, probs,
                 seed, first, count, out_len, ntok):
    """:func:`_many_chunk` over ``count`` samples, in parallel over blocks (same results)."""
    block = _CHUNK * 4
    for c in prange((count + block - 1) // block):
        _many_chunk(n, span, alpha, logc, sel, infinite, ell_min, reverse, use_table, probs,
                    seed, first, c * block, min(count, (c + 1) * block), out_len, ntok)


@njit(**JIT)
def _compact(values, starts, ntok, out, offsets):
    """Gather ``values[starts[w] : starts[w] + ntok[w]]`` for every w into ``out``."""
    pos = 0
    for w in range(ntok.shape[0]):
        offsets[w] = pos
        s = starts[w]
        for k in range(ntok[w]):
            out[pos] = values[s + k]
            pos += 1
    offsets[ntok.shape[0]] = pos


@njit(**JIT)
def _count_pmf(n, span, probs):
    """P(m = k) by forward DP over the backward walk: ``f[j, k]`` = P(at node j after k)."""
    f = np.zeros((n + 1, n + 1))
    f[n, 0] = 1.0
    for j in range(n, 0, -1):
        for k in range(n - j + 1):
            mass = f[j, k]
            if mass == 0.0:
                continue
            for length in range(1, min(j, span) + 1):
                p = probs[j, length]
                if p > 0.0:
                    f[j - length, k + 1] += mass * p
    return f[0].copy()


@njit(**JIT)
def _length_expectations(n, span, probs):
    """E[number of tokens of each length] via node-visit probabilities."""
    visit = np.zeros(n + 1)
    visit[n] = 1.0
    expected = np.zeros(n + 1)
    for j in range(n, 0, -1):
        v = visit[j]
        if v == 0.0:
            continue
        for length in range(1, min(j, span) + 1):
            p = probs[j, length]
            if p > 0.0:
                visit[j - length] += v * p
                expected[length] += v * p
    return expected


# =========================================================================== wrappers
def check_tau(tau: object) -> float:
    """Validate τ: any real number except 0 and NaN; ±inf allowed. Returns α = 1/τ."""
    if isinstance(tau, bool) or not isinstance(tau, (int, float, np.integer, np.floating)):
        raise TypeError(f"tau must be a real number, not {type(tau).__name__}")
    tau = float(tau)
    if math.isnan(tau) or tau == 0.0:
        raise ValueError(f"tau must be a non-zero real number or ±inf, got {tau}")
    return 0.0 if math.isinf(tau) else 1.0 / tau


def _as_words(words: object) -> list[str]:
    """A list from a sequence of words; element types are checked by :func:`_joined`."""
    if isinstance(words, str):
        raise TypeError("words must be a sequence of str; for one word use sample(word)")
    return list(words)  # type: ignore[call-overload]


def _joined(words: list[str]) -> str:
    """``"".join(words)``, which also checks every element is a str (hot path)."""
    try:
        return "".join(words)
    except TypeError:
        for k, w in enumerate(words):
            if not isinstance(w, str):
                raise TypeError(f"word {k} is {type(w).__name__}, not str") from None
        raise


def _check_count(n: object, what: str = "n") -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"{what} must be an int, not {type(n).__name__}")
    if n < 0:
        raise ValueError(f"{what} must be non-negative, got {n}")
    return int(n)


class Grampa:
    """GRaMPa sampler over a vocabulary: uniform at τ = 1, skewed otherwise.

    Parameters
    ----------
    vocab : Vocabulary
        Finite, or :meth:`Vocabulary.infinite` (then only the length-based methods and
        string outputs are available; ids need a finite vocabulary).
    tau : float, default 1.0
        Temperature of the power normalisation (Eq. 4), α = 1/τ. Any real τ ≠ 0, negative
        and ±inf included (±inf: every arc into a node equally likely). τ = 1 samples every
        segmentation with probability exactly 1/N.
    ell_min : int, default 1
        Soft minimum token length (§4.4).
    direction : {"l2r", "r2l"}, default "l2r"
        ``"r2l"`` is Algorithms 1–2 as printed; ``"l2r"`` its mirror image.
    seed : int, numpy.random.Generator or None
        Each call draws one 64-bit base seed from this generator; word ``w`` of a batch (or
        sample ``s`` of ``sample_many``) uses its own stream of that seed, so results do not
        depend on the number of threads.

    Words are taken in the vocabulary's alphabet (see :meth:`Vocabulary.to_alphabet`); a
    word without segmentation raises :class:`workbench.SegmentationError`.

    Examples
    --------
    >>> from workbench import Vocabulary
    >>> g = Grampa(Vocabulary.infinite(), tau=1.0, seed=1)
    >>> "".join(g.sample("grampa"))
    'grampa'
    >>> round(float(g.token_count_pmf("grampa").sum()), 12)
    1.0
    """

    def __init__(
        self,
        vocab: Vocabulary,
        tau: float = 1.0,
        ell_min: int = 1,
        direction: str = "l2r",
        seed: int | np.random.Generator | None = None,
    ) -> None:
        self.vocab = check_vocab(vocab)
        self.alpha = check_tau(tau)
        self.tau = float(tau)
        self.ell_min = check_ell_min(ell_min)
        self.direction = check_direction(direction)
        self._rng = as_generator(seed)
        self._reverse = self.direction == "l2r"
        # c ** alpha for small path counts c (exact integers), so that the fast kernel's
        # skewed steps need no pow(); empty where it could overflow or is not needed
        self._powers = np.zeros(0)
        if self.alpha not in (0.0, 1.0) and abs(self.alpha) <= _POWER_TABLE_MAX_ALPHA:
            with np.errstate(divide="ignore"):
                self._powers = np.arange(_POWER_TABLE_SIZE, dtype=np.float64) ** self.alpha
        if vocab.is_infinite:
            self._trie = (np.full((3, 1), -1, dtype=np.int32), np.zeros(1, dtype=np.int32), 0)
        else:
            t = vocab.reversed_trie if self._reverse else vocab.trie
            self._trie = (t.da, t.codes, t.max_len)

    def __repr__(self) -> str:
        return (f"Grampa({self.vocab!r}, tau={self.tau}, ell_min={self.ell_min}, "
                f"direction={self.direction!r})")

    # ------------------------------------------------------------------ internals
    def _check_word(self, word: object) -> str:
        word = check_word(word)
        if self.vocab.is_infinite and len(word) > MAX_INFINITE_LENGTH:
            raise ValueError(f"word has {len(word):,} characters; the infinite vocabulary "
                             f"is limited to {MAX_INFINITE_LENGTH:,} (O(n²) graph)")
        return word

    def _fail(self, word: str) -> SegmentationError:
        lat = Lattice.build(word, self.vocab, self.ell_min, self.direction)
        try:
            lat.require_segmentable()
        except SegmentationError as err:
            return err
        return SegmentationError(f"no segmentation of {word!r}")  # pragma: no cover

    def _batch(self, words: list[str], fast: bool = True):
        text = _joined(words)
        lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
        longest = int(lengths.max(initial=0))
        if longest > MAX_INFINITE_LENGTH and self.vocab.is_infinite or longest > MAX_WORD_LENGTH:
            self._check_word(words[int(lengths.argmax())])  # raises the usual message
        offsets = np.zeros(len(words) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        cps = code_points(text)
        total = int(offsets[-1])
        out_len = np.zeros(max(total, 1), dtype=np.int32)
        out_id = np.full(max(total, 1), -1, dtype=np.int32)
        ntok = np.zeros(len(words), dtype=np.int64)
        da, codes, max_len = self._trie
        seed = base_seed(self._rng)
        parallel = len(words) >= _PARALLEL_MIN_WORDS
        if fast and not self.vocab.is_infinite and longest <= SHORT_WORD:
            args = (self._reverse, da, codes, max_len, self.ell_min, self.alpha,
                    self._powers, seed, out_len, out_id, ntok)
            if parallel:
                _sample_batch_short(cps, offsets, *args)
            else:
                _short_chunk(cps, offsets, 0, len(words), *args)
        else:
            args = (self._reverse, da, codes, max_len, self.vocab.is_infinite, self.ell_min,
                    self.alpha, seed, out_len, out_id, ntok)
            if parallel:
                _sample_batch(cps, offsets, *args)
            else:
                _general_chunk(cps, offsets, 0, len(words), *args)
        bad = np.flatnonzero(ntok < 0)
        if bad.size:
            raise self._fail(words[int(bad[0])])
        return offsets, out_len, out_id, ntok

    def _graph(self, word: str):
        da, codes, max_len = self._trie
        return _prepare(code_points(word), self._reverse, da, codes, max_len,
                        self.vocab.is_infinite, self.ell_min)

    def _probs(self, word: str) -> tuple[np.ndarray, int]:
        """Arc probability table in construction coordinates (raises if unsegmentable)."""
        n = len(word)
        table, sel, logc, span = self._graph(word)
        if logc[n] == -np.inf:
            raise self._fail(word)
        if (n + 1) * (span + 1) > _TABLE_BUDGET:
            raise ValueError(f"word of {n:,} characters is too long for an exact table")
        probs = np.zeros((n + 1, span + 1))
        _prob_table(n, span, self.alpha, logc, sel, self.vocab.is_infinite, self.ell_min,
                    probs)
        return probs, span

    # ------------------------------------------------------------------ sampling
    def sample(self, word: str) -> list[str]:
        """One segmentation of ``word`` (a list of tokens that concatenate to it)."""
        return self.tokenize([self._check_word(word)])[0]

    def tokenize(self, words: Sequence[str]) -> list[list[str]]:
        """One sampled segmentation per word (batched kernel, parallel over words)."""
        words = _as_words(words)
        offsets, out_len, _, ntok = self._batch(words)
        result = []
        for w, word in enumerate(words):
            pos, start = 0, int(offsets[w])
            toks = []
            for length in out_len[start:start + int(ntok[w])].tolist():
                toks.append(word[pos:pos + length])
                pos += length
            result.append(toks)
        return result

    def encode(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """One sample per word as token ids: ``(ids, offsets)``, no Python object per token.

        Word ``w``'s ids are ``ids[offsets[w]:offsets[w+1]]``. Finite vocabularies only.
        """
        if self.vocab.is_infinite:
            raise TypeError("encode needs a finite vocabulary (the infinite one has no ids)")
        words = _as_words(words)
        offsets, _, out_id, ntok = self._batch(words)
        ids = np.empty(int(ntok.sum()), dtype=np.int32)
        tok_offsets = np.empty(len(words) + 1, dtype=np.int64)
        _compact(out_id, offsets[:-1], ntok, ids, tok_offsets)
        return ids, tok_offsets

    def sample_lengths(self, word: str, n: int) -> tuple[np.ndarray, np.ndarray]:
        """``n`` samples of one word as flat token lengths plus ``offsets`` (length n+1).

        Sample ``s`` has token lengths ``lengths[offsets[s]:offsets[s+1]]``, in word order.
        Works for every vocabulary, including the infinite one.
        """
        word = self._check_word(word)
        n = _check_count(n)
        size = len(word)
        table, sel, logc, span = self._graph(word)
        if logc[size] == -np.inf:
            raise self._fail(word)
        use_table = (size + 1) * (span + 1) <= _TABLE_BUDGET
        probs = np.zeros((size + 1, span + 1) if use_table else (1, 1))
        if use_table:
            _prob_table(size, span, self.alpha, logc, sel, self.vocab.is_infinite,
                        self.ell_min, probs)
        seed = base_seed(self._rng)
        block = max(1, _TABLE_BUDGET // max(size, 1))
        parts, counts = [], []
        for first in range(0, n, block):
            count = min(block, n - first)
            out = np.zeros(max(count * size, 1), dtype=np.int32)
            ntok = np.zeros(count, dtype=np.int64)
            args = (size, span, self.alpha, logc, sel, self.vocab.is_infinite, self.ell_min,
                    self._reverse, use_table, probs, seed, first)
            if count * max(size, 1) >= _PARALLEL_MIN_CELLS:
                _sample_many(*args, count, out, ntok)
            else:
                _many_chunk(*args, 0, count, out, ntok)
            flat = np.empty(int(ntok.sum()), dtype=np.int32)
            offs = np.empty(count + 1, dtype=np.int64)
            _compact(out, np.arange(count, dtype=np.int64) * size, ntok, flat, offs)
            parts.append(flat)
            counts.append(ntok)
        lengths = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int32)
        ntok_all = np.concatenate(counts) if counts else np.zeros(0, dtype=np.int64)
        offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(ntok_all, out=offsets[1:])
        return lengths, offsets

    def sample_many(self, word: str, n: int) -> list[list[str]]:
        """``n`` sampled segmentations of one word."""
        lengths, offsets = self.sample_lengths(word, n)
        result = []
        flat = lengths.tolist()
        for s in range(n):
            pos, toks = 0, []
            for length in flat[offsets[s]:offsets[s + 1]]:
                toks.append(word[pos:pos + length])
                pos += length
            result.append(toks)
        return result

    # ------------------------------------------------------------------ exact laws
    def probability(self, word: str, tokens: Sequence[str]) -> float:
        """Exact probability that this sampler returns ``tokens`` for ``word``.

        0.0 if the tokens do not concatenate to ``word`` or use an arc outside the walked
        graph. Raises :class:`SegmentationError` if ``word`` has no segmentation at all.
        """
        word = self._check_word(word)
        tokens = list(tokens)
        if not all(isinstance(t, str) and t for t in tokens) or "".join(tokens) != word:
            return 0.0
        probs, span = self._probs(word)
        n = len(word)
        lengths = [len(t) for t in tokens]
        if self._reverse:  # construction on the reversed word: walk from its end = word start
            seq = lengths
        else:
            seq = lengths[::-1]
        j, p = n, 1.0
        for length in seq:
            if length > span:
                return 0.0
            p *= probs[j, length]
            j -= length
        return float(p)

    def distribution(self, word: str) -> dict[tuple[str, ...], float]:
        """Every segmentation of the walked graph with its exact probability.

        Refuses (ValueError) words with more than :data:`MAX_DISTRIBUTION_SIZE` of them.
        """
        word = self._check_word(word)
        total = count_segmentations(word, self.vocab, self.ell_min, self.direction)
        if total == 0:
            raise self._fail(word)
        if total > MAX_DISTRIBUTION_SIZE:
            raise ValueError(f"{word!r} has {total:,} segmentations; distribution() is "
                             f"limited to {MAX_DISTRIBUTION_SIZE:,}")
        probs, _ = self._probs(word)
        n = len(word)
        out = {}
        for seg in enumerate_segmentations(word, self.vocab, self.ell_min, self.direction,
                                           limit=total):
            lengths = [len(t) for t in seg]
            j, p = n, 1.0
            for length in (lengths if self._reverse else lengths[::-1]):
                p *= probs[j, length]
                j -= length
            out[seg] = float(p)
        return out

    def token_count_pmf(self, word: str) -> np.ndarray:
        """P(m = k) for k = 0..len(word): the exact law of the number of tokens."""
        word = self._check_word(word)
        if word == "":
            return np.ones(1)
        probs, span = self._probs(word)
        return _count_pmf(len(word), span, probs)

    def token_length_pmf(self, word: str) -> np.ndarray:
        """Expected share of tokens of each length ℓ = 0..len(word): E[N_ℓ] / E[m].

        This is the pooled law a histogram of all sampled token lengths converges to
        (Eq. 12 at τ = 1 under the infinite vocabulary). Entry 0 is 0.
        """
        word = self._check_word(word)
        if word == "":
            return np.zeros(1)
        probs, span = self._probs(word)
        expected = _length_expectations(len(word), span, probs)
        return expected / expected.sum()

    def expected_token_count(self, word: str) -> float:
        """E[m], from :meth:`token_count_pmf`."""
        pmf = self.token_count_pmf(word)
        return float(np.dot(np.arange(pmf.size), pmf))


def arc_probabilities(
    word: str, vocab: Vocabulary, tau: float = 1.0, ell_min: int = 1, direction: str = "l2r"
) -> dict[tuple[int, int], float]:
    """GRaMPa's transition probability of every arc ``(i, j)`` (token ``word[i:j]``).

    For ``"r2l"`` it is P(previous node is i | at node j) — sampling walks right to left;
    for ``"l2r"`` it is P(next node is j | at node i). Arcs outside the walked graph are
    absent.

    >>> from workbench import Vocabulary
    >>> arc_probabilities("ab", Vocabulary(["a", "b", "ab"]), direction="r2l")
    {(0, 1): 1.0, (0, 2): 0.5, (1, 2): 0.5}
    """
    g = Grampa(vocab, tau=tau, ell_min=ell_min, direction=direction)
    word = g._check_word(word)
    if word == "":
        return {}
    probs, span = g._probs(word)
    n = len(word)
    out = {}
    for j in range(1, n + 1):
        for length in range(1, min(j, span) + 1):
            p = float(probs[j, length])
            if p > 0.0:
                if direction == "r2l":
                    out[(j - length, j)] = p
                else:  # construction coordinates are mirrored
                    out[(n - j, n - j + length)] = p
    return dict(sorted(out.items()))
