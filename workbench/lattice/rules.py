"""Algorithm 1's two small rules as plain Python: which arcs are kept, and where an arc lies.

Written once here and compiled by :mod:`.kernels` (``njit(inline="always")``) for every
kernel that walks a lattice; the plain-Python route of :mod:`workbench.grampa.interpreted`
calls them as they are. This module imports nothing (no numpy, no numba) and builds no
lattice.

>>> keeps_arc(1, 2, False), to_word_arc(5, 3, 2, True)
(True, (2, 4))
"""

from __future__ import annotations


def keeps_arc(length, ell_min, has_incoming):
    """The soft-ℓ_min rule (Algorithm 1, §4.4), in the one place it is written.

    Arcs into a node are offered longest first (from the reachable node nearest the start);
    an arc is kept if it is at least ``ell_min`` long, or if no arc into its end node has
    been kept yet (so the first, i.e. longest, short arc keeps the node reachable).

    >>> keeps_arc(1, 2, False), keeps_arc(1, 2, True), keeps_arc(3, 2, True)
    (True, False, True)
    """
    return length >= ell_min or not has_incoming


def to_word_arc(n, j, length, mirror):
    """Arc ``j - length → j`` of the construction, as ``(i, j)`` in the word's coordinates.

    With ``mirror`` (``direction="l2r"``) the construction ran on the mirrored word, whose
    node ``j`` is the word's node ``n - j``.

    >>> to_word_arc(5, 3, 2, False), to_word_arc(5, 3, 2, True)
    ((1, 3), (2, 4))
    """
    if mirror:
        return n - j, n - j + length
    return j - length, j
