"""SegmentationLaw (workbench/laws.py): validation, exact Fraction summaries, float summaries."""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

from workbench import ArgumentTypeError, InvalidValueError, WorkbenchDeprecationWarning
from workbench.laws import SegmentationLaw

AB = {("ab",): F(3, 4), ("a", "b"): F(1, 4)}


def _law(**kw) -> SegmentationLaw:
    return SegmentationLaw("ab", AB, n_segmentations=2, deterministic=("ab",), **kw)


def test_exact_summaries_by_hand():
    law = _law()
    assert law.exact and law.support_size == 2 and law.failure_mass == 0
    assert law.mode == ("ab",)
    assert list(law.probabilities()) == [("ab",), ("a", "b")]
    assert law.probabilities(limit=1) == {("ab",): F(3, 4)}
    assert law.probability(["a", "b"]) == F(1, 4) and law.probability(["x"]) == 0
    assert law.token_count_pmf() == {1: F(3, 4), 2: F(1, 4)}
    assert law.expected_tokens == F(5, 4)
    h = -(0.75 * math.log(0.75) + 0.25 * math.log(0.25))
    assert law.shannon_entropy(math.e) == pytest.approx(h, rel=1e-15)
    assert law.kl_to_uniform == pytest.approx(math.log(2) - h, rel=1e-12)
    assert law.tv_to_uniform == F(1, 4)
    assert law.regularisation_rate == F(1, 4)
    # 1 - (1/4)^2 + 1 - (3/4)^2
    assert law.expected_distinct(2) == F(15, 16) + F(7, 16)
    assert law.expected_distinct(0) == 0


def test_tv_counts_segmentations_outside_the_support():
    law = SegmentationLaw("ab", {("ab",): F(1)}, n_segmentations=2)
    assert law.tv_to_uniform == F(1, 2)
    assert law.kl_to_uniform == pytest.approx(math.log(2))


def test_failure_mass_conditions_the_summaries():
    law = SegmentationLaw("abcd", {("abc", "d"): F(1, 2)}, failure_mass=F(1, 2),
                          n_segmentations=2, deterministic=("abc", "d"))
    assert law.success_mass == F(1, 2)
    assert law.token_count_pmf() == {2: F(1)}
    assert law.shannon_entropy(math.e) == 0.0
    assert law.regularisation_rate == F(1, 2)
    assert law.tv_to_uniform == F(1, 2)
    assert law.summary()["failure_mass"] == 0.5


def test_always_failing_law():
    law = SegmentationLaw("c", {}, failure_mass=1)
    assert law.mode is None and law.support_size == 0
    with pytest.raises(ValueError, match="always fails"):
        law.shannon_entropy()
    assert "entropy_nats" not in law.summary() and "entropy_bits" not in law.summary()


def test_entropy_is_in_bits_with_a_base_for_other_units():
    """Issue 37 item 5: one entropy, bits by default; the old nats property warns."""
    law = SegmentationLaw("abc", {("a", "bc"): F(1, 4), ("ab", "c"): F(1, 4), ("abc",): F(1, 2)})
    assert law.shannon_entropy() == pytest.approx(1.5, rel=1e-15)  # bits
    assert law.shannon_entropy(math.e) == pytest.approx(1.5 * math.log(2), rel=1e-15)
    assert law.shannon_entropy(4) == pytest.approx(0.75, rel=1e-15)
    summary = law.summary()
    assert summary["entropy_bits"] == law.shannon_entropy()
    assert summary["entropy_nats"] == law.shannon_entropy(math.e)
    for base in (1, 0, -2, math.nan, math.inf, "2"):
        with pytest.raises((ValueError, TypeError)):
            law.shannon_entropy(base)
    with pytest.warns(WorkbenchDeprecationWarning, match=r"shannon_entropy\(\)"):
        assert law.entropy == law.shannon_entropy(math.e)


def test_float_law_and_large_m():
    law = SegmentationLaw("ab", {("ab",): 0.75, ("a", "b"): 0.25}, n_segmentations=2)
    assert not law.exact
    assert law.expected_distinct(2) == pytest.approx(22 / 16, rel=1e-12)
    exact = _law()
    assert exact.expected_distinct(5000) == pytest.approx(2.0)  # float past the exact range
    assert isinstance(exact.expected_distinct(5000), float)
    s = law.summary(top=1)
    assert s["top"] == [{"tokens": ["ab"], "probability": 0.75}]


