"""The exact laws of BPE-dropout's HF, SentencePiece and subword-nmt semantics
(workbench/bpe/semantics.py) against brute force, and through BPESampler.law.

Brute force (tests/naive/laws.py): each package's procedure written again from its source,
run on every coin sequence (HF, SentencePiece) or every coin vector of every step
(subword-nmt), in exact Fractions, on words of at most 8 characters.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from hangguard import hang_guard
from naive import laws as naive

from workbench import BPESampler, Vocabulary
from workbench._core.validate import BudgetError
from workbench.bpe import BPEModel, _hfkernel, _lawkernels, semantics
from workbench.bpe import laws as bpe_laws
from workbench.datasets import resolve_vocabulary

MERGE_SETS = [
    [("a", "b"), ("ab", "c"), ("b", "c"), ("a", "bc"), ("c", "a")],
    [("a", "a"), ("aa", "a"), ("a", "b"), ("aa", "aa"), ("b", "a")],
    [("b", "a"), ("a", "b"), ("ab", "ab"), ("ba", "b"), ("a", "ba")],
    [("a", "b"), ("b", "c"), ("ab", "c"), ("c", "a"), ("ca", "bc")],
]
WORDS = ["abcabc", "aaaaab", "abab", "aabaab", "babab", "cabca", "abcab", "a", "abababab",
         "aaaaaaaa", "abcabca"]
PS = [F(0), F(1, 3), F(1, 2), F(9, 10), F(1)]
#: HF's coin sequences multiply with its stale entries (``aaaaaa`` has ~10^5, ``abababab``
#: under the third merge set more than 10^7): shorter words, and one of 8 characters below
HF_WORDS = ["abcab", "aaaab", "abab", "babab", "cabca", "a", "bab", "abcabc"]


def _ranks(merges):
    return {pair: (r, pair[0] + pair[1]) for r, pair in enumerate(merges)}


def _piece_ranks(merges):
    """SentencePiece's table: any two halves of a merge's product (rank: its first merge)."""
    first = {}
    for r, (a, b) in enumerate(merges):
        first.setdefault(a + b, r)
    return {(c[:t], c[t:]): (r, c) for c, r in first.items() for t in range(1, len(c))}


def _words(merges, words=WORDS):
    letters = {c for pair in merges for part in pair for c in part}
    return [w for w in words if set(w) <= letters]


@pytest.mark.parametrize("merges", MERGE_SETS)
@pytest.mark.parametrize("p", [F(0), F(1, 3), F(9, 10), F(1)])
def test_hf_law_equals_every_coin_sequence(merges, p):
    for word in _words(merges, HF_WORDS):
        law = semantics.hf_law(tuple(word), _ranks(merges), p)
        ref = naive.every_coin_sequence(naive.hf_run(word, merges), p)
        assert {s: m for s, m in law.items() if m} == ref, word
        assert sum(law.values()) == 1


def test_hf_law_of_an_eight_character_word():
    merges, word, p = MERGE_SETS[1], "abababab", F(1, 3)  # 2 s of brute force
    law = semantics.hf_law(tuple(word), _ranks(merges), p)
    ref = naive.every_coin_sequence(naive.hf_run(word, merges), p)
    assert {s: m for s, m in law.items() if m} == ref


@pytest.mark.parametrize("merges", MERGE_SETS)
@pytest.mark.parametrize("p", PS)
def test_sentencepiece_law_equals_every_coin_sequence(merges, p):
    for word in _words(merges):
        law = semantics.sentencepiece_law(tuple(word), _piece_ranks(merges), p)
        ref = naive.every_coin_sequence(naive.sentencepiece_run(word, merges), p)
        assert {s: m for s, m in law.items() if m} == ref, word
        assert sum(law.values()) == 1


@pytest.mark.parametrize("merges", MERGE_SETS)
@pytest.mark.parametrize("p", PS)
def test_subword_nmt_law_equals_every_coin_vector(merges, p):
    for word in _words(merges):
        law = semantics.subword_nmt_law(tuple(word), _ranks(merges), p)
        ref = naive.subword_nmt_law(word, merges, p)
        assert {s: m for s, m in law.items() if m} == ref, word
        assert sum(law.values()) == 1


def test_the_semantics_differ_where_the_issue_says():
    """The four laws are distinct on these words (each test above can tell them apart)."""
    merges = MERGE_SETS[1]
    p = F(1, 3)
    word = ("a",) * 6 + ("b",)
    laws = {"reference": bpe_laws.dropout_law(word, _ranks(merges), p),
            "hf": semantics.hf_law(word, _ranks(merges), p),
            "sentencepiece": semantics.sentencepiece_law(word, _piece_ranks(merges), p),
            "subword-nmt": semantics.subword_nmt_law(word, _ranks(merges), p)}
    clean = {k: {s: m for s, m in v.items() if m} for k, v in laws.items()}
    assert len({tuple(sorted(v.items())) for v in clean.values()}) == 4
    # subword-nmt equals the reference on a word without a repeated pair
    one = ("c", "a", "b")
    assert (semantics.subword_nmt_law(one, _ranks(MERGE_SETS[0]), p)
            == bpe_laws.dropout_law(one, _ranks(MERGE_SETS[0]), p))


def test_refusals_and_bad_names():
    with pytest.raises(BudgetError, match="more than 10 states"):
        semantics.hf_law(tuple("abababab"), _ranks(MERGE_SETS[2]), 0.5, max_states=10)
    with pytest.raises(BudgetError, match="subsets"):
        semantics.subword_nmt_law(("a", "b") * 20, _ranks([("a", "b")]), 0.5)
    with pytest.raises(ValueError, match="semantics must be one of"):
        semantics.check_semantics("tiktoken")
    with pytest.raises(TypeError):
        semantics.check_semantics(None)


@pytest.mark.parametrize("sem", semantics.SEMANTICS)
def test_sampler_law_on_a_small_vocabulary_matches_brute_force(sem):
    merges = [("a", "b"), ("ab", "c"), ("b", "c"), ("c", "a"), ("a", "bc")]
    v = Vocabulary(["a", "b", "c", "ab", "abc", "bc", "ca"])
    s = BPESampler(v, dropout=0.25, merges=merges, semantics=sem)
    word = "abcabca"
    law = s.law(word)
    q = F(1, 4)
    ref = {"reference": lambda: naive.bpe_dropout_coins(word, merges, q)[0],
           "hf": lambda: naive.every_coin_sequence(naive.hf_run(word, merges), q),
           "sentencepiece": lambda: naive.every_coin_sequence(
               naive.sentencepiece_run(word, merges), q),
           "subword-nmt": lambda: naive.subword_nmt_law(word, merges, q)}[sem]()
    assert set(law.probabilities()) == set(ref)
    for seg, m in ref.items():
        assert float(law.probability(seg)) == pytest.approx(float(m), rel=1e-12)
    assert law.failure_mass == 0
    zero = BPESampler(v, merges=merges, semantics=sem).law(word)
    assert zero.probabilities() == {law.deterministic: 1.0}
    assert BPESampler(v, dropout=1.0, merges=merges, semantics=sem).law(word
                                                                        ).probabilities() \
        == {tuple(word): 1.0}


@pytest.fixture(scope="module")
def gpt2():
    return resolve_vocabulary("gpt2"), BPEModel.from_gpt2()


def test_gpt2_tokenization_under_sentencepiece(gpt2):
    v, model = gpt2
    s = BPESampler(v, dropout=0.1, model=model, semantics="sentencepiece")
    law = s.law("Ġtokenization")
    assert law.support_size == 1566 and law.deterministic == ("Ġtoken", "ization")
    # SentencePiece joins any two halves of a piece: 0.577, not the 0.314 of skipping on
    # GPT-2's merge list alone (the issue's "about 0.31")
    assert float(law.probability(law.deterministic)) == pytest.approx(0.57745, abs=1e-5)
    merges_only = semantics.sentencepiece_law(tuple(b" tokenization"), s._ranks, 0.1)
    assert max(merges_only.values()) == pytest.approx(0.31381, abs=1e-5)


@pytest.mark.slow  # 12-25 s in Python: ~5·10^5 HF states (1-2 s by the compiled route)
def test_gpt2_tokenization_under_hf(gpt2):
    v, model = gpt2
    s = BPESampler(v, dropout=0.1, model=model, semantics="hf")
    law = s.law("Ġtokenization")
    assert law.support_size == 1566 and law.mode == ("Ġtoken", "ization")
    assert float(law.probability(law.mode)) == pytest.approx(0.99372, abs=1e-5)  # issue: 0.99
    slow = semantics.hf_law(tuple(b" tokenization"), s._ranks, 0.1)  # canonical: not
    tokens = s._sym_tokens  # bit for bit (other sums), equal to rounding
    fast = law.probabilities()
    assert set(fast) == {tuple(tokens[x] for x in k) for k in slow}
    for k, m in slow.items():
        assert fast[tuple(tokens[x] for x in k)] == pytest.approx(m, rel=1e-12)


def test_hf_refuses_long_words_at_once(gpt2):
    v, model = gpt2
    s = BPESampler(v, dropout=0.1, model=model, semantics="hf")
    with hang_guard(0.15, "refusing the hf law of a long word"), \
            pytest.raises(BudgetError, match=r"needs (at least )?[\d,]+ states"):
        s.law("Ġinternationalization")


@pytest.mark.parametrize("merges", MERGE_SETS)
@pytest.mark.parametrize("p", [0.0, 0.1, 1 / 3, 0.9, 1.0])
def test_compiled_laws_equal_the_python_laws_bit_for_bit(merges, p):
    """Same sums in the same order: equal floats, not close ones; and the Fraction law."""
    for word in _words(merges, WORDS + ["abcabcabcabca", "aaaaaaaaaaaa"]):
        if len(word) < 2:
            continue
        for sem, ranks, slow in [("sentencepiece", _piece_ranks(merges),
                                  semantics.sentencepiece_law),
                                 ("subword-nmt", _ranks(merges), semantics.subword_nmt_law),
                                 ("hf", _ranks(merges), semantics.hf_law)]:
            if sem == "hf" and word not in HF_WORDS + ["abababab", "aaaaab", "aabaab"]:
                continue  # Fraction HF laws of longer words take long
            fast = bpe_laws.fast_dropout_states(tuple(word), ranks, p, len(word), sem)
            if fast is None:  # HF: a token two merges make (HF compares tokens, not places)
                assert sem == "hf" and any(a + b == c + d for a, b in merges
                                           for c, d in merges if (a, b) != (c, d))
                continue
            law = fast.law()
            exact = slow(tuple(word), ranks, F(p))  # F(float) is the float's exact value
            if sem != "hf":  # HF's kernel merges equivalent states: other sums
                assert law == {s: m for s, m in slow(tuple(word), ranks, p).items() if m}, word
            assert set(law) == {s for s, m in exact.items() if m}, word
            for s, m in law.items():
                assert m == pytest.approx(float(exact[s]), rel=1e-12, abs=1e-300)


def test_compiled_subword_nmt_refuses_many_repeats_and_sentencepiece_grows_its_table():
    with pytest.raises(BudgetError, match="subsets"):
        bpe_laws.fast_dropout_states(("a", "b") * 20, _ranks([("a", "b")]), 0.5, 2,
                                     "subword-nmt")
    ranks = _piece_ranks(MERGE_SETS[1])
    word = tuple("aaaaaaab")
    n = len(word)
    states = bpe_laws.fast_dropout_states(word, ranks, 0.5, n, "sentencepiece")
    rank = np.full((n + 1, n + 1, n + 1), -1, dtype=np.int64)
    *_, status = _lawkernels.sentencepiece_mask_law(n, rank, 0.5, 1, 1)
    assert status == 0  # no merge: one state
    built = bpe_laws.built_spans(word, ranks, n)
    sym = {span: next(iter(made)) for span, made in built.items()}
    for i, j in sym:
        for m in range(i + 1, j):
            if (i, m) in sym and (m, j) in sym and (hit := ranks.get((sym[i, m], sym[m, j]))):
                rank[i, m, j] = hit[0]
    *_, status = _lawkernels.sentencepiece_mask_law(n, rank, 0.5, 3, 1000)
    assert status == 2  # over the capacity: the caller retries with more room
    masks, masses, starts, status = _lawkernels.sentencepiece_mask_law(n, rank, 0.5, 10**4,
                                                                       1000)
    assert status == 0 and masses.tolist() == states.masses.tolist()
    assert not bpe_laws.compiled_route("sentencepiece", 32)
    assert bpe_laws.compiled_route("sentencepiece", 31)
    assert bpe_laws.compiled_route("hf", 5) and not bpe_laws.compiled_route("hf", 64)


def _rank_cube(word, ranks):
    """The compiled route's ``(span_sym, rank)`` of ``word`` (each span one symbol)."""
    n = len(word)
    built = bpe_laws.built_spans(word, ranks, n)
    sym = {span: next(iter(made)) for span, made in built.items()}
    rank = np.full((n + 1, n + 1, n + 1), -1, dtype=np.int64)
    for i, j in sym:
        for m in range(i + 1, j):
            if (i, m) in sym and (m, j) in sym and (hit := ranks.get((sym[i, m], sym[m, j]))):
                rank[i, m, j] = hit[0]
    return sym, rank


