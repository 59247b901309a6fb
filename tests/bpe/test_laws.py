"""BPE-dropout's exact law (workbench/bpe/laws.py, BPESampler.law) under the kernel's semantics.

Brute force: :func:`tests.naive.laws.bpe_dropout_coins` branches on every coin the kernel's
scan draws (exact Fractions). Sampling: fixed seeds, Pearson chi-square (cells of expected
count < 5 lumped into one) passing when p > :data:`P_MIN`.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction as F

import numpy as np
import pytest
from hangguard import hang_guard
from naive import laws as naive

from workbench import BPESampler, Vocabulary
from workbench._core.validate import BudgetError
from workbench.bpe import BPEModel
from workbench.bpe import laws as bpe_laws
from workbench.datasets import resolve_vocabulary
from workbench.laws import SegmentationLaw
from workbench.stats import chisquare_lumped

P_MIN = 1e-4

MERGE_SETS = [
    [("a", "b"), ("ab", "c"), ("b", "c"), ("a", "bc"), ("c", "a")],
    [("a", "a"), ("aa", "a"), ("a", "b"), ("aa", "aa"), ("b", "a")],
    [("b", "a"), ("a", "b"), ("ab", "ab"), ("ba", "b"), ("a", "ba")],
]
WORDS = ["abcabc", "aaaaab", "abab", "aabaab", "babab", "cabca", "abcab", "a", "abababab"]


def _ranks(merges):
    return {pair: (r, pair[0] + pair[1]) for r, pair in enumerate(merges)}


def _applicable(word, merges):
    return set(word) <= {c for pair in merges for part in pair for c in part}


@pytest.mark.parametrize("merges", MERGE_SETS)
@pytest.mark.parametrize("p", [F(0), F(1, 3), F(1, 2), F(9, 10), F(1)])
def test_law_equals_every_coin_sequence_exactly(merges, p):
    for word in WORDS:
        if not _applicable(word, merges):
            continue
        law = bpe_laws.dropout_law(tuple(word), _ranks(merges), p)
        ref, _ = naive.bpe_dropout_coins(word, merges, p)
        law = {tuple(s): m for s, m in law.items() if m}
        assert law == ref, word
        assert sum(law.values()) == 1
        if 0 < p < 1:  # every reachable state is counted, and reached
            states = bpe_laws.count_states(tuple(word), _ranks(merges), len(word))
            assert states >= len(law)


@pytest.mark.parametrize("merges", MERGE_SETS)
@pytest.mark.parametrize("p", [0.0, 0.1, 0.5, 1.0])
def test_compiled_route_equals_the_python_propagation(merges, p):
    for word in WORDS:
        if not _applicable(word, merges) or len(word) < 2:
            continue
        fast = bpe_laws.fast_dropout_law(tuple(word), _ranks(merges), p, len(word))
        slow = bpe_laws.dropout_law(tuple(word), _ranks(merges), p)
        # same sums in the same order: equal floats, not close ones
        assert fast == {s: m for s, m in slow.items() if m}
        exact = bpe_laws.dropout_law(tuple(word), _ranks(merges), F(p))
        for s, m in fast.items():
            assert m == pytest.approx(float(exact[s]), rel=1e-12)


def test_compiled_law_comes_in_segmentation_law_order():
    """split_law hands the law over sorted as SegmentationLaw sorts it (ties included)."""
    merges = MERGE_SETS[1]
    for word in ["aaaaaaaab", "abababab", "aabaabaab"]:
        if not _applicable(word, merges):
            continue
        states = bpe_laws.fast_dropout_states(tuple(word), _ranks(merges), 0.5, len(word))
        items, odd, used = states.split_law()
        pairs = list(items.items())
        assert pairs == sorted(pairs, key=lambda sp: (-sp[1], len(sp[0]), sp[0]))
        assert len({m for _, m in pairs}) < len(pairs)  # there are ties to order
        assert odd == {} and used == {t for seg in items for t in seg}
        assert len(items) == len(pairs) and items[pairs[-1][0]] == pairs[-1][1]
        assert items.to_dict() == dict(pairs)
        # a suspect span sends every state through it to the second law
        items2, odd2, _ = states.split_law(suspect=[(0, 1)])
        assert set(odd2) == {s for s in items if s[0] == word[0]}
        assert {**items2.to_dict(), **odd2} == items.to_dict()


def test_sampler_law_on_a_small_vocabulary_matches_brute_force_and_samples():
    v = Vocabulary(["a", "b", "c", "ab", "abc", "bc", "ca"],
                   scores=[-9.0, -9.0, -9.0, -1.0, -2.0, -3.0, -4.0])
    s = BPESampler(v, dropout=0.25, seed=12)
    merges = [(a, b) for a, b in [("a", "b"), ("ab", "c"), ("b", "c"), ("c", "a")]]
    word = "abcabca"
    law = s.law(word)
    ref, _ = naive.bpe_dropout_coins(word, merges, F(1, 4))
    assert set(law.probabilities()) == set(ref)
    for seg, p in ref.items():
        assert float(law.probability(seg)) == pytest.approx(float(p), rel=1e-12)
    assert law.deterministic == tuple(BPESampler(v).sample(word))
    assert law.n_segmentations is not None
    counts = Counter(map(tuple, s.sample_many(word, 20000)))
    assert set(counts) <= set(law.probabilities())
    probs = np.array([float(p) for p in law.probabilities().values()])
    observed = np.array([counts[x] for x in law.probabilities()], dtype=float)
    assert chisquare_lumped(observed, probs)[1] > P_MIN


@pytest.fixture(scope="module")
def gpt2():
    return BPESampler(resolve_vocabulary("gpt2"), dropout=0.1, model=BPEModel.from_gpt2(),
                      seed=2026)


def test_gpt2_tokenization(gpt2):
    word = "Ġtokenization"
    raw = tuple(b" tokenization")
    assert bpe_laws.count_states(raw, gpt2._ranks, gpt2._longest) == 1566
    law = gpt2.law(word)
    assert law.support_size == 1566 and law.failure_mass == 0
    assert law.deterministic == ("Ġtoken", "ization") == law.mode
    # the "about 0.80" under Provilkov's reference semantics
    assert float(law.probability(["Ġtoken", "ization"])) == pytest.approx(0.79605, abs=1e-5)
    slow = bpe_laws.dropout_law(raw, gpt2._ranks, 0.1)  # the Python propagation agrees
    tokens = gpt2._sym_tokens
    for state, p in slow.items():
        assert float(law.probability([tokens[x] for x in state])) == pytest.approx(p, rel=1e-12)
    counts = Counter(map(tuple, gpt2.sample_many(word, 20000)))
    assert set(counts) <= set(law.probabilities())
    probs = np.array([float(p) for p in law.probabilities().values()])
    observed = np.array([counts[x] for x in law.probabilities()], dtype=float)
    assert chisquare_lumped(observed, probs)[1] > P_MIN
    # the test can fail: the same samples against the law at p = 0.12
    other = BPESampler(gpt2.vocab, dropout=0.12, model=gpt2.model).law(word)
    probs = np.array([float(other.probability(x)) for x in law.probabilities()])
    assert chisquare_lumped(observed, probs)[1] < P_MIN



def test_gpt2_array_law_equals_the_mapping_route(gpt2):
    """The array-backed law BPESampler.law builds equals the mapping-backed one, in order."""
    word = "Ġtokenization"
    law = gpt2.law(word)
    states = bpe_laws.fast_dropout_states(tuple(b" tokenization"), gpt2._ranks, 0.1,
                                          gpt2._longest)
    items, odd, _ = states.split_law(gpt2._sym_tokens.__getitem__)
    assert odd == {}
    ref = SegmentationLaw(word, items.to_dict(), deterministic=law.deterministic,
                          n_segmentations=law.n_segmentations)
    assert law.mode == ref.mode and law.support_size == ref.support_size
    assert law.shannon_entropy(math.e) == pytest.approx(ref.shannon_entropy(math.e), rel=1e-12)
    assert law.token_count_pmf() == pytest.approx(ref.token_count_pmf(), rel=1e-12)
    assert law.tv_to_uniform == pytest.approx(ref.tv_to_uniform, rel=1e-12)
    assert law.expected_distinct(100) == pytest.approx(ref.expected_distinct(100), rel=1e-12)
    assert law.regularisation_rate == pytest.approx(ref.regularisation_rate, rel=1e-12)
    assert law.probabilities(5) == ref.probabilities(5)
    assert list(law.probabilities().items()) == list(ref.probabilities().items())

def test_gpt2_extremes_and_refusal(gpt2):
    word = "Ġtokenization"
    assert gpt2.reseeded(0).law(word).regularisation_rate == pytest.approx(0.20395, abs=1e-5)
    zero = BPESampler(gpt2.vocab, dropout=0.0, model=gpt2.model).law(word)
    assert zero.probabilities() == {("Ġtoken", "ization"): 1.0}
    one = BPESampler(gpt2.vocab, dropout=1.0, model=gpt2.model).law(word)
    assert one.probabilities() == {tuple(word): 1.0}
    long_word = "Ġantidisestablishmentarianismantidisestablishment"
    with hang_guard(0.01, "refusing the law of a long word before any propagation"), \
            pytest.raises(BudgetError, match=r"needs (at least )?[\d,]+ states"):
        gpt2.law(long_word)


def test_bad_words(gpt2):
    from workbench import SegmentationError

    with pytest.raises(TypeError):
        gpt2.law(None)
    with pytest.raises(SegmentationError):
        gpt2.law("tok\u2581")  # a character outside the byte-level alphabet
    assert gpt2.law("").probabilities() == {(): 1.0}


def test_a_character_split_into_bytes_is_the_failure_mass():
    v = Vocabulary(["a", "é", "aé"], scores=[-2.0, -2.0, -1.0])
    s = BPESampler(v, dropout=0.5, seed=4)
    law = s.law("aé")  # bytes a, c3, a9; merges (c3, a9) → é, then (a, é) → aé
    # first step: (c3, a9) is the only pair: merged w.p. 1/2; then (a, é) w.p. 1/2
    assert law.failure_mass == 0.5
    assert law.probabilities() == {("aé",): 0.25, ("a", "é"): 0.25}
    draws = s.sample_many("aé", 4000)
    broken = sum("\ufffd" in "".join(d) for d in draws)
    assert abs(broken - 2000) < 4 * (4000 * 0.25) ** 0.5


def test_a_long_word_is_refused_at_once():
    """Issue 42: the law of ``"ab" * 500000`` took 53-57 s before refusing (every span of the
    word was built first). Counting now stops at the first prefix past the budget, and the
    whole count's time is checked before it starts."""
    from workbench import BudgetError, datasets
    from workbench.bpe.sampler import BPESampler

    sampler = BPESampler(datasets.load_vocabulary("bpe-8k"), dropout=0.1)
    for word in ["ab" * 500_000, "ab" * 100_000, "ab" * 60]:
        with hang_guard(0.05, f"refusing the law of a {len(word):,}-character word"), \
                pytest.raises(BudgetError, match="states|time budget"):
            sampler.law(word)
    raw = tuple(("ab" * 100_000).encode())
    stopped = bpe_laws.count_states(raw, sampler._ranks, sampler._longest,
                                    stop_above=bpe_laws.MAX_STATES)
    assert bpe_laws.MAX_STATES < stopped < 10**9  # a prefix's count, a lower bound
    word = tuple(b"abababab")
    assert bpe_laws.count_states(word, sampler._ranks, sampler._longest, stop_above=2) > 2
    assert bpe_laws.count_states(word, sampler._ranks, sampler._longest) == \
        bpe_laws.count_states(word, sampler._ranks, sampler._longest, stop_above=10**9)
