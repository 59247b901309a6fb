"""The plain-Python fused route (``grampa.interpreted``) draws the kernel's samples, bit for bit.

The interpreted route runs only in a process that has not loaded numba; this suite has, so
the route is forced by patching :func:`workbench.grampa.interpreted.applies` and compared
with ``Grampa.encode`` with the route shut (``applies`` patched to False: the numba
kernels), on the same seed. A fresh process checks the route itself: no numba loaded, the
same tokens.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench import Grampa, SegmentationError, Vocabulary
from workbench._core import rng, seeds
from workbench.grampa import interpreted
from workbench.grampa.params import power_table

ROOT = Path(__file__).resolve().parents[2]
#: τ values reaching every branch: counts as weights (1), ones (±inf), tabulated powers
#: (2, -2, 0.5, -0.25), and rescaled weights (|α| > 80 has no power table).
TAUS = [1.0, 2.0, -2.0, 0.5, -0.25, math.inf, -math.inf, 0.01, -0.0125, 1e6]


def _kernel_lengths(g: Grampa, words: list[str]) -> list[list[int]]:
    """Token lengths of ``g.encode_flat(words)`` on the numba kernels (the route shut)."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(interpreted, "applies", lambda *a, **k: False)
        ids, offsets = g.encode_flat(words)
    return [[len(g.vocab.token_of(int(t))) for t in ids[offsets[w]:offsets[w + 1]]]
            for w in range(len(words))]


@pytest.fixture
def forced(monkeypatch):
    """Make every request take the interpreted route (numba is loaded in this process)."""
    monkeypatch.setattr(interpreted, "applies", lambda lengths, vocab: True)


def test_seeds_streams_equal_the_kernel_streams():
    for base in (0, 1, 12345, 2**63 - 2, 0x9E3779B97F4A7C15 >> 1):
        for stream in (0, 1, 2, 63, 64, 1000, 2**40):
            a = rng.stream_state(np.uint64(base), stream)
            b = seeds.stream_state(base, stream)
            assert int(a) == b
            for _ in range(5):  # np.uint64 as in the kernels (a Python int types as int64)
                ua, a = rng.next_double(np.uint64(a))
                ub, b = seeds.next_double(b)
                assert ua == ub and int(a) == b


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tokens=st.sets(st.text("abc", min_size=1, max_size=4), min_size=1, max_size=12),
       words=st.lists(st.text("abcd", max_size=14), min_size=1, max_size=4),
       tau=st.sampled_from(TAUS), ell_min=st.integers(1, 3),
       direction=st.sampled_from(["l2r", "r2l"]), seed=st.integers(0, 2**32))
def test_same_tokens_as_the_kernel(forced, tokens, words, tau, ell_min, direction, seed):
    vocab = Vocabulary(sorted(tokens))
    kwargs = dict(tau=tau, ell_min=ell_min, direction=direction, seed=seed)
    try:
        ref = _kernel_lengths(Grampa(vocab, **kwargs), words)
    except SegmentationError as err:
        with pytest.raises(SegmentationError) as got:
            Grampa(vocab, **kwargs).tokenize_batch(words)
        assert str(got.value) == str(err)
        return
    comp = Grampa(vocab, **kwargs).tokenize_batch(words)
    assert [[len(t) for t in seg] for seg in comp] == ref
    assert ["".join(seg) for seg in comp] == words


@pytest.mark.parametrize("tau", TAUS)
@pytest.mark.parametrize("direction", ["l2r", "r2l"])
def test_large_path_counts_rescale_as_the_kernel_does(forced, tau, direction):
    """Words with more than 4,096 paths leave the power table (the rescaled branch)."""
    vocab = Vocabulary(["a", "aa", "aaa", "aaaa", "b", "ab", "ba"])
    words = ["a" * n for n in (12, 20, 33, 60)] + ["ab" * 15, "aab" * 9]
    for seed in range(5):
        ref = _kernel_lengths(Grampa(vocab, tau=tau, direction=direction, seed=seed), words)
        comp = Grampa(vocab, tau=tau, direction=direction, seed=seed).tokenize_batch(words)
        assert [[len(t) for t in seg] for seg in comp] == ref


