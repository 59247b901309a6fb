"""Plain references for ``workbench.experiments.grampa_tables``: Tables 7 and 8, by definition.

Segmentations are token-length tuples; laws are dicts segmentation → probability, built by
enumerating every segmentation of every piece (``naive.grampa`` for GRaMPa, brute force for
ULM's k best) and multiplying over a word's pieces. Shares no code with the package.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from naive.grampa import count_segmentations, enumerate_segmentations, segmentation_distribution


def word_count(pieces, vocab_set) -> int:
    """N_V of a word: product of its pieces' segmentation counts."""
    out = 1
    for p in pieces:
        out *= count_segmentations(p, vocab_set)
    return out


def _product(laws):
    out = {(): 1.0}
    for law in laws:
        out = {a + b: pa * pb for (a, pa), (b, pb) in itertools.product(out.items(), law.items())}
    return out


def grampa_word_law(pieces, vocab_set, tau, ell_min):
    """Law of a word's segmentation (as token lengths) under GRaMPa L2R, piece by piece."""
    laws = []
    for p in pieces:
        law = {}
        for seg, prob in segmentation_distribution(p, vocab_set, tau, ell_min, "l2r").items():
            key = tuple(len(t) for t in seg)
            law[key] = law.get(key, 0.0) + prob
        laws.append(law)
    return _product(laws)


def ulm_word_law(pieces, scores: dict, k: int, alpha: float):
    """Law under ULM k-best sampling: the k highest-scoring segmentations, ∝ exp(α·score)."""
    vocab_set = set(scores)
    laws = []
    for p in pieces:
        segs = enumerate_segmentations(p, vocab_set)
        ranked = sorted(segs, key=lambda s: -sum(scores[t] for t in s))[:k]
        weights = [math.exp(alpha * sum(scores[t] for t in s)) for s in ranked]
        laws.append({tuple(len(t) for t in s): w / sum(weights) for s, w in zip(ranked, weights)})
    return _product(laws)


def law_stats(law: dict, n_seg: int) -> dict:
    """Entropy (bits), E[m], P(mode), and the exact Table 8 fractions of one word's law."""
    h = -sum(p * math.log2(p) for p in law.values() if p > 0)
    values = sorted(law.values())
    mode, rest = values[-1], values[:-1]  # the most likely segmentation left out once
    total_rest = sum(rest)
    h_rest = -sum(p / total_rest * math.log2(p / total_rest) for p in rest if p > 0) \
        if total_rest > 0 else math.nan
    return {
        "entropy": h,
        "E_m": sum(len(s) * p for s, p in law.items()),
        "mode": mode,
        "H1_H0": h / math.log2(n_seg) if n_seg > 1 else math.nan,
        "RR": 1 - mode,
        "H1pr_H0pr": h_rest / math.log2(n_seg - 1) if n_seg > 2 and total_rest > 0 else math.nan,
    }


def table7(segs) -> dict:
    """Means and population standard deviations of m, ℓ (over tokens), R and S (over words)."""
    def mean_std(values):
        values = [Fraction(v) for v in values]
        mu = sum(values) / len(values)
        return float(mu), math.sqrt(float(sum((v - mu) ** 2 for v in values) / len(values)))

    ms = [len(s) for s in segs]
    ells = [t for s in segs for t in s]
    rs = [Fraction(sum(s), len(s)) for s in segs]
    ss = [Fraction(len(s) - 1, sum(s) - 1) for s in segs if sum(s) > 1]
    out = {}
    for name, values in (("m", ms), ("ell", ells), ("R", rs), ("S", ss)):
        out[f"{name}_mean"], out[f"{name}_std"] = mean_std(values)
    return out


def distribution(samples, n_seg: int) -> dict:
    """Table 8's per-word fractions from samples, straight from the paper's caption."""
    counts: dict = {}
    for s in samples:
        counts[tuple(s)] = counts.get(tuple(s), 0) + 1
    big_m = len(samples)
    top = max(counts.values())
    mode = next(s for s, c in counts.items() if c == top)  # first most frequent

    def entropy(cs):
        t = sum(cs)
        return -sum(c / t * math.log2(c / t) for c in cs if c)

    u = len(counts)
    h0 = math.log2(min(big_m, n_seg))
    rest = [c for s, c in counts.items() if s != mode]
    h0pr = math.log2(min(sum(rest), n_seg - 1)) if rest else 0.0
    return {"H1_H0": entropy(counts.values()) / h0 if h0 else math.nan,
            "H1pr_H0pr": entropy(rest) / h0pr if h0pr else math.nan,
            "RR": 1 - top / big_m, "C": u / n_seg, "U": u / big_m,
            "maxCU": u / min(n_seg, big_m)}
