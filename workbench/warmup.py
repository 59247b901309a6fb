"""``python -m workbench warmup``: compile every numba kernel once, so later processes start warm.

A small workload runs every public route that reaches a kernel (GRaMPa's three sampling
routes in both directions, the lattice counts, the deterministic segmenters and the
multiplexer, the baseline samplers, the text pipeline, BPE counting/training/encoding,
GreedTok and GreedWMC, the LOCK kernels, the counterexample wrappers). Numba writes each
compiled kernel to its cache (:mod:`workbench._core.config`), keyed on the kernel's own
module and the modules it imports; a later process loads it instead of compiling.

:func:`kernel_report` lists the package's kernels and which of them have a compiled
signature in this process, so a test can assert that the workload reaches every kernel.
After the workload, cache index files of kernels that no longer exist (an edit moved a
function to another line, a module was renamed) and the cache directories of the earlier
whole-package key are removed. Then :func:`fill_kept` fills the course's kept results
(:data:`workbench.experiments.course_kept.FILLS`: what notebooks 07, 09 and 11 read on their
first visit; a fill that fails is reported, not raised) and
:func:`workbench._core.cachedir.prune` removes the kept results, GPT-2 caches and class
tables not used for :data:`~workbench._core.cachedir.MAX_AGE_DAYS` days (the newest of each
name stays). :func:`warmup` says what it is doing through its ``say`` argument (the CLI
prints to stderr).

This module does not decide what is fast (it times its steps only to report them); ``make``
runs it once after installing.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from workbench.vocab import Vocabulary

#: Modules not scanned for kernels: the notebooks' layer and the CLI define none.
_SKIP = ("workbench.figures", "workbench.__main__", "workbench.warmup",
         "workbench.datasets.build")


@dataclass(frozen=True)
class KernelReport:
    """Kernels of the package: every dispatcher, and those compiled in this process."""

    kernels: tuple[str, ...]
    compiled: tuple[str, ...]

    @property
    def missing(self) -> tuple[str, ...]:
        """Kernels (``module.name``) with no compiled signature."""
        done = set(self.compiled)
        return tuple(k for k in self.kernels if k not in done)


def _dispatchers() -> dict[str, object]:
    """``module.name`` → numba dispatcher, for every non-inlined kernel of the package."""
    from numba.core.registry import CPUDispatcher

    found: dict[str, object] = {}
    for info in pkgutil.walk_packages([str(Path(__file__).resolve().parent)], "workbench."):
        if info.name.startswith(_SKIP):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (isinstance(value, CPUDispatcher) and value.__module__ == info.name
                    and value.targetoptions.get("inline", "never") == "never"):
                found[f"{info.name}.{name}"] = value
    return found


def _in_cache(dispatcher) -> bool:
    """Whether the numba cache holds a compiled version of ``dispatcher`` for its current source.

    A kernel called only from other kernels is compiled into them and loaded with them, so
    in a warm process it has no signature of its own; its cache index still says it was
    compiled (numba's index is read through its private cache-file object).
    """
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    try:
        return bool(cache_file._load_index())
    except (AttributeError, OSError, EOFError, ValueError):
        return False


def kernel_report() -> KernelReport:
    """Which kernels of the package are compiled in this process or in the numba cache."""
    kernels = _dispatchers()
    return KernelReport(tuple(sorted(kernels)), tuple(sorted(
        k for k, d in kernels.items() if d.signatures or _in_cache(d))))


def run_workload(say: Callable[[str], None] = lambda line: None) -> None:
    """Call every public route that reaches a kernel once, on tiny inputs (``say``: each
    part's name before it runs)."""
    from workbench import datasets

    vocab = datasets.load_vocabulary("ulm-8k")
    words = [vocab.to_alphabet(" " + w) for w in ("the", "tokenisation", "unbelievably")]
    text = ["The quick brown fox jumps over the lazy dog, doesn't it?", "12 345 6789"]
    say("  GRaMPa, lattices, LOCK keys, rejection samplers")
    _grampa_workload(vocab, words)
    say("  segmenters, text pipeline, baseline samplers, laws")
    _sampler_workload(vocab, words, text)
    say("  BPE counting, training and encoding, counterexamples, GreedTok")
    _text_workload(text)


def _grampa_workload(vocab: Vocabulary, words: list[str]) -> None:
    """GRaMPa's routes (fused, log-space, many, parallel batches), its laws and theory's
    LOCK kernel, the rejection samplers' length-only kernels."""
    from workbench import theory
    from workbench.grampa import Grampa, expected_efficiency, expected_token_counts
    from workbench.lattice import count_segmentations
    from workbench.samplers.rejection import bit_rejection_samples, markov_rejection_samples
    from workbench.vocab import Vocabulary

    long_word = vocab.to_alphabet(" " + "abracadabra" * 8)
    for direction in ("l2r", "r2l"):
        for ell_min in (1, 2):
            g = Grampa(vocab, tau=2.0, ell_min=ell_min, direction=direction, seed=0)
            g.encode_flat(words * 200)  # >= 512 words: the parallel batch kernels
            g.encode_flat([long_word] * 600)
            g.tokenize_batch(words + [long_word])
            g.sample_many(words[1], 4)
            g.sample_lengths(words[1], 4)
            g.sample_lengths(words[1], 1 << 13)  # samples x characters >= 2^16: parallel
            g.token_length_pmf(words[1])
            g.law(words[1]).token_count_pmf()
            g.distribution(words[0])
            count_segmentations(words[1], vocab, ell_min, direction)
    very_long = vocab.to_alphabet(" " + "ab" * 501)  # > params.SHORT_WORD: the log-space route
    Grampa(vocab, seed=0).encode_flat([very_long] * 512)  # its parallel batch kernel
    expected_token_counts({w: 2 for w in words}, vocab, tau=2.0)
    expected_efficiency({w: 2 for w in words}, vocab, tau=2.0)
    infinite = Grampa(Vocabulary.infinite(), tau=-2.0, seed=0)
    infinite.sample("abcdefgh")
    infinite.law("abcdefgh").token_count_pmf()
    ids, offsets = infinite.sample_lengths("abcdefgh", 4)
    theory.lock_keys(ids, offsets, 8)
    markov_rejection_samples(6, 4, seed=0)
    bit_rejection_samples(6, 3, 4, seed=0)


def _sampler_workload(vocab: Vocabulary, words: list[str], text: list[str]) -> None:
    """The deterministic segmenters, the text pipeline and every baseline sampler."""
    from workbench.bpe import BPESampler
    from workbench.grampa import Grampa
    from workbench.pretokenise import TextTokenizer
    from workbench.samplers import (
        BitRejectionSampler,
        MarkovRejectionSampler,
        MaxMatchSampler,
        ULMSampler,
        UnigramRejectionSampler,
    )
    from workbench.segmenters import longest_match, unigram_viterbi

    for segment in (unigram_viterbi, longest_match):
        segment(words[1], vocab)
    TextTokenizer(Grampa(vocab, tau=2.0, seed=0), p=0.5).encode_lines(text, seed=0)
    for sampler in (BPESampler(vocab, dropout=0.1, seed=0),
                    MaxMatchSampler(vocab, dropout=0.1, seed=0),
                    ULMSampler(vocab, nbest=4, alpha=0.5, seed=0),
                    MarkovRejectionSampler(vocab, seed=0),
                    BitRejectionSampler(vocab, seed=0),
                    UnigramRejectionSampler(vocab, seed=0)):
        sampler.tokenize_batch([words[0], vocab.to_alphabet(" cat")])
    BPESampler(vocab, dropout=0.1).law(vocab.to_alphabet(" cat"))  # the compiled law
    for chain in (Grampa(vocab, tau=2.0), MaxMatchSampler(vocab, dropout=0.1),
                  ULMSampler(vocab, nbest=-1, alpha=0.5)):  # lattice.chain_kernels
        law = chain.law(words[1])
        _ = law.shannon_entropy(), law.token_count_pmf(), law.mode, law.kl_to_uniform
    for semantics in ("hf", "sentencepiece", "subword-nmt"):  # bpe._lawkernels, bpe._hfkernel
        BPESampler(vocab, dropout=0.1, semantics=semantics).law(vocab.to_alphabet(" cat"))
    for semantics in ("hf", "sentencepiece", "subword-nmt"):  # bpe._dropout's kernels
        BPESampler(vocab, dropout=0.1, semantics=semantics, seed=0).tokenize_batch([words[0]])


def _text_workload(text: list[str]) -> None:
    """Chunk counting and count tables, BPE training and encoding, the counterexamples,
    GreedTok."""
    from workbench.bpe import BPEModel, train_bpe
    from workbench.bpe.counting import count_chunks
    from workbench.counterexamples import DuplicationBPE, RandomDropBPE
    from workbench.counts import read_counts, write_counts
    from workbench.greedtok import beta_curve, train_greedtok, train_greedwmc

    counts = count_chunks(texts=text * 3, num_threads=1, progress=False)
    with tempfile.TemporaryDirectory() as tmp:  # the numba scans of count tables
        write_counts(counts, Path(tmp) / "counts.tsv")
        read_counts(Path(tmp) / "counts.tsv")
        train_bpe(Path(tmp) / "counts.tsv", 260, progress=False)  # the table read as arrays
    BPEModel.from_gpt2().encode(text[0])  # writes GPT-2's model cache (bpe.gpt2cache)
    for batch in (False, True):
        model = train_bpe(counts, 300, batch=batch, progress=False)
        model.encode(text[0])
        model.encode_batch(text, num_threads=2)
        model.split(text[0])  # the numba pretokeniser
    frequencies = {i: 1 + i for i in range(300)}
    RandomDropBPE(model, frequencies, 20, 5, seed=0).encode(text[0])
    DuplicationBPE(model, frequencies, 20, 5, seed=0).encode(text[0])
    gt = train_greedtok(counts, 8, progress=False)
    gt.encode(text[0])
    train_greedwmc(counts, 8, progress=False)
    beta_curve(counts, 4, progress=False)


def prune_cache(report: KernelReport) -> list[str]:
    """Remove cache files of this checkout's kernels that no longer exist; return them."""
    from workbench._core.config import remove_per_hash_directories

    removed = list(remove_per_hash_directories())
    keep: dict[str, set[str]] = {}
    for dispatcher in _dispatchers().values():
        cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
        path = getattr(cache_file, "_cache_path", None)
        index = getattr(cache_file, "_index_name", None)
        if path and index:
            keep.setdefault(path, set()).add(index.removesuffix(".nbi"))
    for path, stems in keep.items():
        for entry in os.listdir(path):
            stem = entry.split(".nbi")[0] if entry.endswith(".nbi") else entry.rsplit(".", 2)[0]
            if entry.endswith((".nbi", ".nbc")) and stem not in stems:
                os.remove(Path(path) / entry)
                removed.append(str(Path(path) / entry))
    return removed


def fill_kept(say: Callable[[str], None] = lambda line: None) -> list[str]:
    """Make the course's kept results (:data:`~workbench.experiments.course_kept.FILLS`),
    saying each one's time; return the failures (one line each), which are not raised: a
    notebook whose results are missing computes them on its first visit."""
    from workbench.experiments.course_kept import FILLS

    failures = []
    for fill in FILLS:
        say(f"kept results of notebook {fill.notebook}: {fill.what} ...")
        start = time.perf_counter()
        try:
            fill.run()
        except Exception as err:  # noqa: BLE001 -- reported; the notebook computes it itself
            failures.append(f"notebook {fill.notebook}, {fill.what}: "
                            f"{type(err).__name__}: {err}")
            say(f"  failed ({failures[-1]}); the notebook will compute it on its first visit")
        else:
            say(f"  {time.perf_counter() - start:.1f} s")
    return failures


def warmup(say: Callable[[str], None] = lambda line: None, *, kept: bool = True
           ) -> KernelReport:
    """Run the workload, prune stale cache files, fill the course's kept results (unless
    ``kept`` is false), prune stale rebuildable files, and return the kernel report."""
    from workbench._core.cachedir import CACHE_ROOT, prune

    say(f"compiling every kernel into {CACHE_ROOT} (minutes the first time) ...")
    start = time.perf_counter()
    run_workload(say)
    report = kernel_report()
    prune_cache(report)
    say(f"  {time.perf_counter() - start:.1f} s")
    if kept:
        fill_kept(say)
    removed = prune()
    if removed:
        say(f"removed {len(removed)} stale kept or cached files (unused for a while)")
    return report
