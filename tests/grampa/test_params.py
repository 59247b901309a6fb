"""τ is checked before any kernel sees it (issue 42 item 1): a |τ| so close to 0 that 1/τ
overflows used to reach the sampling kernels as α = inf, which returned tokens outside the
vocabulary and, for longer batches, corrupted memory."""

from __future__ import annotations

import math

import pytest

import workbench as wb
from workbench.__main__ import main
from workbench.grampa.params import TAU_MIN, check_tau

V = wb.Vocabulary(["a", "b", "ab", "ba", "aba"])


@pytest.mark.parametrize("tau", [1e-310, -1e-310, 5e-324, -5e-324, TAU_MIN / 2])
def test_a_tau_whose_reciprocal_overflows_is_refused(tau):
    with pytest.raises(ValueError, match=r"tau = .* too close to 0: 1/tau overflows"):
        check_tau(tau)
    with pytest.raises(wb.WorkbenchError, match="too close to 0"):
        wb.Grampa(V, tau=tau, seed=0)
    with pytest.raises(wb.WorkbenchError, match="too close to 0"):
        wb.expected_token_counts({"abab": 1}, V, tau=tau)


@pytest.mark.parametrize("tau", [TAU_MIN, -TAU_MIN, 1e-300, -1e-300, 1e-5, math.inf, -math.inf])
def test_the_smallest_allowed_taus_sample_inside_the_vocabulary(tau):
    assert math.isfinite(check_tau(tau))
    g = wb.Grampa(V, tau=tau, seed=0)
    for seg in g.sample_many("ababab", 50) + g.tokenize_batch(["ababab"] * 600):
        assert "".join(seg) == "ababab" and all(t in V for t in seg)
    assert sum(g.law("ababab").probabilities().values()) == pytest.approx(1.0)


def test_the_cli_refuses_it_without_a_traceback(capsys):
    assert main(["sample", "--tau", "1e-310", "-n", "20", "abab"]) != 0
    err = capsys.readouterr().err
    assert "too close to 0" in err and "Traceback" not in err
