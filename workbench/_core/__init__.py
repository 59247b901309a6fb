"""The package's machinery, shared by every paper's code; imports nothing of the package.

Numba flags and cache (``config``), counter-based random streams (``rng``), the double-array
trie (``trie``) and the one set of argument checks (``validate``).

Nothing here knows about tokenisers or papers, and nothing here imports the rest of the
package: every other layer may import ``_core``, never the other way round.
"""
