"""GreedTok training and encoding, side by side with the ``greedtok`` package (PreferredAI/pcatt).

What is timed, per shipped table (``load_counts("un")``, ``"fineweb10"``) and k (1,000 and 5,000):

* **train** — ``workbench.greedtok.train_greedtok(table, k)`` (single thread; packing, the
  candidate index and the greedy steps) against pcatt's
  ``pco_tokenizer.build(table, set()); g.initialize_graph(17, 1); g.solve_to_step(k)``
  (C++, TBB threads; ``max_len=17`` is exclusive there, i.e. tokens of ≤ 16 bytes, like
  ours). Both get the same in-memory dict. Rounds alternate; medians are reported, with the
  objectives (Σ gains), the first rank where the token lists differ and the ratio.
* **encode** — all word types of the table with the k tokens: ``model.encode_ids(words)``
  (numba, parallel over words) against ``greedy_encoder.GreedyTokenizer(tokens, {})
  .batch_tokenize_whole(words)``; words/s, and how many words each splits differently from
  the training-time segmentation.
* **compare** (``--compare``) — tokens per word on ``un`` at k = 1,000: GreedTok, BPE (HF
  ``tokenizers``, byte-level alphabet, vocabulary 256 + k, fed each chunk ``count`` times)
  and SentencePiece ULM (``input_format="tsv"``, byte fallback, 256 + k + 3 pieces).

Run (pcatt is built in its own venv; see BENCHMARKS.md)::

    LD_LIBRARY_PATH=~/venvs/greedtok/lib ~/venvs/greedtok/bin/python \\
        benchmarks/bench_greedtok.py [--tables un fineweb10] [--ks 1000 5000] [--repeats 3]

When pcatt is not importable, only our side runs and the package's reported times are shown.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import statistics
import sys
import time

import numpy as np

from workbench.datasets import load_counts
from workbench.experiments.training import train_ulm
from workbench.greedtok import GreedTokModel, train_greedtok, train_greedtok_run

#: The package's times on this machine kind (2 threads), k = 1,000 (data/README.md).
REPORTED_SECONDS = {("un", 1000): 5.7, ("fineweb10", 1000): 13.4}

try:
    from pcatt import greedy_encoder, pco_tokenizer
except ImportError:  # pragma: no cover - depends on the venv
    greedy_encoder = pco_tokenizer = None


@contextlib.contextmanager
def quiet_stdout():
    """Silence C++ ``std::cout`` (file descriptor 1) for the duration."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        try:
            yield
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)


def pcatt_train(table: dict[str, int], k: int) -> tuple[list[bytes], list[int]]:
    with quiet_stdout():
        g = pco_tokenizer.build(table, set(), verbose=False)
        g.initialize_graph(17, 1)
        ranks, scores = g.solve_to_step(k)
    return list(ranks), list(scores)


def timed(fn, *args, **kwargs):
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return time.perf_counter() - t0, out


