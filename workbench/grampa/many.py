"""Many samples of one word: its graph is built once, then walked ``count`` times.

Sample ``s`` of a call draws from stream ``first + s`` of the call's seed, so results do not
depend on the thread count or on how the samples are split into blocks. Behind
:meth:`workbench.Grampa.sample_lengths`; validates nothing.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from .._core.config import JIT, JIT_PARALLEL
from .._core.rng import next_double, stream_state
from .fused import CHUNK, reverse_span
from .logspace import pick, walk_back


class Samples(NamedTuple):
    """Where :func:`many_chunk` writes: sample ``s``'s token lengths (word order) from
    ``lengths[s * n:]``, its token count to ``ntok[s]``."""

    lengths: np.ndarray  # int32, count * n
    ntok: np.ndarray  # int64 per sample


@njit(**JIT)
def many_chunk(graph, walk, probs, seed, first, lo, hi, out):
    """Samples ``first+lo .. first+hi-1`` of one word (its :class:`.params.Graph`).

    With a non-empty probability table ``probs`` (``probs.shape[0] == n + 1``) the walk reads
    the precomputed arc probabilities; otherwise it recomputes each visited node's row (for
    words too long for a table). Sample ``s`` draws from stream ``first + s`` of ``seed`` and
    writes to the :class:`Samples` ``out``.
    """
    n, span = graph.n, graph.span
    out_len, ntok = out.lengths, out.ntok
    use_table = probs.shape[0] == n + 1
    row = np.empty(span + 1)
    for s in range(lo, hi):
        state = stream_state(seed, first + s)
        start = s * n
        if use_table:
            j = n
            k = 0
            while j > 0:
                u, state = next_double(state)
                length = pick(probs[j], min(j, span), 1.0, u)
                out_len[start + k] = length
                k += 1
                j -= length
        else:
            k, state = walk_back(graph, walk, row, state, out_len, start)
        if not walk.mirror:
            reverse_span(out_len, start, k)
        ntok[s] = k


@njit(**JIT_PARALLEL)
def many_batch(graph, walk, probs, seed, first, count, out):
    """:func:`many_chunk` over ``count`` samples, in parallel over blocks (same results)."""
    block = CHUNK * 4
    for c in prange((count + block - 1) // block):
        many_chunk(graph, walk, probs, seed, first, c * block, min(count, (c + 1) * block),
                   out)


@njit(**JIT)
def compact(values, starts, ntok, out, offsets):
    """Gather ``values[starts[w] : starts[w] + ntok[w]]`` for every w into ``out``."""
    pos = 0
    for w in range(ntok.shape[0]):
        offsets[w] = pos
        s = starts[w]
        for k in range(ntok[w]):
            out[pos] = values[s + k]
            pos += 1
    offsets[ntok.shape[0]] = pos
