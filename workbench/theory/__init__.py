"""Closed forms of the GRaMPa paper (Bauwens et al.), their exact references and checks.

* :mod:`.laws` — uniform-sampling laws under the infinite vocabulary (§3.1, App. A.3–A.4);
* :mod:`.rejection` — rejection samplers and their expected cost (§3.2, App. A.5);
* :mod:`.lock` — bit keys and length-ordered composition keys (App. C);
* :mod:`.checks` — every claim checked symbolically, exactly and statistically, one module
  per concept registering its checks (``python -m workbench verify``).

This package does not implement GRaMPa itself (see :mod:`workbench.grampa`) and does not
plot (figures live in :mod:`workbench.figures`).

Example
-------
>>> from workbench.theory import token_count_pmf, lock_key, markov_rejection_expected_trials
>>> token_count_pmf(2)
{1: Fraction(1, 2), 2: Fraction(1, 2)}
>>> lock_key([1, 1, 2]), markov_rejection_expected_trials(4)
(4, Fraction(3, 1))
"""

from .checks import CheckResult, all_passed, check_grampa_uniform, format_table, to_frame, verify
from .laws import (
    chao_strawderman,
    expected_chars_per_token,
    segmentality_pmf,
    token_count_pmf,
    token_length_count,
    token_length_count_approx,
    token_length_limit_pmf,
    token_length_pmf,
    total_token_count,
    total_token_count_approx,
)
from .lock import (
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
    partitions_k,
    partitions_k_recursive,
)
from .rejection import (
    bit_rejection_expected_trials,
    bit_rejection_samples,
    bounded_composition_count,
    markov_epsilon_full,
    markov_expected_inverse_probability,
    markov_path_probability,
    markov_rejection_expected_trials,
    markov_rejection_sample,
    markov_rejection_samples,
)

__all__ = [
    "CheckResult",
    "all_passed",
    "bit_key",
    "bit_rejection_expected_trials",
    "bit_rejection_samples",
    "bit_unrank",
    "bounded_composition_count",
    "chao_strawderman",
    "check_grampa_uniform",
    "expected_chars_per_token",
    "format_table",
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
    "markov_rejection_sample",
    "markov_rejection_samples",
    "multiset_permutation_count",
    "multiset_rank",
    "multiset_unrank",
    "partition_count",
    "partitions_k",
    "partitions_k_recursive",
    "segmentality_pmf",
    "to_frame",
    "token_count_pmf",
    "token_length_count",
    "token_length_count_approx",
    "token_length_limit_pmf",
    "token_length_pmf",
    "total_token_count",
    "total_token_count_approx",
    "verify",
]
