"""Intrinsic metrics of a tokenisation, computed from its unigram counts (or its sequences).

* :mod:`~workbench.metrics.unigram` — unigram count tables from tokenised text, validated
  into arrays;
* :mod:`~workbench.metrics.entropy` — Shannon and Rényi entropy (every α ≥ 0, ∞ included,
  stable at α → 1) and Rényi efficiency;
* :mod:`~workbench.metrics.frequency` — percentile frequency F_{γ1,γ2} and mean sequence
  length.

Definitions follow Cognetta, Zouhar, Moon, Okazaki, *Two Counterexamples to Tokenization and
the Noiseless Channel* (LREC-COLING 2024, arXiv:2402.14614), §3, and agree with the
``tokenization-scorer`` package where that package is right (see ``tests/metrics``).

Example
-------
>>> from workbench.metrics import renyi_efficiency, shannon_entropy
>>> shannon_entropy({"a": 1, "b": 1})
1.0
>>> round(renyi_efficiency([4, 3, 2, 1], 3.0), 4)
0.8305
"""

from .entropy import renyi_efficiency, renyi_entropy, shannon_entropy
from .frequency import percentile_frequency, sequence_length
from .unigram import count_array, unigram_counts

__all__ = [
    "count_array",
    "percentile_frequency",
    "renyi_efficiency",
    "renyi_entropy",
    "sequence_length",
    "shannon_entropy",
    "unigram_counts",
]
