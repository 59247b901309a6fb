"""Tests of ``workbench.theory`` against the brute-force references in ``naive_theory``.

Expected values come from enumeration (``naive_theory``), from constants stated in the
paper or OEIS (p(37) = 21 637, C.1's 16 and 15), or from derivations written out here;
never from the code under test. Statistical tests use fixed seeds and pass iff p > 1e-3.
"""

from __future__ import annotations

import importlib
import math
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import theory as naive
from scipy import stats

import workbench.checks as ch
import workbench.samplers.rejection as rs
import workbench.theory as th
from workbench.__main__ import main as cli_main

P_MIN = 1e-3
ROOT = Path(__file__).resolve().parents[2]
SMALL_N = range(1, 13)


def compositions_of(n: int):
    """Hypothesis strategy: a composition of ``n`` from ``n - 1`` boundary bits."""
    def build(bits):
        cuts = [p for p in range(1, n) if bits[p - 1]] + [n]
        return tuple(b - a for a, b in zip([0] + cuts[:-1], cuts))

    return st.lists(st.booleans(), min_size=n - 1, max_size=n - 1).map(build)


def flat(comps):
    lengths = np.array([x for t in comps for x in t], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum([len(t) for t in comps])]).astype(np.int64)
    return lengths, offsets


# --------------------------------------------------------------------------- laws
@pytest.mark.parametrize("n", SMALL_N)
def test_token_count_pmf(n):
    ref = naive.token_count_pmf(n)
    comp = th.uniform_token_count_pmf(n)
    assert comp == ref
    assert all(type(v) is Fraction for v in comp.values())


@pytest.mark.parametrize("n", range(2, 13))
def test_segmentality_pmf(n):
    ref = naive.segmentality_pmf(n)
    comp = th.uniform_segmentality_pmf(n)
    assert comp == ref


@pytest.mark.parametrize("n", range(1, 15))
def test_token_length_count(n):
    ref = naive.token_length_counts(n)
    comp = {ell: th.token_length_count(ell, n) for ell in range(1, n + 1)}
    assert comp == ref
    assert all(type(v) is int for v in comp.values())
    assert th.token_length_count(n + 1, n) == 0  # no token is longer than the string
    assert th.total_token_count(n) == sum(ref.values())


@pytest.mark.parametrize("n", range(1, 13))
def test_eq17_and_eq23_approximations(n):
    ref = naive.token_length_counts(n)
    for ell in range(1, n):
        assert th.token_length_count_approx(ell, n) == ref[ell]
    assert th.token_length_count_approx(n, n) == Fraction(3, 4)  # the paper: 0.75, not 1
    assert th.total_token_count_approx(n) == sum(ref.values()) - Fraction(1, 4)


@pytest.mark.parametrize("n", SMALL_N)
def test_token_length_pmf(n):
    ref = naive.token_length_pmf(n)
    comp = th.uniform_token_length_pmf(n)
    assert comp == ref
    # Eq. 27 (worked out by hand): equals Eq. 12 for ℓ < n, short by 1/((n+1) 2^n) at ℓ = n
    approx = th.uniform_token_length_pmf(n, exact=False)
    assert set(approx) == set(ref)
    for ell, p in ref.items():
        target = p - (Fraction(1, (n + 1) * 2**n) if ell == n else 0)
        assert approx[ell] == pytest.approx(float(target), rel=1e-12, abs=1e-300)
        assert isinstance(approx[ell], float)


def test_token_length_limit():
    ref = naive.token_length_pmf(14)
    for ell in range(1, 6):
        comp = th.token_length_limit_pmf(ell)
        assert comp == Fraction(1, 2**ell)
        assert abs(float(ref[ell]) - float(comp)) < 0.5 / 15  # |(ℓ-2)/(n+1)| 2^-ℓ <= 1/(2(n+1))


@pytest.mark.parametrize("n", SMALL_N)
def test_expected_chars_per_token(n):
    ref = naive.mean_chars_per_token(n)
    comp = th.expected_chars_per_token(n)
    assert comp == ref
    assert type(comp) is Fraction


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 10), num=st.integers(0, 12), den=st.integers(1, 12))
def test_chao_strawderman(n, num, den):
    p = Fraction(min(num, den), den)
    ref = naive.binomial_reciprocal_mean(n, p)
    comp = th.chao_strawderman(n, p)
    assert comp == ref
    assert th.chao_strawderman(n, float(p)) == pytest.approx(float(ref), rel=1e-12)


