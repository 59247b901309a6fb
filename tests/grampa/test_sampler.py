"""GRaMPa sampler against the plain references in ``naive.py`` and against closed forms."""

from __future__ import annotations

import math
import subprocess
import sys
from collections import Counter

import numba
import numpy as np
import pytest
from naive import grampa as naive
from scipy import stats

import workbench as wb
from workbench import Grampa, SegmentationError, Vocabulary

PROB_RTOL = 1e-9  # float kernels vs float/Fraction references
P_THRESHOLD = 1e-3  # statistical tests fail below this p-value (fixed seeds)
TV_MAX = 0.01  # total-variation bound at 10^5 samples
TAUS = [1.0, 5.0, -10.0, math.inf, -math.inf, 0.5]
INF = Vocabulary.infinite()



def _m_pmf(g: Grampa, word: str) -> np.ndarray:
    """P(m = k) for k = 0..len(word) from the one token-count law, ``g.law(word)``."""
    pmf = g.law(word).token_count_pmf()
    return np.array([pmf.get(k, 0.0) for k in range(len(word) + 1)])

def _random_case(rng: np.random.Generator, n_max: int = 12):
    alphabet = "abc"[: rng.integers(2, 4)]
    n = int(rng.integers(1, n_max + 1))
    word = "".join(rng.choice(list(alphabet), size=n))
    subs = {word[i:j] for i in range(n) for j in range(i + 1, min(n, i + 4) + 1)}
    vocab = set(alphabet) | {s for s in sorted(subs) if rng.random() < 0.4}
    if rng.random() < 0.3:  # sometimes drop a character to create gaps / dead ends
        vocab.discard(str(rng.choice(list(alphabet))))
    return word, sorted(vocab)


def _assert_dist_close(ref: dict, comp: dict) -> None:
    ref = {k: float(v) for k, v in ref.items() if float(v) > 0}
    comp = {k: v for k, v in comp.items() if v > 0}
    assert set(ref) == set(comp)
    for k in ref:
        assert comp[k] == pytest.approx(ref[k], rel=PROB_RTOL, abs=1e-300)


# --------------------------------------------------------------------------- exact laws
@pytest.mark.parametrize("direction", ["l2r", "r2l"])
@pytest.mark.parametrize("ell_min", [1, 2, 3])
@pytest.mark.parametrize("tau", TAUS)
def test_distribution_matches_naive_transition_products(tau, ell_min, direction):
    rng = np.random.default_rng(abs(hash((tau, ell_min, direction))) % 2**32)
    checked = 0
    for _ in range(25):
        word, vocab = _random_case(rng)
        ref_count = len(naive.segmentation_distribution(word, set(vocab), 1.0, ell_min,
                                                        direction))
        g = Grampa(Vocabulary(vocab), tau=tau, ell_min=ell_min, direction=direction, seed=0)
        if ref_count == 0:
            with pytest.raises(SegmentationError):
                g.distribution(word)
            continue
        ref = naive.segmentation_distribution(word, set(vocab), tau, ell_min, direction)
        comp = g.distribution(word)
        _assert_dist_close(ref, comp)
        assert sum(comp.values()) == pytest.approx(1.0, rel=1e-12)
        for seg, p in list(comp.items())[:5]:
            assert g.probability(word, seg) == pytest.approx(p, rel=PROB_RTOL)
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("direction", ["l2r", "r2l"])
def test_uniform_at_tau_one_is_exactly_one_over_n(direction):
    rng = np.random.default_rng(7)
    for _ in range(20):
        word, vocab = _random_case(rng)
        total = naive.count_segmentations(word, set(vocab))
        if total == 0:
            continue
        comp = Grampa(Vocabulary(vocab), direction=direction).distribution(word)
        assert len(comp) == total
        for p in comp.values():
            assert p == pytest.approx(1.0 / total, rel=PROB_RTOL)


