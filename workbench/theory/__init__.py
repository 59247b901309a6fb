"""Exact closed forms of the four papers, one module per paper (pure functions, no sampling).

* :mod:`.grampa` — GRaMPa (Bauwens et al.): uniform-sampling laws (§3.1, App. A.3–A.4),
  rejection costs (§3.2, App. A.5), LOCK keys and their combinatorics (App. C), Algorithm
  3's mixture (§4.6);
* :mod:`.renyi` — Cognetta et al. (2024) §4: Theorem 4.1's condition, Theorems 4.2–4.3's
  gains, Example 2;
* :mod:`.greedtok` — GreedTok: Theorem 1's costs (3 vs 5 tokens per edge word), the
  (1 − 1/e) bound of GreedWMC;
* :mod:`.bpe` — BatchBPE: the merge and vocabulary counts of a training run.

GRaMPa's closed forms are importable from here (as below); the other papers' from their
module. This package does not sample (the rejection samplers are in
:mod:`workbench.samplers.rejection`), implements no paper (:mod:`workbench.grampa`,
:mod:`workbench.bpe`, ...), does not check its claims against the code (that is
:mod:`workbench.checks`, ``python -m workbench verify``) and does not plot.

Example
-------
>>> from workbench.theory import uniform_token_count_pmf, lock_key, markov_rejection_expected_trials
>>> uniform_token_count_pmf(2)
{1: Fraction(1, 2), 2: Fraction(1, 2)}
>>> lock_key([1, 1, 2]), markov_rejection_expected_trials(4)
(4, Fraction(3, 1))
"""

from .grampa.laws import (
    chao_strawderman,
    expected_chars_per_token,
    token_length_count,
    token_length_count_approx,
    token_length_limit_pmf,
    total_token_count,
    total_token_count_approx,
    uniform_segmentality_pmf,
    uniform_token_count_pmf,
    uniform_token_length_pmf,
)

# The old names of the three uniform_* laws: deprecated (warn when called), not in __all__.
from .grampa.laws import segmentality_pmf as segmentality_pmf
from .grampa.laws import token_count_pmf as token_count_pmf
from .grampa.laws import token_length_pmf as token_length_pmf
from .grampa.lock import (
    bit_key,
    bit_unrank,
    lock_f1,
    lock_f1_hyp2f1,
    lock_f2,
    lock_f2_by_partitions,
    lock_key,
    lock_keys,
    lock_unrank,
    multiset_permutation_count,
    multiset_rank,
    multiset_unrank,
    partition_count,
    partition_count_k,
    partitions_before,
    partitions_k,
    partitions_k_recursive,
)
from .grampa.mixture import mix, mixture_entropy, mixture_law
from .grampa.rejection import (
    bit_rejection_expected_trials,
    bounded_composition_count,
    markov_epsilon_full,
    markov_expected_inverse_probability,
    markov_path_probability,
    markov_rejection_expected_trials,
)

__all__ = [
    "bit_key",
    "bit_rejection_expected_trials",
    "bit_unrank",
    "bounded_composition_count",
    "chao_strawderman",
    "expected_chars_per_token",
    "lock_f1",
    "lock_f1_hyp2f1",
    "lock_f2",
    "lock_f2_by_partitions",
    "lock_key",
    "lock_keys",
    "lock_unrank",
    "markov_epsilon_full",
    "markov_expected_inverse_probability",
    "markov_path_probability",
    "markov_rejection_expected_trials",
    "mix",
    "mixture_entropy",
    "mixture_law",
    "multiset_permutation_count",
    "multiset_rank",
    "multiset_unrank",
    "partition_count",
    "partition_count_k",
    "partitions_before",
    "partitions_k",
    "partitions_k_recursive",
    "token_length_count",
    "token_length_count_approx",
    "token_length_limit_pmf",
    "total_token_count",
    "total_token_count_approx",
    "uniform_segmentality_pmf",
    "uniform_token_count_pmf",
    "uniform_token_length_pmf",
]