@pytest.mark.parametrize("probs, kw, err", [
    ({("a", "b"): F(1, 2)}, {}, ValueError),                    # does not sum to 1
    ({("a", "c"): F(1)}, {}, ValueError),                       # does not spell the word
    ({("a", ""): F(1)}, {}, TypeError),                         # empty token
    ({"ab": F(1)}, {}, TypeError),                              # not a tuple
    ({("ab",): float("nan")}, {}, ValueError),
    ({("ab",): -0.5, ("a", "b"): 1.5}, {}, ValueError),
    ({("ab",): "1"}, {}, TypeError),
    ({("ab",): F(1)}, {"failure_mass": 2}, ValueError),
    ({("ab",): F(1, 2), ("a", "b"): F(1, 2)}, {"n_segmentations": 1}, ValueError),
    ({("ab",): F(1)}, {"n_segmentations": 0}, ValueError),
    ({("ab",): F(1)}, {"deterministic": ("b",)}, ValueError),
])
def test_bad_input_is_refused(probs, kw, err):
    with pytest.raises(err):
        SegmentationLaw("ab", probs, **kw)


def test_missing_context_is_a_clear_error():
    law = SegmentationLaw("ab", AB)
    with pytest.raises(ValueError, match="n_segmentations"):
        _ = law.kl_to_uniform
    with pytest.raises(ValueError, match="deterministic"):
        _ = law.regularisation_rate
    with pytest.raises(TypeError):
        SegmentationLaw(b"ab", AB)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        law.probability("ab")
    with pytest.raises(ValueError):
        law.expected_distinct(-1)


# ---------------------------------------------------------------- the array-backed law
ABC_LABELS = ["a", "b", "c", "ab", "bc", "abc"]
ABC_ROWS = [([3, 2], 0.2), ([0, 1, 2], 0.0), ([5], 0.4), ([0, 4], 0.2)]  # scrambled, a zero


def _arrays(rows=ABC_ROWS):
    pieces = np.array([i for ids, _ in rows for i in ids], dtype=np.int64)
    offsets = np.cumsum([0] + [len(ids) for ids, _ in rows]).astype(np.int64)
    return ABC_LABELS, pieces, offsets, np.array([p for _, p in rows])


def test_from_arrays_equals_the_mapping_law():
    kw = {"failure_mass": 0.2, "n_segmentations": 4, "deterministic": ("abc",)}
    law = SegmentationLaw.from_arrays("abc", *_arrays(), **kw)
    ref = SegmentationLaw("abc", {tuple(ABC_LABELS[i] for i in ids): p
                                  for ids, p in ABC_ROWS}, **kw)
    assert not law.exact and law.support_size == ref.support_size == 3
    assert law.mode == ref.mode == ("abc",)
    assert list(law.probabilities(limit=2).items()) == list(ref.probabilities(2).items())
    for seg in [("abc",), ("a", "bc"), ("ab", "c"), ("a", "b", "c"), ("x",), ("ab",), ()]:
        assert law.probability(seg) == ref.probability(seg)
    with pytest.raises(TypeError):
        law.probability("abc")
    assert law.shannon_entropy(math.e) == pytest.approx(ref.shannon_entropy(math.e), rel=1e-12)
    assert law.token_count_pmf() == pytest.approx(ref.token_count_pmf(), rel=1e-12)
    assert list(law.token_count_pmf()) == list(ref.token_count_pmf())
    assert law.expected_tokens == pytest.approx(ref.expected_tokens, rel=1e-12)
    assert law.kl_to_uniform == pytest.approx(ref.kl_to_uniform, rel=1e-12)
    assert law.tv_to_uniform == pytest.approx(ref.tv_to_uniform, rel=1e-12)
    assert law.regularisation_rate == pytest.approx(ref.regularisation_rate, rel=1e-12)
    for m in (0, 3, 5000):
        assert law.expected_distinct(m) == pytest.approx(ref.expected_distinct(m), rel=1e-12)
    a, b = law.summary(2), ref.summary(2)
    assert a.keys() == b.keys() and a["top"] == b["top"] and a["mode"] == b["mode"]
    # the mapping, built on demand, in the same order (ties by the tokens)
    assert list(law.probabilities().items()) == list(ref.probabilities().items())
    assert law.probability(("a", "bc")) == 0.2