@pytest.mark.parametrize("direction", ["l2r", "r2l"])
@pytest.mark.parametrize("ell_min", [1, 2, 3])
@pytest.mark.parametrize("tau", [1.0, 5.0, -10.0, math.inf])
def test_token_count_and_length_pmfs_match_distribution(tau, ell_min, direction):
    rng = np.random.default_rng(11)
    for _ in range(10):
        word, vocab = _random_case(rng)
        ref_dist = naive.segmentation_distribution(word, set(vocab), tau, ell_min, direction)
        if not ref_dist:
            continue
        g = Grampa(Vocabulary(vocab), tau=tau, ell_min=ell_min, direction=direction)
        ref_m = naive.token_count_pmf(ref_dist, len(word))
        np.testing.assert_allclose(_m_pmf(g, word), ref_m, rtol=1e-9, atol=1e-12)
        ref_l = naive.token_length_pmf(ref_dist, len(word))
        np.testing.assert_allclose(g.token_length_pmf(word), ref_l, rtol=1e-9, atol=1e-12)


def test_figure1_arc_probabilities_at_node_4():
    """Figure 1: arcs M, AM, GRAM into node 4 carry 4/7, 2/7, 1/7 (r2l, tau = 1)."""
    vocab = naive.FIGURE1_VOCAB
    ref = naive.transition_probabilities(naive.FIGURE1_WORD, set(vocab), 1.0, 1, "r2l")
    assert ref[(3, 4)] == pytest.approx(4 / 7)
    g = Grampa(Vocabulary(vocab), direction="r2l")
    # P(token ending at node 4 is M | path passes node 4) from the exact distribution
    dist = g.distribution(naive.FIGURE1_WORD)
    assert len(dist) == 16
    through4 = Counter()
    for seg, p in dist.items():
        ends = np.cumsum([len(t) for t in seg])
        if 4 in ends:
            through4[seg[list(ends).index(4)]] += p
    total = sum(through4.values())
    assert {k: v / total for k, v in through4.items()} == pytest.approx(
        {"M": 4 / 7, "AM": 2 / 7, "GRAM": 1 / 7})


@pytest.mark.parametrize("n", [1, 2, 5, 12, 29])
def test_infinite_vocabulary_token_count_is_binomial(n):
    """tau = 1 under the infinite vocabulary: m ~ 1 + Binom(n - 1, 1/2) (§3.1)."""
    ref = np.zeros(n + 1)
    ref[1:] = stats.binom.pmf(np.arange(n), n - 1, 0.5)
    for direction in ("l2r", "r2l"):
        comp = _m_pmf(Grampa(INF, direction=direction), "x" * n)
        np.testing.assert_allclose(comp, ref, rtol=1e-9, atol=1e-15)


# --------------------------------------------------------------------------- sampling
def test_uniform_samples_pass_chi_square():
    word = "abcabcab"
    vocab = ["a", "b", "c", "ab", "bc", "ca", "abc", "bca", "cab"]
    segs = naive.enumerate_segmentations(word, set(vocab))
    g = Grampa(Vocabulary(vocab), seed=12345)
    counts = Counter(tuple(s) for s in g.sample_many(word, 100_000))
    assert set(counts) <= set(segs)
    observed = np.array([counts[s] for s in segs])
    p = stats.chisquare(observed).pvalue
    assert p > P_THRESHOLD, p


@pytest.mark.parametrize("tau,ell_min,direction",
                         [(1.0, 1, "l2r"), (5.0, 2, "r2l"), (-10.0, 1, "l2r"),
                          (math.inf, 3, "r2l")])
