"""Algorithm 3's two numba kernels: split flat words by coin, merge the halves' ids.

Used by :class:`.multiplex.Multiplexer` (through :func:`.multiplex._split` and
:meth:`~.multiplex.Multiplexer.encode_code_points`) once numba is loaded or the request is
large; :mod:`.interpreted` does the same in plain Python for a first small call. Importing
this module loads numba. It validates nothing.
"""

from __future__ import annotations

from numba import njit

from .._core.config import JIT


@njit(**JIT)
def _split_into(cps, piece_off, sizes, heads, want, out, out_off):
    """Copy the words of the groups whose coin is ``want`` into ``out`` / ``out_off``."""
    n_out = 0
    n_piece = 0
    out_off[0] = 0
    piece = 0
    for t in range(sizes.shape[0]):
        for _ in range(sizes[t]):
            if heads[t] == want:
                for i in range(piece_off[piece], piece_off[piece + 1]):
                    out[n_out] = cps[i]
                    n_out += 1
                n_piece += 1
                out_off[n_piece] = n_out
            piece += 1
    return n_out, n_piece



@njit(**JIT)
def _merge(sizes, heads, s_ids, s_off, d_ids, d_off, ids, offsets):
    """Interleave the halves' ids in word order; ``offsets[g]``: tokens before group ``g``."""
    n = 0
    s_piece = 0
    d_piece = 0
    offsets[0] = 0
    for t in range(sizes.shape[0]):
        for _ in range(sizes[t]):
            if heads[t]:
                for k in range(s_off[s_piece], s_off[s_piece + 1]):
                    ids[n] = s_ids[k]
                    n += 1
                s_piece += 1
            else:
                for k in range(d_off[d_piece], d_off[d_piece + 1]):
                    ids[n] = d_ids[k]
                    n += 1
                d_piece += 1
        offsets[t + 1] = n
