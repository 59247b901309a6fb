"""``python -m workbench sample|count``: outputs checked against the library, errors clean."""

from __future__ import annotations

import subprocess
import sys

import pytest
from naive import grampa as naive

from workbench import Grampa, Vocabulary, count_segmentations
from workbench.__main__ import main


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workbench", *args], capture_output=True,
                          text=True)


def test_count_matches_reference(capsys):
    assert main(["count", "--vocab", "infinite", "abcd", "xy"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"abcd\t{naive.count_segmentations('abcd', 'infinite')}", "xy\t2"]


def test_sample_prints_the_seeded_samples(tmp_path, capsys):
    path = tmp_path / "v.txt"
    Vocabulary(["a", "b", "ab", "ba"]).save(path)
    assert main(["sample", "--vocab", str(path), "-n", "4", "--seed", "3", "--tau", "-2",
                 "abab"]) == 0
    printed = [line.split(" | ") for line in capsys.readouterr().out.splitlines()]
    expected = Grampa(Vocabulary.load(path), tau=-2.0, seed=3).sample_many("abab", 4)
    assert printed == expected


def test_space_prefix_and_shipped_vocabulary(capsys):
    assert main(["count", "--vocab", "gpt2", "--space", "hi"]) == 0
    from workbench import datasets as data

    gpt2 = data.load_vocabulary("gpt2")
    assert capsys.readouterr().out == f"Ġhi\t{count_segmentations('Ġhi', gpt2)}\n"


def test_bad_input_is_a_message_not_a_traceback():
    for args in (["sample", "--tau", "0", "abc"], ["sample", "--vocab", "/no/such/file", "a"],
                 ["count", "--vocab", "infinite", "--ell-min", "0", "ab"]):
        proc = _run(*args)
        assert proc.returncode == 2, proc
        assert "error:" in proc.stderr and "Traceback" not in proc.stderr


# ---------------------------------------------------------------- the one input policy
def test_help_shows_defaults():
    proc = _run("sample", "--help")
    assert proc.returncode == 0
    assert "(default: ulm-8k)" in proc.stdout and "(default: 1.0)" in proc.stdout


def test_version_prints_the_installed_version():
    from importlib import metadata

    proc = _run("--version")
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout == f"workbench {metadata.version('tokenisation-workbench')}\n"


def test_version_falls_back_to_pyproject_when_not_installed(monkeypatch, capsys):
    from importlib import metadata

    import workbench

    def not_installed(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"workbench {workbench.__version__}\n"


def test_several_words_are_labelled(capsys):
    assert main(["sample", "--vocab", "infinite", "-n", "2", "ab", "cde"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in lines] == ["ab", "ab", "cde", "cde"]
    g = Grampa(Vocabulary.infinite(), seed=0)
    assert [line.split("\t")[1] for line in lines[:2]] == [
        " | ".join(s) for s in g.sample_many("ab", 2)]


def test_empty_word_has_one_empty_segmentation(capsys):
    assert main(["sample", "--vocab", "infinite", "-n", "3", ""]) == 0
    assert capsys.readouterr().out.splitlines() == ["∅"] * 3
    assert main(["count", "--vocab", "infinite", "", "a"]) == 0
    assert capsys.readouterr().out.splitlines() == ["''\t1", "a\t1"]
    assert count_segmentations("", Vocabulary(["a"])) == 1  # the library agrees


def test_uncoverable_word_says_why(capsys):
    assert main(["count", "--vocab", "figure-1", "GRAMPA", "GRAMPAS"]) == 1
    out = capsys.readouterr()
    assert out.out.splitlines() == ["GRAMPA\t16", "GRAMPAS\t0"]
    assert "character 'S'" in out.err and "to_alphabet" not in out.err


def test_unknown_vocabulary_lists_valid_names():
    proc = _run("count", "--vocab", "nope", "a")
    assert proc.returncode == 2
    assert "valid names:" in proc.stderr and "infinite" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
def test_figures_command_writes_every_figure(tmp_path):
    from workbench.figures.paper_figures import FIGURES

    proc = _run("figures", "--fast", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    for stem in FIGURES:
        for ext in ("svg", "png"):
            assert (tmp_path / f"{stem}.{ext}").stat().st_size > 1000, stem
    captions = (tmp_path / "captions.md").read_text(encoding="utf-8")
    assert captions.count("GRaMPa: Subword Regularisation") == len(FIGURES)
    assert "Figure 5 of" in captions and "samples = 5000" in captions


def test_experiments_command_runs_each_runner_with_its_arguments(tmp_path, monkeypatch):
    """The CLI hands each experiment its output folder and quick arguments; the efficiency
    runner gets the figures' PNG writer (runners replaced by recorders: no training)."""
    from workbench.experiments import grampa_efficiency, renyi
    from workbench.figures.efficiency import save_figures

    calls = []
    monkeypatch.setattr(renyi, "main", lambda argv: calls.append(("renyi", argv, None)) or 0)
    monkeypatch.setattr(grampa_efficiency, "main",
                        lambda argv, draw=None: calls.append(("efficiency", argv, draw)) or 0)
    assert main(["experiments", "--quick", "--out", str(tmp_path)]) == 0
    assert [c[0] for c in calls] == ["renyi", "efficiency"]
    assert calls[0][1][:2] == ["--out", str(tmp_path / "renyi")] and "--max-lines" in calls[0][1]
    assert calls[1][1][:2] == ["--out", str(tmp_path / "efficiency")]
    assert calls[1][2] is save_figures
    calls.clear()
    assert main(["experiments", "--only", "renyi", "--out", str(tmp_path)]) == 0
    assert calls == [("renyi", ["--out", str(tmp_path / "renyi")], None)]


def _documented_defaults():
    """(subcommand, option, help as printed, argparse's default) for every option."""
    import argparse

    from workbench.__main__ import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    rows = []
    for name, subparser in sub.choices.items():
        formatter = subparser._get_formatter()
        for action in subparser._actions:
            if action.help in (None, argparse.SUPPRESS) or isinstance(action,
                                                                      argparse._HelpAction):
                continue
            text = formatter._get_help_string(action) % {**vars(action),
                                                         "prog": subparser.prog}
            rows.append((name, action.dest, " ".join(text.split()), action.default))
    return rows


def test_each_option_states_its_default_once_and_as_argparse_has_it():
    """Help texts are true to argparse: one stated default per option, the value it uses."""
    import re

    rows = _documented_defaults()
    assert {r[0] for r in rows} >= {"sample", "count", "verify", "figures", "experiments"}
    for name, dest, text, default in rows:
        where = f"{name} --{dest}: {text!r}"
        assert text.count("default") <= 1, where  # never "(default: all) (default: None)"
        stated = re.search(r"\(default:? ([^;)]+)", text)
        if default in (None, False):
            # None means "not given" and False an unset flag: said in words or not at all
            assert stated is None or stated.group(1) not in ("None", "False"), where
        else:
            assert stated is not None, f"{where} does not state its default"
            assert stated.group(1).strip() == str(default), where


def test_count_of_a_huge_number_prints_whole_and_json_reads_back(capsys):
    """Issue 42: ``count --json`` wrote a 4,817-digit integer that ``json.loads`` refuses by
    default; it is now the exact digits as a string (the text output prints them whole),
    and the CLI no longer lifts Python's int→str cap for the whole process."""
    import json

    word = "a" * 16_000  # 2^15999 segmentations under the infinite vocabulary
    cap = sys.get_int_max_str_digits()
    assert main(["count", "--vocab", "infinite", word]) == 0
    text = capsys.readouterr().out.split("\t")[1].strip()
    assert main(["count", "--json", "--vocab", "infinite", word]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["words"][0]["count"] == text and len(text) == 4817
    assert int(text[-6:]) == 2**15999 % 10**6
    assert sys.get_int_max_str_digits() == cap
    assert main(["count", "--json", "--vocab", "infinite", "abcd"]) == 0
    assert json.loads(capsys.readouterr().out)["words"][0]["count"] == 8
