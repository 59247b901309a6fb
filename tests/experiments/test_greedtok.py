"""workbench.experiments.greedtok: notebook 09's experiments (the reduction panel, the cover
steps, the overlap graph); the notebook itself runs in tests/notebooks/test_notebooks.py."""

from __future__ import annotations

import re

import pytest
from naive import greedtok as naive

from workbench.experiments import greedtok as pc
from workbench.experiments import kept
from workbench.greedtok import train_greedtok


@pytest.mark.parametrize("name", list(pc.GRAPHS))
def test_reduction_panel_agrees_with_theorem_1(name):
    result = pc.compute_reduction(name)
    assert pc.reduction_agrees(result)
    assert all(len(s) == 3 for s in result.segmentations.values())


def test_cover_steps_replay_training():
    counts = {" understand": 3, " under": 4, " stand": 2, " and": 5}
    model = train_greedtok(counts, 6, progress=False)
    steps = pc.compute_cover_steps(model, " understand")
    assert steps[0].rank == -1 and len(steps[0].pieces) == len(" understand")
    assert steps[-1].pieces == model.segment(" understand")
    for s in steps:
        assert sum(s.marks) == len(" understand") - len(s.pieces)
    # the state after rank r is what the reference trainer holds after r + 1 steps
    r = steps[1].rank
    _, _, state = naive.greedtok(counts, r + 1)
    assert steps[1].pieces == naive.segmentation(b" understand", state[b" understand"])


def test_overlap_and_unknown_graph():
    assert pc.compute_overlap({"A": {1}, "B": {1, 2}}) == {"A": 1, "B": 2, "A ∩ B": 1}
    with pytest.raises(ValueError, match="unknown graph"):
        pc.compute_reduction("no such graph")


def test_cover_demo_words_show_a_cover():
    """Issue 21: the cover panel's words are lower-case, end in several tokens and change
    several times; capitalised names that become one token are left out."""
    counts = {"CLEOPATRA": 50, " understand": 3, " under": 4, " stand": 2, " and": 5,
              " Understand": 9}
    model = train_greedtok(counts, 6, progress=False)
    got = pc.cover_demo_words(model, counts, min_bytes=6, min_steps=2)
    assert "CLEOPATRA" not in got and " Understand" not in got
    for word in got:
        assert word.strip().islower() and len(model.segment(word)) >= 2
        assert len(pc.compute_cover_steps(model, word)) - 1 >= 2
    expected = [w for w in sorted(counts, key=lambda w: -counts[w])
                if w.strip().isalpha() and w.strip().islower() and len(w.encode()) >= 6
                and len(model.segment(w)) >= 2 and len(pc.compute_cover_steps(model, w)) >= 3]
    assert got == expected
    with pytest.raises(ValueError):
        pc.cover_demo_words(model, counts, n=0)


# --------------------------------------------------------------------------- kept on disk
TOY_COUNTS = {" the": 50, " then": 20, " there": 15, " other": 12, " these": 9, " theme": 4}


