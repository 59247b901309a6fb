"""Property-based hostile inputs: every registered public call, one argument at a time.

:data:`REGISTRY` lists public entry points, each as a call taking keyword arguments and a set
of *good* arguments for which it returns a valid result. Hypothesis replaces one argument at
a time with a value from :data:`HOSTILE` (empty, NaN, ±inf, 0, -1, 2**63, 10**12, huge
strings, lone surrogates, NUL, wrong types, nested lists, bytes, a directory, ``/dev/zero``,
a missing file, deeply nested JSON) and asserts the one rule of issue 19: the call returns a
valid result (no NaN) or raises a clear error — ``TypeError`` / ``ValueError`` (``BudgetError``
and the format errors are subclasses) or, for a path, an ``OSError`` naming it — with a
message, within :data:`SECONDS`. Any other exception (``OverflowError``, ``IndexError``,
``ZeroDivisionError``, ``RecursionError``, ``MemoryError``, a numba error) fails.

The properties run in a child process under an address-space limit
(:func:`test_properties_under_memory_limit`), derandomized, with a bounded number of
examples, so the whole module takes about two minutes; an allocation past the budgets fails
there instead of exhausting the machine. Round trips of every writer/reader pair run here
directly. This module fixes nothing: a failure names the call and the value.
"""

from __future__ import annotations

import math
import os
import resource
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hangguard import bound
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench import metrics, stats, theory
from workbench.bpe.counting import count_chunks
from workbench.counts import read_counts, write_counts
from workbench.course import exercise
from workbench.greedtok.relaxation import beta_curve, train_greedwmc
from workbench.lattice import counts_from_arcs
from workbench.metrics.segmentation import distribution_stats, table7, table8
from workbench.pretokenise.corpus import tokenize_corpus
from workbench.theory.bpe import pairs_searched
from workbench.theory.grampa.lock import lock_f1_hyp2f1
from workbench.theory.renyi import duplicate_counts, duplication_renyi_gain
from workbench.vocab.alphabets import spell
from workbench.vocab.formats import read_vocabulary_bytes

#: Each call's alarm: a hang guard (tests/hangguard.py) over a quiet figure of 2 s (the
#: slowest good call; the promise is a refusal within 1 s): 20 s.
SECONDS = int(bound(2.0))
CHILD = os.environ.get("WORKBENCH_PROPERTY_CHILD") == "1"
EXAMPLES = 40
CLEAR = (TypeError, ValueError, OSError)

_TMP = Path(tempfile.mkdtemp(prefix="hostile-"))
_DEEP = _TMP / "deep.json"
_DEEP.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
_LATIN1 = _TMP / "latin1.txt"
_LATIN1.write_bytes("caf\xe9\n".encode("latin-1"))

#: The hostile values; each replaces one good argument.
HOSTILE_VALUES = [
    None, True, 0, -1, 1, 2**63, -(2**63) - 1, 10**12, 10**400, 0.0, -0.0, math.nan,
    math.inf, -math.inf, 1e308, 5e-324, 0.5, "", "\x00", "\ud800", "a\udc80b", "a" * 100_000,
    " " * 1000, "\r\n\r", "日本語", b"bytes", [], [[]], [None], [math.nan], [1e308, 1e308],
    [-1], [2**63], {}, {"a": -1}, {"a": math.nan}, {"": 1}, {"a": 2**63}, ("a",),
    _TMP, Path("/dev/zero"), _TMP / "missing.json", _DEEP, _LATIN1, object(),
]
HOSTILE = st.one_of(
    st.sampled_from(HOSTILE_VALUES),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.lists(st.integers(min_value=-3, max_value=2**64), max_size=4),
)


def _small():
    return wb.Vocabulary(["a", "b", "ab"], scores=[-1.0, -2.0, -1.5])


def _bpe():
    return wb.BPEModel([(b"a", b"b")])


