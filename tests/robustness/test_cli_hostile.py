"""The CLI's hostile inputs (issue 19): usage errors exit 2 with a message, never 0 or a
traceback; long counts print whole; optional dependencies are asked for before any work."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from workbench.__main__ import main


@pytest.mark.parametrize("argv,message", [
    (["verify", "--width", "-5"], "must be >= 1"),
    (["sample", "-n", "0", "ab"], "must be >= 1"),
    (["sample", "-n", "x", "ab"], "not an integer"),
])
def test_usage_errors_exit_two(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("argv,message", [
    (["law", "--sampler", "bpe-dropout", "--dropout", "2", "ab"], "dropout must be in [0, 1]"),
    (["law", "--sampler", "maxmatch-dropout", "--dropout", "nan", "ab"], "must be a number"),
    (["law", "--tau", "0", "ab"], "tau must be a non-zero"),
    (["law", "--tau", "nan", "ab"], "must be a number"),
    (["law", "--top", "-1", "ab"], "--top must be >= 0"),
    (["law", "--sampler", "ulm", "--nbest", "0", "ab"], "nbest must be -1"),
    (["law", "--sampler", "bpe-dropout", "--vocab", "gpt2", "--space", "x" * 60],
     "over the budget"),
])
def test_law_refuses_bad_values_with_a_message(argv, message, capsys):
    """The law command (issue 28), covered here as issue 30 asks: a bad value is exit 2 and
    one line naming it, never a traceback; a word over the budget is refused at once."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


@pytest.mark.skipif(sys.version_info < (3, 11), reason="the int→str limit came with 3.11")
def test_count_of_a_long_word_prints_every_digit():
    word = "a" * 20_000  # 2^19999 segmentations: 6,021 digits
    out = subprocess.run([sys.executable, "-m", "workbench", "count", "--vocab", "infinite",
                          word], capture_output=True, text=True, check=True).stdout
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        assert out == f"{word}\t{2 ** 19_999}\n"
    finally:
        sys.set_int_max_str_digits(limit)


def test_experiments_without_sentencepiece_says_so_before_any_work(tmp_path, monkeypatch,
                                                                   capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "sentencepiece" else real(name, *a))
    assert main(["experiments", "--quick", "--out", str(tmp_path)]) == 2
    assert "pip install sentencepiece" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_ulm_sampler_missing_model_path_named(tmp_path):
    from workbench import ULMSampler, datasets

    with pytest.raises(FileNotFoundError, match="no SentencePiece model at"):
        ULMSampler(datasets.load_vocabulary("ulm-8k"), model_path=tmp_path / "missing.model")
    bad = tmp_path / "bad.model"
    bad.write_bytes(b"not a model")
    with pytest.raises(ValueError, match="is not a SentencePiece model"):
        ULMSampler(datasets.load_vocabulary("ulm-8k"), model_path=bad)