def first_difference(a: list, b: list, ga: list, gb: list) -> str:
    """First rank where the token lists differ; "(tie)" when both gains there are equal."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            tie = " (tie: equal gains)" if ga[i] == gb[i] else " (gains differ)"
            return f"{i}{tie}"
    return "none" if len(a) == len(b) else str(min(len(a), len(b)))


def bench_table(name: str, ks: list[int], repeats: int) -> list[dict]:
    table = load_counts(name)
    words = list(table)
    weights = np.fromiter(table.values(), dtype=np.int64, count=len(table))
    rows = []
    for k in ks:
        ours_t, theirs_t = [], []
        model = ranks = scores = None
        for _ in range(repeats):
            dt, model = timed(train_greedtok, table, k, progress=False)
            ours_t.append(dt)
            if pco_tokenizer is not None:
                dt, (ranks, scores) = timed(pcatt_train, table, k)
                theirs_t.append(dt)
            print(f"  {name} k={k}: ours {ours_t[-1]:.2f} s"
                  + (f", pcatt {theirs_t[-1]:.2f} s" if theirs_t else ""), file=sys.stderr)
        row = {"table": name, "k": k, "ours": statistics.median(ours_t),
               "theirs": statistics.median(theirs_t) if theirs_t else None,
               "reported": REPORTED_SECONDS.get((name, k)), "obj": sum(model.gains),
               "obj_theirs": sum(scores) if scores else None,
               "first_diff": (first_difference(model.tokens, ranks, model.gains, scores)
                              if ranks else "-"),
               "same_set": set(model.tokens) == set(ranks) if ranks else None}
        # encoding: every word type, k tokens
        enc_ours = []
        for _ in range(repeats):
            dt, (ids, offsets) = timed(model.encode_ids, words)
            enc_ours.append(dt)
        row["enc_ours"] = len(words) / statistics.median(enc_ours)
        run = train_greedtok_run(table, k, progress=False)
        marks = run.marks
        woff = run.corpus.woff
        train_ntok = np.diff(woff) - np.add.reduceat(marks.astype(np.int64), woff[:-1])
        row["ours_diff_words"] = int((np.diff(offsets) != train_ntok).sum())
        row["tokens_per_word"] = float(np.dot(np.diff(offsets), weights) / weights.sum())
        if greedy_encoder is not None:
            with quiet_stdout():
                enc = greedy_encoder.GreedyTokenizer(model.tokens, {})
            raw = [w.encode() for w in words]
            enc_theirs = []
            for _ in range(repeats):
                dt, out = timed(enc.batch_tokenize_whole, raw)
                enc_theirs.append(dt)
            row["enc_theirs"] = len(words) / statistics.median(enc_theirs)
            their_ntok = np.array([len(x) for x in out])
            row["theirs_diff_words"] = int((their_ntok != train_ntok).sum())
            row["theirs_extra_tokens"] = int(np.dot(their_ntok - train_ntok, weights))
        rows.append(row)
    return rows


def compare_un(k: int) -> None:
    """Tokens per word on un at k: GreedTok vs HF BPE vs SentencePiece ULM."""

    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    table = load_counts("un")
    total = sum(table.values())
    model = train_greedtok(table, k, progress=False)
    ids, offsets = model.encode_ids(list(table))
    weights = np.fromiter(table.values(), dtype=np.int64, count=len(table))
    greed = float(np.dot(np.diff(offsets), weights) / total)

    t0 = time.perf_counter()
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    trainer = trainers.BpeTrainer(vocab_size=256 + k, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator((w for w, c in table.items() for _ in range(c)), trainer,
                            length=total)
    bpe_secs = time.perf_counter() - t0
    encs = tok.encode_batch(list(table), add_special_tokens=False)
    bpe = sum(len(e.ids) * c for e, c in zip(encs, table.values())) / total

    t0 = time.perf_counter()
    sp = train_ulm(table, k, num_threads=2)
    ulm_secs = time.perf_counter() - t0
    pieces = sp.encode(list(table))
    ulm = sum(len(p) * c for p, c in zip(pieces, table.values())) / total
    print(f"\n### Tokens per word on un, k = {k} (vocabulary 256 + {k})\n")
    print("| method | tokens/word | train s |\n|---|---:|---:|")
    print(f"| GreedTok | {greed:.4f} | {model.stats['seconds']:.1f} |")
    print(f"| BPE (HF tokenizers, byte-level) | {bpe:.4f} | {bpe_secs:.1f} |")
    print(f"| ULM (SentencePiece, byte fallback) | {ulm:.4f} | {ulm_secs:.1f} |")
    print("\npaper (UN, k = 1000 + 256 bytes): GreedTok 1.607, BPE 1.688")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", nargs="*", default=["un", "fineweb10"])
    parser.add_argument("--ks", nargs="+", type=int, default=[1000, 5000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--compare", action="store_true", help="tokens/word vs BPE and ULM")
    args = parser.parse_args(argv)
    GreedTokModel([b"ab"]).encode_ids(["abab"])  # compile / load the kernels
    train_greedtok({"abab": 2, "abc": 1}, 2, progress=False)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores; pcatt: "
          f"{'installed' if pco_tokenizer else 'NOT installed (reported times shown)'}",
          file=sys.stderr)
    rows = []
    for name in args.tables:
        rows += bench_table(name, args.ks, args.repeats)
    if rows:
        print(f"\nmachine: {platform.machine()}, {os.cpu_count()} cores; medians of "
              f"{args.repeats}\n")
        print("| table | k | ours s | pcatt s | pcatt/ours | Σ gains ours | Σ gains pcatt | "
              "first rank differing | same token set | tokens/word |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|")
        for r in rows:
            theirs = r["theirs"] if r["theirs"] is not None else r["reported"]
            tag = "" if r["theirs"] is not None else " (reported)"
            ratio = f"{theirs / r['ours']:.2f}" if theirs else "-"
            theirs_s = "-" if theirs is None else f"{theirs:.2f}{tag}"
            obj_s = "-" if r["obj_theirs"] is None else f"{r['obj_theirs']:,}"
            print(f"| {r['table']} | {r['k']:,} | {r['ours']:.2f} | {theirs_s} | {ratio} | "
                  f"{r['obj']:,} | {obj_s} | {r['first_diff']} | {r['same_set']} | "
                  f"{r['tokens_per_word']:.4f} |")
        print("\n| table | k | ours words/s | pcatt words/s | ours/pcatt | words split unlike "
              "training: ours / pcatt | pcatt extra tokens (count-weighted) |")
        print("|---|---:|---:|---:|---:|---|---:|")
        for r in rows:
            if "enc_theirs" in r:
                print(f"| {r['table']} | {r['k']:,} | {r['enc_ours']:,.0f} | "
                      f"{r['enc_theirs']:,.0f} | {r['enc_ours'] / r['enc_theirs']:.1f} | "
                      f"{r['ours_diff_words']} / {r['theirs_diff_words']} | "
                      f"{r['theirs_extra_tokens']:,} |")
            else:
                print(f"| {r['table']} | {r['k']:,} | {r['enc_ours']:,.0f} | - | - | "
                      f"{r['ours_diff_words']} / - | - |")
    if args.compare:
        compare_un(1000)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
