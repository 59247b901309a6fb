"""Closed forms of the BatchBPE paper (Morgan 2024): the counts a training run obeys.

* :func:`merge_count` — a vocabulary of ``vocab_size`` tokens holds the 256 bytes, the
  ``stop_list_size`` stop-word tokens (§2.1) and the merges;
* :func:`pairs_searched` — Code Block 1, line 6: a batch examines
  ``min(remaining // cap_divisor, |vocab|, max_batch_size)`` pairs, at least one (§3.5);
* :func:`run_pairs` — the pairs a run of ``L`` equal tokens holds: ``L // 2``
  (BatchBPE's BatchTokenizer, "``aaaaa`` counts as two occurrences", §3.6) or ``L − 1``
  (overlapping counting: minbpe, HF tokenizers).

Pure functions of integers. This module trains nothing (see :mod:`workbench.bpe`);
:mod:`workbench.checks.bpe` checks these numbers against the trainer.

Example
-------
>>> merge_count(1000, 20), pairs_searched(100, 300, 2, 0), run_pairs(5, "nonoverlapping")
(724, 50, 2)
"""

from __future__ import annotations

from .._core.validate import check_choice, check_int

BYTE_TOKENS = 256
"""The byte-level alphabet every vocabulary starts from."""


def merge_count(vocab_size: int, stop_list_size: int = 0) -> int:
    """Merges a run must make: ``vocab_size − 256 − stop_list_size`` (never negative)."""
    vocab_size = check_int(vocab_size, "vocab_size", minimum=BYTE_TOKENS)
    stop_list_size = check_int(stop_list_size, "stop_list_size", minimum=0)
    return max(vocab_size - BYTE_TOKENS - stop_list_size, 0)


def pairs_searched(remaining: int, vocab_len: int, cap_divisor: int = 2,
                   max_batch_size: int = 0) -> int:
    """Code Block 1, line 6: pairs examined for the next batch.

    Parameters
    ----------
    remaining : int
        Merges still to make (``>= 1``).
    vocab_len : int
        Current vocabulary size (bytes, stop words and merges so far).
    cap_divisor : int
        ``>= 1`` (the paper's default 2).
    max_batch_size : int
        Hard cap; ``0`` means none. ``1`` makes training serial.

    >>> pairs_searched(1, 256), pairs_searched(40_000, 300), pairs_searched(40_000, 300, 2, 64)
    (1, 300, 64)
    """
    remaining = check_int(remaining, "remaining", minimum=1)
    vocab_len = check_int(vocab_len, "vocab_len", minimum=1)
    cap_divisor = check_int(cap_divisor, "cap_divisor", minimum=1)
    max_batch_size = check_int(max_batch_size, "max_batch_size", minimum=0)
    num = min(remaining // cap_divisor, vocab_len)
    if max_batch_size:
        num = min(num, max_batch_size)
    return num or 1


def run_pairs(run_length: int, pair_counting: str = "nonoverlapping") -> int:
    """Occurrences of the pair ``(a, a)`` in a run of ``run_length`` tokens ``a`` (§3.6)."""
    run_length = check_int(run_length, "run_length", minimum=1)
    mode = check_choice(pair_counting, "pair_counting", ("nonoverlapping", "overlapping"))
    return run_length // 2 if mode == "nonoverlapping" else run_length - 1
