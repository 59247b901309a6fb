"""The length-only rejection samplers of §3.2 are the vocabulary samplers, not a second copy.

``markov_rejection_samples`` / ``bit_rejection_samples`` (moved from ``workbench.theory``)
run the kernels of ``samplers/kernels.py``: the Markov one is ``MarkovRejectionSampler`` on
the infinite vocabulary draw for draw; the bit one keeps its own draw (one uniform mask per
trial) but has the law of ``BitRejectionSampler`` at ``p = ½`` under "all strings of at most
L characters", spelled here as the finite vocabulary ``{a, aa, …, a^L}`` on ``a^n``.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from scipy import stats

from workbench import Vocabulary
from workbench._core.validate import BudgetError
from workbench.samplers import BitRejectionSampler, MarkovRejectionSampler, RejectionLimitError
from workbench.samplers.rejection import (
    MAX_EXPECTED_DRAWS,
    bit_rejection_samples,
    markov_rejection_samples,
)

P_MIN = 1e-3


@pytest.mark.parametrize("n", [1, 2, 5, 9])
@pytest.mark.parametrize("seed", [0, 7])
def test_markov_lengths_equal_the_vocabulary_sampler_draw_for_draw(n, seed):
    lengths, offsets, trials = markov_rejection_samples(n, 300, seed=seed)
    sampler = MarkovRejectionSampler(Vocabulary.infinite(), seed=seed)
    ref_lengths, ref_offsets = sampler.sample_lengths("x" * n, 300)
    assert lengths.tolist() == ref_lengths.tolist()
    assert offsets.tolist() == ref_offsets.tolist()
    assert trials.tolist() == sampler.last_trials.tolist()


def test_bit_lengths_have_the_vocabulary_samplers_law():
    n, cap, size = 9, 3, 20_000
    lengths, offsets, _ = bit_rejection_samples(n, cap, size, seed=3)
    ours = Counter(tuple(lengths[offsets[k]:offsets[k + 1]].tolist()) for k in range(size))
    vocab = Vocabulary(["a" * k for k in range(1, cap + 1)])
    theirs = Counter(tuple(map(len, s))
                     for s in BitRejectionSampler(vocab, seed=4).sample_many("a" * n, size))
    keys = sorted(set(ours) | set(theirs))
    table = np.array([[ours[k] for k in keys], [theirs[k] for k in keys]])
    assert all(max(k) <= cap for k in keys)
    assert stats.chi2_contingency(table).pvalue > P_MIN


def test_budget_refusal_is_a_budget_error_before_sampling():
    size = MAX_EXPECTED_DRAWS // math.factorial(12) * 2**11 + 10**6
    with pytest.raises(RejectionLimitError) as err:
        markov_rejection_samples(12, size, seed=0)
    assert isinstance(err.value, BudgetError) and isinstance(err.value, ValueError)
    with pytest.raises(BudgetError):
        bit_rejection_samples(40, 1, 10, seed=0)