def test_from_arrays_refuses_what_the_constructor_refuses():
    labels, pieces, offsets, p = _arrays()
    bad = [({"probabilities": np.array([0.2, 0.0, np.nan, 0.2])}, ValueError),
           ({"probabilities": np.array([0.2, 0.0, 0.5, 0.2])}, ValueError),  # sum
           ({"probabilities": np.array([0.2, -0.1, 0.5, 0.2])}, ValueError),
           ({"probabilities": np.array([0, 0, 1, 0])}, TypeError),
           ({"labels": ["a", "b", "c", "ab", "bc", "ab"]}, ValueError),  # misspelled
           ({"labels": ["a", "b", "c", "ab", "bc", ""]}, TypeError),
           ({"labels": ["a", "b", "c", "ab", "a", "abc"]}, ValueError),  # not distinct
           ({"pieces": np.array([3, 2, 0, 1, 2, 5, 0, 6])}, ValueError),
           ({"offsets": np.array([0, 2, 5, 6, 7])}, ValueError)]
    for change, error in bad:
        args = {"labels": labels, "pieces": pieces, "offsets": offsets, "probabilities": p}
        args.update(change)
        with pytest.raises(error):
            SegmentationLaw.from_arrays("abc", args["labels"], args["pieces"],
                                        args["offsets"], args["probabilities"],
                                        failure_mass=0.2)
    twice = _arrays([([5], 0.5), ([5], 0.5)])
    with pytest.raises(ValueError, match="twice"):
        SegmentationLaw.from_arrays("abc", *twice)
    with pytest.raises(ValueError, match="below the support"):
        SegmentationLaw.from_arrays("abc", *_arrays(), failure_mass=0.2, n_segmentations=2)


def test_from_arrays_past_the_mask_length():
    word = "ab" * 40  # 80 characters: no start masks, the mapping answers probability()
    labels = ["ab", "a", "b", word]
    rows = [([0] * 40, 0.25), ([3], 0.75)]
    pieces = np.array([i for ids, _ in rows for i in ids])
    offsets = np.array([0, 40, 41])
    law = SegmentationLaw.from_arrays(word, labels, pieces, offsets, np.array([0.25, 0.75]))
    assert law.mode == (word,) and law.probability(("ab",) * 40) == 0.25
    assert law.probability(("a", "b") * 40) == 0.0 and law.token_count_pmf() == {1: 0.75, 40: 0.25}
    with pytest.raises(ValueError, match="twice"):
        SegmentationLaw.from_arrays(word, labels, np.array([0] * 40 + [0] * 40),
                                    np.array([0, 40, 80]), np.array([0.5, 0.5]))


@pytest.mark.parametrize("tail", ["", "c" * 70])  # start masks; past them, token ranks
def test_from_arrays_orders_ties_as_the_mapping_law(tail):
    """64 segmentations of a word (every one of its first 7 letters, the tail one token),
    probabilities from 3 values (many ties), labels in no order: the same order as the
    mapping-backed law."""
    word = "abaabba" + tail
    labels = sorted({word[i:j] for i in range(7) for j in range(i + 1, 8)}, key=len)
    labels += [tail] if tail else []
    index = {t: k for k, t in enumerate(labels)}
    segs = []
    for cuts in range(64):
        bounds = [0] + [i for i in range(1, 7) if cuts >> (i - 1) & 1] + [7]
        segs.append(tuple(word[a:b] for a, b in zip(bounds, bounds[1:])) + ((tail,) * bool(tail)))
    rng = np.random.default_rng(5)
    for _ in range(5):
        segs = [segs[i] for i in rng.permutation(64)]
        p = rng.choice([1.0, 2.0, 4.0], size=64)
        p /= p.sum()
        pieces = np.array([index[t] for seg in segs for t in seg])
        offsets = np.cumsum([0] + [len(seg) for seg in segs])
        law = SegmentationLaw.from_arrays(word, labels, pieces, offsets, p)
        ref = SegmentationLaw(word, dict(zip(segs, p.tolist())))
        assert list(law.probabilities().items()) == list(ref.probabilities().items())
        assert law.mode == ref.mode


def test_from_arrays_edge_cases():
    empty = SegmentationLaw.from_arrays("", [], np.array([], dtype=np.int64),
                                        np.array([0, 0]), np.array([1.0]))
    assert empty.probabilities() == {(): 1.0} and empty.probability(()) == 1.0
    assert empty.mode == () and empty.shannon_entropy() == 0.0
    assert empty.token_count_pmf() == {0: 1.0}
    failed = SegmentationLaw.from_arrays("ab", ["a"], np.array([], dtype=np.int64),
                                         np.array([0]), np.array([]), failure_mass=1.0)
    assert failed.support_size == 0 and failed.mode is None and failed.probabilities() == {}
    with pytest.raises(ValueError, match="always fails"):
        _ = failed.shannon_entropy(math.e)


