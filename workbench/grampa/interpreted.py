"""GRaMPa's fused and many-sample routes in plain Python, for a process's first small calls.

A fresh process that calls a numba kernel first pays for numba itself: importing it,
starting its CPU target and loading the cached kernel take about half a second on two cores,
thousands of times more than sampling one word. So while numba is not loaded in the process,
:class:`workbench.Grampa` runs a small request here. Each function is named after the
``Grampa`` method it serves: :func:`tokenize` serves ``Grampa.tokenize_batch`` (and ``sample``):
Algorithms 1 and 2 fused per word, exactly as :func:`.fused._short_word` runs them;
:func:`sample_lengths` serves ``Grampa.sample_lengths`` (and ``sample_many``): the log-space
counts and probability table of :mod:`.logspace` (:func:`probability_rows`) walked as
:func:`.many.many_chunk` walks them. Both return token lengths, not tokens. Same float
operations in the same order, the soft-ℓ_min rule of :mod:`workbench.lattice.rules` and the
same SplitMix64 streams (:mod:`workbench._core.seeds`): the samples are the kernels', bit for
bit.
``tests/grampa/test_interpreted.py`` compares both routes with the kernels on generated
vocabularies, words, temperatures, ℓ_min and directions, through every branch (tabulated
powers, rescaled weights, α < 0, τ = ±∞).

What this module does not do: decide when it runs (:func:`applies` is the rule,
:class:`workbench.Grampa` applies it), validate arguments, handle the infinite vocabulary,
long words or token ids (``encode``'s ids: :mod:`.interpreted_encode`); every call after
numba is loaded, and every larger call, takes the kernels.

Example
-------
>>> from workbench import Vocabulary
>>> v = Vocabulary(["a", "b", "ab"])
>>> tokenize(["ab", "b"], v, alpha=1.0, ell_min=1, mirror=True, seed=7)
([[1, 1], [1]], -1)
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence

from .._core.seeds import next_double, stream_state
from .._core.validate import check_budget, check_work
from ..lattice.rules import keeps_arc
from ..vocab import Vocabulary
from .params import SHORT_WORD

#: Largest request run here, in trie lookups (Σ over words of ``n · min(n, distinct token
#: lengths)``) plus walk steps: 5–7 ms of Python at the 0.26–0.35 µs per unit measured on
#: ulm-8k, well below what loading numba costs.
MAX_WORK = 20_000
#: Units per second of this module's Python loops (measured on ulm-8k: 0.26–0.35 µs per
#: unit), for the time budget of a direct call (Grampa calls it only below MAX_WORK).
RATE = 2.5e6
#: Bytes per sampled character held in the Python lists returned (an int and a slot).
_BYTES_PER_LENGTH = 64


def applies(words: Sequence[object], vocab: Vocabulary, steps: int = 0) -> bool:
    """Should a request for these words run here? (numba not loaded, small, finite).

    ``steps`` counts further work in the same units: the ``count · n`` steps of
    :func:`sample_lengths`' walks. Decided without touching the words when numba is loaded
    (the usual case); elements that are not strings count as empty (the caller's checks
    reject them).

    >>> applies(["abc", "ab"], Vocabulary(["a"])) == ("numba" not in sys.modules)
    True
    """
    if "numba" in sys.modules or vocab.is_infinite or len(words) > MAX_WORK:
        return False
    lengths = [len(w) if isinstance(w, str) else 0 for w in words]
    if max(lengths, default=0) > SHORT_WORD:
        return False
    depth = len(vocab.token_lengths)
    return sum(n * min(n, depth) for n in lengths) + steps <= MAX_WORK


def tokenize(words: Sequence[str], vocab: Vocabulary, alpha: float, ell_min: int,
             mirror: bool, seed: int, powers: Sequence[float] = ()
             ) -> tuple[list[list[int]], int]:
    """Serves ``Grampa.tokenize_batch``: one sample per word as token lengths, as the fused kernel.

    Word ``w`` draws from stream ``w`` of base seed ``seed``. ``powers`` is
    :func:`.params.power_table` of ``alpha`` as a list of floats. Returns ``(lengths, bad)``:
    ``bad`` is the index of the first word without a segmentation (its list is empty), or -1.
    """
    sizes = vocab.token_lengths
    depth = len(sizes)
    check_budget(sum(map(len, words)) * _BYTES_PER_LENGTH,
                 f"the token lengths of {len(words):,} words")
    check_work(sum(len(w) * (min(len(w), depth) + 1) for w in words),
               f"plain-Python samples of {len(words):,} words", rate=RATE)
    has = vocab.__contains__
    out: list[list[int]] = []
    bad = -1
    for w, word in enumerate(words):
        lengths = _one_word(word, has, sizes, alpha, ell_min, mirror, powers,
                            stream_state(int(seed), w))
        if lengths is None:
            bad = w if bad < 0 else bad
            lengths = []
        out.append(lengths)
    return out, bad


def sample_lengths(rows: list[list[tuple[int, float]]], count: int, mirror: bool, seed: int
                   ) -> list[list[int]]:
    """Serves ``Grampa.sample_lengths``: ``count`` samples of one word, as ``many_chunk``.

    The walks of :meth:`workbench.Grampa.sample_lengths` over the word's
    :func:`probability_rows`, sample ``s`` on stream ``s`` of base seed ``seed``. Token
    lengths in word order. (The caller draws ``seed`` only once the word is known to have a
    segmentation, as the kernels' route does.)

    >>> rows = probability_rows("ab", Vocabulary(["a", "b", "ab"]), 1.0, 1, True)
    >>> sample_lengths(rows, 3, True, 5)
    [[2], [1, 1], [2]]
    """
    n = len(rows) - 1
    check_budget(count * max(n, 1) * _BYTES_PER_LENGTH,
                 f"{count:,} samples of a {n:,}-character word")
    check_work(count * (n + 1), f"{count:,} plain-Python walks of {n:,} nodes", rate=RATE)
    out = []
    for s in range(count):
        state = stream_state(int(seed), s)
        lengths = []
        j = n
        while j > 0:
            u, state = next_double(state)
            acc = 0.0
            last = -1
            for length, p in rows[j]:  # .logspace.pick with total 1.0
                if p > 0.0:
                    acc += p
                    last = length
                    if acc > u:
                        break
            lengths.append(last)
            j -= last
        if not mirror:
            lengths.reverse()
        out.append(lengths)
    return out


def probability_rows(word: str, vocab: Vocabulary, alpha: float, ell_min: int, mirror: bool
                     ) -> list[list[tuple[int, float]]] | None:
    """Per node ``j`` of the walked graph, ``[(length, probability), ...]`` of its arcs.

    Algorithm 1 in log counts (:func:`.logspace.count_paths`) and each node's arc
    probabilities (:func:`.logspace.probability_table`), by increasing length, in
    construction coordinates; None if the word has no segmentation.
    """
    n = len(word)
    has = vocab.__contains__
    sizes = vocab.token_lengths
    check_work(n * (min(n, len(sizes)) + 1), f"the plain-Python graph of a {n:,}-character "
               "word", rate=RATE)
    into = _kept_arcs(word, has, sizes, ell_min, mirror)
    logc = _log_counts(into)
    if logc[n] == -math.inf:
        return None
    return _arc_rows(into, logc, alpha)


def _kept_arcs(word, has, sizes, ell_min, mirror) -> list[list[int] | None]:
    """Lengths of the kept arcs into each node, ascending (``.lattice.kernels.select_arcs``);
    None at a node no kept arc reaches."""
    n = len(word)
    into: list[list[int]] = [[] for _ in range(n + 1)]  # kept arc lengths, by length
    reach = [False] * (n + 1)
    reach[0] = True
    for i in range(n):
        if not reach[i]:
            continue
        for length in sizes:
            j = i + length
            if j > n:
                break
            if has(word[n - j:n - i] if mirror else word[i:j]) and keeps_arc(
                    length, ell_min, reach[j]):
                into[j].append(length)
                reach[j] = True
    for arcs in into:
        arcs.sort()
    return [arcs if reached else None for arcs, reached in zip(into, reach)]


def _log_counts(into: list[list[int] | None]) -> list[float]:
    """Algorithm 1 in natural-log path counts (``.logspace.count_paths``)."""
    logc = [0.0] * len(into)
    for j in range(1, len(into)):
        if into[j] is None:
            logc[j] = -math.inf
            continue
        top = -math.inf
        for length in into[j]:
            if logc[j - length] > top:
                top = logc[j - length]
        total = 0.0
        for length in into[j]:
            total += math.exp(logc[j - length] - top)
        logc[j] = top + math.log(total)
    return logc


def _arc_rows(into: list[list[int] | None], logc: list[float], alpha: float
              ) -> list[list[tuple[int, float]]]:
    """Each node's ``(length, probability)`` arcs (``.logspace.arc_weights`` and
    ``probability_table``)."""
    rows: list[list[tuple[int, float]]] = [[] for _ in range(len(into))]
    for j in range(1, len(into)):
        if logc[j] == -math.inf:
            continue
        arcs = into[j]
        if alpha == 1.0:
            ref = logc[j]
        elif alpha == 0.0:
            ref = 0.0
        else:
            ref = math.nan
            for length in arcs:
                v = logc[j - length]
                if ref != ref or (alpha > 0.0 and v > ref) or (alpha < 0.0 and v < ref):
                    ref = v
        weights = [1.0 if alpha == 0.0 else math.exp(alpha * (logc[j - length] - ref))
                   for length in arcs]
        total = 0.0
        for w in weights:
            total += w
        rows[j] = [(length, w / total) for length, w in zip(arcs, weights)]
    return rows


def _one_word(word, has, sizes, alpha, ell_min, mirror, powers, state):
    """:func:`.fused._short_word` for one word (construction coordinates, see there)."""
    graph = _forward(word, has, sizes, alpha, ell_min, mirror, powers)
    if graph is None:
        return None
    counts, wsum, arc_len, arc_cum, tabulated = graph
    out = []
    j = len(word)
    while j > 0:
        lens = arc_len[j]
        m = len(lens)
        u, state = next_double(state)
        pick = m - 1
        if m > 1:
            if tabulated:
                total = wsum[j]
                threshold = total - u * total
                cum = arc_cum[j]
                pick = 0
                for a in range(m - 1):
                    pick += cum[a] < threshold
            else:
                pick = _rescaled_pick(counts, lens, j, alpha, u)
        length = lens[pick]
        out.append(length)
        j -= length
    if not mirror:  # r2l walks back from the word's end
        out.reverse()
    return out


def _forward(word, has, sizes, alpha, ell_min, mirror, powers):
    """Algorithm 1 of the fused kernel: float path counts, each arc's cumulative weight;
    None if the word has no segmentation. ``tabulated`` is False once a count passed the
    power table (the walk then rescales its weights)."""
    n = len(word)
    counts = [0.0] * (n + 1)
    wsum = [0.0] * (n + 1)
    arc_len: list[list[int]] = [[] for _ in range(n + 1)]
    arc_cum: list[list[float]] = [[] for _ in range(n + 1)]
    counts[0] = 1.0
    n_powers = len(powers)
    tabulated = True
    for i in range(n):
        c_i = counts[i]
        if c_i == 0.0:
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
        for length in sizes:  # ascending: arcs into j come longest first over i, as there
            j = i + length
            if j > n:
                break
            if not has(word[n - j:n - i] if mirror else word[i:j]):
                continue
            if keeps_arc(length, ell_min, len(arc_len[j]) > 0):
                arc_len[j].append(length)
                counts[j] += c_i
                wsum[j] += w_i
                arc_cum[j].append(wsum[j])
    if counts[n] == 0.0:
        return None
    return counts, wsum, arc_len, arc_cum, tabulated


def _rescaled_pick(counts, lens, j, alpha, u):
    """The arc into ``j`` picked by ``u`` from weights ``(c_i / ref) ** alpha`` (counts past
    the power table), scanned from the last arc as the kernel does."""
    m = len(lens)
    ref = counts[j - lens[0]]
    for a in range(1, m):
        v = counts[j - lens[a]]
        if (alpha > 0.0 and v > ref) or (alpha < 0.0 and v < ref):
            ref = v
    row = []
    total = 0.0
    for a in range(m):
        weight = (counts[j - lens[a]] / ref) ** alpha
        row.append(weight)
        total += weight
    target = u * total
    acc = 0.0
    pick = m - 1
    for a in range(m - 1, -1, -1):
        if row[a] > 0.0:
            acc += row[a]
            pick = a
            if acc > target:
                break
    return pick

