"""Lattice kernels (counts, enumeration, Algorithm 1's walked graph) against ``naive``.

Every test computes ``ref`` with the plain-Python reference in ``tests/naive.py`` and
``comp`` with :mod:`workbench`, and compares them exactly.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import pytest
from hangguard import hang_guard
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import grampa as naive

import workbench
from workbench import (
    Lattice,
    SegmentationError,
    Vocabulary,
    count_segmentations,
    enumerate_segmentations,
)
from workbench.lattice import MAX_WORD_LENGTH, arc_table, walked_arcs

DIRECTIONS = ("l2r", "r2l")
HYPOTHESIS = settings(max_examples=300, deadline=None, derandomize=True)


# --------------------------------------------------------------------------- strategies
@st.composite
def vocab_and_word(draw, max_n: int = 12):
    """A small random vocabulary over a 2–3 letter alphabet and a word over the same letters.

    Half the time every single letter is a token, so most words are segmentable.
    """
    letters = draw(st.sampled_from(["ab", "abc"]))
    tokens = draw(st.sets(st.text(letters, min_size=1, max_size=4), min_size=1, max_size=10))
    if draw(st.booleans()):
        tokens = tokens | set(letters)
    word = draw(st.text(letters, max_size=max_n))
    return tokens, word


def vocab_of(tokens) -> Vocabulary:
    return Vocabulary(sorted(tokens))


# naive.FIGURE1_VOCAB: a vocabulary consistent with the caption of Figure 1 (found by a small
# exhaustive search over subsets of the substrings of GRAMPA containing M, AM, GRAM, P and A
# but not RAM): 16 segmentations; in direction r2l, node 4 (after "GRAM") has incoming arcs
# M (from 3), AM (from 2) and GRAM (from 0) carrying 4, 2 and 1 of its 7 paths; the
# sampler's path so far, "P" "A", is 6 -> 5 -> 4.
FIGURE1_WORD = naive.FIGURE1_WORD
FIGURE1_TOKENS = set(naive.FIGURE1_VOCAB)
assert FIGURE1_TOKENS == {"G", "R", "A", "M", "P", "GR", "RA", "AM", "PA", "GRA", "AMP",
                          "GRAM"}


# --------------------------------------------------------------------------- random lattices
@HYPOTHESIS
@given(vocab_and_word())
def test_count_matches_naive(case):
    tokens, word = case
    ref = naive.count_segmentations(word, tokens)
    for direction in DIRECTIONS:
        comp = count_segmentations(word, vocab_of(tokens), 1, direction)
        assert type(comp) is int
        assert comp == ref


@HYPOTHESIS
@given(vocab_and_word())
def test_enumerate_matches_naive(case):
    tokens, word = case
    ref = sorted(naive.enumerate_segmentations(word, tokens))
    for direction in DIRECTIONS:
        comp = enumerate_segmentations(word, vocab_of(tokens), direction=direction)
        assert sorted(comp) == ref
        assert len(comp) == len(set(comp))


@HYPOTHESIS
@given(vocab_and_word())
def test_arc_table_matches_naive(case):
    tokens, word = case
    vocab = Vocabulary(sorted(tokens), ids=[3 * k + 7 for k in range(len(tokens))])
    ref = naive.arcs(word, tokens)
    table = arc_table(word, vocab)
    comp = sorted((j - l, j) for j, l in zip(*np.nonzero(table >= 0)))
    assert comp == ref
    for i, j in ref:
        assert table[j, j - i] == vocab.id_of(word[i:j])
    # the reversed table is the table of the reversed word under the reversed tokens
    ref_rev = naive.arcs(word[::-1], naive.reverse_vocab(tokens))
    table_rev = arc_table(word, vocab, reverse=True)
    assert sorted((j - l, j) for j, l in zip(*np.nonzero(table_rev >= 0))) == ref_rev


@HYPOTHESIS
@given(vocab_and_word(), st.sampled_from([1, 2, 3]), st.sampled_from(DIRECTIONS))
def test_walked_arcs_match_naive(case, ell_min, direction):
    tokens, word = case
    ref = naive.walked_graph(word, tokens, ell_min, direction)
    comp, reach = walked_arcs(word, vocab_of(tokens), ell_min, direction)
    assert comp == sorted(ref)
    assert reach.tolist() == naive.reachable(word, tokens, ell_min, direction)


@HYPOTHESIS
@given(vocab_and_word(), st.sampled_from([1, 2, 3]), st.sampled_from(DIRECTIONS))
def test_walked_graph_counts_match_naive(case, ell_min, direction):
    tokens, word = case
    vocab = vocab_of(tokens)
    ref = naive.count_walked_paths(word, tokens, ell_min, direction)
    comp = count_segmentations(word, vocab, ell_min, direction)
    assert comp == ref
    lattice = Lattice.build(word, vocab, ell_min, direction)
    assert lattice.count == ref
    assert lattice.path_counts == naive.path_counts(word, tokens, ell_min, direction)
    assert lattice.tokens() == [(i, j, word[i:j]) for i, j in lattice.arcs]
    ref_paths = sorted(naive.enumerate_walked_paths(word, tokens, ell_min, direction))
    comp_paths = enumerate_segmentations(word, vocab, ell_min=ell_min, direction=direction)
    assert sorted(comp_paths) == ref_paths


@HYPOTHESIS
@given(vocab_and_word(), st.sampled_from([1, 2, 3]), st.sampled_from(DIRECTIONS))
def test_reference_tau_one_is_uniform_over_walked_paths(case, ell_min, direction):
    """Sanity check of the reference itself: at tau = 1 every walked path has 1/N (§4.2)."""
    tokens, word = case
    ref = naive.count_walked_paths(word, tokens, ell_min, direction)
    comp = naive.segmentation_distribution_exact(word, tokens, 1, ell_min, direction)
    if ref == 0:
        assert comp == {}
    else:
        assert set(comp.values()) == {Fraction(1, ref)}
        assert len(comp) == ref == count_segmentations(word, vocab_of(tokens), ell_min,
                                                        direction)


@HYPOTHESIS
@given(
    vocab_and_word(max_n=9),
    st.sampled_from([1, 2, 3]),
    st.sampled_from(DIRECTIONS),
    st.sampled_from([1.0, -1.0, math.inf, -math.inf, 5.0, -10.0, 0.3]),
)
def test_reference_probabilities_are_normalised(case, ell_min, direction, tau):
    """Sanity check of the reference: each node's choice sums to 1, so does every
    distribution, and the float version agrees with the exact one where that exists."""
    tokens, word = case
    ref = naive.count_walked_paths(word, tokens, ell_min, direction)
    comp = naive.segmentation_distribution(word, tokens, tau, ell_min, direction)
    assert len(comp) == ref
    if ref:
        assert math.isclose(sum(comp.values()), 1.0, rel_tol=1e-12)
    probs = naive.transition_probabilities(word, tokens, tau, ell_min, direction)
    assert sorted(probs) == naive.walked_graph(word, tokens, ell_min, direction)
    side = 1 if direction == "r2l" else 0  # r2l chooses among arcs into j, l2r out of i
    for node in {arc[side] for arc in probs}:
        total = sum(p for arc, p in probs.items() if arc[side] == node)
        assert math.isclose(total, 1.0, rel_tol=1e-12)
    if tau in (1.0, -1.0, math.inf, -math.inf):
        exact = naive.segmentation_distribution_exact(word, tokens, tau, ell_min, direction)
        assert exact.keys() == comp.keys()
        assert sum(exact.values()) == (1 if ref else 0)
        for seg, p in exact.items():
            assert math.isclose(float(p), comp[seg], rel_tol=1e-12)


def test_reference_statistics_for_the_infinite_vocabulary():
    """Sanity check of the reference against §3.1's closed forms at tau = 1: the token
    count m satisfies m - 1 ~ Binom(n - 1, 1/2), and over all 2^(n-1) compositions of n
    there are (n - l + 3) 2^(n - l - 2) parts of length l < n (one of length n)."""
    for n in range(1, 9):
        dist = naive.segmentation_distribution_exact("x" * n, "infinite", 1, 1, "r2l")
        ref = [Fraction(0)] + [Fraction(math.comb(n - 1, k - 1), 2 ** (n - 1))
                               for k in range(1, n + 1)]
        comp = naive.token_count_pmf(dist, n)
        assert comp == ref
        parts = [0] + [Fraction((n - l + 3) * 2 ** (n - l), 4) if l < n else 1
                       for l in range(1, n + 1)]
        ref = [p / sum(parts) for p in parts]
        comp = naive.token_length_pmf(dist, n)
        assert comp == ref
        assert naive.expected_token_count(dist) == Fraction(n + 1, 2)
        assert len(dist) == count_segmentations("x" * n, Vocabulary.infinite())


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_reference_sampler_follows_its_distribution(direction):
    tokens, word, tau = FIGURE1_TOKENS, FIGURE1_WORD, 5.0
    ref = naive.segmentation_distribution(word, tokens, tau, 1, direction)
    rng = random.Random(0)
    draws = 4000
    seen: dict[tuple[str, ...], int] = {}
    for _ in range(draws):
        seg = naive.sample(word, tokens, tau, 1, direction, rng)
        seen[seg] = seen.get(seg, 0) + 1
    comp = {seg: k / draws for seg, k in seen.items()}
    assert set(comp) <= set(ref)
    for seg, p in ref.items():
        assert abs(comp.get(seg, 0.0) - p) < 4 * math.sqrt(p * (1 - p) / draws) + 1e-3
    assert naive.sample_path_probability(("GRAM", "PA"), word, tokens, tau, 1, direction) \
        == ref[("GRAM", "PA")]
    assert naive.sample_path_probability(("GRAMPA",), word, tokens, tau, 1, direction) == 0.0


def test_ell_min_one_walked_graph_is_every_arc_on_a_path():
    """With ell_min = 1 the walked graph keeps every arc leaving a reachable node."""
    tokens, word = {"a", "b", "ab", "ba", "bab"}, "ababab"
    for direction in DIRECTIONS:
        ref = naive.walked_graph(word, tokens, 1, direction)
        comp, _ = walked_arcs(word, vocab_of(tokens), 1, direction)
        assert comp == ref == naive.arcs(word, tokens)


# --------------------------------------------------------------------------- infinite vocabulary
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_infinite_vocabulary_counts_all_compositions(direction):
    inf = Vocabulary.infinite()
    rng = random.Random(1)
    for n in range(1, 61):
        word = "".join(rng.choice("xyz") for _ in range(n))
        ref = 1 << (n - 1)
        comp = count_segmentations(word, inf, 1, direction)
        assert comp == ref
    ref = 1 << 2999
    comp = count_segmentations("q" * 3000, inf, 1, direction)
    assert type(comp) is int and comp == ref


def test_infinite_vocabulary_small_words_match_naive():
    inf = Vocabulary.infinite()
    for n in range(0, 9):
        word = "abcdefghi"[:n]
        ref = naive.count_segmentations(word, "infinite")
        comp = count_segmentations(word, inf)
        assert comp == ref
        assert sorted(enumerate_segmentations(word, inf)) == sorted(
            naive.enumerate_segmentations(word, "infinite")
        )


@pytest.mark.parametrize("ell_min", [2, 3, 4])
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_infinite_vocabulary_with_ell_min_matches_naive(ell_min, direction):
    inf = Vocabulary.infinite()
    for n in range(0, 11):
        word = "abcdefghijk"[:n]
        ref = naive.count_walked_paths(word, "infinite", ell_min, direction)
        comp = count_segmentations(word, inf, ell_min, direction)
        assert comp == ref
        ref_arcs = naive.walked_graph(word, "infinite", ell_min, direction)
        comp_arcs, _ = walked_arcs(word, inf, ell_min, direction)
        assert comp_arcs == ref_arcs
        assert Lattice.build(word, inf, ell_min, direction).path_counts == naive.path_counts(
            word, "infinite", ell_min, direction
        )


# --------------------------------------------------------------------------- paper, Figure 1
def test_figure1_grampa():
    vocab = Vocabulary(sorted(FIGURE1_TOKENS))
    lattice = Lattice.build(FIGURE1_WORD, vocab, 1, "r2l")
    ref = naive.path_counts(FIGURE1_WORD, FIGURE1_TOKENS, 1, "r2l")
    comp = lattice.path_counts
    assert comp == ref
    assert ref == [1, 1, 2, 4, 7, 9, 16]
    assert lattice.count == naive.count_segmentations(FIGURE1_WORD, FIGURE1_TOKENS) == 16
    assert count_segmentations(FIGURE1_WORD, vocab) == 16
    # the three arcs into node 4 and their path counts c_3 = 4, c_2 = 2, c_0 = 1 of c_4 = 7
    into4 = sorted((i, FIGURE1_WORD[i:j]) for i, j in lattice.arcs if j == 4)
    assert into4 == [(0, "GRAM"), (2, "AM"), (3, "M")]
    assert [comp[i] for i, _ in into4] == [1, 2, 4] and comp[4] == 7
    # ... chosen with probabilities 1/7, 2/7, 4/7 at tau = 1 (Eq. 2)
    probs = naive.transition_probabilities_exact(FIGURE1_WORD, FIGURE1_TOKENS, 1, 1, "r2l")
    assert {i: probs[(i, 4)] for i, _ in into4} == {
        0: Fraction(1, 7), 2: Fraction(2, 7), 3: Fraction(4, 7)
    }
    assert {FIGURE1_WORD[i:j]: Fraction(comp[i], comp[j]) for i, j in lattice.arcs if j == 4} \
        == {"GRAM": Fraction(1, 7), "AM": Fraction(2, 7), "M": Fraction(4, 7)}
    # the pink path so far: "A" into node 6 from 5, "P" into node 5 from 4
    assert (5, 6) in lattice.arcs and (4, 5) in lattice.arcs
    # all 16 segmentations equally likely at tau = 1
    dist = naive.segmentation_distribution_exact(FIGURE1_WORD, FIGURE1_TOKENS, 1, 1, "r2l")
    assert sorted(dist) == sorted(enumerate_segmentations(FIGURE1_WORD, vocab))
    assert set(dist.values()) == {Fraction(1, 16)}


# --------------------------------------------------------------------------- the ell_min bug
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_ell_min_unreachable_arcs_do_not_block_fallback(direction):
    """{ab, bc, c}, "abc", ell_min = 2: the reference implementation keeps the arc bc
    leaving the unreachable node 1, which blocks the fallback arc c into node 3 (r2l)."""
    tokens, word = {"ab", "bc", "c"}, "abc"
    vocab = vocab_of(tokens)
    ref = naive.enumerate_walked_paths(word, tokens, 2, direction)
    comp = enumerate_segmentations(word, vocab, ell_min=2, direction=direction)
    assert ref == [("ab", "c")]
    assert comp == ref
    assert count_segmentations(word, vocab, 2, direction) == 1
    Lattice.build(word, vocab, 2, direction).require_segmentable()
    ref_p = naive.segmentation_distribution(word, tokens, 1.0, 2, direction)
    assert ref_p == {("ab", "c"): 1.0}


def test_ell_min_bug_graph_shape():
    tokens, word = {"ab", "bc", "c"}, "abc"
    ref = naive.walked_graph(word, tokens, 2, "r2l")
    comp, reach = walked_arcs(word, vocab_of(tokens), 2, "r2l")
    assert comp == ref == [(0, 2), (2, 3)]
    assert reach.tolist() == [True, False, True, True]


# --------------------------------------------------------------------------- byte-level
BYTE_WORDS = ["héllo wörld", " 日本", "😀 ok", "e\u0301e", " naïve café 😀日本"]


def _byte_level_vocab():
    pieces = ["h", "é", "ll", "llo", "o", " w", "ö", "rld", "日", "本", "日本", "😀", "ok",
              " ", "e", "\u0301", "na", "ï", "ve", "caf", "c", "a", "f", "v", "n", "l", "r", "d",
              "w", "k"]
    v0 = Vocabulary(["x"], alphabet="byte-level")
    spelled = {v0.to_alphabet(p) for p in pieces}
    # every single byte-level character of those pieces too (partial UTF-8 sequences)
    spelled |= set("".join(spelled))
    return spelled, Vocabulary(sorted(spelled), alphabet="byte-level")


@pytest.mark.parametrize("word", BYTE_WORDS)
@pytest.mark.parametrize("ell_min", [1, 2])
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_byte_level_words_match_naive(word, ell_min, direction):
    tokens, vocab = _byte_level_vocab()
    spelled = vocab.to_alphabet(word)
    assert len(spelled) == len(word.encode("utf-8"))
    ref = naive.count_walked_paths(spelled, tokens, ell_min, direction)
    comp = count_segmentations(spelled, vocab, ell_min, direction)
    assert comp == ref > 0
    ref_segs = sorted(naive.enumerate_walked_paths(spelled, tokens, ell_min, direction))
    comp_segs = enumerate_segmentations(spelled, vocab, ell_min=ell_min, direction=direction)
    assert sorted(comp_segs) == ref_segs
    for seg in comp_segs:
        assert vocab.from_alphabet("".join(seg)) == word


def test_byte_level_raw_word_is_not_segmentable():
    tokens, vocab = _byte_level_vocab()
    word = "héllo"  # not spelled in the byte-level alphabet: "é" is no byte-level character
    ref = naive.count_segmentations(word, tokens)
    comp = count_segmentations(word, vocab)
    assert comp == ref == 0
    with pytest.raises(SegmentationError, match="to_alphabet") as err:
        Lattice.build(word, vocab).require_segmentable()
    assert "'é'" in str(err.value) and "position 1" in str(err.value)


def test_astral_and_nul_code_points():
    tokens = {"\x00", "a", "\x00a", "😀", "😀😀", "\U0010ffff"}
    word = "\x00a😀😀\U0010ffff\x00"
    ref = naive.count_segmentations(word, tokens)
    comp = count_segmentations(word, vocab_of(tokens))
    assert comp == ref == 4
    assert sorted(enumerate_segmentations(word, vocab_of(tokens))) == sorted(
        naive.enumerate_segmentations(word, tokens)
    )


def test_non_nfc_word_is_segmented_as_given():
    tokens = {"e", "\u0301", "é"}  # precomposed é = U+00E9
    decomposed = "e\u0301"
    ref = naive.enumerate_segmentations(decomposed, tokens)
    comp = enumerate_segmentations(decomposed, vocab_of(tokens))
    assert comp == ref == [("e", "\u0301")]


def test_lone_surrogate_is_an_ordinary_code_point():
    """A Python str may hold a lone surrogate (e.g. from ``surrogateescape``); the token
    exists, so the word must be counted like any other (currently UnicodeEncodeError)."""
    tokens = {"a", "\ud800", "a\ud800"}
    word = "a\ud800"
    ref = naive.count_segmentations(word, tokens)
    comp = count_segmentations(word, vocab_of(tokens))
    assert comp == ref == 2


# --------------------------------------------------------------------------- bad inputs
@pytest.mark.parametrize("ell_min", [1, 2, 3])
@pytest.mark.parametrize("direction", DIRECTIONS)
@pytest.mark.parametrize("vocab", [Vocabulary(["a"]), Vocabulary([]), Vocabulary.infinite()])
def test_empty_word(ell_min, direction, vocab):
    tokens = "infinite" if vocab.is_infinite else set(vocab)
    ref = naive.count_walked_paths("", tokens, ell_min, direction)
    comp = count_segmentations("", vocab, ell_min, direction)
    assert comp == ref == 1
    assert enumerate_segmentations("", vocab, ell_min=ell_min, direction=direction) == [()]
    assert naive.enumerate_segmentations("", tokens) == [()]
    lattice = Lattice.build("", vocab, ell_min, direction)
    assert lattice.count == 1 and lattice.path_counts == [1] and lattice.arcs == []
    lattice.require_segmentable()


@pytest.mark.parametrize("word", [b"abc", None, 5, ["a", "b"], ("a",)])
def test_non_str_word(word):
    vocab = Vocabulary(["a", "b"])
    with pytest.raises(TypeError, match="word must be str"):
        count_segmentations(word, vocab)
    with pytest.raises(TypeError):
        enumerate_segmentations(word, vocab)
    with pytest.raises(TypeError):
        Lattice.build(word, vocab)
    with pytest.raises(TypeError):
        walked_arcs(word, vocab)


@pytest.mark.parametrize("vocab", [{"a", "b"}, ["a", "b"], "infinite", None])
def test_non_vocabulary_rejected(vocab):
    with pytest.raises(TypeError, match="Vocabulary"):
        count_segmentations("ab", vocab)


@pytest.mark.parametrize(
    "ell_min, error", [(0, ValueError), (-1, ValueError), (1.5, TypeError), (True, TypeError),
                       (False, TypeError), ("2", TypeError), (None, TypeError)]
)
def test_bad_ell_min(ell_min, error):
    vocab = Vocabulary(["a", "b"])
    with pytest.raises(error, match="ell_min"):
        count_segmentations("ab", vocab, ell_min)
    with pytest.raises(error, match="ell_min"):
        Lattice.build("ab", vocab, ell_min)
    with pytest.raises(error, match="ell_min"):
        enumerate_segmentations("ab", vocab, ell_min=ell_min)
    with pytest.raises(error, match="ell_min"):
        count_segmentations("ab", Vocabulary.infinite(), ell_min)
    with pytest.raises(ValueError):
        naive.walked_graph("ab", {"a", "b"}, ell_min)


def test_numpy_int_ell_min_accepted():
    tokens = {"a", "b", "ab"}
    ref = naive.count_walked_paths("abab", tokens, 2, "r2l")
    comp = count_segmentations("abab", vocab_of(tokens), np.int64(2), "r2l")
    assert comp == ref


@pytest.mark.parametrize("direction", ["x", "L2R", "", None, "rtl"])
def test_bad_direction(direction):
    vocab = Vocabulary(["a", "b"])
    with pytest.raises(ValueError, match="direction"):
        count_segmentations("ab", vocab, 1, direction)
    with pytest.raises(ValueError, match="direction"):
        Lattice.build("ab", vocab, 1, direction)
    with pytest.raises(ValueError, match="direction"):
        enumerate_segmentations("ab", vocab, direction=direction)
    with pytest.raises(ValueError):
        naive.walked_graph("ab", {"a", "b"}, 1, direction)


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_character_outside_vocabulary(direction):
    tokens = {"a", "b", "ab"}
    vocab = vocab_of(tokens)
    word = "abxab"
    ref = naive.count_segmentations(word, tokens)
    comp = count_segmentations(word, vocab, 1, direction)
    assert comp == ref == 0
    assert enumerate_segmentations(word, vocab, direction=direction) == []
    lattice = Lattice.build(word, vocab, 1, direction)
    assert lattice.count == 0
    with pytest.raises(SegmentationError) as err:
        lattice.require_segmentable()
    msg = str(err.value)
    assert "'x'" in msg and "position 2" in msg and "U+0078" in msg
    assert isinstance(err.value, ValueError)
    assert workbench.SegmentationError is SegmentationError


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_unsegmentable_with_known_characters(direction):
    tokens = {"ab", "b"}  # "a" only occurs inside "ab"
    vocab = vocab_of(tokens)
    word = "aab"
    ref = naive.count_segmentations(word, tokens)
    comp = count_segmentations(word, vocab, 1, direction)
    assert comp == ref == 0
    with pytest.raises(SegmentationError, match=r"'a' at position 0"):
        Lattice.build(word, vocab, 1, direction).require_segmentable()


def test_empty_vocabulary():
    ref = naive.count_segmentations("a", set())
    comp = count_segmentations("a", Vocabulary([]))
    assert comp == ref == 0
    with pytest.raises(SegmentationError, match="'a'.*position 0"):
        Lattice.build("a", Vocabulary([])).require_segmentable()


def test_enumerate_limit():
    inf = Vocabulary.infinite()
    ref = naive.enumerate_segmentations("abcdef", "infinite")
    assert len(ref) == 32
    comp = enumerate_segmentations("abcdef", inf, limit=32)
    assert sorted(comp) == sorted(ref)
    with pytest.raises(ValueError, match="limit"):
        enumerate_segmentations("abcdef", inf, limit=31)
    with pytest.raises(ValueError, match="32"):
        enumerate_segmentations("abcdef", inf, limit=0)
    for bad in (-1, True, 2.0, None):
        with pytest.raises(ValueError, match="limit"):
            enumerate_segmentations("ab", inf, limit=bad)
    # the default limit protects against huge outputs
    with pytest.raises(ValueError, match="limit"):
        enumerate_segmentations("a" * 40, inf)


def test_word_longer_than_limit_refused():
    vocab = Vocabulary(["a"])
    word = "a" * (MAX_WORD_LENGTH + 1)
    with pytest.raises(ValueError, match="limit"):
        count_segmentations(word, vocab)
    with pytest.raises(ValueError, match="limit"):
        count_segmentations(word, Vocabulary.infinite())
    with pytest.raises(ValueError, match="limit"):
        Lattice.build(word, vocab)
    with pytest.raises(ValueError, match="limit"):
        enumerate_segmentations(word, vocab)


def test_infinite_vocabulary_arc_listing_limited():
    with pytest.raises(ValueError, match="4096"):
        walked_arcs("a" * 4097, Vocabulary.infinite())


def test_long_word_counts_quickly(warm_kernels):
    """10,000 characters with a few hundred tokens: exact count in well under 2 s.

    The word is blocks of a segmentable alphabet joined by "|", a token that occurs in no
    other token, so the exact count is the product of the blocks' naive counts.
    """
    rng = random.Random(7)
    letters = "abcdefgh"
    tokens = set(letters) | {"|"}
    while len(tokens) < 400:
        tokens.add("".join(rng.choice(letters) for _ in range(rng.randint(2, 6))))
    pool = sorted(tokens - {"|"})
    blocks, size = [], 0
    while size < 10_000:
        block = "".join(rng.choice(pool) for _ in range(rng.randint(3, 8)))[:24]
        blocks.append(block)
        size += len(block) + 1
    word = "|".join(blocks)[:10_000].rstrip("|")
    blocks = word.split("|")
    assert len(word) >= 9_990
    ref = math.prod(naive.count_segmentations(b, tokens) for b in blocks)
    vocab = vocab_of(tokens)
    for direction in DIRECTIONS:
        with hang_guard(0.05, f"counting a 10,000-character word's segmentations {direction}"):
            comp = count_segmentations(word, vocab, 1, direction)
        assert comp == ref
    with hang_guard(0.01, "the lattice of a 10,000-character word"):
        lattice = Lattice.build(word, vocab, 2, "r2l")
    assert lattice.count > 0


def test_lattice_equality_does_not_raise():
    """Lattice is a dataclass holding a numpy array: ``==`` must give a bool, not raise
    "truth value of an array is ambiguous"."""
    vocab = Vocabulary(["a", "b", "ab"])
    a = Lattice.build("ab", vocab)
    b = Lattice.build("ab", vocab)
    ref = naive.walked_graph("ab", {"a", "b", "ab"})
    assert a.arcs == b.arcs == ref
    assert (a == b) in (True, False)


# --------------------------------------------------------------------------- as text
def test_format_segmentation_writes_the_empty_segmentation_as_a_symbol():
    from workbench.lattice import EMPTY_SEGMENTATION, format_segmentation

    assert EMPTY_SEGMENTATION == "∅"
    assert format_segmentation([]) == format_segmentation(()) == "∅"
    assert format_segmentation(["a"]) == "a"
    assert format_segmentation(("ab", "c", "d")) == "ab | c | d"
    # the empty word's one segmentation, as the library gives it
    assert [format_segmentation(s) for s in enumerate_segmentations("", Vocabulary(["a"]))] \
        == ["∅"]


@pytest.mark.parametrize("direction", DIRECTIONS)
@pytest.mark.parametrize("ell_min", [1, 2])
@pytest.mark.parametrize("word", ["", "ab", "abc", "abd", "dab", "aab", "abcab"])
def test_no_segmentation_reason_is_the_errors_message(word, ell_min, direction):
    from workbench.lattice import no_segmentation_reason

    vocab = Vocabulary(["a", "b", "ab", "bc"])
    lattice = Lattice.build(word, vocab, ell_min, direction)
    reason = no_segmentation_reason(word, vocab, ell_min, direction)
    counts = naive.path_counts(word, {"a", "b", "ab", "bc"}, ell_min, direction)
    if counts[len(word) if direction == "r2l" else 0] > 0:
        assert reason is None
        return
    with pytest.raises(SegmentationError) as err:
        lattice.require_segmentable()
    assert reason == str(err.value) and reason.startswith(f"no segmentation of {word!r}")
    assert no_segmentation_reason(word, vocab, ell_min, direction, spelled=True) == reason


def test_no_segmentation_reason_drops_only_the_alphabet_hint_when_spelled():
    from workbench.lattice import no_segmentation_reason

    tokens, vocab = _byte_level_vocab()
    word = "héllo"
    hinted = no_segmentation_reason(word, vocab)
    plain = no_segmentation_reason(word, vocab, spelled=True)
    assert hinted.endswith(" (words must be in the byte-level alphabet: use to_alphabet)")
    assert plain == ("no segmentation of 'héllo': character 'é' (U+00E9) at position 1 "
                     "occurs in no token")
    assert hinted == plain + " (words must be in the byte-level alphabet: use to_alphabet)"
    with pytest.raises(TypeError):
        no_segmentation_reason(3, vocab)  # type: ignore[arg-type]


def test_enumerate_long_word_with_one_segmentation_is_linear():
    """Fixture named after the bug: 'a' * 100_000 over {'a', 'b'} has one segmentation; the
    old depth-first search copied the prefix tuple at every step (quadratic: minutes)."""
    from workbench import Vocabulary, enumerate_segmentations

    with hang_guard(1.0, "enumerating the one segmentation of 'a' * 100_000"):
        (only,) = enumerate_segmentations("a" * 100_000, Vocabulary(["a", "b"]), limit=1)
    assert only == ("a",) * 100_000


def test_enumerate_refuses_a_huge_count_without_printing_it():
    from workbench import Vocabulary, enumerate_segmentations

    # 2**1999 = 10**601.77: "about 10^602"
    with pytest.raises(ValueError, match=r"length 2,000\) has about 10\^602 segmentations"):
        enumerate_segmentations("a" * 2000, Vocabulary.infinite(), limit=10)
    with pytest.raises(ValueError, match="more than limit=10 segmentations"):
        enumerate_segmentations("a" * 100_000, Vocabulary(["a", "aa"]), limit=10)
