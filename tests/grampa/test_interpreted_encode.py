"""``Grampa.encode_flat`` on the plain-Python route returns the kernels' ids, bit for bit.

This suite has loaded numba, so the route (:mod:`workbench.grampa.interpreted_encode` over
:mod:`workbench.grampa.interpreted`) is forced by patching
:func:`workbench.grampa.interpreted.applies` to True and compared with the same call with it
patched to False (the numba kernels), on the same seed; a fresh process checks the route
itself (no numba loaded, the kernels' ids).
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
from workbench.grampa import interpreted, interpreted_encode

ROOT = Path(__file__).resolve().parents[2]
TAUS = [1.0, 2.0, -2.0, 0.5, math.inf, -math.inf, 0.01, 1e6]


def _both(make, call):
    """``call(make())`` on the kernels' route and on the plain-Python route (each a result or
    the error raised), the route chosen by patching ``applies``."""
    out = []
    for route in (False, True):
        with pytest.MonkeyPatch.context() as m:
            m.setattr(interpreted, "applies", lambda *a, route=route, **k: route)
            try:
                out.append(call(make()))
            except (SegmentationError, TypeError, ValueError) as err:
                out.append(err)
    return out


def _same(kernel, plain) -> None:
    if isinstance(kernel, Exception):
        assert type(plain) is type(kernel) and str(plain) == str(kernel)
        return
    assert not isinstance(plain, Exception), plain
    for a, b in zip(kernel, plain):
        assert a.dtype == b.dtype and a.tolist() == b.tolist()


@settings(max_examples=250, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tokens=st.sets(st.text("abc", min_size=1, max_size=4), min_size=1, max_size=12),
       words=st.lists(st.text("abcd", max_size=14), max_size=4),
       tau=st.sampled_from(TAUS), ell_min=st.integers(1, 3),
       direction=st.sampled_from(["l2r", "r2l"]), seed=st.integers(0, 2**32),
       shuffle=st.randoms(use_true_random=False))
def test_encode_same_ids_as_the_kernels(tokens, words, tau, ell_min, direction, seed,
                                        shuffle):
    toks = sorted(tokens)
    ids = list(range(3, 3 + 2 * len(toks), 2))  # not 0..N-1: ids come from the vocabulary
    shuffle.shuffle(ids)
    vocab = Vocabulary(toks, ids=ids)

    def make():
        return Grampa(vocab, tau=tau, ell_min=ell_min, direction=direction, seed=seed)

    kernel, plain = _both(make, lambda g: [g.encode_flat(words), g.encode_flat(words[::-1])])
    if isinstance(kernel, Exception):
        _same(kernel, plain)
    else:
        for k, p in zip(kernel, plain):
            _same(k, p)
    cps = np.array([ord(c) for c in "".join(words)], dtype=np.int64)
    offsets = np.cumsum([0] + [len(w) for w in words])
    _same(*_both(make, lambda g: g.encode_code_points(cps, offsets)))


def test_encode_and_encode_code_points_agree_on_ulm_8k():
    from workbench import datasets

    v = datasets.load_vocabulary("ulm-8k")
    words = [v.to_alphabet(" " + w) for w in ("hello", "world", "tokenisation", "")]
    cps = np.array([ord(c) for c in "".join(words)])
    offsets = np.cumsum([0] + [len(w) for w in words])
    for tau in (5.0, 1.0, -2.0):
        def make(tau=tau):
            return Grampa(v, tau=tau, seed=0)

        _same(*_both(make, lambda g: g.encode_flat(words)))
        _same(*_both(make, lambda g: g.encode_code_points(cps, offsets)))


def test_errors_and_seeds_as_on_the_kernels_route():
    """A word without segmentation, or not a str, fails alike; the generator then stands
    where the kernels' route leaves it."""
    vocab = Vocabulary(["a", "b", "ab"])

    def run(g):
        out = []
        for words in (["ab", "abc"], ["ab", 3], ["abab", "b"]):
            try:
                out.append(g.encode_flat(words)[0].tolist())
            except (SegmentationError, TypeError) as err:
                out.append(f"{type(err).__name__}: {err}")
        return out

    kernel, plain = _both(lambda: Grampa(vocab, tau=0.5, seed=4), run)
    assert kernel == plain
    assert kernel[0].startswith("SegmentationError") and kernel[1].startswith("ArgumentTypeError")


