"""Exact expected unigram counts of GRaMPa (``workbench.grampa.expectations``).

Against: the enumeration of :meth:`Grampa.distribution`; the plain reference
``naive.expectations`` (exact Fractions where 1/τ is an integer); large samples of the
sampler and of the multiplexer (fixed seeds, bounds stated below); and on the shipped
word-count table, identities that hold exactly (τ = 1 is direction-free with ℓ_min = 1; the
total is Σ c_w E[m_w]).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import expectations as naive

from workbench import Grampa, Multiplexer, SegmentationError, Vocabulary, datasets
from workbench._core.validate import BudgetError
from workbench.grampa import expected_efficiency, expected_token_counts
from workbench.metrics import renyi_efficiency
from workbench.segmenters import default_segmenter, longest_match

EXACT_ATOL = 1e-12  # per unit of word count: kernel vs enumeration / Fractions
Z_MAX = 5.0  # sampled count vs expectation, in (upper-bounded) standard deviations
EFF_TOL = 5e-3  # |sampled − exact| Rényi efficiency at >= 5·10^4 sampled tokens
TAUS = [1.0, 2.5, -0.5, 0.3, math.inf, -math.inf]


def _by_token(expected: np.ndarray, vocab: Vocabulary) -> dict[str, float]:
    return {t: float(expected[i]) for t, i in zip(vocab.tokens, vocab.ids.tolist())
            if expected[i] != 0.0}


def _assert_close(got: dict, ref: dict, scale: float) -> None:
    assert set(got) == {t for t, v in ref.items() if v != 0}
    for t, v in ref.items():
        assert abs(got[t] - float(v)) <= EXACT_ATOL * scale, (t, got[t], v)


def _table(rng: np.random.Generator, n_words: int = 4):
    """Random words over 'ab'/'abc' and a vocabulary of every character plus some substrings."""
    alphabet = "abc"[: rng.integers(2, 4)]
    words = {"".join(rng.choice(list(alphabet), size=int(rng.integers(1, 9))))
             for _ in range(n_words)}
    subs = sorted({w[i:j] for w in words for i in range(len(w))
                   for j in range(i + 2, min(len(w), i + 4) + 1)})
    vocab = sorted(set(alphabet) | {s for s in subs if rng.random() < 0.5})
    return {w: int(rng.integers(1, 1000)) for w in sorted(words)}, vocab


# --------------------------------------------------------------------------- exactness
@pytest.mark.parametrize("direction", ["l2r", "r2l"])
@pytest.mark.parametrize("ell_min", [1, 2])
@pytest.mark.parametrize("tau", TAUS)
def test_matches_enumeration_of_distribution(tau, ell_min, direction):
    rng = np.random.default_rng(12)
    for _ in range(6):
        counts, tokens = _table(rng)
        vocab = Vocabulary(tokens)
        g = Grampa(vocab, tau, ell_min, direction)
        ref: dict[str, float] = {}
        for word, c in counts.items():
            for seg, prob in g.distribution(word).items():
                for t in seg:
                    ref[t] = ref.get(t, 0.0) + c * prob
        got = _by_token(expected_token_counts(counts, vocab, tau, ell_min, direction), vocab)
        _assert_close(got, ref, sum(counts.values()) * 8)


@pytest.mark.parametrize("direction", ["l2r", "r2l"])
@pytest.mark.parametrize("tau", [1, -1, Fraction(1, 2), math.inf])
@pytest.mark.parametrize("ell_min", [1, 2, 3])
def test_matches_exact_fraction_reference(tau, ell_min, direction):
    rng = np.random.default_rng(3)
    for _ in range(5):
        counts, tokens = _table(rng)
        ref = naive.expected_token_counts(counts, set(tokens), tau, ell_min, direction,
                                          exact=True)
        vocab = Vocabulary(tokens)
        got = _by_token(expected_token_counts(counts, vocab, float(tau), ell_min, direction),
                        vocab)
        _assert_close(got, ref, sum(counts.values()) * 8)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tau=st.sampled_from(TAUS), ell_min=st.integers(1, 3),
       direction=st.sampled_from(["l2r", "r2l"]), p=st.sampled_from([0.0, 0.25, 1.0]))
def test_random_tables_match_reference(seed, tau, ell_min, direction, p):
    counts, tokens = _table(np.random.default_rng(seed), n_words=5)
    vocab = Vocabulary(tokens)
    det = default_segmenter(vocab)
    ref = naive.expected_token_counts(counts, set(tokens), tau, ell_min, direction, p=p,
                                      deterministic=det)
    got = _by_token(expected_token_counts(counts, vocab, tau, ell_min, direction, p=p,
                                          deterministic=det), vocab)
    _assert_close(got, ref, sum(counts.values()) * 8)


def test_ids_follow_the_vocabulary_and_gaps_stay_zero():
    vocab = Vocabulary(["ab", "a", "b"], ids=[7, 2, 4])
    e = expected_token_counts({"ab": 6}, vocab)
    assert e.shape == (8,)
    assert e.tolist() == [0, 0, 3.0, 0, 3.0, 0, 0, 3.0]


def test_total_is_counts_times_expected_number_of_tokens():
    vocab = datasets.load_vocabulary("ulm-8k")
    words = {vocab.to_alphabet(" " + w): 10 + k for k, w in
             enumerate(datasets.english_words(200))}
    for tau, ell_min, direction in [(1.0, 1, "l2r"), (4.0, 2, "r2l"), (-3.0, 3, "l2r")]:
        g = Grampa(vocab, tau, ell_min, direction)
        want = sum(c * float(g.law(w).expected_tokens) for w, c in words.items())
        got = expected_token_counts(words, vocab, tau, ell_min, direction).sum()
        assert got == pytest.approx(want, rel=1e-12)


# --------------------------------------------------------------------------- sampling
def _sampled(vocab: Vocabulary, segmentations) -> np.ndarray:
    out = np.zeros(int(vocab.ids.max()) + 1)
    for seg in segmentations:
        for t in seg:
            out[vocab.id_of(t)] += 1
    return out


def _assert_sample_agrees(sampled: np.ndarray, words: dict, vocab: Vocabulary,
                          **kwargs) -> None:
    """Sampled counts against the exact expectation ``E`` of ``expected_token_counts(words,
    vocab, **kwargs)``.

    Variance bound: token ``t`` occurs at most ``m = len(w) // len(t)`` times in word ``w``,
    so Var(N) ≤ E[N²] ≤ m · E[N] per occurrence and ``B_t = Σ_w c_w m E_w[N_t]`` bounds
    Var(S_t). Then every ``z_t = |S_t − E_t| / √B_t < Z_MAX``; ``X = Σ z_t²`` (mean ≤ K, the
    number of tokens with ``E_t > 0``) stays below ``K + 5√(2K)``; a token with ``E_t = 0``
    is never sampled; Rényi efficiencies agree within EFF_TOL. (This detects a swapped
    direction by z ≈ 300 and τ = 2 sampled for τ = 1 by X, on the cases below.)
    """
    expected = expected_token_counts(words, vocab, **kwargs)
    length = np.zeros(expected.size, dtype=np.int64)
    length[vocab.ids] = [len(t) for t in vocab.tokens]
    bound = np.zeros(expected.size)
    for w, c in words.items():
        e = expected_token_counts({w: c}, vocab, **kwargs)
        nz = e > 0
        bound[nz] += (len(w) // length[nz]) * e[nz]
    assert not sampled[expected == 0.0].any()
    pos = expected > 0
    z = np.abs(sampled[pos] - expected[pos]) / np.sqrt(bound[pos])
    k = int(pos.sum())
    assert z.max() < Z_MAX, float(z.max())
    assert (z**2).sum() < k + 5 * math.sqrt(2 * k)
    for a in (1.0, 2.5):
        assert abs(renyi_efficiency(sampled, a, len(vocab))
                   - renyi_efficiency(expected, a, len(vocab))) < EFF_TOL


@pytest.mark.slow
@pytest.mark.parametrize("tau, ell_min, direction",
                         [(1.0, 1, "l2r"), (3.0, 2, "r2l"), (-2.0, 2, "l2r")])
def test_agrees_with_large_samples(tau, ell_min, direction):
    vocab = datasets.load_vocabulary("ulm-8k")
    rng = np.random.default_rng(0)
    words = {vocab.to_alphabet(" " + w): int(c) for w, c in
             zip(datasets.english_words(300, min_length=4), rng.integers(50, 1000, size=300))}
    occurrences = [w for w, c in words.items() for _ in range(c)]
    ids, _ = Grampa(vocab, tau, ell_min, direction, seed=7).encode_flat(occurrences)
    sampled = np.bincount(ids, minlength=int(vocab.ids.max()) + 1).astype(float)
    assert sampled.sum() > 1e5
    _assert_sample_agrees(sampled, words, vocab, tau=tau, ell_min=ell_min,
                          direction=direction)


@pytest.mark.slow
@pytest.mark.parametrize("p", [0.0, 0.3, 0.8])
def test_multiplexed_agrees_with_multiplexer_samples(p):
    vocab = datasets.load_vocabulary("ulm-8k")
    words = {vocab.to_alphabet(" " + w): 40 + (k % 7) * 30 for k, w in
             enumerate(datasets.english_words(400, min_length=3))}
    det = functools.cache(default_segmenter(vocab))  # Viterbi once per distinct word
    occurrences = [w for w, c in words.items() for _ in range(c)]
    mux = Multiplexer(det, Grampa(vocab, 1.0, 2, seed=5), p=p, seed=6)
    sampled = _sampled(vocab, mux.tokenize_batch(occurrences))
    assert sampled.sum() > 5e4
    _assert_sample_agrees(sampled, words, vocab, tau=1.0, ell_min=2, p=p, deterministic=det)


# --------------------------------------------------------------------------- multiplexing
def test_multiplexing_is_linear_in_p():
    vocab = Vocabulary(["a", "b", "c", "ab", "bc", "abc"])
    counts = {"abc": 5, "cab": 2, "bcab": 3}
    det = lambda w: longest_match(w, vocab)  # noqa: E731
    e1 = expected_token_counts(counts, vocab, 2.0)
    e0 = expected_token_counts(counts, vocab, 2.0, p=0.0, deterministic=det)
    assert e0.tolist() == _sampled(vocab, [det(w) for w, c in counts.items()
                                           for _ in range(c)]).tolist()
    for p in (0.1, 0.5, 0.9):
        ep = expected_token_counts(counts, vocab, 2.0, p=p, deterministic=det)
        np.testing.assert_allclose(ep, p * e1 + (1 - p) * e0, rtol=0, atol=1e-12)
    # p = 1 ignores the deterministic tokeniser
    assert expected_token_counts(counts, vocab, 2.0, p=1.0, deterministic=det).tolist() \
        == e1.tolist()


def test_deterministic_output_is_checked():
    vocab = Vocabulary(["a", "b", "ab"])
    with pytest.raises(ValueError, match="concatenating to the word"):
        expected_token_counts({"ab": 1}, vocab, p=0.5, deterministic=lambda w: ["a"])
    with pytest.raises(ValueError, match="not a token of the vocabulary"):
        expected_token_counts({"ab": 1}, Vocabulary(["a", "b"]), p=0.5,
                              deterministic=lambda w: [w])
    with pytest.raises(ValueError, match="needs a deterministic"):
        expected_token_counts({"ab": 1}, vocab, p=0.5)
    with pytest.raises(TypeError, match="callable"):
        expected_token_counts({"ab": 1}, vocab, p=0.5, deterministic="ab")


# --------------------------------------------------------------------------- errors, edges
@pytest.mark.parametrize("direction", ["l2r", "r2l"])
def test_unsegmentable_word_raises_naming_it(direction):
    vocab = Vocabulary(["a", "b", "ab"])
    with pytest.raises(SegmentationError, match="abxb"):
        expected_token_counts({"ab": 3, "abxb": 1}, vocab, direction=direction)


def test_unsegmentable_word_in_a_later_block_raises():
    vocab = Vocabulary(["a", "b"])
    words = [format(k, "015b").replace("0", "a").replace("1", "b") for k in range(20_000)]
    counts = dict.fromkeys(words, 1)  # more than one kernel block before the bad word
    counts["abq"] = 1
    with pytest.raises(SegmentationError, match="abq"):
        expected_token_counts(counts, vocab)


def test_empty_table_gives_zeros_and_no_efficiency():
    vocab = Vocabulary(["a", "b", "ab"])
    e = expected_token_counts({}, vocab)
    assert e.tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="no positive count"):
        expected_efficiency({}, vocab)


@pytest.mark.parametrize("bad, exc", [
    ({"ab": 0}, ValueError), ({"ab": 1.5}, TypeError), ({"": 1}, ValueError),
    ({3: 1}, TypeError), (["ab"], TypeError),
])
def test_bad_tables_are_refused(bad, exc):
    with pytest.raises(exc):
        expected_token_counts(bad, Vocabulary(["a", "b"]))


@pytest.mark.parametrize("kwargs, exc", [
    ({"tau": 0.0}, ValueError), ({"tau": "1"}, TypeError), ({"ell_min": 0}, ValueError),
    ({"direction": "up"}, ValueError), ({"p": 1.5}, ValueError), ({"p": None}, TypeError),
])
def test_bad_arguments_are_refused(kwargs, exc):
    with pytest.raises(exc):
        expected_token_counts({"ab": 1}, Vocabulary(["a", "b"]), **kwargs)


def test_infinite_vocabulary_is_refused():
    with pytest.raises(TypeError, match="finite vocabulary"):
        expected_token_counts({"ab": 1}, Vocabulary.infinite())


def test_budget_is_checked_before_allocating():
    vocab = Vocabulary(["a", "b"], ids=[0, 2**31 - 2])  # a 16 GiB count array
    with pytest.raises(BudgetError, match="expected_token_counts"):
        expected_token_counts({"ab": 1}, vocab)


def test_reads_a_count_file(tmp_path):
    path = tmp_path / "words.tsv"
    path.write_text("ab\t4\nba\t2\n", encoding="utf-8")
    vocab = Vocabulary(["a", "b", "ab"])
    assert expected_token_counts(path, vocab).tolist() == \
        expected_token_counts({"ab": 4, "ba": 2}, vocab).tolist()


# --------------------------------------------------------------------------- shipped table
@pytest.mark.slow
def test_shipped_word_counts_identities():
    vocab = datasets.load_vocabulary("ulm-8k")
    counts = {vocab.to_alphabet(" " + w): c for w, c in datasets.load_word_counts().items()}
    l2r = expected_token_counts(counts, vocab, 1.0, 1, "l2r")
    r2l = expected_token_counts(counts, vocab, 1.0, 1, "r2l")
    np.testing.assert_allclose(l2r, r2l, rtol=1e-9, atol=0)  # τ = 1: uniform either way
    skewed = expected_token_counts(counts, vocab, 5.0, 1, "l2r")
    eff = [renyi_efficiency(e, 2.5, len(vocab)) for e in (l2r, skewed)]
    assert 0.0 < eff[0] < eff[1] < 1.0  # §6.3: skewing towards longer tokens raises E_α
