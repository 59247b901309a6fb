"""Exact segmentation laws (issue 28): the identities every sampler's ``law(word)`` must obey.

* each law's probabilities sum to ``1 − failure_mass`` (GRaMPa, ULM k-best and over all
  segmentations, MaxMatch-dropout with its failures, the rejection samplers, BPE-dropout
  with GPT-2's merges);
* dropout ``0`` (ULM ``k = 1``) puts all mass on the deterministic segmentation; dropout
  ``1`` leaves single characters (BPE: bytes; MaxMatch: the shortest match);
* ULM at ``α = 0`` over all segmentations = GRaMPa at ``τ = 1`` = uniform;
* the law's token-count pmf and E[#tokens] equal GRaMPa's forward DP;
* BPE-dropout's kernel samples ``Ġtokenization`` (GPT-2, ``p = 0.1``) as its law says
  (chi-square, fixed seed);
* the chain laws' dynamic programs (GRaMPa, ULM over every segmentation, MaxMatch-dropout)
  equal their enumerations (entropy, E[#tokens], pmf, mode, KL, failure mass, regularisation
  rate), and ULM α = 0 = GRaMPa τ = 1 = uniform holds by DP on a 210-character word;
* StochasTok's exact law sums to 1, is the deterministic segmentation at 0 attempts, and its
  sampler follows it (chi-square, fixed seed);
* Algorithm 3's mixture (:meth:`workbench.Multiplexer.law`): ``p = 0`` is the deterministic
  segmentation, ``p = 1`` the stochastic law, failures carried; the arithmetic its other
  callers use without the law (E[#tokens], P(deterministic), entropy, expected unigram counts)
  equals the law's.

The laws themselves are :mod:`workbench.laws`, :mod:`workbench.samplers.laws` and
:mod:`workbench.bpe.laws`; their brute-force references are in ``tests/naive/laws.py``. This
module computes no law itself.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import cache

import numpy as np

from ..bpe import BPEModel, BPESampler
from ..datasets import resolve_vocabulary
from ..grampa import Grampa, expected_token_counts
from ..laws import SegmentationLaw
from ..samplers import (
    BitRejectionSampler,
    MarkovRejectionSampler,
    MaxMatchSampler,
    ULMSampler,
    UnigramRejectionSampler,
)
from ..samplers.stochastok import StochasTokSampler
from ..segmenters import Multiplexer, default_segmenter
from ..stats import chisquare_lumped
from ..theory.grampa.mixture import mix, mixture_entropy
from ..vocab import Vocabulary
from .registry import CheckResult, p_row, register, row

WORD = "abcabca"
TOKENS = ["a", "b", "c", "ab", "bc", "ca", "abc", "bca", "abca", "cab"]
SCORES = [-1.0, -1.7, -2.1, -1.35, -2.45, -2.9, -3.3, -3.75, -4.6, -4.05]
GPT2_WORD, GPT2_P, SAMPLES, SEED = "Ġtokenization", 0.1, 20_000, 2026
#: Float laws must sum to 1 − failure mass within this.
SUM_TOL = 1e-12


@cache
def _vocab() -> Vocabulary:
    return Vocabulary(TOKENS, scores=SCORES)


@cache
def _gpt2() -> tuple[Vocabulary, BPEModel]:
    return resolve_vocabulary("gpt2"), BPEModel.from_gpt2()


def _bpe(p: float, seed: int | None = None) -> BPESampler:
    vocab, model = _gpt2()
    return BPESampler(vocab, dropout=p, model=model, seed=seed)


def _laws():
    v = _vocab()
    return {
        "GRaMPa τ=0.5": Grampa(v, tau=0.5).law(WORD),
        "ULM k=8 α=0.5": ULMSampler(v, nbest=8, alpha=0.5).law(WORD),
        "ULM all α=1": ULMSampler(v, nbest=-1, alpha=1.0).law(WORD),
        "MaxMatch-dropout q=0.5 ({a,ab,abc,d}, abcd)": MaxMatchSampler(
            Vocabulary(["a", "ab", "abc", "d"]), dropout=0.5).law("abcd"),
        "MaxMatch-dropout q=0.3": MaxMatchSampler(v, dropout=0.3).law(WORD),
        "Markov rejection": MarkovRejectionSampler(v).law(WORD),
        "bit rejection p=0.3": BitRejectionSampler(v, p=0.3).law(WORD),
        "unigram rejection": UnigramRejectionSampler(v).law(WORD),
        f"BPE-dropout p={GPT2_P} (GPT-2, {GPT2_WORD})": _bpe(GPT2_P).law(GPT2_WORD),
    }


@register("Segmentation laws: identities", "numeric")
def check_law_identities() -> list[CheckResult]:
    rows = []
    worst, failures = 0.0, {}
    for name, law in _laws().items():
        total = float(sum(law.probabilities().values())) + float(law.failure_mass)
        worst = max(worst, abs(total - 1.0))
        if law.failure_mass:
            failures[name] = float(law.failure_mass)
    rows.append(row("every sampler's law sums to 1 − failure mass (9 laws; MaxMatch-dropout "
                    "fails on abcd with mass 1/2)", "issue 28",
                    f"max |Σ − 1| = {worst:.1e}; failures {failures}",
                    f"≤ {SUM_TOL:g}; {{MaxMatch abcd: 0.5}}",
                    worst <= SUM_TOL and list(failures.values()) == [0.5]))
    v = _vocab()
    zero = {"BPE p=0": _bpe(0.0).law(GPT2_WORD),
            "MaxMatch q=0": MaxMatchSampler(v, dropout=0.0).law(WORD),
            "ULM k=1": ULMSampler(v, nbest=1).law(WORD)}
    ok = {k: law.probabilities() == {law.deterministic: 1.0} for k, law in zero.items()}
    rows.append(row("dropout 0 (ULM k = 1) gives the deterministic segmentation with "
                    "probability 1", "issue 28", ok, "all True", all(ok.values())))
    one = {"BPE p=1": (_bpe(1.0).law(GPT2_WORD), GPT2_WORD),
           "MaxMatch q=1": (MaxMatchSampler(v, dropout=1.0).law(WORD), WORD)}
    ok = {k: law.probabilities() == {tuple(w): 1.0} for k, (law, w) in one.items()}
    rows.append(row("dropout 1 leaves single characters (BPE: bytes; MaxMatch: the shortest "
                    "match)", "issue 28", ok, "all True", all(ok.values())))
    uniform = MarkovRejectionSampler(v).law(WORD)
    others = [ULMSampler(v, nbest=-1, alpha=0.0).law(WORD), Grampa(v, tau=1.0).law(WORD)]
    n = uniform.n_segmentations
    gap = max(abs(float(law.probability(s)) - 1 / n) for law in others for s in
              uniform.probabilities())
    same = all(set(law.probabilities()) == set(uniform.probabilities()) for law in others)
    rows.append(row(f"ULM α = 0 (all segmentations) = GRaMPa τ = 1 = uniform over the N = {n} "
                    f"segmentations of {WORD!r}", "issue 28",
                    f"max |P − 1/N| = {gap:.1e}, same support {same}", "≤ 1e-12, True",
                    gap <= 1e-12 and same))
    g = Grampa(v, tau=0.5)
    law = g.law(WORD)
    by_count: dict[int, float] = {}  # from every segmentation, enumerated
    by_length = np.zeros(len(WORD) + 1)
    for s, q in law.probabilities().items():
        by_count[len(s)] = by_count.get(len(s), 0.0) + float(q)
        for t in s:
            by_length[len(t)] += float(q)
    pmf = law.token_count_pmf()
    pmf_gap = max(abs(float(pmf.get(k, 0.0)) - by_count.get(k, 0.0))
                  for k in range(len(WORD) + 1))
    # GRaMPa's own forward DP of E[N_l] / E[m] (Grampa.token_length_pmf); E[m] = n / E[l]
    dp_length = g.token_length_pmf(WORD)
    dp_mean = len(WORD) / float(np.dot(np.arange(dp_length.size), dp_length))
    length_gap = float(np.abs(by_length / by_length.sum() - dp_length).max())
    mean_gap = abs(float(law.expected_tokens) - dp_mean)
    rows.append(row("the law's token-count pmf (chain DP) = the sum over its enumerated "
                    "segmentations; its pooled token lengths and E[#tokens] = GRaMPa's forward "
                    "DP (τ = 0.5)", "issue 28",
                    f"{pmf_gap:.1e}, {length_gap:.1e}, {mean_gap:.1e}",
                    "≤ 1e-12, ≤ 1e-12, ≤ 1e-12",
                    pmf_gap <= 1e-12 and length_gap <= 1e-12 and mean_gap <= 1e-12))
    return rows


@register("Segmentation laws: BPE-dropout samples", "statistical")
def check_bpe_dropout_samples() -> list[CheckResult]:
    sampler = _bpe(GPT2_P, seed=SEED)
    law = sampler.law(GPT2_WORD)
    counts = Counter(map(tuple, sampler.sample_many(GPT2_WORD, SAMPLES)))
    outside = sum(c for s, c in counts.items() if law.probability(s) == 0)
    probs = np.array([float(p) for p in law.probabilities().values()])
    observed = np.array([counts[s] for s in law.probabilities()], dtype=float)
    _, p, dof = chisquare_lumped(observed, probs)
    det = float(law.probability(law.deterministic))
    rows = [p_row(f"BPE-dropout's kernel samples {GPT2_WORD!r} (GPT-2, p = {GPT2_P}, "
                  f"{SAMPLES:,} samples) as its exact law says ({law.support_size:,} "
                  f"segmentations; P(deterministic) = {det:.4f})", "issue 28",
                  p, f"chi-square, {dof} dof")]
    rows.append(row("no sample outside the law's support", "issue 28", outside, 0, outside == 0))
    return rows


@register("Segmentation laws: Algorithm 3's mixture", "numeric")
def check_mixture_law() -> list[CheckResult]:
    v = _vocab()
    seg = default_segmenter(v)
    det = tuple(seg(WORD))
    samplers = {"GRaMPa τ=0.5": Grampa(v, tau=0.5), "MaxMatch-dropout q=0.3":
                MaxMatchSampler(v, dropout=0.3), "ULM all α=1": ULMSampler(v, nbest=-1, alpha=1.0)}
    ends = {}
    for name, s in samplers.items():
        zero, one = Multiplexer(seg, s, 0.0).law(WORD), Multiplexer(seg, s, 1.0).law(WORD)
        alone = s.law(WORD)
        ends[name] = zero.probabilities() == {det: 1.0} and \
            one.probabilities() == alone.probabilities()
    rows = [row(f"Multiplexer.law on {WORD!r}: p = 0 is the deterministic segmentation with "
                "probability 1, p = 1 the stochastic law", "GRaMPa §4.6, Alg. 3", ends,
                "all True", all(ends.values()))]
    mm = Vocabulary(["a", "ab", "abc", "d"])
    fail = Multiplexer(default_segmenter(mm), MaxMatchSampler(mm, dropout=0.5), 0.3
                       ).law("abcd").failure_mass
    rows.append(row("the mixture carries the stochastic half's failures: MaxMatch-dropout "
                    "q = 0.5 on abcd ({a, ab, abc, d}) at p = 0.3", "issue 28",
                    f"failure mass {float(fail):.12g}", "0.3 · 1/2 = 0.15",
                    abs(float(fail) - 0.15) <= SUM_TOL))
    p, g = 0.3, Grampa(v, tau=0.5)
    law, alone = Multiplexer(seg, g, p).law(WORD), g.law(WORD)
    p_det = float(alone.probability(det))
    gaps = [abs(float(law.expected_tokens) - mix(p, float(alone.expected_tokens), len(det))),
            abs(float(law.probability(det)) - mix(p, p_det, 1.0)),
            abs(law.shannon_entropy(math.e)
                - mixture_entropy(p, alone.shannon_entropy(math.e), p_det, unit="nats"))]
    counts = expected_token_counts({WORD: 1}, v, tau=0.5, p=p, deterministic=seg)
    for s_, q in law.probabilities().items():
        for t in s_:
            counts[v.id_of(t)] -= float(q)
    gaps.append(float(np.abs(counts).max()))
    rows.append(row(f"the callers' mixture arithmetic equals Multiplexer.law (GRaMPa τ = 0.5, "
                    f"p = {p}): E[#tokens], P(deterministic), entropy (GRaMPa's forward DP "
                    "mixed), expected unigram counts (Figure 12's curve)", "GRaMPa §4.6, Alg. 3",
                    ", ".join(f"{x:.1e}" for x in gaps), f"each ≤ {SUM_TOL:g}",
                    max(gaps) <= SUM_TOL))
    return rows


#: A chain law's DP summaries equal its enumeration within this (float rounding).
DP_TOL = 1e-12
LONG_WORD = "abcabca" * 30  # 210 characters: far past any enumeration
STOCHASTOK_WORD, STOCHASTOK_ATTEMPTS = "abcabcab", 3


def _dp_gaps(law: SegmentationLaw) -> list[float]:
    """|DP − enumeration| of entropy, E[#tokens], pmf, P(mode), KL, P(deterministic)."""
    ref = SegmentationLaw(law.word, law.probabilities(), failure_mass=law.failure_mass,
                          n_segmentations=law.n_segmentations, deterministic=law.deterministic)
    pmf, ref_pmf = law.token_count_pmf(), ref.token_count_pmf()
    gaps = [abs(law.shannon_entropy(math.e) - ref.shannon_entropy(math.e)),
            abs(law.expected_tokens - float(ref.expected_tokens)),
            max(abs(pmf.get(k, 0.0) - float(ref_pmf.get(k, 0.0))) for k in pmf | ref_pmf),
            abs(law.probability(law.mode) - float(max(ref.probabilities().values()))),
            abs(law.kl_to_uniform - ref.kl_to_uniform),
            abs(float(law.failure_mass) - float(ref.failure_mass))]
    if law.deterministic is not None:
        gaps.append(abs(float(law.regularisation_rate) - float(ref.regularisation_rate)))
    return gaps


@register("Segmentation laws: chains by DP, StochasTok", "numeric")
def check_chain_laws() -> list[CheckResult]:
    v = _vocab()
    chains = {"GRaMPa τ=0.5 l2r": Grampa(v, tau=0.5),
              "GRaMPa τ=2 ℓmin=2 r2l": Grampa(v, tau=2.0, ell_min=2, direction="r2l"),
              "ULM all α=1": ULMSampler(v, nbest=-1, alpha=1.0),
              "MaxMatch-dropout q=0.3": MaxMatchSampler(v, dropout=0.3)}
    laws = {k: s.law(WORD) for k, s in chains.items()}
    laws["MaxMatch-dropout q=0.5 ({a,ab,abc,d}, abcd)"] = MaxMatchSampler(
        Vocabulary(["a", "ab", "abc", "d"]), dropout=0.5).law("abcd")
    worst = {k: max(_dp_gaps(law)) for k, law in laws.items()}
    rows = [row(f"chain laws on {WORD!r}: the DP's entropy, E[#tokens], token-count pmf, P(mode), "
                "KL to uniform, failure mass and regularisation rate = the enumerated law's",
                "issue 28", {k: f"{g:.1e}" for k, g in worst.items()}, f"each ≤ {DP_TOL:g}",
                max(worst.values()) <= DP_TOL)]
    uniform = [Grampa(v, tau=1.0).law(LONG_WORD), Grampa(v, tau=1.0, direction="r2l")
               .law(LONG_WORD), ULMSampler(v, nbest=-1, alpha=0.0).law(LONG_WORD)]
    n_segs = uniform[0].n_segmentations
    gap = max(abs(law.shannon_entropy(math.e) / math.log(n_segs) - 1) for law in uniform)
    rows.append(row(f"ULM α = 0 = GRaMPa τ = 1 (both directions) = uniform by DP on a "
                    f"{len(LONG_WORD)}-character word (N = {n_segs:.3e}, never enumerated): "
                    "entropy = log N", "issue 28", f"max |H / log N − 1| = {gap:.1e}",
                    "≤ 1e-12", gap <= 1e-12))
    st = StochasTokSampler(v, attempts=STOCHASTOK_ATTEMPTS, seed=SEED)
    law = st.law(STOCHASTOK_WORD, exact=True)
    zero = StochasTokSampler(v, attempts=0).law(STOCHASTOK_WORD, exact=True)
    ok = (sum(law.probabilities().values()) == 1
          and zero.probabilities() == {zero.deterministic: 1})
    rows.append(row(f"StochasTok's law ({STOCHASTOK_ATTEMPTS} attempts, {STOCHASTOK_WORD!r}) "
                    "sums to 1 exactly; 0 attempts is the deterministic segmentation",
                    "Sims et al. 2025", f"{law.support_size} segmentations, Σ = "
                    f"{sum(law.probabilities().values())}", "Σ = 1, True", ok))
    counts = Counter(map(tuple, st.sample_many(STOCHASTOK_WORD, SAMPLES)))
    probs = np.array([float(p) for p in law.probabilities().values()])
    observed = np.array([counts[s] for s in law.probabilities()], dtype=float)
    _, p, dof = chisquare_lumped(observed, probs)
    outside = sum(c for s, c in counts.items() if law.probability(s) == 0)
    rows.append(p_row(f"StochasTok's sampler follows its exact law ({SAMPLES:,} samples; "
                      f"{outside} outside the support)", "Sims et al. 2025", p if outside == 0
                      else 0.0, f"chi-square, {dof} dof"))
    return rows