@pytest.fixture
def store(tmp_path, monkeypatch):
    """The kept results in ``tmp_path``, this process's memo empty."""
    monkeypatch.setattr(kept, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(kept, "_MEMO", {})
    return tmp_path


def test_kept_results_equal_fresh_ones_and_survive_a_bad_file(store, monkeypatch) -> None:
    fresh = {m: pc._TRAINERS[m](TOY_COUNTS, 4) for m in ("GreedTok", "BPE")}
    first = pc.compute_tokens_per_word(TOY_COUNTS, [4], methods=("GreedTok", "BPE"))
    files = sorted(store.glob("kept_greedtok_*.json"))
    assert len(files) == 2
    monkeypatch.setattr(kept, "_MEMO", {})           # a new process: read from disk
    calls = []
    monkeypatch.setitem(pc._TRAINERS, "BPE", lambda c, k: calls.append(k) or fresh["BPE"])
    assert pc.compute_tokens_per_word(TOY_COUNTS, [4], methods=("GreedTok", "BPE")) == first
    assert calls == []                              # nothing trained again
    assert pc.compute_token_sets(TOY_COUNTS, 4, methods=("GreedTok", "BPE")) == {
        m: r[0] for m, r in fresh.items()}
    for f in files:                                 # a partial file: trained and written again
        f.write_text(f.read_text()[:20], encoding="utf-8")
    monkeypatch.setattr(kept, "_MEMO", {})
    assert pc.compute_tokens_per_word(TOY_COUNTS, [4], methods=("GreedTok", "BPE")) == first
    assert calls == [4]
    assert all(f.read_text().endswith("}") for f in files)


def test_kept_files_are_keyed_by_counts_and_k(store) -> None:
    a = pc._store_path("BPE", TOY_COUNTS, 4)
    assert a != pc._store_path("BPE", TOY_COUNTS, 5)
    assert a != pc._store_path("BPE", {**TOY_COUNTS, " the": 51}, 4)
    assert a != pc._store_path("ULM", TOY_COUNTS, 4)
    assert a == pc._store_path("BPE", dict(TOY_COUNTS), 4) and a.parent == store


def test_trained_greedtok_is_train_greedtok(store, monkeypatch) -> None:
    model = pc.trained_greedtok(TOY_COUNTS, 3)
    reference = train_greedtok(TOY_COUNTS, 3, progress=False)
    assert model.tokens == reference.tokens and model.gains == reference.gains
    monkeypatch.setattr(kept, "_MEMO", {})
    again = pc.trained_greedtok(TOY_COUNTS, 3)      # read back from the file
    assert again is not model and again.tokens == model.tokens and again.gains == model.gains
    assert (again.max_token_length, again.pattern, again.stats) == (
        model.max_token_length, model.pattern, model.stats)


def _one_more(text: str) -> str:
    """``text`` with its last number one larger (a well-formed edit)."""
    match = list(re.finditer(r"\d+", text))[-1]
    return text[:match.start()] + str(int(match[0]) + 1) + text[match.end():]


def test_a_well_formed_edit_of_a_kept_result_is_trained_again(store, monkeypatch) -> None:
    first = pc.compute_tokens_per_word(TOY_COUNTS, [4], methods=("BPE",))
    (path,) = store.glob("kept_greedtok_bpe_4_*.json")
    path.write_text(_one_more(path.read_text(encoding="utf-8")), encoding="utf-8")
    monkeypatch.setattr(kept, "_MEMO", {})
    calls = []
    trainer = pc._TRAINERS["BPE"]
    monkeypatch.setitem(pc._TRAINERS, "BPE", lambda c, k: calls.append(k) or trainer(c, k))
    assert pc.compute_tokens_per_word(TOY_COUNTS, [4], methods=("BPE",)) == first
    assert calls == [4]                              # the edit was not read


def test_a_well_formed_edit_of_a_kept_model_is_trained_again(store, monkeypatch) -> None:
    model = pc.trained_greedtok(TOY_COUNTS, 3)
    (path,) = store.glob("kept_greedtok_greedtok-model_3_*.json")
    text = path.read_text(encoding="utf-8")
    gains = text.index('"gains"')                   # the first gain one larger
    path.write_text(text[:gains] + _one_more(text[gains:text.index("]", gains)])
                    + text[text.index("]", gains):], encoding="utf-8")
    monkeypatch.setattr(kept, "_MEMO", {})
    assert pc.trained_greedtok(TOY_COUNTS, 3).gains == model.gains


NOT_RESULTS = [b"", b"null", b"[]", b"5", b'"x"', b"[" * 100_000 + b"]" * 100_000,
               b'{"format": 1, "tokens": [], "lengths": null}',
               b'{"format": 1, "tokens": ["zz"], "lengths": [1, 1, 1, 1, 1, 1]}',
               b'{"format": 1, "tokens": ["6161"], "lengths": [1, 1, 1]}',
               b'{"format": true, "tokens": ["6161"], "lengths": [1, 1, 1, 1, 1, 1]}',
               b'{"format": 1, "tokens": ["61"], "lengths": [1, 1, 1, 1, 1, 1]}',
               b'{"format": 1, "tokens": ["6161"], "lengths": [1, 1, 1, 1, 1, 1.5]}',
               b'{"format": 1, "tokens": ["6161"], "lengths": [1, 1, 1, 1, 1, 1], "x": 0}']


@pytest.mark.parametrize("payload", NOT_RESULTS, ids=range(len(NOT_RESULTS)))
def test_a_kept_file_that_is_not_a_result_is_trained_again(store, monkeypatch,
                                                           payload) -> None:
    """Bare (no header: fails the check) and with a valid header (the loader refuses it)."""
    path = pc._store_path("BPE", TOY_COUNTS, 4)
    fresh = pc._TRAINERS["BPE"](TOY_COUNTS, 4)
    for headed in (False, True):
        path.write_bytes(kept._header(path, payload) + payload if headed else payload)
        monkeypatch.setattr(kept, "_MEMO", {})
        assert pc.compute_token_sets(TOY_COUNTS, 4, methods=("BPE",)) == {"BPE": fresh[0]}
        assert path.read_text(encoding="utf-8").endswith("}")   # written again


@pytest.mark.parametrize("payload", [b"null", b"[]", b"5", b"[" * 100_000,
                                     b'{"format": "workbench-greedtok"}'])
def test_a_kept_file_that_is_not_a_model_is_trained_again(store, monkeypatch,
                                                          payload) -> None:
    path = pc._store_path("GreedTok-model", TOY_COUNTS, 3)
    tokens = train_greedtok(TOY_COUNTS, 3, progress=False).tokens
    for headed in (False, True):
        path.write_bytes(kept._header(path, payload) + payload if headed else payload)
        monkeypatch.setattr(kept, "_MEMO", {})
        assert pc.trained_greedtok(TOY_COUNTS, 3).tokens == tokens


def test_a_kept_result_that_cannot_be_written_is_returned(store) -> None:
    path = pc._store_path("GreedTok-model", TOY_COUNTS, 3)
    path.mkdir()
    with pytest.warns(kept.KeptWriteWarning, match=path.name):
        model = pc.trained_greedtok(TOY_COUNTS, 3)
    assert model.tokens == train_greedtok(TOY_COUNTS, 3, progress=False).tokens
