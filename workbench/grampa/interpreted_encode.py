"""Token ids of :mod:`.interpreted`'s samples: ``Grampa.encode_flat`` without numba's start-up.

:meth:`workbench.Grampa.encode_flat` (and ``encode_code_points``, the stochastic half of
:class:`workbench.segmenters.Multiplexer`) returns ``(ids, offsets)``. While numba is not
loaded and the request is small (:func:`.interpreted.applies`), the sampler draws the token
lengths in plain Python (:func:`.interpreted.sample_lengths`, the fused kernel's samples bit
for bit) and this module turns them into the same two arrays the kernels' route returns:
each token's id is its vocabulary id, which is what the kernels read off the trie
(``terminal`` holds the vocabulary's ids, the reversed trie too).
``tests/grampa/test_interpreted_encode.py`` compares both routes.

What this module does not do: sample, decide when it runs, or validate the words (the
sampler does all three, as for ``tokenize``).

Example
-------
>>> from workbench import Vocabulary
>>> v = Vocabulary(["a", "b", "ab"], ids=[5, 6, 7])
>>> ids, offsets = ids_from_lengths(["ab", "b"], [[2], [1]], v)
>>> ids.tolist(), offsets.tolist()
([7, 6], [0, 1, 2])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..vocab import Vocabulary


def ids_from_lengths(words: Sequence[str], lengths: Sequence[Sequence[int]],
                     vocab: Vocabulary) -> tuple[np.ndarray, np.ndarray]:
    """``(ids, offsets)`` of words cut into tokens of the given lengths, as ``encode`` returns.

    Word ``w``'s ids are ``ids[offsets[w]:offsets[w + 1]]`` (``int32`` ids, ``int64``
    offsets). Every token must be in the (finite) vocabulary.
    """
    id_of = vocab.id_of
    flat: list[int] = []
    counts = np.zeros(len(words) + 1, dtype=np.int64)
    for w, (word, cuts) in enumerate(zip(words, lengths)):
        i = 0
        for length in cuts:
            flat.append(id_of(word[i:i + length]))
            i += length
        counts[w + 1] = len(cuts)
    return np.array(flat, dtype=np.int32), np.cumsum(counts)


def words_from_flat(code_points: np.ndarray, offsets: np.ndarray) -> list[str]:
    """The words of checked flat code points (word ``w`` is ``code_points[offsets[w]:]``).

    >>> words_from_flat(np.array([97, 98, 98]), np.array([0, 2, 3]))
    ['ab', 'b']
    """
    text = "".join(map(chr, code_points.tolist()))
    bounds = offsets.tolist()
    return [text[bounds[w]:bounds[w + 1]] for w in range(len(bounds) - 1)]
