"""count_chunks(pattern=...): GPT-2 and user regexes against regex-based counting, and the
pattern carried on to the trained model (issue 20: any split pattern, text → model)."""

from __future__ import annotations

import os
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive import counting as naive

from workbench.bpe import BPEModel, train_bpe
from workbench.bpe.counting import count_chunks

_ALPHABET = list("abSstlvedrmé中123'.!,") + [
    " ", " ", " ", "\t", "\n", "\n", "\r", "\u2028", "\xa0", "\x0b", "\x1c", "😀", "\u0301"]
texts_st = st.text(alphabet=st.sampled_from(_ALPHABET), max_size=80)
_SETTINGS = settings(max_examples=100, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])
COVERING = r"\w+|\s+|[^\w\s]+"
GAPPY = r"[a-z]+|\d"  # leaves everything else unmatched: gaps become chunks


@pytest.fixture(scope="module")
def sample_text() -> str:
    from workbench.datasets import load_text

    return load_text("shakespeare")[:150_000] + "\n\n" + load_text("brown")[:80_000]


@given(texts=st.lists(texts_st, max_size=4), block=st.integers(1, 40),
       cutoff=st.integers(1, 3))
@_SETTINGS
def test_gpt2_random_texts_equal_regex(texts, block, cutoff):
    got = count_chunks(texts=texts, block_size=block, num_threads=1, freq_cutoff=cutoff,
                       pattern="gpt2")
    assert got == naive.count_texts(texts, cutoff, naive.GPT2)


@given(text=texts_st, block=st.integers(1, 40))
@_SETTINGS
def test_gpt2_random_files_equal_regex(text, block):
    handle = tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False)
    with handle:
        handle.write(text.encode("utf-8"))
    try:
        got = count_chunks(handle.name, block_size=block, num_threads=1, pattern="gpt2")
        assert got == naive.count_files([handle.name], pattern=naive.GPT2)
    finally:
        os.unlink(handle.name)


@given(texts=st.lists(texts_st, max_size=4), block=st.integers(1, 40),
       pattern=st.sampled_from([COVERING, GAPPY, r"(?i)[aeiou]+|."]))
@_SETTINGS
def test_user_regex_random_texts_equal_regex(texts, block, pattern):
    got = count_chunks(texts=texts, block_size=block, num_threads=1, pattern=pattern)
    assert got == naive.count_texts(texts, 1, pattern)


def test_shipped_text_every_pattern(sample_text, tmp_path):
    path = tmp_path / "sample.txt"
    path.write_bytes(sample_text.encode("utf-8"))
    halves = [sample_text[:100_003], sample_text[100_003:]]
    for name, regex_text in (("gpt2", naive.GPT2), ("gpt4", naive.GPT4),
                             (COVERING, COVERING), (GAPPY, GAPPY)):
        want = naive.count_texts([sample_text], 1, regex_text)
        for processes, block in ((1, 997), (2, 20_000)):
            assert count_chunks(path, num_threads=processes, block_size=block,
                                pattern=name) == want, (name, processes, block)
        assert count_chunks(texts=halves, num_threads=2, block_size=5_000,
                            pattern=name) == naive.count_texts(halves, 1, regex_text)
    # a named pattern given as its regex text is the named pattern
    assert count_chunks(texts=[sample_text[:5000]], pattern=naive.GPT2) == \
        count_chunks(texts=[sample_text[:5000]], pattern="gpt2")


def test_gpt2_differs_from_gpt4_where_the_patterns_do():
    text = "year 12345, they'RE here"
    assert count_chunks(texts=[text], pattern="gpt2") == {
        " 12345": 1, " here": 1, " they": 1, "'": 1, ",": 1, "RE": 1, "year": 1}
    assert count_chunks(texts=[text]) == {
        " ": 1, " here": 1, " they": 1, "'RE": 1, ",": 1, "123": 1, "45": 1, "year": 1}


@pytest.mark.parametrize("pattern", [None, 3, b"gpt2"])
def test_pattern_type_checked(pattern):
    with pytest.raises(TypeError, match="pattern"):
        count_chunks(texts=["a"], pattern=pattern)


@pytest.mark.parametrize("pattern", ["", "(", "[a-"])
def test_pattern_value_checked(pattern):
    with pytest.raises(ValueError, match="pattern"):
        count_chunks(texts=["a"], pattern=pattern)


@pytest.mark.parametrize("pattern", ["gpt2", COVERING, GAPPY])
def test_text_to_model_keeps_the_pattern(sample_text, pattern):
    """Count with a pattern, train with it: the model splits text as the counting did, so
    encoding a training text gives tokens inside the counted chunks only."""
    text = sample_text[:60_000]
    table = count_chunks(texts=[text], pattern=pattern)
    model = train_bpe(table, 700, pattern=pattern, progress=False)
    assert isinstance(model, BPEModel)
    assert model.split(text) == naive.chunks(text, {"gpt2": naive.GPT2}.get(pattern, pattern))
    assert sorted(set(model.split(text))) == sorted(table)
    assert model.decode(model.encode(text)) == text
    again = BPEModel.load(_saved(model))
    assert again == model and again.pattern == model.pattern


def _saved(model: BPEModel) -> str:
    handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    handle.close()
    model.save(handle.name)
    return handle.name


@pytest.mark.parametrize("block", [1, 2, 3, 5, 8])
def test_gpt2_whitespace_runs_before_a_cut(tmp_path, block):
    """GPT-2 gives "\\n\\nA" as "\\n", "\\n", "A" (GPT-4: "\\n\\n", "A"): no block may end
    after a run of two whitespace characters."""
    text = "a\n\nB c \n D\r\nE  F\n\n\nG\n" * 7 + "x \n"
    want = naive.count_texts([text], 1, naive.GPT2)
    assert want["\n"] > 7 * 3
    assert count_chunks(texts=[text], block_size=block, num_threads=1, pattern="gpt2") == want
    path = tmp_path / "runs.txt"
    path.write_bytes(text.encode("utf-8"))
    assert count_chunks(path, block_size=block, num_threads=2, pattern="gpt2") == want
    assert count_chunks([path, path], block_size=block, num_threads=2, pattern="gpt2") == {
        c: 2 * n for c, n in want.items()}