# --------------------------------------------------------------------------- rejection laws
@pytest.mark.parametrize("cap", [1, 2, 3, 5])
@pytest.mark.parametrize("n", range(1, 12))
def test_bit_rejection_expected_trials(n, cap):
    ref_valid = naive.bounded_count(n, cap)
    assert th.bounded_composition_count(n, cap) == ref_valid
    comp = th.bit_rejection_expected_trials(ref_valid, n)
    assert comp == Fraction(len(naive.compositions(n)), ref_valid)


@pytest.mark.parametrize("n", range(1, 11))
def test_markov_laws(n):
    probs = {t: naive.markov_probability(t) for t in naive.compositions(n)}
    assert sum(probs.values()) == 1
    eps = min(probs.values())
    inverse_mean = sum(p * (1 / p) for p in probs.values())
    assert th.markov_epsilon_full(n) == eps
    assert th.markov_expected_inverse_probability(n) == inverse_mean
    assert th.markov_rejection_expected_trials(n) == 1 / (eps * inverse_mean)
    for t, p in probs.items():
        assert th.markov_path_probability(t) == p


def test_markov_rejection_sample_single():
    lengths, trials = rs.markov_rejection_sample(6, seed=3)
    assert lengths.dtype == np.int64 and int(lengths.sum()) == 6 and lengths.min() >= 1
    assert isinstance(trials, int) and trials >= 1
    again = rs.markov_rejection_sample(6, seed=3)
    assert again[0].tolist() == lengths.tolist() and again[1] == trials
    assert rs.markov_rejection_sample(1, seed=0)[0].tolist() == [1]


def test_markov_rejection_seeding_ignores_global_state():
    state = np.random.get_state()  # numpy's global generator is put back for later tests
    try:
        np.random.seed(1)
        a = rs.markov_rejection_samples(5, 200, seed=11)
        np.random.seed(2)
        b = rs.markov_rejection_samples(5, 200, seed=11)
    finally:
        np.random.set_state(state)
    c = rs.markov_rejection_samples(5, 200, seed=12)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not np.array_equal(a[2], c[2])
    gen = rs.markov_rejection_samples(5, 10, seed=np.random.default_rng(0))
    assert gen[1].shape == (11,)


@pytest.mark.parametrize("n", [3, 6])
def test_markov_rejection_mean_trials(n):
    size = 20_000
    lengths, offsets, trials = rs.markov_rejection_samples(n, size, seed=100 + n)
    p_accept = 2 ** (n - 1) / math.factorial(n)  # Eq. 47, derived independently
    mean, sd = 1 / p_accept, math.sqrt((1 - p_accept) / p_accept**2)
    z = (trials.mean() - mean) / (sd / math.sqrt(size))
    assert 2 * stats.norm.sf(abs(z)) > P_MIN
    # accepted samples are uniform over the 2^(n-1) compositions
    keys = [naive.bit_key(tuple(lengths[offsets[k]:offsets[k + 1]])) for k in range(size)]
    counts = np.bincount(keys, minlength=2 ** (n - 1))
    assert stats.chisquare(counts).pvalue > P_MIN


def test_bit_rejection_samples():
    n, cap, size = 12, 3, 20_000
    lengths, offsets, trials = rs.bit_rejection_samples(n, cap, size, seed=5)
    assert lengths.max() <= cap
    assert (np.add.reduceat(lengths, offsets[:-1]) == n).all()
    p_accept = naive.bounded_count(n, cap) / 2 ** (n - 1)
    z = (trials.mean() - 1 / p_accept) / (math.sqrt(1 - p_accept) / p_accept / math.sqrt(size))
    assert 2 * stats.norm.sf(abs(z)) > P_MIN
    valid = [t for t in naive.compositions(n) if max(t) <= cap]
    index = {t: i for i, t in enumerate(valid)}
    keys = [index[tuple(lengths[offsets[k]:offsets[k + 1]])] for k in range(size)]
    assert stats.chisquare(np.bincount(keys, minlength=len(valid))).pvalue > P_MIN


