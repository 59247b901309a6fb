"""Chain laws (issue 28, "Speed"): ``sampler.law(word)`` and its DP summaries per word.

The must: ≤ 1 ms per word of ≤ 30 characters on a real vocabulary (ulm-8k, gpt2), linear
in length. One call here is ``law = sampler.law(word)`` followed by entropy, E[#tokens],
the token-count pmf, the mode, KL to uniform and (where the sampler has one) the
regularisation rate — every summary a chain-backed law gives without enumerating. Rows:
GRaMPa (τ = 0.5 l2r; τ = 2, ℓ_min = 2, r2l), ULM over every segmentation (α = 0.3, ulm-8k
only: GPT-2 has no scores) and MaxMatch-dropout (q = 0.1), on 30-character words (the
largest the must covers) and on 60/120/240 characters (linearity; the pmf is O(n²·L), so
the last rows grow a little faster). Each cell: the median and the minimum over
``--repeats`` rounds of the per-word time over the word list (numba compiled and the
vocabulary loaded before timing).

Run: ``python benchmarks/bench_chain_laws.py`` (about 10 s).
"""

from __future__ import annotations

import argparse
import statistics
import time

from workbench import Grampa, MaxMatchSampler, ULMSampler
from workbench.datasets import resolve_vocabulary

STEMS = ["internationalisation", "procedurally", "understanding", "counterexamples",
         "tokenisation", "reconsiderations", "photosynthesis", "unbelievably"]


def _words(marker: str, n: int) -> list[str]:
    """Words of exactly ``n`` characters: the marker, then stems run together."""
    out = []
    for k in range(len(STEMS)):
        text = "".join(STEMS[(k + i) % len(STEMS)] for i in range(n // 8 + 2))
        out.append((marker + text)[:n])
    return out


def _one(sampler, word: str) -> None:
    law = sampler.law(word)
    out = [law.shannon_entropy(), law.expected_tokens, law.token_count_pmf(), law.mode,
           law.kl_to_uniform]
    if law.deterministic is not None:
        out.append(law.regularisation_rate)


def _per_word_ms(sampler, words: list[str], repeats: int) -> tuple[float, float]:
    for w in words:
        _one(sampler, w)  # compile, warm caches
    rounds = []
    for _ in range(repeats):
        start = time.perf_counter()
        for w in words:
            _one(sampler, w)
        rounds.append((time.perf_counter() - start) / len(words) * 1e3)
    return statistics.median(rounds), min(rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    print(f"{'vocabulary':<10} {'sampler':<28} {'n':>4} {'median ms/word':>15} {'min':>8}")
    worst30 = best30 = 0.0
    for name, marker in [("ulm-8k", "\u2581"), ("gpt2", "\u0120")]:
        v = resolve_vocabulary(name)
        samplers = {"GRaMPa τ=0.5 l2r": Grampa(v, tau=0.5),
                    "GRaMPa τ=2 ℓmin=2 r2l": Grampa(v, tau=2.0, ell_min=2, direction="r2l"),
                    "MaxMatch-dropout q=0.1": MaxMatchSampler(v, dropout=0.1)}
        if v.scores is not None:
            samplers["ULM nbest=-1 α=0.3"] = ULMSampler(v, nbest=-1, alpha=0.3)
        for label, sampler in samplers.items():
            for n in (30, 60, 120, 240):
                med, best = _per_word_ms(sampler, _words(marker, n), args.repeats)
                if n == 30:
                    worst30, best30 = max(worst30, med), max(best30, best)
                print(f"{name:<10} {label:<28} {n:>4} {med:>15.3f} {best:>8.3f}")
    print(f"30 characters, worst row: median {worst30:.3f}, minimum {best30:.3f} ms/word "
          f"(must: <= 1 ms; medians {'MET' if worst30 <= 1.0 else 'NOT MET'}, minima "
          f"{'MET' if best30 <= 1.0 else 'NOT MET'}; a busy host inflates medians)")


if __name__ == "__main__":
    main()
