"""``BPEModel.encode`` on the plain-Python route returns the kernels' ids, bit for bit.

This suite has loaded numba, so the route (:mod:`workbench.bpe.interpreted`) is forced by
patching :func:`workbench.bpe.interpreted.applies` to True and compared with the same call
with it patched to False (the fused numba encoder), on generated models (stop words,
permuted ids, both named patterns) and texts, and on GPT-2; a fresh process checks the
route itself (no numba loaded, the kernels' ids).
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.bpe import BPEExhaustedWarning, BPEModel, dropout_chunks, interpreted, train_bpe

ROOT = Path(__file__).resolve().parents[2]
ALPHABET = "ab é\n'1😀s\tA"
TEXTS = ["hello world", "", " ", "Hello world's 12345 end!!\n", "  two  spaces\t\n\n x",
         "héllo 👋 wörld — ok?", "I'm   you'll they've 1234567 3.14", "a" * 300,
         "日本語のテキスト、と English.", "\r\n\r\n", "tab\tand\u00a0nbsp", "Ġ" * 5]


def _both(model: BPEModel, text: str) -> list:
    """``model.encode(text)`` on the kernels' route, then on the plain-Python route."""
    out = []
    for route in (False, True):
        with pytest.MonkeyPatch.context() as m:
            m.setattr(interpreted, "applies", lambda text, route=route: route)
            try:
                out.append(model.encode(text))
            except ValueError as err:
                out.append(f"ValueError: {err}")
    return out


@pytest.fixture(scope="module")
def gpt2() -> BPEModel:
    return BPEModel.from_gpt2()


@pytest.mark.parametrize("text", TEXTS)
def test_gpt2_same_ids_as_the_kernels(gpt2, text):
    kernel, plain = _both(gpt2, text)
    assert plain == kernel
    assert gpt2.decode(plain) == text


def test_a_lone_surrogate_is_refused_alike(gpt2):
    kernel, plain = _both(gpt2, "ok \udc80 no")
    assert kernel.startswith("ValueError: text holds a lone surrogate U+DC80 at position 3")
    assert plain == kernel


@st.composite
def models(draw):
    words = draw(st.lists(st.text(ALPHABET, min_size=1, max_size=8), min_size=1, max_size=8))
    counts = {w: draw(st.integers(1, 9)) for w in words}
    pattern = draw(st.sampled_from(["gpt4", "gpt2"]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BPEExhaustedWarning)
        trained = train_bpe(counts, 256 + draw(st.integers(0, 24)), progress=False,
                            pattern=pattern)
    stop = draw(st.lists(st.sampled_from([*words, " a", "é"]), unique=True, max_size=2))
    n = 256 + len(stop) + len(trained.merges)
    ids = list(range(5, 5 + 3 * n, 3))  # not 0..N-1: ids are mapped from the symbols
    draw(st.randoms(use_true_random=False)).shuffle(ids)
    return BPEModel(trained.merges, stop, pattern=pattern,
                    merge_symbols=trained._sym_merges.tolist(), ids=ids)


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(model=models(), texts=st.lists(st.text(ALPHABET, max_size=40), min_size=1,
                                      max_size=3))
def test_generated_models_same_ids_as_the_kernels(model, texts):
    for text in [*texts, "".join(texts), *model.stop_words]:
        kernel, plain = _both(model, text)
        assert plain == kernel


def test_merge_chunk_follows_rank_then_position():
    ranks = interpreted.pair_ranks(np.array([[97, 97], [98, 97], [256, 97]]))
    assert interpreted.merge_chunk(b"aaaa", ranks) == [256, 256]  # leftmost first
    assert interpreted.merge_chunk(b"aaa", ranks) == [258]
    assert interpreted.merge_chunk(b"baaa", ranks) == [98, 258]  # rank 0 before rank 1
    assert interpreted.merge_chunk(b"", ranks) == []
    assert interpreted.merge_chunk(b"a", ranks) == [97]
    stop = {b" the": 0}  # stop word: 256 + 0; merge symbols shift past it
    assert interpreted.encode_chunks([" the", "aa", "x"], ranks, stop) == [256, 257, 120]


def test_applies_rule(monkeypatch):
    assert "numba" in sys.modules and not interpreted.applies("hi")
    monkeypatch.delitem(sys.modules, "numba")
    assert interpreted.applies("hi") and interpreted.applies("x" * interpreted.MAX_CHARS)
    assert not interpreted.applies("x" * (interpreted.MAX_CHARS + 1))


def test_the_route_is_taken_only_through_applies(monkeypatch, gpt2):
    """The comparisons force the route by patching ``applies``: it must be the only gate."""
    calls = []

    def spy(text):
        calls.append(text)
        return True

    def refuse(*args, **kwargs):
        raise AssertionError("interpreted route taken")

    monkeypatch.setattr(interpreted, "encode_chunks", refuse)
    monkeypatch.setattr(interpreted, "applies", spy)
    with pytest.raises(AssertionError, match="interpreted route taken"):
        gpt2.encode("hello world")
    assert calls == ["hello world"]
    monkeypatch.setattr(interpreted, "applies", lambda text: False)
    assert gpt2.encode("hello world") == [31373, 995]  # shut: the kernels
    monkeypatch.setattr(interpreted, "applies", refuse)  # BPE-dropout never asks
    assert gpt2.decode(dropout_chunks(gpt2, ["hello"], 0.5, 0)[0]) == "hello"


FRESH = """
import json, sys
from workbench import BPEModel
m = BPEModel.from_gpt2()
texts = json.loads(sys.argv[1])
out = [m.encode(t) for t in texts]
print(json.dumps({"numba": "numba" in sys.modules, "out": out}))
"""


def test_a_fresh_process_encodes_without_numba_and_gets_the_kernels_ids(gpt2):
    proc = subprocess.run([sys.executable, "-c", FRESH, json.dumps(TEXTS)], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["numba"] is False
    assert got["out"] == [gpt2.encode(t) for t in TEXTS]  # numba loaded here: the kernels
    assert got["out"][0] == [31373, 995]