# --------------------------------------------------------------------------- LOCK & friends
@pytest.mark.parametrize("n", SMALL_N)
def test_lock_key_matches_brute_force_order(n):
    ref = naive.lock_order(n)
    comp = [th.lock_key(t) for t in ref]
    assert comp == list(range(2 ** (n - 1)))
    assert [th.lock_unrank(k, n) for k in range(2 ** (n - 1))] == ref


@pytest.mark.parametrize("n", range(1, 11))
def test_lock_keys_kernel_all_compositions(n):
    comps = naive.compositions(n)
    order = {t: k for k, t in enumerate(naive.lock_order(n))}
    lengths, offsets = flat(comps)
    comp = th.lock_keys(lengths, offsets, n)
    assert comp.dtype == np.int64
    assert comp.tolist() == [order[t] for t in comps]
    # any integer dtype is accepted
    assert th.lock_keys(lengths.astype(np.int32), offsets, n).tolist() == comp.tolist()


@settings(max_examples=60, deadline=None)
@given(a=compositions_of(64), b=compositions_of(64))
def test_lock_order_rules_large_n(a, b):
    ka, kb = th.lock_key(a), th.lock_key(b)
    assert 0 <= ka < 2**63 and 0 <= kb < 2**63
    assert th.lock_unrank(ka, 64) == a
    if (len(a), sorted(a)) != (len(b), sorted(b)):  # rules 1-2 decide
        assert (ka < kb) == ((len(a), sorted(a)) < (len(b), sorted(b)))
    lengths, offsets = flat([a, b])
    assert th.lock_keys(lengths, offsets, 64).tolist() == [ka, kb]


@settings(max_examples=60, deadline=None)
@given(t=st.lists(st.integers(1, 3), min_size=1, max_size=9))
def test_lock_rule3_and_multiset_rank(t):
    t = tuple(t)
    perms = naive.distinct_permutations(t)
    ref = perms.index(t)
    assert th.multiset_rank(t) == ref
    assert th.multiset_unrank(sorted(t), ref) == t
    assert th.multiset_permutation_count(t) == len(perms)
    keys = [th.lock_key(p) for p in perms]
    assert keys == list(range(keys[0], keys[0] + len(perms)))  # g orders within a class


@pytest.mark.parametrize("n", range(1, 13))
def test_lock_f1_f2(n):
    for m in range(1, n + 1):
        ref = naive.fewer_parts(m, n)
        assert th.lock_f1(m, n) == ref
        assert th.lock_f1_hyp2f1(m, n) == ref
        assert th.lock_f1_hyp2f1(m, n, backend="scipy") == pytest.approx(ref, abs=1e-9)
    order = naive.lock_order(n)
    first_of_m = {}
    for k, t in enumerate(order):
        first_of_m.setdefault(len(t), k)
    for k, t in enumerate(order):
        f2_ref = sum(1 for u in order[first_of_m[len(t)]:k] if sorted(u) < sorted(t))
        assert th.lock_f2(t) == f2_ref
        assert th.lock_f2_by_partitions(t) == f2_ref


def test_lock_f1_up_to_64():
    for n in (40, 63, 64):
        for m in range(1, n + 1):
            ref = sum(math.comb(n - 1, j) for j in range(m - 1))
            assert th.lock_f1(m, n) == ref == th.lock_f1_hyp2f1(m, n)


def test_lock_extremes_n64():
    assert th.lock_key([64]) == 0
    assert th.lock_key([1] * 64) == 2**63 - 1
    assert th.lock_unrank(2**63 - 1, 64) == (1,) * 64
    lengths, offsets = flat([(64,), (1,) * 64, (1,) * 62 + (2,)])
    assert th.lock_keys(lengths, offsets, 64).tolist() == [0, 2**63 - 1, 2**63 - 1 - 63]


@pytest.mark.parametrize("n", range(0, 13))
def test_partitions_k(n):
    for k in range(0, n + 2):
        ref = naive.partitions(n, k) if n else ([()] if k == 0 else [])
        assert list(th.partitions_k(n, k)) == ref
        if (k >= 1 and n >= 1) or k == n == 0:  # the literal Alg. 4 differs on degenerate input
            assert list(th.partitions_k_recursive(n, k)) == ref


def test_partition_counts():
    assert th.partition_count(37) == 21637  # the paper's footnote 17; OEIS A000041
    assert [th.partition_count(n) for n in range(15)] == [
        naive.partition_number(n) for n in range(15)]
    assert sum(1 for _ in th.partitions_k(40, 20)) == naive.partition_number(20)


