"""Training recipes the experiments share: serial BPE, batched BPE, SentencePiece ULM, GreedTok.

Each recipe fixes the knobs an experiment trains with, so every notebook, runner and
benchmark that says "our BPE on these chunks" or "a ULM of 256 bytes + k pieces" means the
same model:

* :func:`train_serial_bpe` — :func:`workbench.bpe.train_bpe`, one merge at a time, quiet
  (the Rényi baseline, the efficiency experiment's BPE);
* :func:`train_batched_bpe` — the same with BatchBPE's safe batches and warnings silenced
  (GreedTok's comparison at 256 + k);
* :func:`train_ulm` — SentencePiece's unigram trainer on a count table (256 bytes + k);
* :func:`train_greedtok_quietly` — :func:`workbench.greedtok.train_greedtok` without its
  warnings or progress bar.

This module implements no trainer (``bpe``, ``greedtok`` and SentencePiece do) and caches
nothing (:mod:`.grampa_efficiency` caches its setups).
"""

from __future__ import annotations

import os
import tempfile
import warnings
from collections.abc import Mapping
from typing import Any

from .._core.validate import check_int
from ..bpe import BPEModel, train_bpe
from ..greedtok import GreedTokModel, train_greedtok

__all__ = ["train_batched_bpe", "train_greedtok_quietly", "train_serial_bpe", "train_ulm"]


def train_serial_bpe(chunks: Mapping[str, int], vocab_size: int) -> BPEModel:
    """Our serial BPE (``batch=False``, no progress bar) on a chunk → count table.

    >>> train_serial_bpe({"ab": 3, "b": 1}, 257).merges
    [(b'a', b'b')]
    """
    return train_bpe(dict(chunks), vocab_size, batch=False, progress=False)


def train_batched_bpe(chunks: Mapping[str, int], vocab_size: int) -> BPEModel:
    """BatchBPE's batched training on a chunk → count table, quiet (warnings silenced)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return train_bpe(dict(chunks), vocab_size, progress=False)


def train_greedtok_quietly(counts: Mapping[str, int], k: int) -> GreedTokModel:
    """GreedTok with ``k`` tokens on a chunk → count table, without warnings or progress."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return train_greedtok(counts, k, progress=False)


def train_ulm(counts: Mapping[str, int], k: int, num_threads: int = 1) -> Any:
    """A SentencePiece unigram model with 256 bytes + ``k`` pieces, trained on a count table.

    Byte fallback, identity normalisation, no dummy prefix, pieces of at most 16 characters;
    words holding a tab or newline are left out (the TSV input cannot carry them).
    Returns the loaded ``sentencepiece.SentencePieceProcessor``.
    """
    import sentencepiece as spm

    k = check_int(k, "k", minimum=1)
    num_threads = check_int(num_threads, "num_threads", minimum=1)
    kept = {w: c for w, c in counts.items() if "\t" not in w and "\n" not in w}
    with tempfile.TemporaryDirectory() as tmp:
        tsv = os.path.join(tmp, "counts.tsv")
        with open(tsv, "w", encoding="utf-8") as fh:
            fh.writelines(f"{w}\t{c}\n" for w, c in kept.items())
        prefix = os.path.join(tmp, "ulm")
        spm.SentencePieceTrainer.train(
            input=tsv, input_format="tsv", model_prefix=prefix, model_type="unigram",
            vocab_size=256 + k + 3, byte_fallback=True, character_coverage=1.0,
            add_dummy_prefix=False, normalization_rule_name="identity",
            max_sentencepiece_length=16, minloglevel=2, num_threads=num_threads)
        return spm.SentencePieceProcessor(model_file=prefix + ".model")