@pytest.mark.parametrize("merges", MERGE_SETS[1:3])
def test_hf_kernel_grows_its_buffers_and_stops_at_max_states(merges):
    """Buffers of one state (level) and one state (segmentation) grow to the same law; a
    segmentation's id is its rank among the segmentations (the kernel's table size)."""
    word = tuple("abababab" if merges is MERGE_SETS[2] else "aaaaaab")
    sym, rank = _rank_cube(word, _ranks(merges))
    n = len(word)
    places = _hfkernel.hf_places(n, sym, rank)
    tid, trip, delta, first, count = places
    assert count == bpe_laws._count(n, sym)
    big = _hfkernel.hf_mask_law(n, rank, places, 1 / 3, _hfkernel.Buffers(10**5, 10**4, 10**9))
    small = _hfkernel.hf_mask_law(n, rank, places, 1 / 3, _hfkernel.Buffers(1, 1, 10**9))
    assert big[3] == small[3] == 0 and big[4] == small[4] > 50
    assert big[0].tolist() == small[0].tolist() and big[1].tolist() == small[1].tolist()
    assert big[2].tolist() == small[2].tolist()
    assert sum(big[1]) == pytest.approx(1.0, abs=1e-12)
    *_, status, done = _hfkernel.hf_mask_law(n, rank, places, 1 / 3, _hfkernel.Buffers(1, 1, 20))
    assert status == 3 and 20 < done < big[4]


