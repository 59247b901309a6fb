"""Baseline samplers satisfying :class:`workbench.interfaces.Sampler`, as GRaMPa does.

Each derives from :class:`workbench.wordlevel.TokenSampler` (the word-level verbs ``tokenize``,
``tokenize_batch``, ``encode``, ``encode_batch``, ``encode_flat``, ``encode_code_points``,
``decode``, and ``sample``, ``sample_many``, ``reseeded``) and states its exact ``law``.
Modules in reading order:

* :mod:`.kernels`, :mod:`.rejection` — Markov, bit and unigram rejection samplers (GRaMPa
  paper §2, §3.2, Appendix B) on any vocabulary, with a trial guard, and the length-only
  samplers of §3.2 (``markov_rejection_samples``, ``bit_rejection_samples``);
* :mod:`.joint` — Appendix A.1 made numerical: exact distributions of plain Markov sampling on
  the unigram-weighted graph against the joint unigram probability;
* :mod:`.ulm`, :mod:`.maxmatch` — the stochastic baselines: ULM best / k-best sampling with
  α, MaxMatch and MaxMatch-dropout (BPE and BPE-dropout, built on the BPE model, are
  :class:`workbench.bpe.BPESampler`);
* :mod:`.stochastok` — StochasTok (Sims et al. 2025): random splits of a deterministic
  segmentation's tokens into two vocabulary tokens, with its exact law.

This package does not implement GRaMPa itself (:mod:`workbench.grampa`).
"""

from .joint import unigram_laws
from .maxmatch import MaxMatchSampler
from .rejection import (
    BitRejectionSampler,
    MarkovRejectionSampler,
    RejectionLimitError,
    UnigramRejectionSampler,
    bit_rejection_samples,
    markov_rejection_sample,
    markov_rejection_samples,
)
from .stochastok import StochasTokSampler
from .ulm import ULMSampler

__all__ = [
    "BitRejectionSampler",
    "MaxMatchSampler",
    "MarkovRejectionSampler",
    "RejectionLimitError",
    "StochasTokSampler",
    "ULMSampler",
    "UnigramRejectionSampler",
    "bit_rejection_samples",
    "markov_rejection_sample",
    "markov_rejection_samples",
    "unigram_laws",
]
