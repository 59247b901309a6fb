"""The ULM ℓ_min = 2 evidence (experiments.grampa_ulm_lmin) and the authors'-way training."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from workbench import Vocabulary
from workbench.datasets import load_text
from workbench.experiments.grampa_paper_tables import PAPER_TABLE7
from workbench.experiments.grampa_tables import load_vocabularies, pretokenised_words
from workbench.experiments.grampa_ulm_lmin import interior_share, lmin2_evidence
from workbench.samplers import ULMSampler


def test_interior_share_counts_markerless_multichar_pieces():
    v = Vocabulary(["▁a", "ab", "abc", "b", "▁", "c▁"])
    assert interior_share(v) == pytest.approx(2 / 6)
    with pytest.raises(TypeError):
        interior_share(["ab"])  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def evidence():
    return lmin2_evidence(400)


def test_evidence_rows_match_independent_counts(evidence):
    rows = evidence["rows"]
    assert list(rows.index) == ["BPE", "ULM", "ULM + BPE interior"]
    vocabs = load_vocabularies()
    for kind in ("BPE", "ULM"):
        toks = vocabs[kind].tokens
        share = sum(1 for t in toks if "▁" not in t and len(t) >= 2) / len(toks)
        assert rows.loc[kind, "interior_share"] == pytest.approx(share)
    # deterministic ULM m, recounted with the sampler on the same words
    words = pretokenised_words(load_text("shakespeare"), limit=400)
    ulm = ULMSampler(vocabs["ULM"])
    m = sum(len(ulm.sample(p)) for w in words for p in w) / len(words)
    assert rows.loc["ULM", "m_det"] == pytest.approx(m)
    assert evidence["words"] == 400
    # the paper's columns are the transcribed Table 7
    assert rows.loc["ULM", "paper_m_l2"] == PAPER_TABLE7["ULM / GRaMPa l_min=2 tau=1"]["m_mean"]
    assert rows.loc["BPE", "paper_excess_l2"] == pytest.approx(2.25 - 1.27)
    for col in ("one_char_l2", "lone_marker_l2"):
        assert ((rows[col] >= 0) & (rows[col] <= 1)).all()
    assert (rows["lone_marker_l2"] <= rows["one_char_l2"]).all()
    assert (rows["excess_l2"] == rows["m_l2"] - rows["m_det"]).all()


def test_adding_interior_pieces_raises_the_interior_share(evidence):
    rows = evidence["rows"]
    assert rows.loc["ULM + BPE interior", "interior_share"] > rows.loc["ULM", "interior_share"]
    # ℓ_min = 2 falls back on fewer one-character tokens once short pieces exist
    assert rows.loc["ULM + BPE interior", "one_char_l2"] < rows.loc["ULM", "one_char_l2"]


def test_missing_marker_punctuation_share(evidence):
    words = pretokenised_words(load_text("shakespeare"), limit=400)
    pieces = Counter(p for w in words for p in w)
    vocabs = load_vocabularies()
    punct = {p: c for p, c in pieces.items() if len(p) == 2 and p[0] == "▁" and not p[1].isalnum()}
    for kind in ("BPE", "ULM"):
        toks = set(vocabs[kind].tokens)
        want = sum(c for p, c in punct.items() if p not in toks) / sum(punct.values())
        assert evidence["punct_pieces_missing"][kind] == pytest.approx(want)


def test_evidence_checks_arguments():
    with pytest.raises(ValueError):
        lmin2_evidence(0)
    with pytest.raises(TypeError):
        lmin2_evidence(1.5)  # type: ignore[arg-type]


def test_train_sentencepiece_on_counts(tmp_path):
    pytest.importorskip("sentencepiece")
    from workbench.datasets.build import train_sentencepiece_on_counts

    words = pretokenised_words(load_text("shakespeare"), limit=5_000)
    counts = dict(Counter(p for w in words for p in w))
    path = train_sentencepiece_on_counts(counts, tmp_path / "u.model", vocab_size=300)
    v = Vocabulary.load(path)
    assert len(v) == 299  # <unk> is not a token
    assert "▁the" in v and "▁" in v
    # no piece crosses a pretoken boundary: a marker only ever starts a piece
    assert not [t for t in v.tokens if "▁" in t[1:]]
    assert math.isfinite(float(v.scores.min()))
    for bad in ({"a": 0}, {"": 3}, {"a\tb": 1}):
        with pytest.raises(ValueError):
            train_sentencepiece_on_counts(bad, tmp_path / "x.model", vocab_size=300)
    with pytest.raises(TypeError):
        train_sentencepiece_on_counts([("a", 1)], tmp_path / "x.model")  # type: ignore[arg-type]
    assert not (tmp_path / "x.model").exists()


def test_tables_rerun_keeps_hand_written_notes(tmp_path):
    from workbench.experiments import grampa_tables as T

    notes = T.KEEP_MARKER + "\n\n## ULM ℓ_min = 2\n\nhand-written, kept.\n"
    (tmp_path / "README.md").write_text("# stale generated part\n\n" + notes, encoding="utf-8")
    args = ["--quick", "--words", "200", "--type-words", "40", "--samples", "3",
            "--no-progress", "--out", str(tmp_path)]
    assert T.main(args) == 0
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# GRaMPa Tables 7 and 8") and "stale" not in readme
    assert readme.endswith(notes) and readme.count(T.KEEP_MARKER) == 1
    assert T.main(args) == 0  # twice: still exactly one copy
    assert (tmp_path / "README.md").read_text(encoding="utf-8").count("hand-written, kept.") == 1


def test_markdown_states_the_evidence_numbers(evidence):
    from workbench.experiments.grampa_ulm_lmin import lmin2_markdown

    text = lmin2_markdown(evidence)
    rows = evidence["rows"]
    assert len(text.splitlines()) <= 12
    assert f"{rows.loc['ULM', 'm_l2']:.2f}" in text and f"{rows.loc['BPE', 'm_l2']:.2f}" in text
    assert f"{rows.loc['ULM + BPE interior', 'm_l2']:.2f}" in text
    assert f"{100 * rows.loc['ULM', 'interior_share']:.0f} %" in text
    assert "1.86" in text and "2.25" in text  # the paper's Table 7
    with pytest.raises(TypeError):
        lmin2_markdown({"rows": None})


def _authors_l2r_token_counts(s: str, vocab: set[str], ell_min: int) -> list[int]:
    """Token counts of every path of the authors' L2R graph (TkTkT's GRaMPa, written anew).

    Nodes are built from the right end; for each node the arcs to its left are tried shortest
    first, and a short arc is kept only while its start node has no arc yet.
    """
    n = len(s)
    out: list[list[int]] = [[] for _ in range(n + 1)]
    for i in range(n, 0, -1):
        for j in range(i - 1, -1, -1):
            if (i - j >= ell_min or not out[j]) and s[j:i] in vocab:
                out[j].append(i)
    counts: list[int] = []

    def walk(k: int, m: int) -> None:
        if k == n:
            counts.append(m)
        for i in out[k]:
            walk(i, m + 1)

    walk(0, 0)
    return counts


@pytest.mark.parametrize("kind", ["ULM", "BPE"])
def test_soft_lmin_is_the_authors_rule(kind):
    """E[m] at τ = 1, ℓ_min = 2 equals the mean over the authors' graph's paths, per piece."""
    from workbench.experiments.grampa_settings import Setting, exact_words

    vocab = load_vocabularies()[kind]
    words = pretokenised_words(load_text("shakespeare"), limit=1_500)
    pieces = sorted({p for w in words for p in w})
    exact = exact_words(Setting(kind, "GRaMPa", tau=1.0, ell_min=2), vocab, [(p,) for p in pieces])
    toks = set(vocab.tokens)
    for p, e in zip(pieces, exact):
        counts = _authors_l2r_token_counts(p, toks, 2)
        assert e[1] == pytest.approx(sum(counts) / len(counts), abs=1e-12), p
