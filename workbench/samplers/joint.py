"""Appendix A.1 made numerical: plain Markov sampling on a unigram-weighted graph is not the joint.

For a word and a vocabulary with log-probability scores, :func:`unigram_laws` lists every
segmentation with three exact probabilities:

* ``joint`` — ``Π P(t)`` normalised over the word's segmentations (what ULM ranks by);
* ``markov`` — a plain Markov walk choosing arcs with ``P(t) / Z_i`` (Eq. 51);
* ``rejection`` — Appendix B's sampler (:class:`.rejection.UnigramRejectionSampler`):
  the Markov walk accepted with ``Π Z_i / c2``, which equals ``joint``.

Exact by enumeration (for words with few segmentations); this module samples nothing.

Example
-------
>>> from workbench import Vocabulary
>>> v = Vocabulary(["a", "b", "ab", "ba"], scores=[-1.0, -1.0, -1.5, -3.0])
>>> table = unigram_laws("aba", v)
>>> [row["tokens"] for row in table]
[('a', 'b', 'a'), ('a', 'ba'), ('ab', 'a')]
>>> max(abs(r["rejection"] - r["joint"]) for r in table) < 1e-12
True
>>> max(abs(r["markov"] - r["joint"]) for r in table) > 0.01
True
"""

from __future__ import annotations

import math

from .._core.errors import ArgumentTypeError
from ..lattice import SegmentationError, check_vocab, check_word, enumerate_segmentations
from ..vocab import Vocabulary

#: Largest number of segmentations :func:`unigram_laws` enumerates.
MAX_SEGMENTATIONS = 20_000


def unigram_laws(word: str, vocab: Vocabulary) -> list[dict]:
    """Every segmentation of ``word`` with its joint, Markov and rejection probabilities.

    Parameters
    ----------
    word : str
        In the vocabulary's alphabet.
    vocab : Vocabulary
        Finite, with ``scores`` = natural-log unigram probabilities.

    Returns
    -------
    list of dict
        Keys ``tokens``, ``joint``, ``markov``, ``rejection``, ``log_joint``, ``z_product``
        (``Π Z_i`` along the path), in lexicographic order of token lengths.
    """
    word = check_word(word)
    vocab = check_vocab(vocab)
    if vocab.is_infinite or vocab.scores is None:
        raise ArgumentTypeError("unigram_laws needs a finite vocabulary with scores")
    segs = enumerate_segmentations(word, vocab, limit=MAX_SEGMENTATIONS)
    if not segs or segs == [()] and word:
        raise SegmentationError(f"no segmentation of {word!r} under this vocabulary")
    score = dict(zip(vocab.tokens, vocab.scores.tolist()))
    n = len(word)
    live = [set() for _ in range(n + 1)]  # arcs on some complete path
    for seg in segs:
        pos = 0
        for t in seg:
            live[pos].add(pos + len(t))
            pos += len(t)
    z = [sum(math.exp(score[word[i:j]]) for j in live[i]) for i in range(n + 1)]
    rows = []
    for seg in segs:
        pos, log_joint, log_markov, log_z = 0, 0.0, 0.0, 0.0
        for t in seg:
            log_joint += score[t]
            log_markov += score[t] - math.log(z[pos])
            log_z += math.log(z[pos])
            pos += len(t)
        rows.append({"tokens": seg, "log_joint": log_joint, "markov": math.exp(log_markov),
                     "z_product": math.exp(log_z)})
    top = max(r["log_joint"] for r in rows)
    total = sum(math.exp(r["log_joint"] - top) for r in rows)
    c2 = max(r["z_product"] for r in rows)
    accept = [r["markov"] * r["z_product"] / c2 for r in rows]
    for r, a in zip(rows, accept):
        r["joint"] = math.exp(r["log_joint"] - top) / total
        r["rejection"] = a / sum(accept)
    return rows