@pytest.mark.parametrize("n", range(1, 12))
def test_bit_key(n):
    comps = naive.compositions(n)  # mask order
    assert [th.bit_key(t) for t in comps] == list(range(2 ** (n - 1)))
    assert [th.bit_unrank(k, n) for k in range(2 ** (n - 1))] == comps


def test_bit_key_paper_example():
    assert th.bit_key([1, 5]) == 16 and th.bit_key([2, 1, 1, 1, 1]) == 15  # C.1


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("bad, exc", [(0, ValueError), (-3, ValueError), (2.0, TypeError),
                                      (True, TypeError), ("4", TypeError), (None, TypeError)])
def test_bad_n(bad, exc):
    for fn in (th.uniform_token_count_pmf, th.uniform_segmentality_pmf, th.uniform_token_length_pmf,
               th.expected_chars_per_token, th.total_token_count, th.markov_epsilon_full,
               th.markov_rejection_expected_trials, th.markov_expected_inverse_probability):
        with pytest.raises(exc):
            fn(bad)
    with pytest.raises(exc):
        th.token_length_count(1, bad)
    with pytest.raises(exc):
        th.lock_unrank(0, bad)
    with pytest.raises(exc):
        rs.markov_rejection_sample(bad, seed=0)


@pytest.mark.parametrize("bad, exc", [([], ValueError), ([0, 2], ValueError),
                                      ([1, -1], ValueError), ([1.5, 1], TypeError),
                                      ("12", TypeError), (5, TypeError),
                                      (np.array([1.0, 2.0]), TypeError)])
def test_bad_lengths(bad, exc):
    for fn in (th.lock_key, th.bit_key, th.multiset_rank, th.lock_f2,
               th.markov_path_probability):
        with pytest.raises(exc):
            fn(bad)


def test_bad_keys_and_ranges():
    with pytest.raises(ValueError):
        th.lock_unrank(8, 4)
    with pytest.raises(ValueError):
        th.lock_unrank(-1, 4)
    with pytest.raises(ValueError):
        th.bit_unrank(2**5, 6)
    with pytest.raises(ValueError):
        th.multiset_unrank([1, 1, 2], 3)
    with pytest.raises(ValueError):
        th.token_length_count(0, 5)
    with pytest.raises(ValueError):
        th.uniform_segmentality_pmf(1)
    with pytest.raises(ValueError):
        th.bit_rejection_expected_trials(0, 4)
    with pytest.raises(ValueError):
        th.bit_rejection_expected_trials(9, 4)
    with pytest.raises(ValueError):
        th.lock_f1(6, 5)
    with pytest.raises(ValueError):
        th.lock_f1_hyp2f1(2, 5, backend="nope")
    for p in (-0.1, 1.5, float("nan")):
        with pytest.raises(ValueError):
            th.chao_strawderman(3, p)
    with pytest.raises(TypeError):
        th.chao_strawderman(3, "1/2")
    with pytest.raises(TypeError):
        th.uniform_token_length_pmf(3, exact="yes")


def test_huge_inputs_refused_quickly():
    with pytest.raises(ValueError):
        th.uniform_token_count_pmf(10**7)
    with pytest.raises(ValueError):
        th.token_length_count(1, 10**9)
    with pytest.raises(ValueError):
        rs.markov_rejection_sample(rs.MAX_MARKOV_N + 1, seed=0)
    with pytest.raises(ValueError):
        rs.markov_rejection_samples(12, 10**6, seed=0)  # ~1e10 walks expected
    with pytest.raises(ValueError):
        rs.bit_rejection_samples(40, 1, 10, seed=0)  # 2^39 draws per sample
    with pytest.raises(ValueError):
        th.partitions_k(10**4, 3)
    with pytest.raises(ValueError):
        th.lock_key([1] * 5000)