def test_tokenize_reports_the_first_unsegmentable_word():
    vocab = Vocabulary(["a", "b"])
    out, bad = interpreted.tokenize(["ab", "c", "ac"], vocab, 1.0, 1, True, 0)
    assert (out, bad) == ([[1, 1], [], []], 1)


def test_applies_only_to_small_finite_requests_before_numba():
    vocab = Vocabulary(["a", "ab"])
    assert "numba" in sys.modules  # this suite loads numba: the route never applies here
    assert not interpreted.applies(["abc"], vocab)


def test_applies_rule_without_numba(monkeypatch):
    vocab = Vocabulary(["a", "ab"])  # two distinct token lengths
    monkeypatch.delitem(sys.modules, "numba")
    assert interpreted.applies(["aba", "abab"], vocab)
    assert interpreted.applies([], vocab)
    assert interpreted.applies(["ab", 5], vocab)  # not a string: the caller refuses it
    assert not interpreted.applies(["aba"], Vocabulary.infinite())
    assert not interpreted.applies(["a" * 1001], vocab)  # beyond SHORT_WORD
    edge = ["a" * 1000] * (interpreted.MAX_WORK // 2000)  # n · min(n, 2) = 2,000 each
    assert interpreted.applies(edge, vocab)
    assert not interpreted.applies(edge + ["a"], vocab)
    assert interpreted.applies(["ab"], vocab, steps=interpreted.MAX_WORK - 4)
    assert not interpreted.applies(["ab"], vocab, steps=interpreted.MAX_WORK - 3)
    assert not interpreted.applies([""] * (interpreted.MAX_WORK + 1), vocab)


def test_the_route_is_taken_only_through_applies(monkeypatch):
    """The comparisons above force the route by patching ``applies``: make sure that is the
    only gate (a patched rule that is never consulted would make them compare the kernels
    with themselves)."""
    calls = []

    def spy(*args, **kwargs):
        calls.append(args)
        return True

    monkeypatch.setattr(interpreted, "tokenize", lambda *a: (_ for _ in ()).throw(
        AssertionError("interpreted route taken")))
    monkeypatch.setattr(interpreted, "applies", spy)
    with pytest.raises(AssertionError, match="interpreted route taken"):
        Grampa(Vocabulary(["a", "b"]), seed=0).tokenize_batch(["ab"])
    assert calls


def test_power_table_is_the_walks():
    assert power_table(0.5).tolist()[:3] == [0.0, 1.0, 2.0 ** 0.5]
    assert power_table(1.0).size == 0 and power_table(0.0).size == 0
    assert power_table(81.0).size == 0 and power_table(-80.0).size == 4096


FRESH = """
import json, sys
from workbench import Grampa, datasets
v = datasets.load_vocabulary("ulm-8k")
words = [v.to_alphabet(" " + w) for w in ("tokenisation", "grampa", "sampling", "the")]
out = {}
for tau, direction in ((2.0, "l2r"), (-5.0, "r2l"), (1.0, "l2r")):
    g = Grampa(v, tau=tau, ell_min=2, direction=direction, seed=11)
    out[f"{tau} {direction}"] = [g.sample(words[0]), g.tokenize_batch(words)]
print(json.dumps({"numba": "numba" in sys.modules, "out": out}))
"""


def test_a_fresh_process_samples_without_numba_and_gets_the_kernels_tokens():
    from workbench import datasets

    proc = subprocess.run([sys.executable, "-c", FRESH], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["numba"] is False
    v = datasets.load_vocabulary("ulm-8k")
    words = [v.to_alphabet(" " + w) for w in ("tokenisation", "grampa", "sampling", "the")]
    for (tau, direction), key in zip(((2.0, "l2r"), (-5.0, "r2l"), (1.0, "l2r")), got["out"]):
        g = Grampa(v, tau=tau, ell_min=2, direction=direction, seed=11)
        first = _kernel_lengths(g, [words[0]])[0]  # sample() draws one base seed ...
        batch = _kernel_lengths(g, words)  # ... and tokenize() the next one
        one, many = got["out"][key]
        assert [len(t) for t in one] == first
        assert [[len(t) for t in seg] for seg in many] == batch


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tokens=st.sets(st.text("abc", min_size=1, max_size=4), min_size=1, max_size=12),
       word=st.text("abcd", max_size=24), count=st.integers(0, 40),
       tau=st.sampled_from(TAUS), ell_min=st.integers(1, 3),
       direction=st.sampled_from(["l2r", "r2l"]), seed=st.integers(0, 2**32))
def test_sample_many_same_as_the_kernel(monkeypatch, tokens, word, count, tau, ell_min,
                                        direction, seed):
    vocab = Vocabulary(sorted(tokens))
    kwargs = dict(tau=tau, ell_min=ell_min, direction=direction, seed=seed)
    try:
        ref = Grampa(vocab, **kwargs).sample_lengths(word, count)
    except SegmentationError as err:
        monkeypatch.setattr(interpreted, "applies", lambda *a, **k: True)
        with pytest.raises(SegmentationError) as got:
            Grampa(vocab, **kwargs).sample_lengths(word, count)
        assert str(got.value) == str(err)
        return
    monkeypatch.setattr(interpreted, "applies", lambda *a, **k: True)
    comp = Grampa(vocab, **kwargs).sample_lengths(word, count)
    assert comp[0].dtype == ref[0].dtype and comp[1].dtype == ref[1].dtype
    assert comp[0].tolist() == ref[0].tolist() and comp[1].tolist() == ref[1].tolist()


@pytest.mark.parametrize("tau", TAUS)
@pytest.mark.parametrize("direction", ["l2r", "r2l"])
def test_sample_many_on_long_words_as_the_kernel(monkeypatch, tau, direction):
    vocab = Vocabulary(["a", "aa", "aaa", "aaaa", "b", "ab", "ba"])
    for word in ("a" * 60, "ab" * 15 + "aab" * 9):
        ref = Grampa(vocab, tau=tau, direction=direction, seed=3).sample_many(word, 50)
        with monkeypatch.context() as m:
            m.setattr(interpreted, "applies", lambda *a, **k: True)
            comp = Grampa(vocab, tau=tau, direction=direction, seed=3).sample_many(word, 50)
        assert comp == ref


def _call(g: Grampa, method: str, word: str):
    return g.tokenize_batch([word, word]) if method == "tokenize" else g.sample_many(word, 3)


@pytest.mark.parametrize("method", ["tokenize", "sample_many"])
def test_a_failed_call_draws_the_same_seeds_on_both_routes(monkeypatch, method):
    """After a word without segmentation, the next samples agree: a failing call draws a
    base seed on both routes (tokenize) or on neither (sample_many)."""
    vocab = Vocabulary(["a", "b", "ab"])
    runs = {}
    for forced in (False, True):
        with monkeypatch.context() as m:
            if forced:
                m.setattr(interpreted, "applies", lambda *a, **k: True)
            g = Grampa(vocab, tau=0.5, seed=9)
            with pytest.raises(SegmentationError):
                _call(g, method, "abc")
            runs[forced] = [_call(g, method, "abab") for _ in range(4)]
    assert runs[True] == runs[False]


def test_direct_calls_are_budgeted_before_any_work():
    """The module's functions are public: a huge direct request is refused at once."""
    from workbench._core.validate import BudgetError

    vocab = Vocabulary(["a", "aa"])
    rows = interpreted.probability_rows("aa", vocab, 1.0, 1, True)
    with pytest.raises(BudgetError):
        interpreted.sample_lengths(rows, 10**12, True, 0)
    with pytest.raises(BudgetError):
        interpreted.tokenize(["a" * 10**5] * 10**4, vocab, 1.0, 1, True, 0)
    with pytest.raises(BudgetError):
        interpreted.probability_rows("a" * 10**8, vocab, 1.0, 1, True)
    small = interpreted.sample_lengths(rows, 3, True, 0)  # just inside: runs
    assert len(small) == 3 and all(sum(s) == 2 for s in small)
