"""The fused numba text encoder (BPEModel.encode / encode_array / encode_batch) gives the ids
of the two-step reference (``regex.findall`` with the GPT-4 pattern, then
``encode_chunks`` per chunk) and of tiktoken built from the same merges, on held-out text.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.bpe import BPEModel, _textencode, train_bpe
from workbench.bpe.counting import count_chunks
from workbench.bpe.pattern import GPT4_PATTERN, GPT4_REGEX

_ALPHABET = list("the cat's hat,THE'LL 1234567.\n\r\t\xa0é中😀\u0301") + ["  ", "\r\n", " the"]
_SETTINGS = settings(max_examples=150, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow,
                                            HealthCheck.function_scoped_fixture])


def _reference(model: BPEModel, text: str) -> list[int]:
    return [i for ids in model.encode_chunks(GPT4_REGEX.findall(text)) for i in ids]


@pytest.fixture(scope="module")
def held_out():
    from workbench.datasets import load_text

    text = load_text("shakespeare")
    return text[:400_000], text[-300_000:] + load_text("brown")[:100_000]


@pytest.fixture(scope="module")
def model(held_out):
    return train_bpe(count_chunks(texts=[held_out[0]], num_threads=1), 3000, progress=False)


@pytest.fixture(scope="module")
def stop_model(held_out):
    counts = count_chunks(texts=[held_out[0]], num_threads=1)
    return train_bpe(counts, 1500, stop_list_size=20, progress=False)


def test_held_out_equals_reference(model, stop_model, held_out):
    text = held_out[1]
    for m in (model, stop_model):
        ref = _reference(m, text)
        assert m.encode(text) == ref
        assert m.encode_array(text).tolist() == ref
    assert len(stop_model.stop_words) == 20
    assert any(i in range(256, 276) for i in stop_model.encode(text[:5000]))


@_SETTINGS
@given(st.lists(st.sampled_from(_ALPHABET), max_size=60).map("".join))
def test_any_text_equals_reference(stop_model, text):
    assert stop_model.encode(text) == _reference(stop_model, text)


@_SETTINGS
@given(st.text(max_size=200), st.integers(1, 20))
def test_windows_do_not_change_ids(model, text, window):
    """Streaming cuts at safe positions: any window size gives the same ids."""
    enc = model._text_encoder()
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return
    whole = enc.encode(text, window=1 << 30)
    assert enc.encode(text, window=window) == whole
    assert enc.encode_array(text, window=window).tolist() == whole
    assert enc.encode_batch([text, text[:7]], 2, window=window) == [whole,
                                                                     enc.encode(text[:7])]


def test_batch_equals_single_on_both_threads(model, held_out):
    lines = held_out[1].splitlines(keepends=True)[:3000] + ["", "x", "  "]
    want = [model.encode(line) for line in lines]
    assert model.encode_batch(lines, num_threads=1) == want
    assert model.encode_batch(lines, num_threads=2) == want
    enc = model._text_encoder()
    assert enc.encode_batch(lines, 2, window=500) == want  # many windows, two threads


def test_long_chunk_uses_the_heap_path(model):
    text = "ab" * 5000 + " " + "x" * 300
    assert model.encode(text) == _reference(model, text)


def test_surrogate_and_argument_errors(model):
    with pytest.raises(ValueError, match="lone surrogate U\\+D800 at position 3"):
        model.encode("abc\ud800")
    with pytest.raises(ValueError, match="U\\+DC00 at position 1 of text 1"):
        model.encode_batch(["ok", "a\udc00"])
    with pytest.raises(TypeError):
        model.encode(b"x")
    with pytest.raises(TypeError):
        model.encode_batch("xyz")
    with pytest.raises(ValueError):
        model.encode_batch(["x"], num_threads=0)


def test_cache_is_bounded_and_aligned():
    """The chunk cache has a fixed size whatever the input; rows sit in one cache line."""
    cache = _textencode.new_cache()
    assert cache.nbytes == 32 << _textencode.CACHE_BITS <= 8 << 20
    assert cache.ctypes.data % 64 == 0 and not cache.any()


@pytest.mark.parametrize("bits", [1, 4])
def test_a_tiny_cache_gives_the_same_ids(stop_model, held_out, bits):
    """Rows evicted all the time, chunks sharing rows (keys compared exactly, NUL bytes and
    lengths included), stop words cached like other chunks: the ids do not change."""
    text = held_out[1][:60_000] + " a\x00 a\x00\x00 \x00a a " + "é" * 20
    want = _reference(stop_model, text)
    enc = _textencode.TextEncoder(stop_model._sym_merges,
                                  [w.encode("utf-8") for w in stop_model.stop_words], "gpt4")
    enc.cache_bits = bits
    assert enc.encode(text) == want
    assert enc.encode_batch([text[:30_000], text[30_000:]], 2, window=5_000) == [
        _reference(stop_model, text[:30_000]), _reference(stop_model, text[30_000:])]


def test_models_past_24_bit_ids_skip_the_cache(model, held_out):
    enc = _textencode.TextEncoder(model._sym_merges, [], "gpt4")
    assert enc.model.cached
    uncached = enc.model._replace(cached=False)
    text = held_out[1][:20_000]
    cps = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    starts = np.array([0, cps.size], dtype=np.int64)
    out = np.empty(4 * cps.size, dtype=np.int32)
    cache = _textencode.new_cache()
    end, bad = _textencode.encode_units(cps, starts, uncached, cache, out, 0,
                                        np.empty(2, dtype=np.int64))
    assert bad == -1 and not cache.any()
    assert out[:end].tolist() == _reference(model, text)


def test_equals_tiktoken(model, held_out):
    tiktoken = pytest.importorskip("tiktoken")
    ranks = {model.vocab[i]: i for i in range(len(model.vocab))}
    assert len(ranks) == len(model.vocab)  # no token spelled twice
    enc = tiktoken.Encoding(name="workbench-test", pat_str=GPT4_PATTERN,
                            mergeable_ranks=ranks, special_tokens={})
    text = held_out[1]
    assert model.encode(text) == enc.encode_ordinary(text)
    lines = text.splitlines(keepends=True)[:2000]
    assert model.encode_batch(lines, num_threads=2) == enc.encode_ordinary_batch(lines)


def test_ids_are_int32_array(model):
    arr = model.encode_array("hello world")
    assert arr.dtype == np.int32 and arr.tolist() == model.encode("hello world")
