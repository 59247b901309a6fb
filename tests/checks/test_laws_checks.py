"""verify()'s segmentation-law rows pass, and fail when a law is wrong."""

from __future__ import annotations

import pytest

import workbench.checks as ch
from workbench.checks import laws as law_checks
from workbench.laws import SegmentationLaw


@pytest.mark.slow  # the 14 law rows of verify() (5-11 s alone); make test runs verify
def test_law_rows_pass():
    rows = ch.verify(only="Segmentation laws")
    assert len(rows) == 14
    assert {r.status for r in rows} == {"pass"}, [r for r in rows if r.status != "pass"]


def test_a_wrong_grampa_law_fails_the_uniform_and_dp_rows(monkeypatch):
    real = law_checks.Grampa.law

    def skewed(self, word):  # a law with the right support but the wrong masses
        law = real(self, word)
        probs = list(law.probabilities().items())
        (s0, p0), (s1, p1) = probs[0], probs[1]
        moved = dict(probs) | {s0: p0 + p1 / 2, s1: p1 / 2}
        return SegmentationLaw(word, moved, n_segmentations=law.n_segmentations)

    monkeypatch.setattr(law_checks.Grampa, "law", skewed)
    rows = law_checks.check_law_identities()
    failed = [r.claim for r in rows if r.status == "fail"]
    assert len(failed) == 2
    assert any("uniform" in c for c in failed) and any("forward DP" in c for c in failed)


def test_a_mixture_with_the_rate_swapped_fails_every_mixture_row(monkeypatch):
    from workbench.theory.grampa import mixture  # Multiplexer.law looks it up there on each call

    real = mixture.mixture_law
    monkeypatch.setattr(mixture, "mixture_law", lambda law, det, p: real(law, det, 1 - p))
    rows = law_checks.check_mixture_law()
    assert len(rows) == 3 and {r.status for r in rows} == {"fail"}


def test_a_wrong_dp_fails_the_chain_row(monkeypatch):
    from workbench.lattice.chain import Chain

    real = Chain.entropy
    monkeypatch.setattr(Chain, "entropy", lambda self: real(self) * (1 + 1e-9))
    rows = law_checks.check_chain_laws()
    assert [r.status for r in rows] == ["fail", "fail", "pass", "pass"]
