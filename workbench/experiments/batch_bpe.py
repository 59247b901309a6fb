"""BatchBPE experiments (Morgan 2024; notebook 08): batch sizes, merge order, stop words, cut-off.

Batch sizes, serial vs batched merge order, stop words and the frequency cut-off against
held-out encoded length, token lengths.

``compute_*`` functions take plain data and return plain data (lists, dicts). Everything
runs on the shipped text in about a second.

This module trains only through :func:`workbench.bpe.train_bpe`, does not read
the large count tables of ``data/`` and draws nothing (:mod:`workbench.figures.batch_bpe` does).

Example
-------
>>> compute_token_lengths(BPEModel([(b"a", b"b")]))
{2: 1}
"""

from __future__ import annotations

from collections import Counter

from .._core.validate import check_int
from ..bpe import BPEModel, split_text, train_bpe

__all__ = [
    "compute_batch_sizes",
    "compute_length_change",
    "compute_merge_order",
    "compute_stop_cutoff",
    "compute_table",
    "compute_token_lengths",
    "encoded_length",
]


def compute_table(text: str) -> dict[str, int]:
    """Chunk→count table of ``text`` under the GPT-4 pattern.

    >>> compute_table("a a a")
    {'a': 1, ' a': 2}
    """
    return dict(Counter(split_text(text)))


def compute_batch_sizes(model: BPEModel) -> list[int]:
    """Merges made by each batch, in order.

    >>> from workbench.bpe import Batch
    >>> compute_batch_sizes(BPEModel([(b"a", b"b")], batches=[Batch(1, 1, ((b"a", b"b"),))]))
    [1]
    """
    return [b.size for b in model.batches]


def compute_merge_order(batched: BPEModel, serial: BPEModel) -> list[int | None]:
    """For each merge of ``batched`` (in order), its position in ``serial`` (None if absent).

    >>> compute_merge_order(BPEModel([(b"a", b"b"), (b"c", b"d")]),
    ...                     BPEModel([(b"c", b"d"), (b"x", b"y")]))
    [None, 0]
    """
    where = {m: k for k, m in enumerate(serial.merges)}
    return [where.get(m) for m in batched.merges]


def encoded_length(model: BPEModel, text: str) -> int:
    """Number of tokens of ``text``.

    >>> encoded_length(BPEModel([(b"a", b"b")]), "abab")
    2
    """
    return len(model.encode(text))


def compute_length_change(table: dict[str, int], held_out: str, vocab_size: int,
                          stop_list_size: int = 0, freq_cutoff: int = 1) -> float:
    """Percent change of the held-out encoded length against ``stop_list_size=0,
    freq_cutoff=1`` (the paper's Figures 4–5, on our data).

    >>> compute_length_change({"ab": 3, "cd": 1}, "ab cd", 257)
    0.0
    """
    base = encoded_length(train_bpe(table, vocab_size, progress=False), held_out)
    model = train_bpe(table, vocab_size, stop_list_size=stop_list_size,
                      freq_cutoff=freq_cutoff, progress=False)
    return 100.0 * (encoded_length(model, held_out) - base) / base


def compute_stop_cutoff(table: dict[str, int], held_out: str, vocab_size: int,
                        stop_list_size: int = 0, freq_cutoff: int = 1,
                        base_length: int | None = None) -> dict:
    """One setting of the stop list and the frequency cut-off against ``(0, 1)`` (§2.1–2.2).

    Trains on ``table`` with ``stop_list_size`` and ``freq_cutoff`` and encodes ``held_out``.
    ``base_length`` is the held-out length under ``(0, 1)`` at the same ``vocab_size``
    (computed when None; pass it to skip the second training when a slider moves).

    Returns
    -------
    dict
        ``stop_list_size``, ``freq_cutoff``, ``chunks_kept`` (chunks seen at least
        ``freq_cutoff`` times, stop words included), ``stop_words`` (the chunks kept out of
        merging, most common first), ``base_length``, ``length`` and ``change_percent``.

    >>> r = compute_stop_cutoff({" ab": 3, " cd": 2, "ab": 1}, " ab cd ab", 258, 1, 2)
    >>> r["stop_words"], r["chunks_kept"], r["base_length"], r["length"], r["change_percent"]
    ([' ab'], 2, 5, 4, -20.0)
    """
    stop_list_size = check_int(stop_list_size, "stop_list_size", minimum=0)
    freq_cutoff = check_int(freq_cutoff, "freq_cutoff", minimum=1)
    if base_length is None:
        base_length = encoded_length(train_bpe(table, vocab_size, progress=False), held_out)
    base_length = check_int(base_length, "base_length", minimum=1)
    model = train_bpe(table, vocab_size, stop_list_size=stop_list_size,
                      freq_cutoff=freq_cutoff, progress=False)
    length = encoded_length(model, held_out)
    return {"stop_list_size": stop_list_size, "freq_cutoff": freq_cutoff,
            "chunks_kept": sum(c >= freq_cutoff for c in table.values()),
            "stop_words": [w.decode("utf-8", errors="replace") if isinstance(w, bytes) else w
                           for w in model.stop_words],
            "base_length": base_length, "length": length,
            "change_percent": 100.0 * (length - base_length) / base_length}


def compute_token_lengths(model: BPEModel) -> dict[int, int]:
    """Histogram of merge-made token lengths in bytes.

    >>> compute_token_lengths(BPEModel([(b"a", b"b"), (b"ab", b"c")]))
    {2: 1, 3: 1}
    """
    return dict(sorted(Counter(len(a + b) for a, b in model.merges).items()))
