"""End-to-end text throughput: P1 + P2 + multiplexed GRaMPa (p = 0.5) → ids, vs SentencePiece.

(b) of issue 11, item 7: MB/s of raw shipped text (Shakespeare, 5.06 MB) through
``tokenize_corpus`` against SentencePiece's own sampling on the same raw lines:
``sp.encode(lines, enable_sampling=True, alpha=0.0, nbest_size=-1, num_threads=...)`` with
the shipped ULM model. Rows, each the median of ``--repeats`` runs, ours and SentencePiece
alternating in the same process:

* both cores: ``tokenize_corpus(num_threads=2)`` (two blocks at a time in threads) against
  ``num_threads=2``;
* one core: ``tokenize_corpus(num_threads=1)`` with numba limited to one thread against
  ``num_threads=1``;
* cold (``--cold``): a fresh Python process per run, timed from outside, that imports the
  library, loads the vocabulary / model, reads the text from a plain UTF-8 file and encodes
  it once on both cores.

Warm rows include everything a call does (reading the text into lines excepted: both sides
get the same Python string); not included is what a process does once (imports, numba's
cache load, loading the vocabulary, like SentencePiece's model load). The cold row
includes all of it.

Run: ``python benchmarks/bench_baselines.py --cold``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numba
import sentencepiece as spm

from workbench import Grampa, datasets
from workbench.pretokenise import TextTokenizer, tokenize_corpus

# argv: the text as a plain UTF-8 file, the SentencePiece model
COLD_OURS = """
import sys
from pathlib import Path
from workbench import Grampa, datasets
from workbench.pretokenise import TextTokenizer, tokenize_corpus
tok = TextTokenizer(Grampa(datasets.load_vocabulary("ulm-8k"), tau=1.0), p=0.5)
tokenize_corpus([Path(sys.argv[1])], tok, seed=0, num_threads=2, progress=False)
"""
COLD_SP = """
import sys
import sentencepiece as spm
with open(sys.argv[1], encoding="utf-8") as f:
    lines = f.read().split("\\n")
sp = spm.SentencePieceProcessor(model_file=sys.argv[2])
sp.encode(lines, enable_sampling=True, alpha=0.0, nbest_size=-1, num_threads=2)
"""


def _cold(code: str, text_path: str) -> float:
    model = str(datasets.sentencepiece_model_path("ulm-8k"))
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, text_path, model], check=True)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--block-lines", type=int, default=2048)
    ap.add_argument("--cold", action="store_true", help="also time fresh processes")
    args = ap.parse_args()
    text = datasets.load_text("shakespeare")
    lines = text.split("\n")
    mb = len(text.encode("utf-8")) / 1e6
    v = datasets.load_vocabulary("ulm-8k")
    tok = TextTokenizer(Grampa(v, tau=1.0), p=0.5)
    sp = spm.SentencePieceProcessor(model_file=str(datasets.sentencepiece_model_path("ulm-8k")))
    tokenize_corpus(["\n".join(lines[:5000])], tok, num_threads=2, progress=False)  # warm caches
    rows = []
    for label, workers, threads in (("both cores", 2, 2), ("one core", 1, 1)):
        numba.set_num_threads(threads)
        ours, theirs = [], []
        for _ in range(args.repeats):
            t = time.perf_counter()
            ids, _ = tokenize_corpus([text], tok, seed=0, num_threads=workers,
                                     block_lines=args.block_lines, progress=False)
            ours.append(mb / (time.perf_counter() - t))
            t = time.perf_counter()
            out = sp.encode(lines, enable_sampling=True, alpha=0.0, nbest_size=-1,
                            num_threads=threads)
            theirs.append(mb / (time.perf_counter() - t))
        rows.append((label, statistics.median(ours), statistics.median(theirs), ours, theirs))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    if args.cold:
        ours, theirs = [], []
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "shakespeare.txt")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            for _ in range(max(3, args.repeats // 2)):
                ours.append(mb / _cold(COLD_OURS, path))
                theirs.append(mb / _cold(COLD_SP, path))
        rows.append(("cold process, both cores", statistics.median(ours),
                     statistics.median(theirs), ours, theirs))
    print(f"text: {mb:.2f} MB, {len(lines):,} lines; ours {ids.size:,} ids, SP "
          f"{sum(map(len, out)):,} ids; block_lines {args.block_lines}")
    print("| setting | ours MB/s | SentencePiece MB/s | ratio |")
    print("|---|---:|---:|---:|")
    for label, a, b, _, _ in rows:
        print(f"| {label} | {a:.2f} | {b:.2f} | {a / b:.2f}x |")
    for label, _, _, ours, theirs in rows:
        print(f"{label}: ours {[round(x, 2) for x in ours]}, "
              f"SP {[round(x, 2) for x in theirs]}")


if __name__ == "__main__":
    main()
