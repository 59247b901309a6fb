"""Cost model of the plain-Python dynamic programmes that slice a word and look pieces up.

Several exact reference segmenters (:func:`workbench.segmenters.unigram_viterbi`,
:func:`workbench.segmenters.longest_match`, :func:`workbench.greedtok.objective.partition`,
ULM's k-best) try, at each position of a word of ``n`` characters, one slice per token
length ``l`` and look it up in a dict or set. One such lookup costs ``1400 + l`` units at
:data:`SLICE_RATE` units per second on the reference machine (measured: ~0.7 µs per lookup
plus ~0.5 ns per character; 3.2 M lookups of <= 16 characters in 2.2 s, 20,000 characters
against 500 lengths in 8.6 s), so a word costs :func:`slice_units` units; callers pass that
to :func:`workbench._core.validate.check_work` before any work.

This module only estimates; it slices nothing and raises nothing.

Example
-------
>>> slice_units(4, (1, 2))
9810
"""

from __future__ import annotations

from collections.abc import Iterable

#: Units per second of :func:`slice_units` on the reference machine.
SLICE_RATE = 2e9

#: Units of one dict/set lookup of a slice, besides one unit per character.
LOOKUP_UNITS = 1400


def slice_units(n: int, lengths: Iterable[int]) -> int:
    """Units to slice and look up every piece of a length in ``lengths`` at every position.

    ``sum over l in lengths, 1 <= l <= n, of (n - l + 1)(LOOKUP_UNITS + l)``.
    """
    return sum((n - length + 1) * (LOOKUP_UNITS + length)
               for length in lengths if 1 <= length <= n)
