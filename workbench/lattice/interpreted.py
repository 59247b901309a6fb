"""Algorithm 1's arc selection in plain Python, for a process's first small lattice.

A word without segmentation is explained from its walked graph (:func:`walked_arcs`, the
reach of every node). Before numba is loaded, filling the arc table with the numba kernel
would load numba just to word an error, so :func:`workbench.lattice.walked_arcs` selects the
arcs of a small word here (:func:`applies` is the rule): the token lengths of the
vocabulary at each reachable node, nodes left to right and lengths ascending, exactly the
order of :func:`.kernels.select_arcs`, with the soft-ℓ_min rule of :mod:`.rules`. Same arcs
and reach (``tests/lattice/test_interpreted.py`` compares both routes, and a fresh
process through the CLI).

What this module does not do: validate arguments (the caller does), count paths or map arcs
to the word's coordinates (the caller does, as on the kernels' route).

Example
-------
>>> from workbench import Vocabulary
>>> select_arcs("ab", Vocabulary(["a", "b", "ab"]), ell_min=1, mirror=False)
([(1, 1), (2, 2), (2, 1)], [True, True, True])
"""

from __future__ import annotations

import sys

from ..vocab import Vocabulary
from .rules import keeps_arc

#: Largest word run here, in trie lookups (``n · min(n, distinct token lengths)``; ``n²``
#: for the infinite vocabulary): a few ms of Python.
MAX_WORK = 20_000


def applies(n: int, vocab: Vocabulary) -> bool:
    """Should the walked graph of an ``n``-character word be selected here? (numba not
    loaded, small).

    >>> applies(5, Vocabulary(["a"])) == ("numba" not in sys.modules)
    True
    """
    depth = n if vocab.is_infinite else len(vocab.token_lengths)
    return "numba" not in sys.modules and n * min(n, depth) <= MAX_WORK


def select_arcs(word: str, vocab: Vocabulary, ell_min: int, mirror: bool
                ) -> tuple[list[tuple[int, int]], list[bool]]:
    """Kept arcs as ``(j, length)`` in construction coordinates, and the reach of every node.

    ``mirror`` (``direction="l2r"``) runs the construction on the mirrored word, as the
    kernels do with the reversed vocabulary's trie.
    """
    n = len(word)
    infinite = vocab.is_infinite
    sizes = range(1, n + 1) if infinite else vocab.token_lengths
    has = vocab.__contains__
    reach = [False] * (n + 1)
    reach[0] = True
    kept: list[tuple[int, int]] = []
    for i in range(n):
        if not reach[i]:
            continue
        for length in sizes:  # ascending, as the kernel's j = i + 1 .. i + max_len
            j = i + length
            if j > n:
                break
            if (infinite or has(word[n - j:n - i] if mirror else word[i:j])) and keeps_arc(
                    length, ell_min, reach[j]):
                kept.append((j, length))
                reach[j] = True
    return kept, reach