def test_sampled_token_counts_match_pmf(tau, ell_min, direction):
    word = "abcabcabcab"
    vocab = Vocabulary(["a", "b", "c", "ab", "bc", "ca", "abc", "bca", "cab", "abca"])
    g = Grampa(vocab, tau=tau, ell_min=ell_min, direction=direction, seed=2024)
    pmf = _m_pmf(g, word)
    lengths, offsets = g.sample_lengths(word, 100_000)
    emp = np.bincount(np.diff(offsets), minlength=pmf.size) / 100_000
    assert 0.5 * np.abs(emp - pmf).sum() < TV_MAX
    # and the pooled token-length law
    emp_len = np.bincount(lengths, minlength=len(word) + 1) / lengths.size
    assert 0.5 * np.abs(emp_len - g.token_length_pmf(word)).sum() < TV_MAX
    # single-sample path (batched kernel) agrees with the same law
    many = g.tokenize_batch([word] * 20_000)
    emp1 = np.bincount([len(s) for s in many], minlength=pmf.size) / 20_000
    assert 0.5 * np.abs(emp1 - pmf).sum() < 3 * TV_MAX


def test_samples_are_valid_segmentations():
    rng = np.random.default_rng(5)
    for _ in range(30):
        word, vocab = _random_case(rng)
        if naive.count_segmentations(word, set(vocab)) == 0:
            continue
        for ell_min in (1, 2, 3):
            for direction in ("l2r", "r2l"):
                allowed = set(naive.segmentation_distribution(word, set(vocab), 1.0, ell_min,
                                                              direction))
                g = Grampa(Vocabulary(vocab), tau=-3.0, ell_min=ell_min, direction=direction,
                           seed=1)
                for seg in g.sample_many(word, 50) + g.tokenize_batch([word] * 50):
                    assert tuple(seg) in allowed


def test_encode_ids_match_tokens():
    vocab = Vocabulary(["a", "b", "c", "ab", "bc", "abc"], ids=[10, 11, 12, 20, 21, 30])
    words = ["abc", "", "cab", "bcabca", "a"]
    for direction in ("l2r", "r2l"):
        ids, offsets = Grampa(vocab, direction=direction, seed=3).encode_flat(words)
        toks = Grampa(vocab, direction=direction, seed=3).tokenize_batch(words)
        assert offsets.tolist() == np.cumsum([0] + [len(t) for t in toks]).tolist()
        assert ids.tolist() == [vocab.id_of(t) for seg in toks for t in seg]


def test_seed_gives_same_result_and_different_seeds_differ():
    words = ["abcabcabcabc"] * 200
    vocab = Vocabulary(["a", "b", "c", "ab", "bc", "ca", "abc"])
    a = Grampa(vocab, seed=99).tokenize_batch(words)
    b = Grampa(vocab, seed=99).tokenize_batch(words)
    c = Grampa(vocab, seed=100).tokenize_batch(words)
    assert a == b and a != c
    rng_a = Grampa(vocab, seed=np.random.default_rng(5)).sample_lengths(words[0], 50)
    rng_b = Grampa(vocab, seed=np.random.default_rng(5)).sample_lengths(words[0], 50)
    assert all(np.array_equal(x, y) for x, y in zip(rng_a, rng_b))


def test_results_do_not_depend_on_thread_count():
    vocab = Vocabulary(["a", "b", "c", "ab", "bc", "ca", "abc"])
    words = ["abcabcab"[: 1 + k % 8] for k in range(1000)]
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = (Grampa(vocab, seed=4).encode_flat(words), Grampa(vocab, seed=4).sample_lengths(
            "abcabcabcabc", 3000))
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = (Grampa(vocab, seed=4).encode_flat(words), Grampa(vocab, seed=4).sample_lengths(
            "abcabcabcabc", 3000))
    finally:
        numba.set_num_threads(before)
    for x, y in zip(one, many):
        assert np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1])


@pytest.mark.slow  # two fresh interpreters import the package (6 s alone)
def test_seed_reproducible_across_processes():
    code = (
        "import workbench as wb;"
        "v = wb.Vocabulary(['a','b','c','ab','bc','abc']);"
        "print(wb.Grampa(v, tau=-2.0, seed=7).tokenize_batch(['abcabcabc']*5));"
        "print(wb.Grampa(wb.Vocabulary.infinite(), seed=7).sample_lengths('x'*12, 4)[0].tolist())"
    )
    outs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout for _ in range(2)]
    assert outs[0] == outs[1]
    v = Vocabulary(["a", "b", "c", "ab", "bc", "abc"])
    here = str(Grampa(v, tau=-2.0, seed=7).tokenize_batch(["abcabcabc"] * 5))
    assert outs[0].splitlines()[0] == here


