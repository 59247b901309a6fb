"""workbench.experiments.grampa_efficiency: Figures 10–12 of GRaMPa §6.3 (Rényi efficiency against
regularisation knobs) on a small slice of Shakespeare, exact beside sampled.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from fixtures import EFFICIENCY_LINES, SAMPLED_TOL  # noqa: E402

from workbench.datasets.corpora import whitespace_word_counts
from workbench.experiments import grampa_efficiency as E
from workbench.figures import efficiency as F
from workbench.figures.common import figure_data
from workbench.grampa import expected_token_counts
from workbench.metrics import renyi_efficiency
from workbench.segmenters import Multiplexer

pytest.importorskip("sentencepiece")


def test_setup_spells_and_segments_the_same_words(efficiency_setup):
    setup = efficiency_setup
    table = whitespace_word_counts(max_lines=EFFICIENCY_LINES)
    assert setup.counts.tolist() == [table[w] for w in setup.words]
    for w, s, seg in zip(setup.words, setup.spelled, setup.deterministic):
        assert s == setup.vocab.to_alphabet(" " + w) and "".join(seg) == s
    assert setup.deterministic_counts.sum() == sum(
        c * len(seg) for c, seg in zip(setup.counts.tolist(), setup.deterministic))


def test_tau_exact_points_and_samples(efficiency_setup):
    setup = efficiency_setup
    data = E.compute_tau(setup, seeds=(0, 1), n_curve=9)
    for t, v in zip(data["tau"], data["exact"]):
        direct = renyi_efficiency(expected_token_counts(setup.table, setup.vocab, t), 2.5,
                                  len(setup.vocab))
        assert v == direct
        assert v in data["curve"]  # the points lie on the curve
    assert np.abs(data["sampled"] - data["exact"]).max() < SAMPLED_TOL
    assert (np.diff(data["exact"]) > 0).all()  # §6.3: E_α rises with the skew (−1/τ)
    assert data["x"].tolist() == [0.0 - 1 / t if not math.isinf(t) else 0.0
                                  for t in data["tau"]]
    shown = figure_data(F.plot_tau(data))
    np.testing.assert_array_equal(shown["exact"], data["curve"])
    assert np.sort(shown["sampled"]).tolist() == np.sort(data["sampled"].ravel()).tolist()


def test_sampled_grampa_is_deterministic_per_seed(efficiency_setup):
    setup = efficiency_setup
    a = E.sampled_grampa.__wrapped__(setup, 2.0, 1, "l2r", 3)
    b = E.sampled_grampa.__wrapped__(setup, 2.0, 1, "l2r", 3)
    c = E.sampled_grampa.__wrapped__(setup, 2.0, 1, "l2r", 4)
    assert a.tolist() == b.tolist() and a.tolist() != c.tolist()
    frozen = E.sampled_grampa(setup, 2.0, 1, "l2r", 3)
    assert not frozen.flags.writeable  # cached: frozen


def test_multiplexed_counts_are_the_multiplexers(efficiency_setup):
    setup = efficiency_setup
    seed, p = 5, 0.4
    got = E.sampled_multiplexed.__wrapped__(setup, p, 1.0, 2, "l2r", seed)
    mux = Multiplexer(setup.segment, E.Grampa(setup.vocab, 1.0, 2, seed=seed + 1), p,
                      seed=seed)
    words = [setup.spelled[i] for i in setup.occurrences.tolist()]
    counts = Counter(t for seg in mux.tokenize_batch(words) for t in seg)
    want = np.zeros(setup.size)
    for t, c in counts.items():
        want[setup.vocab.id_of(t)] = c
    assert got.tolist() == want.tolist()


def test_bad_kind():
    with pytest.raises(ValueError, match="kind"):
        E.make_setup("wordpiece")


def test_run_shows_progress_and_an_interruption_keeps_the_earlier_results(tmp_path, capsys,
                                                                           monkeypatch):
    out = tmp_path / "eff"
    E.run(out, max_lines=EFFICIENCY_LINES, bpe_size=320, seeds=[0], progress=True)
    assert "efficiency" in capsys.readouterr().err  # tqdm writes to stderr
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert set(before) == {"efficiency.csv", "README.md"}

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(E, "compute_multiplex", interrupted)
    with pytest.raises(KeyboardInterrupt):
        E.run(out, max_lines=EFFICIENCY_LINES, bpe_size=320, seeds=[1], progress=False)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_sampled_regulariser_is_kept_on_disk(efficiency_setup, tmp_path, monkeypatch):
    """A fresh process reads the samples an earlier one wrote (equal arrays); a damaged file
    is sampled and written again."""
    from workbench.experiments import kept

    monkeypatch.setattr(kept, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(kept, "_MEMO", {})
    param = 0.1 if efficiency_setup.kind == "bpe" else 0.5
    fresh = E._sampled_regulariser(efficiency_setup, param, 3)
    E.sampled_regulariser.cache_clear()
    first = E.sampled_regulariser(efficiency_setup, param, 3)
    (path,) = tmp_path.glob("kept_grampa_efficiency_regulariser_*.npy")
    assert np.array_equal(first, fresh)
    monkeypatch.setattr(kept, "_MEMO", {})
    E.sampled_regulariser.cache_clear()
    monkeypatch.setattr(E, "_sampled_regulariser", lambda *a: pytest.fail("sampled again"))
    again = E.sampled_regulariser(efficiency_setup, param, 3)   # read from the file
    assert again is not first and np.array_equal(again, fresh) and not again.flags.writeable
    path.write_bytes(path.read_bytes()[:40])
    monkeypatch.undo()
    monkeypatch.setattr(kept, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(kept, "_MEMO", {})
    E.sampled_regulariser.cache_clear()
    assert np.array_equal(E.sampled_regulariser(efficiency_setup, param, 3), fresh)
    assert np.array_equal(E._load_counts(kept._read(path, kept.MAX_BYTES), fresh.size), fresh)
    E.sampled_regulariser.cache_clear()


def _kept_regulariser(setup, tmp_path, monkeypatch):
    """(param, the fresh counts, their kept file), the memories emptied."""
    from workbench.experiments import kept

    monkeypatch.setattr(kept, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(kept, "_MEMO", {})
    param = 0.1 if setup.kind == "bpe" else 0.5
    E.sampled_regulariser.cache_clear()
    fresh = E.sampled_regulariser(setup, param, 3)
    (path,) = tmp_path.glob("kept_grampa_efficiency_regulariser_*.npy")
    monkeypatch.setattr(kept, "_MEMO", {})
    E.sampled_regulariser.cache_clear()
    return param, fresh, path


def test_a_count_edited_in_a_kept_file_is_sampled_again(efficiency_setup, tmp_path,
                                                        monkeypatch):
    """A well-formed edit (the last count + 1, the array still a valid one) fails the check."""
    param, fresh, path = _kept_regulariser(efficiency_setup, tmp_path, monkeypatch)
    raw = bytearray(path.read_bytes())
    raw[-8:] = (np.frombuffer(bytes(raw[-8:]), dtype="<f8") + 1).tobytes()
    path.write_bytes(bytes(raw))
    sampled = []
    monkeypatch.setattr(E, "_sampled_regulariser",
                        lambda *a: sampled.append(a) or fresh.copy())
    assert np.array_equal(E.sampled_regulariser(efficiency_setup, param, 3), fresh)
    assert len(sampled) == 1
    E.sampled_regulariser.cache_clear()


def _npy(a) -> bytes:
    import io

    buffer = io.BytesIO()
    np.save(buffer, a)
    return buffer.getvalue()


def test_a_kept_file_that_is_not_the_counts_is_sampled_again(efficiency_setup, tmp_path,
                                                             monkeypatch):
    """Empty (EOFError before), cut, of another shape, dtype or order, or not counts:
    bare (no header) and with a valid header (the loader refuses it)."""
    from workbench.experiments import kept

    param, fresh, path = _kept_regulariser(efficiency_setup, tmp_path, monkeypatch)
    good = _npy(fresh)
    monkeypatch.setattr(E, "_sampled_regulariser", lambda *a: fresh.copy())
    for payload in (b"", good[:40], good[:-8], good + b"\0" * 8, _npy(fresh[:-1]),
                    _npy(fresh.astype(np.float32)), _npy(fresh.astype(">f8")),
                    _npy(fresh.reshape(1, -1)), _npy(fresh - 0.5), _npy(-fresh - 1),
                    _npy(np.full_like(fresh, np.nan)), b"PK\x03\x04" + good):
        for headed in (False, True):
            path.write_bytes(kept._header(path, payload) + payload if headed else payload)
            monkeypatch.setattr(kept, "_MEMO", {})
            E.sampled_regulariser.cache_clear()
            assert np.array_equal(E.sampled_regulariser(efficiency_setup, param, 3), fresh)
            assert kept._read(path, kept.MAX_BYTES) == good      # written again
    E.sampled_regulariser.cache_clear()