def test_hf_kernel_declines_too_many_places_or_segmentations_and_a_span_two_places_make():
    word = tuple("a" * 12)
    merges = [("a", "a"), ("aa", "a"), ("aa", "aa"), ("aaa", "a"), ("aaaa", "a")]
    sym, rank = _rank_cube(word, _ranks(merges))  # "aaaa": aa+aa and aaa+a
    assert _hfkernel.hf_places(len(word), sym, rank) is None
    rank = np.full((14, 14, 14), -1, dtype=np.int64)
    places = [(i, i + 1, j) for i in range(13) for j in range(i + 2, 14)][:64]
    assert len({(i, j) for i, _, j in places}) == 64 == _hfkernel.MAX_PLACES + 1
    for r, (i, m, j) in enumerate(places):  # 64 places, each span made once
        rank[i, m, j] = r
    assert _hfkernel.hf_places(13, {}, rank) is None
    word = tuple("a" * 47)  # Fibonacci(48) > 2^32 segmentations into "a" and "aa"
    sym, rank = _rank_cube(word, _ranks([("a", "a")]))
    assert bpe_laws._count(47, sym) > _hfkernel.MAX_SEGMENTATIONS
    assert _hfkernel.hf_places(47, sym, rank) is None
    sym, rank = _rank_cube(word[:40], _ranks([("a", "a")]))
    assert _hfkernel.hf_places(40, sym, rank)[-1] == bpe_laws._count(40, sym) == 165580141


