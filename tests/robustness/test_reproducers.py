"""Issue 19's reproducers, one test each, named after the input that broke.

Each reproducer once gave a wrong answer, lost data, overflowed or raised an unclear error;
each now gets the right answer or a clear error naming the argument (or file and line).
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

from workbench import Vocabulary, renyi_efficiency, renyi_entropy, shannon_entropy, train_bpe
from workbench._core.io import atomic_write, check_output_path, write_atomic
from workbench.counts import CountsFormatError, read_counts, write_counts
from workbench.stats import chisquare_test, frequencies, trial_tolerance, tv_distance, z_test


# ---------------------------------------------------------------- counts TSV round trips
def test_write_counts_chunk_with_lone_cr_reads_back(tmp_path):
    table = {"hello\rworld\r": 3, "a\r": 2, "plain": 1}
    write_counts(table, tmp_path / "t.tsv")
    assert read_counts(tmp_path / "t.tsv") == table


def test_write_counts_chunk_over_csv_field_limit_reads_back(tmp_path):
    table = {"x" * 131_073: 2, "y" * 300_000: 1}
    write_counts(table, tmp_path / "t.tsv")
    assert read_counts(tmp_path / "t.tsv") == table


def test_write_counts_surrogate_chunk_leaves_no_file(tmp_path):
    with pytest.raises(ValueError, match="surrogate"):
        write_counts({"a": 2, "b \ud800": 1}, tmp_path / "t.tsv")
    assert os.listdir(tmp_path) == []


def test_write_counts_interrupted_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "t.tsv"
    write_counts({"old": 1}, target)
    import csv

    real_writer = csv.writer

    class Interrupting:
        def __init__(self, *args, **kwargs):
            self.inner = real_writer(*args, **kwargs)
            self.rows = 0

        def writerow(self, row):
            self.rows += 1
            if self.rows > 2:
                raise KeyboardInterrupt
            return self.inner.writerow(row)

    monkeypatch.setattr(csv, "writer", Interrupting)
    with pytest.raises(KeyboardInterrupt):
        write_counts({f"c{i}": i + 1 for i in range(100)}, target)
    assert read_counts(target) == {"old": 1}
    assert sorted(os.listdir(tmp_path)) == ["t.tsv"]


def test_read_counts_count_over_int64_names_file_and_line(tmp_path):
    path = tmp_path / "t.tsv"
    path.write_text(f"a\t1\nb\t{2**63}\n", encoding="utf-8")
    with pytest.raises(CountsFormatError, match=r"t\.tsv, line 2: count .* over 2\^63"):
        read_counts(path)


# ---------------------------------------------------------------- overflow at the boundary
def test_train_bpe_pair_counts_over_int64_refused():
    with pytest.raises(ValueError, match=r"pair counts could reach .* over 2\^63"):
        train_bpe({"a" * 17: 2**61, "bc": 1}, 257)


@pytest.mark.parametrize("kwargs,name", [({"cap_divisor": 2**64}, "cap_divisor"),
                                         ({"max_batch_size": 2**63}, "max_batch_size")])
def test_train_bpe_huge_int_argument_named(kwargs, name):
    with pytest.raises(ValueError, match=f"{name} must be <= {2**63 - 1}"):
        train_bpe({"ab": 3}, 257, **kwargs)


def test_train_bpe_count_over_int64_named():
    with pytest.raises(ValueError, match=r"count of 'ab' is over 2\^63"):
        train_bpe({"ab": 2**64}, 257)


# ---------------------------------------------------------------- scale-invariant metrics
def test_shannon_entropy_of_two_huge_counts_is_one_bit():
    assert shannon_entropy([1e308, 1e308]) == 1.0


def test_renyi_entropy_order_two_of_two_huge_counts_is_one_bit():
    assert math.isclose(renyi_entropy([1e308, 1e308], 2.0), 1.0, rel_tol=1e-15)


def test_renyi_efficiency_with_huge_counts_matches_scaled_down():
    expected = renyi_efficiency([1.0, 1.0, 1e-308], 2.5)
    assert math.isclose(renyi_efficiency([1e308, 1e308, 1], 2.5), expected, rel_tol=1e-12)
    assert 0.6 < expected < 0.65  # H_2.5 ≈ 1 bit over log2(3)


# ---------------------------------------------------------------- NaN never comes out
@pytest.mark.parametrize("call", [
    lambda: tv_distance([np.nan, 1.0], [0.5, 0.5]),
    lambda: tv_distance([0.5, 0.5], [np.inf, 0.0]),
    lambda: trial_tolerance(float("nan"), 10),
    lambda: chisquare_test(np.array([1.0, np.nan]), [0.5, 0.5]),
    lambda: chisquare_test(np.array([3.0, 4.0]), [np.nan, 0.5]),
    lambda: frequencies([1.0, np.nan]),
], ids=["tv-p", "tv-q", "trial-tolerance", "chisq-observed", "chisq-probs", "frequencies"])
def test_stats_refuse_nan_and_inf(call):
    with pytest.raises(ValueError, match="NaN|infinite|finite"):
        call()


def test_z_test_of_empty_sample_is_a_clear_error():
    with pytest.raises(ValueError, match="sample is empty"):
        z_test(np.array([]), 0.0, 1.0)


def test_frequencies_with_a_trillion_cells_refused_before_allocating():
    from workbench._core.validate import BudgetError

    with pytest.raises(BudgetError):
        frequencies([1, 2], n_cells=10**12)


# ---------------------------------------------------------------- writes: atomic, checked
def test_vocabulary_save_with_surrogate_leaves_no_file(tmp_path):
    with pytest.raises(ValueError, match="surrogate"):
        Vocabulary(["a", "b\udc80"]).save(tmp_path / "v.txt")
    assert os.listdir(tmp_path) == []


def test_vocabulary_save_round_trip_keeps_permissions(tmp_path):
    path = tmp_path / "v.txt"
    Vocabulary(["a", "b"]).save(path)
    assert Vocabulary.load(path).tokens == ("a", "b")
    assert path.stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@pytest.mark.parametrize("target,message", [("/dev/full", "not a regular file"),
                                            (".", "is a directory")])
def test_output_path_special_or_directory_refused(target, message):
    with pytest.raises(ValueError, match=message):
        check_output_path(target)


def test_output_path_missing_parent_refused(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        check_output_path(tmp_path / "no" / "such" / "file.txt")


def test_atomic_write_failure_leaves_target_and_no_temp(tmp_path):
    target = tmp_path / "f.bin"
    write_atomic(target, b"old")
    with pytest.raises(RuntimeError), atomic_write(target, "wb") as handle:
        handle.write(b"new, half")
        raise RuntimeError("interrupted")
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["f.bin"]


# ---------------------------------------------------------------- vocabulary formats
from workbench import datasets  # noqa: E402
from workbench.vocab import VocabularyFormatError  # noqa: E402


def _write(tmp_path, name, content):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", newline="")
    return path


def test_hf_wordpiece_tokenizer_json_refused_by_format(tmp_path):
    doc = {"model": {"type": "WordPiece", "continuing_subword_prefix": "##",
                     "vocab": {"[UNK]": 0, "un": 1, "##able": 2}}}
    path = _write(tmp_path, "tokenizer.json", __import__("json").dumps(doc))
    with pytest.raises(VocabularyFormatError, match=r"tokenizer\.json: HF WordPiece .*'##'"):
        Vocabulary.load(path)


def test_sentencepiece_vocab_file_loads_as_the_model_does(tmp_path):
    spm = pytest.importorskip("sentencepiece")
    model = datasets.sentencepiece_model_path("ulm-8k")
    sp = spm.SentencePieceProcessor(model_file=str(model))
    lines = [f"{sp.id_to_piece(i)}\t{sp.get_score(i):g}" for i in range(sp.get_piece_size())]
    path = _write(tmp_path, "ulm.vocab", "\n".join(lines) + "\n")
    from_vocab, from_model = Vocabulary.load(path), Vocabulary.load(model)
    assert from_vocab.tokens == from_model.tokens
    assert from_vocab.ids.tolist() == from_model.ids.tolist()
    assert from_vocab.alphabet == "sentencepiece"
    assert np.allclose(from_vocab.scores, from_model.scores, rtol=1e-5)
    assert not any("\t" in t for t in from_vocab.tokens)


def test_tiktoken_rank_file_loads_as_byte_level_gpt2(tmp_path):
    import base64

    from workbench.vocab import bytes_to_unicode

    to_byte = {c: b for b, c in bytes_to_unicode().items()}
    gpt2 = datasets.load_vocabulary("gpt2")
    lines = []
    for token, i in zip(gpt2.tokens, gpt2.ids.tolist()):
        raw = bytes(to_byte[c] for c in token)
        lines.append(f"{base64.b64encode(raw).decode()} {i}")
    loaded = Vocabulary.load(_write(tmp_path, "gpt2.tiktoken", "\n".join(lines) + "\n"))
    assert loaded.tokens == gpt2.tokens and loaded.ids.tolist() == gpt2.ids.tolist()
    assert loaded.alphabet == "byte-level"
    assert "IQ== 0" not in loaded.tokens


@pytest.mark.parametrize("content,message", [
    ('{"a": 0, "b": 1, "a": 2}', "key 'a' appears twice"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply|invalid vocabulary"),
    ('{"format": "workbench-vocabulary", "version": 99, "tokens": ["a"], "ids": [0], '
     '"alphabet": "identity"}', "version 99 is not supported"),
    ('{"model": {"type": "Unigram", "vocab": [["a", NaN]]}}', "NaN"),
    ('{"model": {"type": "Unigram", "vocab": [["a", 1e999]]}}', r"finite score|\$\.model"),
    ('{"model": {"type": "BPE", "vocab": {"a": 1.5}}}', r"\$\.model\.vocab\['a'\]"),
], ids=["duplicate-keys", "deep-json", "version-99", "nan-score", "inf-score", "float-id"])
def test_malformed_json_vocabulary_names_file_and_place(tmp_path, content, message):
    path = _write(tmp_path, "v.json", content)
    with pytest.raises(VocabularyFormatError, match=message) as err:
        Vocabulary.load(path)
    assert str(path) in str(err.value)


def test_bom_is_not_part_of_the_first_token(tmp_path):
    assert Vocabulary.load(_write(tmp_path, "v.txt", "\ufeffab\ncd\n")).tokens == ("ab", "cd")


def test_cr_only_token_list_is_three_tokens(tmp_path):
    assert Vocabulary.load(_write(tmp_path, "v.txt", "a\rb\rc\r")).tokens == ("a", "b", "c")


def test_empty_vocabulary_file_refused(tmp_path):
    with pytest.raises(VocabularyFormatError, match="no tokens"):
        Vocabulary.load(_write(tmp_path, "v.txt", ""))


def test_dev_zero_refused_before_reading():
    with pytest.raises(VocabularyFormatError, match="not a regular file"):
        Vocabulary.load("/dev/zero")


@pytest.mark.parametrize("scores", [[0.0, float("nan")], [float("inf"), 0.0]])
def test_vocabulary_non_finite_scores_refused(scores):
    with pytest.raises(ValueError, match="scores must be finite"):
        Vocabulary(["a", "b"], scores=scores)


def test_vocabulary_id_over_int64_named():
    with pytest.raises(ValueError, match="id at position 1 must be below"):
        Vocabulary(["a", "b"], ids=[0, 2**64])
