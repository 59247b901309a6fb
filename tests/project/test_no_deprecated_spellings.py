"""The notebooks, README, docs and benchmarks use no deprecated spelling (issue 37 item 6).

An old spelling keeps working for one release with a ``WorkbenchDeprecationWarning``; the
suite turns that warning into an error, which catches every old call the tests *run*. This
test reads what they do not run as Python: notebook cells (code and prose), the README, the
docs and the benchmark scripts. ARCHITECTURE.md's name table and BENCHMARKS.md's history name
the old spellings on purpose and are not read.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: old spelling -> (pattern, the new spelling to name in the failure)
OLD: dict[str, tuple[re.Pattern[str], str]] = {
    "Grampa.token_count_pmf(word)": (re.compile(r"\.token_count_pmf\((?!\))"),
                                     "law(word).token_count_pmf()"),
    "Grampa.expected_token_count(word)": (re.compile(r"\bexpected_token_count\("),
                                          "law(word).expected_tokens"),
    "workbench.theory's old law names": (
        re.compile(r"(?<![\w.])(?:token_count_pmf|segmentality_pmf)\b"
                   r"|\btheory\.(?:token_count_pmf|token_length_pmf|segmentality_pmf)\b"
                   r"|import[^\n]*(?<![\w.])token_length_pmf\b"),
        "uniform_token_count_pmf, uniform_token_length_pmf, uniform_segmentality_pmf"),
    # a law named ``law`` or ``.law(word)``: other objects' ``entropy`` fields are bits
    "SegmentationLaw.entropy (nats)": (
        re.compile(r"(?:\b\w*law|\.law\([^)\n]*\))\.entropy\b(?![\w(])"),
        "shannon_entropy(base=...)"),
    "threads=, processes=, workers=": (re.compile(r"\b(?:threads|processes|workers)="),
                                       "num_threads="),
    "encode/tokens/encode_chunks(dropout=, seed=) on a BPE model": (
        re.compile(r"\.(?:encode|tokens|encode_chunks)\([^)\n]*\bdropout="),
        "BPESampler(..., dropout=p) inside a TextTokenizer"),
    "tokenize(words) / encode(words) with a list": (  # not SentencePiece's ``sp.encode``
        re.compile(r"(?<!\bsp)\.(?:tokenize|encode)\(\["), "tokenize_batch / encode_flat"),
    "CLI law --p for a drop probability": (
        re.compile(r"--sampler (?:maxmatch-dropout|bpe-dropout)\b[^\n]*--p\b"), "--dropout"),
}


def _texts() -> list[tuple[str, str]]:
    """``(where, text)`` for every cell, the README, every docs file and benchmark script."""
    out: list[tuple[str, str]] = []
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        out += [(f"{nb.relative_to(ROOT)} cell {i}", "".join(c["source"]))
                for i, c in enumerate(cells)]
    files = [ROOT / "README.md", *sorted((ROOT / "benchmarks").glob("*.py"))]
    files += sorted(p for p in (ROOT / "docs").rglob("*")
                    if p.suffix in {".rst", ".md", ".py", ".txt"} and p.is_file())
    out += [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in files]
    return out


def test_the_reader_finds_what_it_reads():
    where = [w for w, _ in _texts()]
    assert any(w.startswith("notebooks/02_") for w in where)
    assert "README.md" in where and any(w.startswith("benchmarks/") for w in where)
    assert any(w.startswith("docs/") for w in where)


@pytest.mark.parametrize("old", list(OLD))
def test_no_deprecated_spelling(old):
    pattern, new = OLD[old]
    hits = [f"{where}: {m.group(0)!r}" for where, text in _texts()
            for m in pattern.finditer(text)]
    assert not hits, f"{old} is deprecated (use {new}); found in {hits}"


@pytest.mark.parametrize(("old", "example"), [
    ("Grampa.token_count_pmf(word)", "g.token_count_pmf(word)"),
    ("Grampa.expected_token_count(word)", "g.expected_token_count(w)"),
    ("workbench.theory's old law names", "from workbench.theory import token_count_pmf"),
    ("workbench.theory's old law names", "th = workbench.theory; theory.token_length_pmf(4)"),
    ("SegmentationLaw.entropy (nats)", "h = law.entropy * 2"),
    ("SegmentationLaw.entropy (nats)", "g.law('ab').entropy"),
    ("threads=, processes=, workers=", "count_chunks(path, processes=2)"),
    ("encode/tokens/encode_chunks(dropout=, seed=) on a BPE model",
     "model.encode(text, dropout=0.1, seed=0)"),
    ("tokenize(words) / encode(words) with a list", "g.tokenize(['ab', 'c'])"),
    ("CLI law --p for a drop probability", "law --sampler maxmatch-dropout --p 0.3 hello"),
])
def test_each_pattern_finds_its_old_spelling(old, example):
    assert OLD[old][0].search(example)


@pytest.mark.parametrize("new", [
    "g.law(word).token_count_pmf()", "law.expected_tokens", "uniform_token_count_pmf(4)",
    "g.token_length_pmf(word)", "law.shannon_entropy(base=2)", "stats.entropy(p)",
    "u.laws['grampa'].entropy", "v.entropy", "sp.encode(['ab'], enable_sampling=True)",
    "encode_batch(texts, num_threads=2)", "DataLoader(ds, num_workers=2)",
    "BPESampler(v, model=m, dropout=0.1)", "g.tokenize_batch(['ab'])",
    "law --sampler maxmatch-dropout --dropout 0.3 hello", "law --sampler bits --p 0.3 ab",
])
def test_no_pattern_finds_a_new_spelling(new):
    assert not [k for k, (pattern, _) in OLD.items() if pattern.search(new)]