def test_lock_keys_bad_batches():
    lengths, offsets = flat([(1, 2), (3,)])
    with pytest.raises(ValueError, match="sample 1"):
        th.lock_keys(np.array([1, 2, 2]), offsets, 3)
    with pytest.raises(ValueError, match="sample 0"):
        th.lock_keys(np.array([0, 3, 3]), offsets, 3)
    with pytest.raises(ValueError, match="sample 0"):
        th.lock_keys(np.array([9, 3, 3]), offsets, 3)
    with pytest.raises(ValueError, match="offsets"):
        th.lock_keys(lengths, np.array([0, 2]), 3)
    with pytest.raises(ValueError, match="offsets"):
        th.lock_keys(lengths, np.array([0, 3, 2, 3]), 3)
    with pytest.raises(ValueError, match="sample 1"):
        th.lock_keys(np.array([1, 2]), np.array([0, 2, 2]), 3)  # an empty sample
    with pytest.raises(ValueError):
        th.lock_keys(lengths, offsets, 65)
    with pytest.raises(TypeError):
        th.lock_keys(lengths.astype(float), offsets, 3)
    assert th.lock_keys(np.array([], dtype=np.int64), np.array([0]), 3).shape == (0,)


# --------------------------------------------------------------------------- verify & CLI
def coin_sampler(p_boundary: float, seed: int):
    """Stand-in for Grampa.sample_lengths: independent boundary per position (uniform at ½)."""
    rng = np.random.default_rng(seed)

    def sample_lengths(word, size):
        cuts = rng.random((size, len(word) - 1)) < p_boundary
        comps = [tuple(np.diff(np.flatnonzero(np.r_[True, c, True])).tolist()) for c in cuts]
        return flat(comps)

    return sample_lengths


def test_grampa_check_logic_with_stand_in():
    rows = ch.check_grampa_uniform(coin_sampler(0.5, seed=2), n=10, size=20_000)
    assert len(rows) == 4 and {r.status for r in rows} == {"pass"}
    skewed = ch.check_grampa_uniform(coin_sampler(0.45, seed=2), n=10, size=20_000)
    assert {r.status for r in skewed} == {"fail"}


def test_grampa_check_skipped_without_grampa(monkeypatch):
    monkeypatch.setattr(ch.grampa.algorithms, "Grampa", None)
    rows = ch.check_grampa_uniform()
    assert [r.status for r in rows] == ["skipped"]
    assert ch.all_passed(rows)


@pytest.mark.slow  # every check of verify() (~35 s); make test runs it, and verify itself
def test_verify_all_pass():
    rows = ch.verify()
    assert len(rows) >= 25
    frame = ch.to_frame(rows)
    assert list(frame.columns) == ["claim", "equation", "computed", "expected", "status"]
    for r in rows:
        assert r.status in {"pass", "skipped"}, r
        if r.status == "skipped":
            assert "GRaMPa" in r.claim
    assert ch.all_passed(rows)
    text = ch.format_table(rows)
    assert "Eq. 47" in text and "fail" in text.splitlines()[-1]


@pytest.mark.slow  # verify in a fresh process (~45 s)
def test_cli_verify_subprocess():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "workbench", "verify"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 fail" in proc.stdout and "Eq. 16" in proc.stdout


def test_cli_exit_codes(monkeypatch, capsys):
    # the package re-exports the function ``verify``, which shadows the submodule attribute
    verify_module = importlib.import_module("workbench.checks")

    bad = [ch.CheckResult("a claim", "Eq. 0", "1", "2", "fail")]
    monkeypatch.setattr(verify_module, "verify", lambda only=None: bad)
    assert cli_main(["verify"]) == 1
    assert "a claim" in capsys.readouterr().out
    monkeypatch.setattr(verify_module, "verify", lambda only=None: [])
    assert cli_main(["verify", "--only", "zzz"]) == 2
    with pytest.raises(SystemExit):
        cli_main(["no-such-command"])


@pytest.mark.parametrize("old", ["token_count_pmf", "token_length_pmf", "segmentality_pmf"])
def test_the_old_names_of_the_uniform_laws_warn_and_agree(old):
    """Issue 37 item 5: one name, one function. The uniform-segmentation laws are
    ``uniform_*`` (``Grampa.token_length_pmf`` and the laws' ``token_count_pmf`` are other
    functions); the old names work for one release, with a warning naming the new one."""
    new = getattr(th, f"uniform_{old}")
    with pytest.warns(DeprecationWarning, match=f"workbench.theory.uniform_{old}"):
        value = getattr(th, old)(5)
    assert value == new(5)
    assert old not in th.__all__ and f"uniform_{old}" in th.__all__
