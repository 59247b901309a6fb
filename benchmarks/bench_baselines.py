"""End-to-end text throughput: P1 + P2 + multiplexed GRaMPa (p = 0.5) → ids, vs SentencePiece.

(b) of issue 11: MB/s of raw shipped text (Shakespeare, 5.06 MB) through
``tokenize_corpus`` (both cores, spawn workers) against SentencePiece's own sampling on the
same raw lines: ``sp.encode(lines, enable_sampling=True, alpha=0.0, nbest_size=-1,
num_threads=2)`` with the shipped ULM model. Median of ``--repeats`` runs each.

Run: ``flock /tmp/heavy.lock python benchmarks/bench_baselines.py``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import sentencepiece as spm

from workbench import Grampa, datasets
from workbench.pretokenise import TextTokenizer, tokenize_corpus


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--block-lines", type=int, default=8192)
    args = ap.parse_args()
    text = datasets.load_text("shakespeare")
    lines = text.split("\n")
    mb = len(text.encode("utf-8")) / 1e6
    v = datasets.load_vocabulary("ulm-8k")
    tok = TextTokenizer(Grampa(v, tau=1.0), p=0.5)
    tokenize_corpus(["\n".join(lines[:5000])], tok, workers=2, progress=False)  # warm caches
    ours, theirs = [], []
    sp = spm.SentencePieceProcessor(model_file=str(datasets.sentencepiece_model_path("ulm-8k")))
    for _ in range(args.repeats):
        t = time.perf_counter()
        ids, offsets = tokenize_corpus([text], tok, seed=0, workers=2,
                                       block_lines=args.block_lines, progress=False)
        ours.append(mb / (time.perf_counter() - t))
        t = time.perf_counter()
        out = sp.encode(lines, enable_sampling=True, alpha=0.0, nbest_size=-1, num_threads=2)
        theirs.append(mb / (time.perf_counter() - t))
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"text: {mb:.2f} MB, {len(lines):,} lines; ours {ids.size:,} ids, SP "
          f"{sum(map(len, out)):,} ids")
    print(f"P1+P2+GRaMPa(p=0.5) tokenize_corpus, 2 workers: median {a:.2f} MB/s {ours}")
    print(f"SentencePiece sampling (nbest=-1, alpha=0), 2 threads: median {b:.2f} MB/s {theirs}")
    print(f"ratio ours / SentencePiece: {a / b:.2f}x")


if __name__ == "__main__":
    main()
