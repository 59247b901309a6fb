"""``python -m workbench law``: the printed law is the library's, errors are clean."""

from __future__ import annotations

import json
import math

from workbench import MaxMatchSampler, Vocabulary
from workbench.__main__ import main
from workbench.samplers import StochasTokSampler


def test_law_prints_the_summary_and_top_segmentations(tmp_path, capsys):
    path = tmp_path / "v.txt"
    Vocabulary(["a", "ab", "abc", "d"]).save(path)
    assert main(["law", "--vocab", str(path), "--sampler", "maxmatch-dropout", "--dropout", "0.5",
                 "abcd"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "failure_mass\t0.5" in out and "regularisation_rate\t0.5" in out
    assert out[-2:] == ["top 1 of 1 segmentations of abcd:", "0.5\tabc | d"]


def test_law_json_equals_the_library(tmp_path, capsys):
    path = tmp_path / "v.txt"
    v = Vocabulary(["a", "b", "ab", "abb", "ba", "bab"])
    v.save(path)
    assert main(["law", "--vocab", str(path), "--sampler", "maxmatch-dropout", "--dropout", "0.3",
                 "--json", "--top", "3", "abbab", "babab"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for row in rows:
        law = MaxMatchSampler(Vocabulary.load(path), dropout=0.3).law(row["word"])
        assert row["support_size"] == law.support_size and len(row["top"]) == 3
        assert [(tuple(t["tokens"]), t["probability"]) for t in row["top"]] == list(
            law.probabilities(3).items())
        assert row["entropy_nats"] == law.shannon_entropy(math.e)


def test_law_of_bpe_dropout_with_gpt2_merges(capsys):
    assert main(["law", "--vocab", "gpt2", "--space", "--sampler", "bpe-dropout",
                 "--dropout", "0.1", "--top", "1", "--json", "tokenization"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["support_size"] == 1566 and row["mode"] == ["Ġtoken", "ization"]
    assert abs(row["top"][0]["probability"] - 0.79605) < 1e-5


def test_law_says_how_to_type_a_word_copied_with_its_space_marker(capsys):
    """'Ġtokenization' typed as printed is another word ('Äł' + ...): the CLI says so."""
    assert main(["law", "--vocab", "gpt2", "--sampler", "bpe-dropout", "--top", "1", "--json",
                 "Ġtokenization"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["mode"][:2] == ["Ä", "ł"]
    assert "'Ġ' is how gpt2 writes a space" in captured.err
    assert "type 'tokenization' with --space" in captured.err
    assert main(["law", "--vocab", "gpt2", "--space", "--sampler", "bpe-dropout", "--top", "1",
                 "--json", "tokenization"]) == 0
    assert "writes a space" not in capsys.readouterr().err


def test_law_of_stochastok_and_of_a_long_word(tmp_path, capsys):
    path = tmp_path / "v.txt"
    v = Vocabulary(["a", "b", "c", "ab", "bc", "abc", "ca", "cab"])
    v.save(path)
    assert main(["law", "--vocab", str(path), "--sampler", "stochastok", "--attempts", "2",
                 "--json", "abcabc"]) == 0
    row = json.loads(capsys.readouterr().out)
    law = StochasTokSampler(v, attempts=2).law("abcabc")
    assert row["deterministic"] == ["abc", "abc"] and row["support_size"] == law.support_size
    assert row["regularisation_rate"] == law.regularisation_rate
    # a chain law past the enumeration budget: summaries by DP, its mode as the top row
    assert main(["law", "--vocab", str(path), "--sampler", "grampa", "--json",
                 "abc" * 60]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["n_segmentations"] > 10**20 and "tv_to_uniform" not in row
    assert row["top"][0]["tokens"] == row["mode"]


def test_law_errors_are_clean(tmp_path, capsys):
    path = tmp_path / "v.txt"
    Vocabulary(["a", "b"]).save(path)
    assert main(["law", "--vocab", str(path), "--sampler", "uniform", "abc"]) == 1
    assert "workbench law:" in capsys.readouterr().err
    assert main(["law", "--vocab", "infinite", "--sampler", "uniform", "a" * 40]) == 2
    assert "needs" in capsys.readouterr().err  # refused before any work, with the number
    assert main(["law", "--vocab", str(path), "--top", "-1", "ab"]) == 2