def _gt():
    return wb.GreedTokModel([b"ab"])


def _tok():
    return wb.TextTokenizer(wb.Grampa(_small()), p=0.0)


COUNTS = {"abc": 3, "abd": 2, "bcd": 1}

#: name → (call taking keyword arguments, the good arguments)
REGISTRY: dict[str, tuple[Callable[..., object], dict[str, object]]] = {
    "Grampa.sample": (lambda vocab, tau, ell_min, direction, seed, word: wb.Grampa(
        vocab, tau, ell_min, direction, seed).sample(word),
        dict(vocab=_small(), tau=1.0, ell_min=1, direction="l2r", seed=0, word="abab")),
    "Grampa.sample_many": (lambda word, n: wb.Grampa(_small(), seed=0).sample_many(word, n),
                           dict(word="ab", n=3)),
    "Grampa.law.token_count_pmf": (
        lambda word: wb.Grampa(_small()).law(word).token_count_pmf(), dict(word="abab")),
    "Grampa.law.expected_tokens": (
        lambda word: wb.Grampa(_small()).law(word).expected_tokens, dict(word="abab")),
    "count_segmentations": (wb.count_segmentations,
                            dict(word="abab", vocab=_small(), ell_min=1, direction="l2r")),
    "enumerate_segmentations": (wb.enumerate_segmentations,
                                dict(word="abab", vocab=_small(), limit=10)),
    "Vocabulary": (lambda tokens, ids, scores, alphabet: wb.Vocabulary(
        tokens, ids=ids, scores=scores, alphabet=alphabet),
        dict(tokens=["a", "b"], ids=[0, 1], scores=[-1.0, -1.0], alphabet="identity")),
    "Vocabulary.load": (wb.Vocabulary.load, dict(path=_TMP / "missing.txt")),
    "Vocabulary.to_alphabet": (lambda word: _small().to_alphabet(word), dict(word="ab")),
    "Vocabulary.decode_ids": (lambda ids: _small().decode_ids(ids), dict(ids=[0, 2, 1])),
    "read_vocabulary_bytes": (read_vocabulary_bytes,
                              dict(name="encoder.json", raw='{"a": 0, "\u0120b": 1}'.encode())),
    "counts_from_arcs": (counts_from_arcs, dict(n=2, arcs=[(0, 1), (0, 2), (1, 2)],
                                                direction="l2r", cap=None)),
    "spell": (spell, dict(alphabet="byte-level", word="a b")),
    "train_bpe": (lambda counts, vocab_size, cap_divisor, max_batch_size, stop_list_size:
                  wb.train_bpe(counts, vocab_size, cap_divisor=cap_divisor,
                               max_batch_size=max_batch_size, stop_list_size=stop_list_size,
                               progress=False),
                  dict(counts={"ab ab": 3, "abc": 2}, vocab_size=258, cap_divisor=2,
                       max_batch_size=0, stop_list_size=0)),
    "BPEModel.encode": (lambda text: _bpe().encode(text), dict(text="abab")),
    "BPEModel.decode": (lambda ids: _bpe().decode(ids), dict(ids=[97, 256])),
    "BPEModel.load": (wb.BPEModel.load, dict(path=_DEEP)),
    "train_greedtok": (lambda counts, k, max_token_length, min_word_count: wb.train_greedtok(
        counts, k, max_token_length=max_token_length, min_word_count=min_word_count,
        progress=False), dict(counts=COUNTS, k=2, max_token_length=4, min_word_count=1)),
    "train_greedwmc": (lambda counts, k: train_greedwmc(counts, k, progress=False),
                       dict(counts=COUNTS, k=2)),
    "beta_curve": (lambda counts, k: beta_curve(counts, k, progress=False),
                   dict(counts=COUNTS, k=2)),
    "GreedTokModel.encode": (lambda word: _gt().encode(word), dict(word="abab")),
    "GreedTokModel.decode": (lambda tokens: _gt().decode(tokens), dict(tokens=[256, 97])),
    "GreedTokModel.load": (wb.GreedTokModel.load, dict(path=_DEEP)),
    "shannon_entropy": (metrics.shannon_entropy, dict(counts=[1.0, 2.0], base=2)),
    "renyi_entropy": (metrics.renyi_entropy, dict(counts=[1.0, 2.0], alpha=2.0, base=2)),
    "renyi_efficiency": (metrics.renyi_efficiency, dict(counts=[1.0, 2.0, 3.0], alpha=2.5)),
    "percentile_frequency": (metrics.percentile_frequency,
                             dict(counts=[5, 4, 3, 2, 1], start=0.03, end=0.83)),
    "sequence_length": (metrics.sequence_length, dict(sequences=[["a", "b"], ["c"]])),
    "unigram_counts": (metrics.unigram_counts, dict(sequences=[["a", "b"], ["a"]])),
    "stats.frequencies": (stats.frequencies, dict(counts=[1, 2], n_cells=3)),
    "stats.tv_distance": (stats.tv_distance, dict(p=[0.5, 0.5], q=[0.25, 0.75])),
    "stats.trial_tolerance": (stats.trial_tolerance, dict(expected=5.0, n_samples=1000, z=4.0)),
    "stats.chisquare_test": (stats.chisquare_test,
                             dict(observed=np.array([10, 12]), probs=[0.5, 0.5])),
    "stats.z_test": (stats.z_test, dict(sample=np.array([1.0, 2.0]), mean=1.5, var=1.0)),
    "theory.lock_key": (theory.lock_key, dict(lengths=[1, 2])),
    "lock_f1_hyp2f1": (lock_f1_hyp2f1, dict(m=3, n=5, backend="scipy")),
    "duplicate_counts": (duplicate_counts, dict(counts={"a": 1, "b": 2}, x="a", k=2)),
    "duplication_renyi_gain": (duplication_renyi_gain,
                               dict(counts={"a": 4, "b": 4}, x="a", k=2, alpha=2.0)),
    "Multiplexer.coins": (lambda p, n_words: wb.Multiplexer(
        lambda w: [w], wb.Grampa(_small()), p, seed=0).coins(n_words),
        dict(p=0.5, n_words=3)),
    "DuplicationBPE": (lambda frequencies, n_top, k: wb.DuplicationBPE(
        _bpe(), frequencies, n_top, k, seed=0), dict(frequencies={256: 5, 97: 3}, n_top=1, k=2)),
    "BPESampler.tokenize_batch": (lambda words, dropout: wb.BPESampler(
        _small(), dropout=dropout, seed=0).tokenize_batch(words),
        dict(words=["abab"], dropout=0.1)),
    "MaxMatchSampler.tokenize_batch": (lambda words, dropout: wb.MaxMatchSampler(
        _small(), dropout=dropout, seed=0).tokenize_batch(words),
        dict(words=["abab"], dropout=0.1)),
    "table7": (table7, dict(segmentations=[[1, 2], [3]])),
    "table8": (lambda per_word: table8(per_word),
               dict(per_word=[distribution_stats([(1, 1), (2,)], 2)])),
    "distribution_stats": (distribution_stats,
                           dict(samples=[(1, 1), (2,), (2,)], n_segmentations=2)),
    "write_counts": (write_counts, dict(counts={"a b": 2}, path=_TMP / "c.tsv")),
    "read_counts": (read_counts, dict(path=_LATIN1)),
    "count_chunks": (lambda texts, freq_cutoff, num_threads, block_size: count_chunks(
        texts=texts, freq_cutoff=freq_cutoff, num_threads=num_threads, block_size=block_size,
        progress=False), dict(texts=["a b a"], freq_cutoff=1, num_threads=1, block_size=1024)),
    "tokenize_corpus": (lambda sources, seed, num_threads, block_lines: tokenize_corpus(
        sources, _tok(), seed=seed, num_threads=num_threads, block_lines=block_lines,
        progress=False),
        dict(sources=["ab ab\nba"], seed=0, num_threads=1, block_lines=4)),
    "TextTokenizer.encode_lines": (lambda lines, p: wb.TextTokenizer(
        wb.Grampa(_small()), p=p).encode_lines(lines, seed=0), dict(lines=["ab a"], p=0.5)),
    # samplers
    "UnigramRejectionSampler.sample_many": (lambda word, n, max_trials: wb.UnigramRejectionSampler(
        _small(), max_trials=max_trials, seed=0).sample_many(word, n),
        dict(word="abab", n=3, max_trials=1000)),
    "MarkovRejectionSampler.tokenize": (lambda words, epsilon: wb.MarkovRejectionSampler(
        _small(), epsilon=epsilon, seed=0).tokenize_batch(words), dict(words=["abab"],
                                                                  epsilon="tight")),
    "BitRejectionSampler.tokenize": (lambda words, p: wb.BitRejectionSampler(
        _small(), p=p, seed=0).tokenize_batch(words), dict(words=["abab"], p=0.5)),
    "ULMSampler.tokenize": (lambda words, nbest, alpha: wb.ULMSampler(
        _small(), nbest=nbest, alpha=alpha, seed=0).tokenize_batch(words),
        dict(words=["abab"], nbest=2, alpha=1.0)),
    "Grampa.tokenize": (lambda words: wb.Grampa(_small(), seed=0).tokenize_batch(words),
                        dict(words=["ab", "ba"])),
    "expected_token_counts": (lambda word_counts, tau, ell_min, p: wb.expected_token_counts(
        word_counts, _small(), tau, ell_min, p=p, progress=False),
        dict(word_counts={"abab": 2, "ba": 1}, tau=1.0, ell_min=1, p=1.0)),
    "expected_efficiency": (lambda word_counts, alpha, vocab_size: wb.expected_efficiency(
        word_counts, _small(), alpha, vocab_size=vocab_size),
        dict(word_counts={"abab": 2, "ba": 1}, alpha=2.5, vocab_size=3)),
    # writers
    "Vocabulary.save": (lambda tokens, path: wb.Vocabulary(tokens).save(path),
                        dict(tokens=["a", "b"], path=_TMP / "v.txt")),
    "BPEModel.save": (lambda path: _bpe().save(path), dict(path=_TMP / "m.json")),
    "GreedTokModel.save": (lambda path: _gt().save(path), dict(path=_TMP / "g.json")),
    "export_hf": (lambda path, pattern: wb.export_hf(_bpe(), path, pattern=pattern),
                  dict(path=_TMP / "tokenizer.json", pattern=None)),
    "RandomDropBPE": (lambda frequencies, n_top, k: wb.RandomDropBPE(
        _bpe(), frequencies, n_top, k, seed=0), dict(frequencies={256: 5, 97: 3}, n_top=1, k=1)),
    # closed forms (their caps refuse large n)
    **{f"theory.{f}": (getattr(theory, f), dict(n=6)) for f in (
        "partition_count", "expected_chars_per_token", "markov_epsilon_full",
        "markov_expected_inverse_probability", "markov_rejection_expected_trials",
        "uniform_segmentality_pmf", "uniform_token_count_pmf", "uniform_token_length_pmf",
        "total_token_count",
        "total_token_count_approx")},
    **{f"theory.{f}": (getattr(theory, f), dict(lengths=[1, 2, 1])) for f in (
        "bit_key", "lock_f2", "lock_f2_by_partitions", "markov_path_probability")},
    **{f"theory.{f}": (getattr(theory, f), dict(t=[1, 2, 1])) for f in (
        "multiset_permutation_count", "multiset_rank")},
    "theory.lock_f1": (theory.lock_f1, dict(m=2, n=5)),
    "theory.lock_unrank": (theory.lock_unrank, dict(key=3, n=5)),
    "theory.bit_unrank": (theory.bit_unrank, dict(key=3, n=5)),
    "theory.multiset_unrank": (theory.multiset_unrank, dict(values=[1, 2, 2], rank=1)),
    "theory.bounded_composition_count": (theory.bounded_composition_count,
                                         dict(n=10, max_token_length=3)),
    "theory.chao_strawderman": (theory.chao_strawderman, dict(n=10, p=0.5)),
    "theory.token_length_count": (theory.token_length_count, dict(ell=2, n=6)),
    "theory.token_length_count_approx": (theory.token_length_count_approx, dict(ell=2, n=6)),
    "theory.token_length_limit_pmf": (theory.token_length_limit_pmf, dict(ell=2)),
    "theory.bit_rejection_expected_trials": (theory.bit_rejection_expected_trials,
                                             dict(n_valid=3, n=4)),
    "theory.pairs_searched": (pairs_searched, dict(remaining=10, vocab_len=300, cap_divisor=2,
                                                   max_batch_size=0)),
    # the exact laws and their summaries (issue 42: NaN k-best weights, an entropy of 0.0 for
    # a sampler that always fails, OverflowError in tv_to_uniform)
    "Grampa.law.summary": (lambda tau, ell_min, direction, word: wb.Grampa(
        _small(), tau=tau, ell_min=ell_min, direction=direction).law(word).summary(),
        dict(tau=1.0, ell_min=2, direction="r2l", word="ababab")),
    "ULMSampler.law.summary": (lambda nbest, alpha, word: wb.ULMSampler(
        _small(), nbest=nbest, alpha=alpha).law(word).summary(),
        dict(nbest=-1, alpha=1.0, word="ababab")),
    "ULMSampler.kbest": (lambda nbest, alpha, word: wb.ULMSampler(
        _small(), nbest=nbest, alpha=alpha).kbest(word), dict(nbest=3, alpha=1.0, word="abab")),
    "MaxMatchSampler.law.summary": (lambda dropout, word: wb.MaxMatchSampler(
        _small(), dropout=dropout).law(word).summary(), dict(dropout=0.3, word="abab")),
    "StochasTokSampler.law.summary": (lambda rate, word: wb.StochasTokSampler(
        _small(), rate=rate).law(word).summary(), dict(rate=0.5, word="abab")),
    "BitRejectionSampler.law.summary": (lambda p, word: wb.BitRejectionSampler(
        _small(), p=p).law(word).summary(), dict(p=0.5, word="abab")),
    "BPESampler.law.summary": (lambda dropout, semantics, word: wb.BPESampler(
        _small(), dropout=dropout, semantics=semantics).law(word).summary(),
        dict(dropout=0.1, semantics="hf", word="abab")),
    "Multiplexer.law.summary": (lambda p, tau, word: wb.Multiplexer(
        lambda w: [w], wb.Grampa(_small(), tau=tau), p).law(word).summary(),
        dict(p=0.5, tau=2.0, word="abab")),
    # the exercise checkers: a student's free text against the notebook's expected answer
    "check_number": (lambda text, expected, tolerance: exercise.check_number(
        text, expected, tolerance=tolerance), dict(text="5/8", expected=0.625, tolerance=1e-3)),
    "check_sequence": (exercise.check_sequence, dict(text="1, 2", expected=[1, 2])),
    "check_set": (exercise.check_set, dict(text="2, 1", expected=[1, 2])),
    "check_choice": (exercise.check_choice, dict(text="b", expected="b", options=["a", "b"])),
}


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang(f"no answer within {SECONDS} s")