def test_hf_estimate_names_itself():
    states, how = semantics.estimated_states("hf", 232_530, True)
    assert 10**8 < states < 3 * 10**8 and "232,530 reachable segmentations" in how
    assert semantics.estimated_states("hf", 1, True)[0] == 1
    assert semantics.estimated_states("reference", 7, True) == (7, "")
    assert semantics.estimated_states("hf", 7, False) == (2800, "estimated as 7 reachable "
                                                            "segmentations × 400")
    with pytest.raises(BudgetError, match=r"needs 135,031,294 states.*estimated from"):
        bpe_laws.check_states(*semantics.estimated_states("hf", 232_530, True)[:1], "w", 21,
                              semantics.estimated_states("hf", 232_530, True)[1])


def test_gpt2_long_words_under_the_compiled_semantics_are_answered_or_refused(gpt2):
    """SentencePiece's 1.86M states for Ġinternationalization are within the compiled
    route's budget (it was refused in Python); a longer word is refused at once."""
    v, model = gpt2
    for sem in ("sentencepiece", "subword-nmt"):
        s = BPESampler(v, dropout=0.1, model=model, semantics=sem)
        with hang_guard(0.05, f"refusing the {sem} law of a long word"), \
                pytest.raises(BudgetError, match=r"needs (at least )?[\d,]+ states"):
            s.law("Ġantidisestablishmentarianismantidisestablishment")
    s = BPESampler(v, dropout=0.1, model=model, semantics="sentencepiece")
    law = s.law("Ġinformation")
    slow = semantics.sentencepiece_law(tuple(b" information"), s._piece_ranks, 0.1)
    tokens = s._sym_tokens
    assert law.probabilities() == {tuple(tokens[x] for x in k): m for k, m in
                                   sorted(slow.items(), key=lambda km: (
                                       -km[1], len(km[0]), tuple(tokens[x] for x in km[0])))}


@pytest.mark.parametrize("sem", list(semantics.SEMANTICS))
def test_dropout_zero_or_one_is_one_segmentation_at_any_length(gpt2, sem):
    """Issue 42: the law at dropout 0 or 1 (every merge, or none: one segmentation) was
    refused for a long word, under every semantics, by the state budget of the laws in
    between (subword-nmt also by its subset budget). It is answered at once."""
    vocab, model = gpt2
    word = "Ġantidisestablishmentarianismantidisestablishment" * 4
    with hang_guard(0.5, f"the law of a 196-character word at dropout 0 ({sem})"):
        zero = BPESampler(vocab, model=model, dropout=0.0, semantics=sem).law(word)
    assert zero.probabilities() == {tuple(BPESampler(vocab, model=model, dropout=0.0)
                                          .tokenize(word)): 1.0}
    one = BPESampler(vocab, model=model, dropout=1.0, semantics=sem).law(word)
    assert one.probabilities() == {tuple(word): 1.0}
