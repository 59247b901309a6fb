"""The lattice's numba kernels: Algorithm 1's arc table and arc selection over a trie.

:func:`keeps_arc` and :func:`to_word_arc` are the plain rules of :mod:`.rules`, compiled
here to inline into every kernel that walks a lattice (GRaMPa's routes, the baseline
samplers, the deterministic segmenters). Importing this module loads numba; the rest of
:mod:`workbench.lattice` does not, and imports it only where a table is filled. This module
validates nothing (:mod:`workbench.lattice` does).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._core.config import JIT, JIT_INLINE
from .._core.trie import child, word_codes
from . import rules

#: :func:`.rules.keeps_arc`, inlined into kernels.
keeps_arc = njit(**JIT_INLINE)(rules.keeps_arc)
#: :func:`.rules.to_word_arc`, inlined into kernels.
to_word_arc = njit(**JIT_INLINE)(rules.to_word_arc)


@njit(**JIT)
def fill_arc_table(cps, da, codes, max_len, table):
    """``table[j, l]`` = id of ``cps[j-l:j]`` or -1, for ``j <= n``, ``1 <= l <= max_len``.

    ``table`` must have at least ``n + 1`` rows and ``max_len + 1`` columns.
    """
    n = cps.shape[0]
    for j in range(n + 1):
        for length in range(max_len + 1):
            table[j, length] = -1
    wc = np.empty(n + 1, dtype=np.int32)
    word_codes(cps, 0, n, False, codes, wc)
    base, check, terminal = da[0], da[1], da[2]
    for i in range(n):
        node = np.int64(0)
        j = i
        while True:  # ends at the first code that leaves the trie (wc[n] = 0 at the latest)
            node = child(base, check, node, wc[j])
            if node < 0:
                break
            j += 1
            tid = terminal[node]
            if tid >= 0:
                table[j, j - i] = tid


@njit(**JIT)
def select_arcs(table, n, max_len, ell_min, sel, reach):
    """Algorithm 1's arc selection, with reachability (see module docstring).

    ``sel[j, l]`` is set for every kept arc ``j-l → j``; ``reach[i]`` for reachable nodes.
    Rows ``0..n`` of ``sel`` and entries ``0..n`` of ``reach`` are overwritten.
    """
    for j in range(n + 1):
        reach[j] = False
        for length in range(max_len + 1):
            sel[j, length] = False
    reach[0] = True
    for i in range(n):
        if not reach[i]:
            continue
        stop = min(n, i + max_len)
        for j in range(i + 1, stop + 1):
            length = j - i
            if table[j, length] < 0:
                continue
            if keeps_arc(length, ell_min, reach[j]):
                sel[j, length] = True
                reach[j] = True
