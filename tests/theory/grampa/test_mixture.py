"""Algorithm 3's mixture arithmetic (workbench.theory.grampa.mixture) against direct sums.

The law-level tests (brute force, samples, the callers' identities) are in
``tests/segmenters/test_multiplex_law.py``; here: ``mix`` on numbers, Fractions and arrays,
``mixture_entropy`` against the entropy of the mixed law written out, ``mixture_law`` on a
hand-made law, and bad input.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

from workbench.laws import SegmentationLaw
from workbench.theory import mix, mixture_entropy, mixture_law

#: Float entropies equal the direct sum within this (relative).
REL = 1e-12


def test_mix_is_linear_and_exact():
    assert mix(F(1, 3), F(1, 2), 1) == F(5, 6)
    assert mix(0, 5.0, 2) == 2 and mix(1, 5.0, 2) == 5.0
    out = mix(0.25, np.array([0.5, 0.5, 0.0]), np.array([0.0, 0.0, 1.0]))
    assert out.tolist() == [0.125, 0.125, 0.75]


@pytest.mark.parametrize("p", [0.0, 0.2, 0.5, 1.0])
@pytest.mark.parametrize("law", [[0.5, 0.3, 0.2], [1.0], [0.0, 0.6, 0.4], [0.25] * 4])
def test_mixture_entropy_is_the_entropy_of_the_mixed_law(law, p):
    """``law[0]`` is the stochastic law's mass on the deterministic segmentation."""
    mixed = [p * q for q in law]
    mixed[0] += 1 - p
    for unit, log in (("bits", math.log2), ("nats", math.log)):
        direct = -sum(q * log(q) for q in mixed if q > 0)
        h = -sum(q * log(q) for q in law if q > 0)
        assert mixture_entropy(p, h, law[0], unit=unit) == pytest.approx(direct, rel=REL,
                                                                         abs=1e-15)


def test_mixture_law_of_a_hand_made_law():
    law = SegmentationLaw("abc", {("a", "bc"): F(1, 2), ("ab", "c"): F(1, 4)},
                          failure_mass=F(1, 4), n_segmentations=4)
    out = mixture_law(law, ("abc",), F(1, 2))
    assert out.exact and out.probabilities() == {("abc",): F(1, 2), ("a", "bc"): F(1, 4),
                                                 ("ab", "c"): F(1, 8)}
    assert out.failure_mass == F(1, 8) and out.n_segmentations == 4
    assert out.regularisation_rate == F(1, 2)
    failed = mixture_law(law, None, F(1, 2))
    assert failed.failure_mass == F(5, 8) and failed.deterministic is None
    floats = mixture_law(law, ("a", "bc"), 0.5)
    assert not floats.exact and floats.probability(("a", "bc")) == 0.75


@pytest.mark.parametrize("p,error", [(1.5, ValueError), (-0.1, ValueError),
                                     (float("nan"), ValueError), (True, TypeError),
                                     ("0.5", TypeError), (None, TypeError)])
def test_bad_rates(p, error):
    law = SegmentationLaw("a", {("a",): 1.0})
    for call in (lambda: mix(p, 1.0, 0.0), lambda: mixture_entropy(p, 1.0, 0.5),
                 lambda: mixture_law(law, ("a",), p)):
        with pytest.raises(error):
            call()


def test_bad_law_unit_and_segmentation():
    law = SegmentationLaw("ab", {("ab",): 1.0})
    with pytest.raises(TypeError, match="SegmentationLaw"):
        mixture_law({("ab",): 1.0}, ("ab",), 0.5)
    with pytest.raises(ValueError, match="unit"):
        mixture_entropy(0.5, 1.0, 0.5, unit="dits")
    with pytest.raises(ValueError, match="does not spell"):
        mixture_law(law, ("a",), 0.5)


def test_deterministic_as_one_str_is_refused_not_split():
    """``mixture_law(law, "ab", p)`` read "ab" as ``("a", "b")``; refused, for enumerated and
    chain-backed laws, and by the mixture chain's probability and log_probability."""
    from workbench import ArgumentTypeError, Grampa, Vocabulary

    table = SegmentationLaw("ab", {("ab",): 0.5, ("a", "b"): 0.5})
    chained = Grampa(Vocabulary(["a", "b", "ab"])).law("ab")
    for law in (table, chained):
        with pytest.raises(ArgumentTypeError, match=r"deterministic must be a sequence of "
                           r"tokens \(a tuple of str\), not one str 'ab'"):
            mixture_law(law, "ab", 0.5)
        assert mixture_law(law, ["ab"], 0.5).probability(("ab",)) == pytest.approx(0.75)
    mixed = mixture_law(chained, ("ab",), 0.5).chain
    for method in (mixed.probability, mixed.log_probability):
        with pytest.raises(ArgumentTypeError, match="not one str 'ab'"):
            method("ab")
    assert mixed.probability(["ab"]) == pytest.approx(0.75)


@pytest.mark.parametrize("p, why", [(1.5, "a probability cannot exceed 1"),
                                    (-0.1, "a probability cannot be negative"),
                                    (float("nan"), "NaN is not a number")])
def test_a_bad_rate_says_why_in_words(p, why):
    with pytest.raises(ValueError, match=rf"the multiplexing rate p is a probability and must "
                       rf"be in \[0, 1\], got {p!r} \({why}\)"):
        mix(p, 1.0, 0.0)