# --------------------------------------------------------------------------- ell_min, numerics
def test_ell_min_unreachable_arcs_do_not_block_fallback():
    """The reference implementation divides by zero here; we must return ('ab', 'c')."""
    vocab = Vocabulary(["ab", "bc", "c"])
    for direction in ("l2r", "r2l"):
        for tau in TAUS:
            g = Grampa(vocab, tau=tau, ell_min=2, direction=direction, seed=0)
            assert g.sample("abc") == ["ab", "c"]
            assert g.distribution("abc") == {("ab", "c"): 1.0}
            assert wb.count_segmentations("abc", vocab, ell_min=2, direction=direction) == 1


def test_segmentable_words_always_sample_for_every_tau_and_ell_min():
    rng = np.random.default_rng(8)
    for _ in range(40):
        word, vocab = _random_case(rng, n_max=10)
        segmentable = naive.count_segmentations(word, set(vocab)) > 0
        for ell_min in (1, 2, 3, 5):
            for tau in (1.0, -0.5, math.inf):
                g = Grampa(Vocabulary(vocab), tau=tau, ell_min=ell_min, seed=0)
                if segmentable:
                    assert "".join(g.sample(word)) == word
                else:
                    with pytest.raises(SegmentationError):
                        g.sample(word)


def test_long_words_sample_without_overflow():
    rng = np.random.default_rng(0)
    vocab_tokens = sorted({"".join(rng.choice(list("abcde"), size=k)) for k in range(1, 7)
                           for _ in range(300)} | set("abcde"))
    vocab = Vocabulary(vocab_tokens)
    word = "".join(rng.choice(list("abcde"), size=10_000))
    for tau in (1.0, -10.0, 0.2):
        seg = Grampa(vocab, tau=tau, seed=1).sample(word)
        assert "".join(seg) == word and all(t in vocab for t in seg)
    g = Grampa(INF, tau=1.0, seed=1)
    lengths, offsets = g.sample_lengths("z" * 2000, 20)
    assert lengths.sum() == 2000 * 20
    m = np.diff(offsets)  # 1 + Binom(1999, 1/2): mean 1000.5, sd ~ 22
    assert np.all(np.abs(m - 1000.5) < 8 * math.sqrt(1999) / 2)
    for tau in (-10.0, 0.1, -0.05):
        pmf = _m_pmf(Grampa(INF, tau=tau), "z" * 300)
        assert np.all(np.isfinite(pmf)) and pmf.sum() == pytest.approx(1.0)
        assert len(Grampa(INF, tau=tau, seed=2).sample("z" * 2000)) >= 1


def test_l2r_is_the_mirror_of_r2l():
    rng = np.random.default_rng(21)
    for _ in range(15):
        word, vocab = _random_case(rng)
        if naive.count_segmentations(word, set(vocab)) == 0:
            continue
        for tau, ell_min in ((1.0, 1), (5.0, 2), (-10.0, 3)):
            l2r = Grampa(Vocabulary(vocab), tau=tau, ell_min=ell_min).distribution(word)
            mirror = Grampa(Vocabulary([t[::-1] for t in vocab]), tau=tau, ell_min=ell_min,
                            direction="r2l").distribution(word[::-1])
            flipped = {tuple(t[::-1] for t in reversed(seg)): p for seg, p in mirror.items()}
            _assert_dist_close(flipped, l2r)