_WARM: set[str] = set()


def _warm(name: str) -> None:
    """Run ``name`` once on its good arguments, untimed: a numba kernel compiled or loaded
    from the cache for the first time in this process is not a hang (the fixture that
    caught it: ``enumerate_segmentations(word='aaa…')`` timed out only when the cache had
    been rewritten by an earlier test directory)."""
    if name not in _WARM:
        _WARM.add(name)
        call, good = REGISTRY[name]
        try:
            call(**good)
        except Exception:  # noqa: BLE001 - warming only; the checks report errors
            pass


def _check(name: str, kwargs: dict, arg: str) -> None:
    call = REGISTRY[name][0]
    _warm(name)
    shown = f"{name}({arg}={kwargs[arg]!r:.60})"
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(SECONDS)
    try:
        result = call(**kwargs)
    except Hang:
        pytest.fail(f"{shown} hangs")
    except CLEAR as err:
        assert str(err), f"{shown} raised {type(err).__name__} without a message"
        return
    except Exception as err:  # noqa: BLE001 - the point of the test
        pytest.fail(f"{shown} raised {type(err).__name__}: {err!s:.200}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    if isinstance(result, float):
        assert not math.isnan(result), f"{shown} returned NaN"
    if isinstance(result, np.ndarray) and result.dtype.kind == "f":
        assert not np.isnan(result).any(), f"{shown} returned NaN"


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_good_arguments_give_a_result(name):
    """The registry's good arguments are good: each call returns (or, for the deliberately
    bad default paths, raises a clear error)."""
    call, good = REGISTRY[name]
    try:
        call(**good)
    except CLEAR:
        assert name in {"Vocabulary.load", "BPEModel.load", "GreedTokModel.load",
                        "read_counts"}, name


@pytest.mark.skipif(not CHILD, reason="runs in the memory-limited child "
                    "(test_properties_under_memory_limit)")
@pytest.mark.parametrize("name", sorted(REGISTRY))
@settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_hostile_property(name, data):
    good = REGISTRY[name][1]
    arg = data.draw(st.sampled_from(sorted(good)), label="argument")
    value = data.draw(HOSTILE, label="value")
    _check(name, {**good, arg: value}, arg)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_argument_with_every_listed_value(name):
    """The listed values, exhaustively, argument by argument (in the child only)."""
    if not CHILD:
        pytest.skip("runs in the memory-limited child")
    good = REGISTRY[name][1]
    for arg in sorted(good):
        for value in HOSTILE_VALUES:
            _check(name, {**good, arg: value}, arg)


#: Numbers at the ends of the floats and past int64 (issue 42: a τ whose reciprocal overflows
#: reached a kernel as α = inf and corrupted memory): ±0, the subnormals, the smallest normal,
#: the largest float, ±inf, NaN, values whose reciprocal overflows (below 1/max) or whose
#: exponential overflows (> 709.78) or underflows to 0 (< -745.13), and ints past int64.
_FMAX = sys.float_info.max
EXTREME_NUMBERS = [
    0, 0.0, -0.0, 5e-324, -5e-324, 1e-310, -1e-310, sys.float_info.min, -sys.float_info.min,
    1 / _FMAX, math.nextafter(1 / _FMAX, 1.0), 1e-300, 710.0, -746.0, 1e300, _FMAX, -_FMAX,
    math.inf, -math.inf, math.nan, 2**53 + 1, 2**63 - 1, 2**63, -(2**63) - 1, 2**64, 10**400,
    -(10**400),
]


def _numeric(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def test_the_extreme_numbers_are_what_they_say():
    assert math.isinf(1 / 1e-310) and math.isinf(1 / (1 / _FMAX))
    assert math.isfinite(1 / math.nextafter(1 / _FMAX, 1.0))
    with pytest.raises(OverflowError):
        math.exp(710.0)
    assert math.exp(-746.0) == 0.0 and 5e-324 > 0 and 5e-324 / 2 == 0


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_numeric_argument_at_every_extreme(name):
    """The extreme-value sweep (issue 42): every numeric argument of every registered call
    (a number, or each number of a list of numbers) at each of :data:`EXTREME_NUMBERS`, in
    the memory-limited child. A call added to :data:`REGISTRY` is swept with no more code."""
    if not CHILD:
        pytest.skip("runs in the memory-limited child")
    good = REGISTRY[name][1]
    for arg in sorted(good):
        value = good[arg]
        for x in EXTREME_NUMBERS:
            if _numeric(value):
                _check(name, {**good, arg: x}, arg)
            elif isinstance(value, list) and value and all(map(_numeric, value)):
                for i in range(len(value)):
                    _check(name, {**good, arg: [*value[:i], x, *value[i + 1:]]}, arg)
            elif isinstance(value, dict) and value and all(map(_numeric, value.values())):
                key = next(iter(value))
                _check(name, {**good, arg: {**value, key: x}}, arg)


# ---------------------------------------------------------------- writer / reader round trips
_KEYS = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30)


@settings(max_examples=40, derandomize=True, deadline=None, database=None)
@given(counts=st.dictionaries(_KEYS, st.integers(1, 2**63 - 1), min_size=1, max_size=8))
def test_counts_round_trip(counts):
    path = _TMP / "round.tsv"
    write_counts(counts, path)
    assert read_counts(path) == counts


@settings(max_examples=30, derandomize=True, deadline=None, database=None)
@given(tokens=st.lists(_KEYS, min_size=1, max_size=8, unique=True),
       scored=st.booleans())
def test_vocabulary_json_round_trip(tokens, scored):
    scores = [-float(i) for i in range(len(tokens))] if scored else None
    v = wb.Vocabulary(tokens, scores=scores)
    path = _TMP / "round.json"
    v.save(path)
    back = wb.Vocabulary.load(path)
    assert back.tokens == v.tokens and back.ids.tolist() == v.ids.tolist()


@settings(max_examples=40, derandomize=True, deadline=None, database=None)
@given(tokens=st.lists(st.text(max_size=6).filter(bool), min_size=1, max_size=6, unique=True))
def test_vocabulary_plain_list_round_trips_or_refuses(tokens):
    """A ``.txt`` list reads back as the tokens saved, or ``save`` refuses (issue 30)."""
    v = wb.Vocabulary(tokens)
    path = _TMP / "round.txt"
    try:
        v.save(path)
    except ValueError as err:
        assert "save to .json" in str(err), err
        return
    assert wb.Vocabulary.load(path).tokens == v.tokens


@settings(max_examples=15, derandomize=True, deadline=None, database=None)
@given(words=st.dictionaries(st.text("abc ", min_size=1, max_size=6), st.integers(1, 50),
                             min_size=1, max_size=6))
def test_models_round_trip(words):
    bpe = wb.train_bpe(words, 262, progress=False)
    bpe.save(_TMP / "bpe.json")
    assert wb.BPEModel.load(_TMP / "bpe.json") == bpe
    gt = wb.train_greedtok(words, 3, progress=False) if len(words) else None
    if gt is not None:
        gt.save(_TMP / "gt.json")
        assert wb.GreedTokModel.load(_TMP / "gt.json").tokens == gt.tokens


#: Address space of the child (numba and LLVM reserve much virtual memory).
MEMORY_LIMIT = 12 << 30


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


@pytest.mark.slow
@pytest.mark.skipif(CHILD, reason="already the memory-limited child")
def test_properties_under_memory_limit(tmp_path):
    """The hostile properties, in a child process under an address-space limit, working in
    ``tmp_path``: the paths hypothesis generates (``<``, ``NaN``, ``日本語``) are relative."""
    env = {**os.environ, "WORKBENCH_PROPERTY_CHILD": "1"}
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                          "-W", "ignore::UserWarning", "--tb=native", "-rf", __file__, "-k",
                          "hostile_property or every_argument or every_numeric_argument"],
                         env=env, capture_output=True, text=True, preexec_fn=_limit_memory,
                         timeout=1200, cwd=tmp_path)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