def test_a_law_of_a_long_word_has_a_short_repr_and_any_exact_count():
    """Issue 42: ``repr`` of a long word's law raised (Python's 4,300-digit cap, and a
    100,000-character word in full); a count past int64 was refused as ``n_segmentations``;
    TV to uniform overflowed converting a huge count to float."""
    from workbench import Grampa, Vocabulary

    word = "ab" * 30_000
    law = Grampa(Vocabulary(["a", "b", "ab"])).law(word)
    text = repr(law)
    assert len(text) < 200 and "about 10^" in text and text.startswith("SegmentationLaw('abab")
    big = 2**100
    small = SegmentationLaw("ab", {("ab",): 0.5, ("a", "b"): 0.5}, n_segmentations=big)
    assert small.n_segmentations == big
    assert small.tv_to_uniform == pytest.approx(1.0)  # the support is ~0 of the N
    huge = SegmentationLaw("ab", {("ab",): 1.0}, n_segmentations=10**400)
    assert huge.tv_to_uniform == 1.0 and math.isfinite(huge.kl_to_uniform)
    exact = SegmentationLaw("ab", {("ab",): F(1)}, n_segmentations=10**400)
    assert exact.tv_to_uniform == 1 - F(1, 10**400)


# ---------------------------------------------------------------- one str is no segmentation
HALVES = {("a", "b"): 0.5, ("ab",): 0.5}


def _chain_law():
    from workbench import Grampa, Vocabulary

    return Grampa(Vocabulary(["a", "b", "ab"])).law("ab")


def _array_law():
    return SegmentationLaw.from_arrays("ab", ["a", "b", "ab"], np.array([0, 1, 2]),
                                       np.array([0, 2, 3]), np.array([0.5, 0.5]))


@pytest.mark.parametrize("build", [
    lambda det: SegmentationLaw("ab", HALVES, deterministic=det),
    lambda det: SegmentationLaw.from_chain(_chain_law().chain, deterministic=det),
    lambda det: SegmentationLaw.from_arrays("ab", ["a", "b", "ab"], np.array([0, 1, 2]),
                                            np.array([0, 2, 3]), np.array([0.5, 0.5]),
                                            deterministic=det),
], ids=["init", "from_chain", "from_arrays"])
def test_deterministic_as_one_str_is_refused_not_split(build):
    """``deterministic="ab"`` was read as ``("a", "b")``, silently; the segmentation of one
    token is ``("ab",)``."""
    with pytest.raises(ArgumentTypeError, match=r"deterministic must be a sequence of tokens "
                       r"\(a tuple of str\), not one str 'ab'.*\('ab',\)"):
        build("ab")
    with pytest.raises(ArgumentTypeError, match="deterministic must be a sequence of tokens"):
        build(b"ab")
    with pytest.raises(ArgumentTypeError, match="not int"):
        build(5)
    assert build(("ab",)).deterministic == ("ab",)
    assert build(["a", "b"]).deterministic == ("a", "b")  # any sequence of str
    assert build(("ab",)).regularisation_rate == pytest.approx(0.5)


@pytest.mark.parametrize("law", [lambda: SegmentationLaw("ab", HALVES), _chain_law,
                                 _array_law, lambda: SegmentationLaw("ab", AB)],
                         ids=["float", "chain", "arrays", "exact"])
def test_probability_refuses_one_str_and_reads_any_sequence(law):
    law = law()
    for one in ("ab", "a", b"ab"):
        with pytest.raises(ArgumentTypeError, match="tokens must be a sequence of tokens"):
            law.probability(one)
    assert float(law.probability(["a", "b"])) == float(law.probability(("a", "b"))) > 0
    assert law.probability([["a"], "b"]) == 0 and law.probability((1, 2)) == 0


# ---------------------------------------------------------------- probabilities, in words
@pytest.mark.parametrize("value, why", [
    (float("nan"), "NaN is not a number"), (-0.5, "a probability cannot be negative"),
    (1.5, "a probability cannot exceed 1"), (F(3, 2), "a probability cannot exceed 1"),
])
def test_a_bad_probability_names_its_segmentation_and_why(value, why):
    with pytest.raises(InvalidValueError) as err:
        SegmentationLaw("ab", {("ab",): 0.5, ("a", "b"): value})
    assert str(err.value) == (f"probabilities[('a', 'b')] must be a probability in [0, 1], "
                              f"got {value!r} ({why})")
    with pytest.raises(InvalidValueError, match=rf"failure_mass must be a probability in "
                       rf"\[0, 1\], got .* \({why}\)"):
        SegmentationLaw("ab", {("ab",): 1.0}, failure_mass=value)
    with pytest.raises(ArgumentTypeError, match=r"probabilities\[\('ab',\)\] must be a "
                       r"probability \(a real number in \[0, 1\]\), not str"):
        SegmentationLaw("ab", {("ab",): "1"})


def test_a_bad_array_probability_names_its_index_and_why():
    with pytest.raises(InvalidValueError, match=r"^probabilities\[1\] \(segmentation 1\) must "
                       r"be a probability in \[0, 1\], got nan \(NaN is not a number\)$"):
        SegmentationLaw.from_arrays("ab", ["a", "b", "ab"], np.array([0, 1, 2]),
                                    np.array([0, 2, 3]), np.array([1.0, np.nan]))
