"""Time per word: GRaMPa against Markov rejection (safe, tight ε) and bit rejection, as |s| grows.

(a) of issue 11, item 7: the paper's claim (§4.2, App. A.5) that GRaMPa's single pass beats
rejection sampling, whose cost grows with |s| (superexponentially for the Markov sampler
under the infinite vocabulary, Eq. 47–48; up to 2^(|s|-1) for the bit sampler, §3.2).

Word sets, ``--words`` words per length (``|s|`` counted as spelled, the ``▁`` included):

* ``ulm-8k real``: the most frequent English words (SymSpell's 82,765) of that spelled length
  that ``ulm-8k`` segments (fewer where real words run out; the table says how many);
* ``ulm-8k synthetic``: :func:`workbench.datasets.corpora.synthetic_words` (frequent words
  glued together and cut to length);
* ``infinite``: the same synthetic words under the infinite vocabulary.

Every sampler draws one sample per word with ``sampler.sample_lengths(word, 1)`` (its serial
single-word route, the same for all four samplers; per-call Python overhead included), and
then ``--per`` samples per word (fewer if they would not fit half the cap at the single-call
speed) with ``sample_lengths(word, per)`` (the per-sample cost, overhead amortised), timed
with ``perf_counter``. A cell is the median over its words (after one untimed warm-up
word), shown as ``single / amortised / batch``, where *batch* is one ``tokenize(words)`` call
over the cell's words divided by their number (best of 3; parallel kernels; run only when
the amortised route fitted the cap); the ratios use the amortised times. A rejection
cell stops when its words have used ``--cap`` seconds together (reported ``> cap``) or
when a word is refused (expected trials above ``--max-trials``; reported ``refused``).
Numba threads: the single-word routes are serial. (The rejection samplers' ``tokenize``
always launches a parallel ``prange`` kernel, which can cost milliseconds per call on a
loaded 2-core machine; the batch column shares that cost over the cell's words.)

Run: ``python benchmarks/bench_rejection.py``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from workbench import (
    BitRejectionSampler,
    Grampa,
    MarkovRejectionSampler,
    RejectionLimitError,
    Vocabulary,
    count_segmentations,
)
from workbench.datasets import english_words, load_vocabulary, synthetic_words

SAMPLERS = ("grampa", "markov-safe", "markov-tight", "bit")


def real_words(vocab: Vocabulary, length: int, count: int, pool: list[str]) -> list[str]:
    out = []
    for w in pool:
        if len(w) == length and count_segmentations(w, vocab) > 0:
            out.append(w)
            if len(out) == count:
                break
    return out


def make(name: str, vocab: Vocabulary, max_trials: int):
    if name == "grampa":
        return Grampa(vocab, tau=1.0, seed=0)
    if name == "bit":
        return BitRejectionSampler(vocab, max_trials=max_trials, seed=0)
    return MarkovRejectionSampler(vocab, epsilon=name.split("-")[1], max_trials=max_trials,
                                  seed=0)


def _timed(run, words: list[str], cap: float, per: int):
    """Median over words of ``run(word)`` seconds / ``per``; a text verdict if capped."""
    times, spent = [], 0.0
    for w in words:
        start = time.perf_counter()
        try:
            run(w)
        except RejectionLimitError:
            return "refused", float("nan")
        took = time.perf_counter() - start
        times.append(took / per)
        spent += took
        if spent > cap and len(times) < len(words):
            return f"> cap ({len(times)}/{len(words)})", float("nan")
    med = statistics.median(times)
    return _fmt(med), med


def cell(sampler, words: list[str], cap: float, per: int):
    """(text, seconds) of the single-call, amortised and batch routes for one sampler."""
    try:
        sampler.sample_lengths(words[0], 1)  # warm-up (compilation, caches)
    except RejectionLimitError:
        return (("refused", float("nan")),) * 3
    single = _timed(lambda w: sampler.sample_lengths(w, 1), words, cap, 1)
    if not np.isfinite(single[1]):
        return single, ("—", float("nan")), ("—", float("nan"))
    # as many samples per word as fit half the cap at the single-call speed (at most ``per``)
    per = max(1, min(per, int(cap / (2 * len(words) * single[1]))))
    amortised = _timed(lambda w: sampler.sample_lengths(w, per), words, cap, per)
    if not np.isfinite(amortised[1]):
        return single, amortised, ("—", float("nan"))
    runs = []  # the batch route: one tokenize call over all the words, best of 3
    for _ in range(3):
        start = time.perf_counter()
        sampler.tokenize_batch(words)
        runs.append((time.perf_counter() - start) / len(words))
    return single, amortised, (_fmt(min(runs)), min(runs))


def _ratio(secs: dict[str, float], name: str) -> str:
    r = secs[name] / secs["grampa"]
    return f"{r:,.1f}×" if np.isfinite(r) else "—"


def _fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lengths", default="4,8,12,16,20,24,28,32,36,40")
    ap.add_argument("--words", type=int, default=20)
    ap.add_argument("--cap", type=float, default=2.0, help="seconds per rejection cell")
    ap.add_argument("--max-trials", type=int, default=2_000_000)
    ap.add_argument("--per", type=int, default=200, help="samples per word, amortised route")
    args = ap.parse_args()
    lengths = [int(x) for x in args.lengths.split(",")]
    ulm = load_vocabulary("ulm-8k")
    inf = Vocabulary.infinite()
    pool = [ulm.to_alphabet(" " + w) for w in english_words()]
    sets = {
        "ulm-8k real": (ulm, lambda n: real_words(ulm, n, args.words, pool)),
        "ulm-8k synthetic": (ulm, lambda n: synthetic_words(n, args.words, ulm, seed=0)),
        "infinite": (inf, lambda n: synthetic_words(n, args.words, inf, seed=0)),
    }
    print(f"words per cell: {args.words}; cap {args.cap} s per rejection cell; "
          f"max_trials {args.max_trials:,}")
    for set_name, (vocab, words_of) in sets.items():
        samplers = {name: make(name, vocab, args.max_trials) for name in SAMPLERS}
        print(f"\n### {set_name}\n")
        print("| \\|s\\| | words | median N_V(s) | median E[T] Markov tight | median E[T] bit "
              "| GRaMPa | Markov safe | Markov tight | bit | Markov tight / GRaMPa "
              "| bit / GRaMPa |")
        print("|" + "---|" * 11)
        for n in lengths:
            words = words_of(n)
            if not words:
                print(f"| {n} | 0 |" + " |" * 9)
                continue
            n_v = statistics.median(count_segmentations(w, vocab) for w in words)
            e_markov = statistics.median(samplers["markov-tight"].expected_trials(w)
                                         for w in words)
            e_bit = statistics.median(samplers["bit"].expected_trials(w) for w in words)
            text, secs = {}, {}
            for name in SAMPLERS:
                single, amortised, batch = cell(samplers[name], words, args.cap, args.per)
                text[name] = f"{single[0]} / {amortised[0]} / {batch[0]}"
                secs[name] = amortised[1]

            print(f"| {n} | {len(words)} | {n_v:.3g} | {e_markov:.3g} | {e_bit:.3g} "
                  f"| {text['grampa']} | {text['markov-safe']} | {text['markov-tight']} "
                  f"| {text['bit']} | {_ratio(secs, 'markov-tight')} | {_ratio(secs, 'bit')} |",
                  flush=True)


if __name__ == "__main__":
    main()