def test_empty_word():
    g = Grampa(Vocabulary(["a"]), seed=0)
    assert g.sample("") == []
    assert g.distribution("") == {(): 1.0}
    assert g.law("").token_count_pmf() == {0: 1.0}
    ids, offsets = g.encode_flat(["", "a", ""])
    assert ids.tolist() == [0] and offsets.tolist() == [0, 0, 1, 1]


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("kwargs,error", [
    ({"tau": 0.0}, ValueError), ({"tau": float("nan")}, ValueError), ({"tau": "1"}, TypeError),
    ({"tau": True}, TypeError), ({"ell_min": 0}, ValueError), ({"ell_min": -2}, ValueError),
    ({"ell_min": 1.5}, TypeError), ({"direction": "up"}, ValueError),
    ({"seed": -1}, ValueError), ({"seed": "x"}, TypeError),
])
def test_bad_constructor_arguments(kwargs, error):
    with pytest.raises(error):
        Grampa(Vocabulary(["a"]), **kwargs)


def test_bad_words():
    g = Grampa(Vocabulary(["a", "b"]), seed=0)
    with pytest.raises(SegmentationError, match=r"'x'.*position 1"):
        g.sample("axb")
    with pytest.raises(SegmentationError, match="position 2"):
        g.encode_flat(["ab", "abx"])
    with pytest.raises(TypeError):
        g.sample(b"ab")
    with pytest.raises(TypeError):
        g.tokenize_batch("ab")
    with pytest.raises(TypeError):
        g.tokenize_batch(["a", 3])
    with pytest.raises(ValueError):
        g.sample_lengths("ab", -1)
    with pytest.raises(TypeError):
        Grampa(INF).encode_flat(["ab"])
    with pytest.raises(ValueError):
        Grampa(INF).sample("x" * (wb.grampa.MAX_INFINITE_LENGTH + 1))
    with pytest.raises(ValueError):
        Grampa(INF).distribution("x" * 40)
    assert g.probability("ab", ["a", "x"]) == 0.0
    assert g.probability("ab", ["ab"]) == 0.0  # not a token
    assert g.sample_many("ab", 0) == []


def test_probability_refuses_tokens_given_as_one_str():
    """``probability("ab", "ab")`` read the str as ``["a", "b"]`` and answered its
    probability; one str is refused, any sequence of str read."""
    g = Grampa(Vocabulary(["a", "b", "ab"]))
    for tokens in ("ab", "a", b"ab"):
        with pytest.raises(wb.ArgumentTypeError, match="tokens must be a sequence of tokens"):
            g.probability("ab", tokens)
    assert g.probability("ab", ("a", "b")) == g.probability("ab", ["a", "b"]) > 0.0
    assert g.probability("ab", ["ab"]) == g.law("ab").probability(("ab",)) > 0.0


@pytest.mark.parametrize("direction", ["l2r", "r2l"])
@pytest.mark.parametrize("tau", [1.0, 5.0, -10.0, math.inf, 0.5])
def test_fast_kernel_draws_the_same_samples_as_the_general_kernel(tau, direction):
    """The fused float-count path and the log-space path consume the same streams in the
    same order, so for one seed they return identical samples (ties at rounding aside)."""
    rng = np.random.default_rng(3)
    for _ in range(10):
        word, vocab = _random_case(rng)
        if naive.count_segmentations(word, set(vocab)) == 0:
            continue
        for ell_min in (1, 2):
            words = [word] * 200
            fast = Grampa(Vocabulary(vocab), tau=tau, ell_min=ell_min, direction=direction,
                          seed=17)._batch(words, fast=True)
            slow = Grampa(Vocabulary(vocab), tau=tau, ell_min=ell_min, direction=direction,
                          seed=17)._batch(words, fast=False)
            for a, b in zip(fast, slow):
                assert np.array_equal(a, b)


@pytest.mark.parametrize("tau", [5.0, -10.0, 0.01, -0.01])
def test_power_table_edges_agree_with_general_kernel(tau):
    """Counts above the c ** alpha table (4096) and |alpha| above its bound (80) take pow();
    every branch must draw the same samples as the log-space kernel."""
    vocab = Vocabulary(["a", "b", "ab", "ba", "aba", "bab", "abab"])
    word = "ab" * 12  # path counts reach the tens of thousands
    assert wb.count_segmentations(word, vocab) > 4096
    fast = Grampa(vocab, tau=tau, seed=8)._batch([word] * 300, fast=True)
    slow = Grampa(vocab, tau=tau, seed=8)._batch([word] * 300, fast=False)
    for a, b in zip(fast, slow):
        assert np.array_equal(a, b)


