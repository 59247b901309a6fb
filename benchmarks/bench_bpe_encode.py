"""Plain BPE encoding speed: ordinary text chunks and one long chunk (the heap encoder's case).

Trains BPE (vocabulary 8,192) on the shipped Shakespeare chunk counts, then times
``encode_chunks`` on all GPT-4 chunks of the text (median of 5) and on single chunks of
10,000 / 100,000 / 1,000,000 letters (the text lowercased, non-letters removed).

Run: ``python benchmarks/bench_bpe_encode.py``.
"""

from __future__ import annotations

import re
import statistics
import time
from collections import Counter

from workbench.bpe import split_text, train_bpe
from workbench.datasets import load_text


def main() -> None:
    text = load_text("shakespeare")
    chunks = split_text(text)
    model = train_bpe(dict(Counter(chunks)), 8192, progress=False)
    model.encode_chunks(chunks[:100])  # compile
    times = []
    for _ in range(5):
        t = time.perf_counter()
        model.encode_chunks(chunks)
        times.append(time.perf_counter() - t)
    print(f"{len(chunks):,} chunks, {len(text.encode()) / 1e6:.2f} MB: median "
          f"{statistics.median(times):.3f} s {[round(x, 3) for x in times]}")
    letters = re.sub(r"[^a-z]", "", text.lower())
    for n in (10_000, 100_000, 1_000_000):
        t = time.perf_counter()
        ids = model.encode_chunks([letters[:n]])[0]
        print(f"one chunk of {n:,} letters: {time.perf_counter() - t:.3f} s, {len(ids):,} tokens")


if __name__ == "__main__":
    main()
