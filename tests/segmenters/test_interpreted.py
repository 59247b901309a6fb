"""The deterministic segmenters and the multiplexer on the plain-Python route: the kernels' ids.

This suite has loaded numba, so the route (:mod:`workbench.segmenters.interpreted`, with
GRaMPa's own first tier for the stochastic half) is forced by patching the ``applies`` rules
to True and compared with the same calls with them patched to False (the numba kernels);
a fresh process checks the route itself (no numba loaded, the kernels' ids).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench import Grampa, Multiplexer, SegmentationError, Vocabulary
from workbench.grampa import interpreted as grampa_interpreted
from workbench.segmenters import DeterministicSegmenter, default_segmenter, interpreted

ROOT = Path(__file__).resolve().parents[2]


def _both(make, call):
    """``call(make())`` with every first tier shut (the kernels), then forced."""
    out = []
    for route in (False, True):
        with pytest.MonkeyPatch.context() as m:
            m.setattr(interpreted, "applies", lambda *a, route=route, **k: route)
            m.setattr(grampa_interpreted, "applies", lambda *a, route=route, **k: route)
            try:
                got = call(make())
                out.append([x.dtype.str for x in got] + [x.tolist() for x in got])
            except (SegmentationError, TypeError, ValueError) as err:
                out.append(f"{type(err).__name__}: {err}")
    return out


def _flat(words):
    cps = np.array([ord(c) for c in "".join(words)], dtype=np.int64)
    return cps, np.cumsum([0] + [len(w) for w in words])


@settings(max_examples=250, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(tokens=st.lists(st.text("abc", min_size=1, max_size=4), min_size=1, max_size=10,
                       unique=True),
       scores=st.lists(st.sampled_from([-1.0, -2.0, -3.0, -0.5, -1e308]),
                       min_size=10, max_size=10),
       words=st.lists(st.text("abcd", max_size=12), max_size=4),
       method=st.sampled_from(["viterbi", "longest"]))
def test_deterministic_same_ids_as_the_kernels(tokens, scores, words, method):
    ids = list(range(7, 7 + 2 * len(tokens), 2))[::-1]  # not 0..N-1
    vocab = Vocabulary(tokens, ids=ids, scores=scores[:len(tokens)])  # ties: equal scores

    def make():
        return DeterministicSegmenter(vocab, method)

    kernel, plain = _both(make, lambda s: s.encode_flat(words))
    assert plain == kernel
    cps, offsets = _flat(words)
    kernel, plain = _both(make, lambda s: s.encode_code_points(cps, offsets))
    assert plain == kernel


def test_viterbi_ties_as_the_kernels():
    """Equal sums with equal token counts: the first (longest last token) is kept."""
    vocab = Vocabulary(["a", "b", "c", "ab", "bc", "abc", "ca"],
                       scores=[-1.0, -1.0, -1.0, -2.0, -2.0, -3.0, -2.0])
    words = ["".join(w) for n in range(1, 6) for w in itertools.product("abc", repeat=n)]
    kernel, plain = _both(lambda: DeterministicSegmenter(vocab, "viterbi"),
                          lambda s: s.encode_flat(words))
    assert plain == kernel and not isinstance(kernel, str)


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(tokens=st.lists(st.text("abc", min_size=1, max_size=3), min_size=1, max_size=8,
                       unique=True),
       words=st.lists(st.text("abc", max_size=10), max_size=6),
       p=st.sampled_from([0.0, 0.3, 0.5, 1.0]), seed=st.integers(0, 2**32),
       grouped=st.booleans())
def test_multiplexer_same_ids_as_the_kernels(tokens, words, p, seed, grouped):
    vocab = Vocabulary(tokens, scores=[-float(len(t)) for t in tokens])
    groups = None
    if grouped:  # words in groups of up to two (one coin each), an empty group at the end
        groups = [min(2, len(words) - k) for k in range(0, len(words), 2)] + [0]

    def make():
        return Multiplexer(default_segmenter(vocab), Grampa(vocab, tau=2.0, seed=seed), p=p,
                           seed=seed + 1)

    cps, offsets = _flat(words)
    kernel, plain = _both(make, lambda m: m.encode_code_points(cps, offsets, groups=groups))
    assert plain == kernel


def test_ulm_8k_multiplexer_and_segmenter_agree():
    from workbench import datasets

    v = datasets.load_vocabulary("ulm-8k")
    words = [v.to_alphabet(" " + w) for w in ("hello", "world", "tokenisation", "again", "")]
    cps, offsets = _flat(words)
    for p in (0.0, 0.5, 1.0):
        kernel, plain = _both(
            lambda p=p: Multiplexer(default_segmenter(v), Grampa(v, tau=5.0, seed=0), p=p,
                                    seed=0),
            lambda m: m.encode_code_points(cps, offsets))
        assert plain == kernel and not isinstance(kernel, str)
    for method in ("viterbi", "longest"):
        kernel, plain = _both(lambda method=method: DeterministicSegmenter(v, method),
                              lambda s: s.encode_flat(words))
        assert plain == kernel


def test_errors_as_on_the_kernels_route():
    vocab = Vocabulary(["a", "b"], scores=[-1.0, -1.0])
    for method in ("viterbi", "longest"):
        for words in (["ab", "abc"], ["ab", 3], "ab"):
            kernel, plain = _both(lambda method=method: DeterministicSegmenter(vocab, method),
                                  lambda s, words=words: s.encode_flat(words))
            assert isinstance(kernel, str) and plain == kernel


def test_split_and_merge_are_the_kernels():
    from workbench.segmenters.multiplex import _split

    rng = np.random.default_rng(0)
    for _ in range(50):
        lengths = rng.integers(0, 4, size=rng.integers(0, 8))
        cps = rng.integers(97, 100, size=int(lengths.sum())).astype(np.int32)
        offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        cuts = np.sort(rng.integers(0, lengths.size + 1, size=rng.integers(0, 4)))
        sizes = np.diff(np.concatenate([[0], cuts, [lengths.size]])).astype(np.int64)
        heads = rng.random(sizes.size) < 0.5
        ref, got = _split(cps, offsets, sizes, heads), interpreted.split(cps, offsets, sizes,
                                                                         heads)
        assert [(a.dtype, a.tolist()) for a in ref] == [(a.dtype, a.tolist()) for a in got]


def test_applies_rule(monkeypatch):
    vocab = Vocabulary(["a", "ab"])
    assert "numba" in sys.modules and not interpreted.applies([2], vocab)
    monkeypatch.delitem(sys.modules, "numba")
    assert interpreted.applies([2, 3], vocab) and interpreted.applies([])
    assert interpreted.applies([interpreted.MAX_WORK]) and not interpreted.applies(
        [interpreted.MAX_WORK + 1])
    assert not interpreted.applies([3], Vocabulary.infinite())
    edge = [100] * (interpreted.MAX_WORK // 200)  # 100 · min(100, 2) each
    assert interpreted.applies(edge, vocab) and not interpreted.applies(edge + [1], vocab)


def test_the_route_is_taken_only_through_applies(monkeypatch):
    """The comparisons force the route by patching ``applies``: it must be the only gate."""
    calls = []

    def spy(*args, **kwargs):
        calls.append(args)
        return True

    def refuse(*args, **kwargs):
        raise AssertionError("interpreted route taken")

    vocab = Vocabulary(["a", "b"], scores=[-1.0, -1.0])
    monkeypatch.setattr(interpreted, "applies", spy)
    for name in ("encode", "split"):
        with monkeypatch.context() as m:
            m.setattr(interpreted, name, refuse)
            with pytest.raises(AssertionError, match="interpreted route taken"):
                if name == "encode":
                    DeterministicSegmenter(vocab).encode_flat(["ab"])
                else:
                    Multiplexer(default_segmenter(vocab), Grampa(vocab, seed=0), p=0.5,
                                seed=0).encode_code_points(np.array([97]), np.array([0, 1]))
    with monkeypatch.context() as m:
        m.setattr(interpreted, "encode", refuse)
        with pytest.raises(AssertionError, match="interpreted route taken"):
            DeterministicSegmenter(vocab).encode_code_points(np.array([97]), np.array([0, 1]))
    assert len(calls) >= 3
    monkeypatch.setattr(interpreted, "applies", lambda *a, **k: False)
    assert DeterministicSegmenter(vocab).encode_flat(["ab"])[0].tolist() == [0, 1]


FRESH = """
import json, sys
import numpy as np
from workbench import Grampa, Multiplexer, datasets
from workbench.segmenters import DeterministicSegmenter, default_segmenter
v = datasets.load_vocabulary("ulm-8k")
words = [v.to_alphabet(" " + w) for w in ("hello", "world", "tokenisation", "again", "")]
cps = np.array([ord(c) for c in "".join(words)])
offsets = np.cumsum([0] + [len(w) for w in words])
out = [[x.tolist() for x in Multiplexer(default_segmenter(v), Grampa(v, tau=5.0, seed=0),
                                       p=p, seed=0).encode_code_points(cps, offsets)]
       for p in (0.0, 0.5, 1.0)]
out += [[x.tolist() for x in DeterministicSegmenter(v, m).encode_flat(words)]
        for m in ("viterbi", "longest")]
print(json.dumps({"numba": "numba" in sys.modules, "out": out}))
"""


def test_a_fresh_process_encodes_without_numba_and_gets_the_kernels_ids():
    from workbench import datasets

    proc = subprocess.run([sys.executable, "-c", FRESH], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["numba"] is False
    v = datasets.load_vocabulary("ulm-8k")
    words = [v.to_alphabet(" " + w) for w in ("hello", "world", "tokenisation", "again", "")]
    cps, offsets = _flat(words)
    ref = [[x.tolist() for x in Multiplexer(default_segmenter(v), Grampa(v, tau=5.0, seed=0),
                                           p=p, seed=0).encode_code_points(cps, offsets)]
           for p in (0.0, 0.5, 1.0)]  # numba loaded here: the kernels
    ref += [[x.tolist() for x in DeterministicSegmenter(v, m).encode_flat(words)]
            for m in ("viterbi", "longest")]
    assert got["out"] == ref