def test_ten_thousand_characters_with_a_real_vocabulary():
    """A 10,000-character stretch of Shakespeare as one string under the shipped 8k ULM
    vocabulary: valid samples for skewed and uniform τ, and finite exact laws."""
    from workbench import datasets as data

    vocab = data.load_vocabulary("ulm-8k")
    text = " ".join(data.load_text("shakespeare").split())[:10_000]
    word = vocab.to_alphabet(text)
    assert len(word) == 10_000
    for tau, ell_min, direction in ((1.0, 1, "l2r"), (-10.0, 2, "r2l"), (5.0, 3, "l2r")):
        g = Grampa(vocab, tau=tau, ell_min=ell_min, direction=direction, seed=0)
        seg = g.sample(word)
        assert "".join(seg) == word and all(t in vocab for t in seg)
        ids, offsets = g.encode_flat([word])
        assert offsets.tolist() == [0, len(ids)]
        assert "".join(vocab.decode_ids(ids)) == word
    m = np.diff(Grampa(vocab, seed=1).sample_lengths(word, 50)[1])
    assert np.all(m > 0)
    # exact counts at this length are astronomically large but finite as Python ints
    assert wb.count_segmentations(word, vocab).bit_length() > 1000


def test_serial_small_batches_equal_parallel_large_batches():
    """Small calls run the chunk kernels serially, large ones in parallel: word w (sample s)
    uses stream w (s) either way, so a prefix of a large call equals the small call."""
    vocab = Vocabulary(["a", "b", "c", "ab", "bc", "ca", "abc"])
    n_words = 2 * wb.grampa.sampler._PARALLEL_MIN_WORDS
    words = ["abcabcab"[: 1 + k % 8] * (1 + k % 3) for k in range(n_words)]
    for fast in (True, False):
        big = Grampa(vocab, tau=-2.0, seed=5)._batch(words, fast=fast)
        small = Grampa(vocab, tau=-2.0, seed=5)._batch(words[:50], fast=fast)
        n_chars = int(small[0][-1])
        assert np.array_equal(big[3][:50], small[3])
        assert np.array_equal(big[1][:n_chars], small[1][:n_chars])
        assert np.array_equal(big[2][:n_chars], small[2][:n_chars])
    word = "abc" * 10
    big_l, big_o = Grampa(vocab, seed=6).sample_lengths(word, 5000)  # parallel
    small_l, small_o = Grampa(vocab, seed=6).sample_lengths(word, 40)  # serial
    assert np.array_equal(big_o[:41], small_o)
    assert np.array_equal(big_l[: small_o[-1]], small_l)


def test_the_old_token_count_spellings_warn_and_agree_with_the_law():
    """Issue 37 item 5: ``Grampa.token_count_pmf(word)`` (an array, by GRaMPa's own forward
    DP) and ``expected_token_count(word)`` keep working for one release, with a warning
    naming ``law(word)``; their values are the law's."""
    g = Grampa(Vocabulary(["a", "b", "c", "ab", "bc", "ca", "abc"]), tau=-3.0, ell_min=2)
    word = "abcabcab"
    with pytest.warns(DeprecationWarning, match=r"law\(word\)\.token_count_pmf\(\)"):
        old = g.token_count_pmf(word)
    np.testing.assert_allclose(old, _m_pmf(g, word), rtol=1e-12, atol=1e-15)
    with pytest.warns(DeprecationWarning, match=r"law\(word\)\.expected_tokens"):
        mean = g.expected_token_count(word)
    assert mean == pytest.approx(float(g.law(word).expected_tokens), rel=1e-12)