def test_ids_from_lengths_and_words_from_flat():
    v = Vocabulary(["x", "yz", "y", "z"], ids=[9, 4, 7, 2])
    ids, offs = interpreted_encode.ids_from_lengths(["xyz", "", "z"], [[1, 2], [], [1]], v)
    assert ids.dtype == np.int32 and offs.dtype == np.int64
    assert ids.tolist() == [9, 4, 2] and offs.tolist() == [0, 2, 2, 3]
    empty = interpreted_encode.ids_from_lengths([], [], v)
    assert empty[0].tolist() == [] and empty[1].tolist() == [0]
    cps = np.array([120, 0x1F600, 121], dtype=np.int32)
    assert interpreted_encode.words_from_flat(cps, np.array([0, 0, 2, 3])) == [
        "", "x\U0001F600", "y"]


def test_the_route_is_taken_only_through_applies(monkeypatch):
    """The comparisons force the route by patching ``applies``: it must be the only gate
    (a rule never consulted would make them compare the kernels with themselves), for
    ``encode_flat`` and for ``encode_code_points``."""
    calls = []

    def spy(*args, **kwargs):
        calls.append(args)
        return True

    def refuse(*args, **kwargs):
        raise AssertionError("interpreted route taken")

    monkeypatch.setattr(interpreted_encode, "ids_from_lengths", refuse)
    monkeypatch.setattr(interpreted, "applies", spy)
    g = Grampa(Vocabulary(["a", "b"]), seed=0)
    with pytest.raises(AssertionError, match="interpreted route taken"):
        g.encode_flat(["ab"])
    with pytest.raises(AssertionError, match="interpreted route taken"):
        g.encode_code_points(np.array([97, 98]), np.array([0, 2]))
    assert len(calls) >= 3
    monkeypatch.setattr(interpreted, "applies", lambda *a, **k: False)
    assert g.encode_flat(["ab"])[0].tolist() == [0, 1]  # shut: the kernels, no plain Python


FRESH = """
import json, sys
import numpy as np
from workbench import Grampa, datasets
v = datasets.load_vocabulary("ulm-8k")
words = [v.to_alphabet(" " + w) for w in ("hello", "world", "tokenisation", "the")]
cps = np.array([ord(c) for c in "".join(words)])
offsets = np.cumsum([0] + [len(w) for w in words])
out = {}
for tau, direction in ((5.0, "l2r"), (-2.0, "r2l"), (1.0, "l2r")):
    g = Grampa(v, tau=tau, direction=direction, seed=0)
    a, b = g.encode_flat(words[:2]), g.encode_code_points(cps, offsets)
    out[f"{tau} {direction}"] = [x.tolist() for x in (*a, *b)]
print(json.dumps({"numba": "numba" in sys.modules, "out": out}))
"""


def test_a_fresh_process_encodes_without_numba_and_gets_the_kernels_ids():
    from workbench import datasets

    proc = subprocess.run([sys.executable, "-c", FRESH], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["numba"] is False
    v = datasets.load_vocabulary("ulm-8k")
    words = [v.to_alphabet(" " + w) for w in ("hello", "world", "tokenisation", "the")]
    cps = np.array([ord(c) for c in "".join(words)])
    offsets = np.cumsum([0] + [len(w) for w in words])
    for key, values in got["out"].items():
        tau, direction = key.split()
        g = Grampa(v, tau=float(tau), direction=direction, seed=0)
        a, b = g.encode_flat(words[:2]), g.encode_code_points(cps, offsets)  # numba loaded here
        assert values == [x.tolist() for x in (*a, *b)]
