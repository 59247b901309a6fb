"""BPE on raw text: encoding against tiktoken, training from text against rustbpe (issue 20).

**Encode.** A 32,768-token model trained on the shipped ``un`` count table
(``load_counts("un")``) encodes the shipped Shakespeare + Brown text (held out from
``un``; ~11 MB of UTF-8). Peers in the same process, same text, same model:

* tiktoken ``Encoding(pat_str=GPT4_PATTERN, mergeable_ranks=<our tokens>)``:
  ``encode_ordinary(text)`` (one thread) and ``encode_ordinary_batch(docs, num_threads=2)``;
* ours: ``BPEModel.encode(text)`` (one thread) and ``encode_batch(docs, num_threads=2)``.

``docs`` are the text cut into pieces of 200 lines. Ids are checked equal first. MB/s =
UTF-8 megabytes per second; medians of ``--repeats`` interleaved rounds. Peak memory of
``encode_array`` on the whole text is measured in a fresh subprocess (``ru_maxrss`` growth
over a baseline that holds the text and the model).

**Train from text** (count + train): the shipped Shakespeare text (5.1 MB) written to a
file; ours = ``count_chunks(path, num_threads=2)`` + ``train_bpe``; rustbpe =
``Tokenizer().train_from_iterator(pieces, vocab, pattern=GPT4_PATTERN)`` on 64 k-character
pieces cut at a newline before a non-space. Vocabularies 4,096 and 32,768.

Run: ``python benchmarks/bench_bpe_text.py`` (Markdown on stdout; from a worktree add
``PYTHONPATH=.``).
Flags: ``--repeats R`` (3), ``--skip-encode``, ``--skip-train``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

from workbench.bpe import train_bpe
from workbench.bpe.counting import count_chunks
from workbench.bpe.pattern import GPT4_PATTERN
from workbench.datasets import load_counts, load_text


def _median(xs):
    return statistics.median(xs)


def _model(vocab: int):
    return train_bpe(load_counts("un"), vocab, progress=False), "un"


def _docs(text: str, lines: int = 200) -> list[str]:
    rows = text.splitlines(keepends=True)
    return ["".join(rows[i:i + lines]) for i in range(0, len(rows), lines)]


def _status_kb(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def _rss_child(model_path: str, text_path: str) -> None:
    from workbench.bpe import BPEModel

    model = BPEModel.load(model_path)
    with open(text_path, encoding="utf-8") as handle:
        text = handle.read()
    model.encode_array(text[:100_000])
    with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
        handle.write("5")  # reset the peak (VmHWM) to the current RSS
    before = _status_kb("VmRSS")
    ids = model.encode_array(text)
    after = _status_kb("VmHWM")
    print(json.dumps({"before_kb": before, "after_kb": after, "ids": int(ids.size)}))


def bench_encode(repeats: int) -> list[str]:
    import tiktoken

    model, source = _model(32768)
    text = load_text("shakespeare") + "\n\n" + load_text("brown")
    mb = len(text.encode("utf-8")) / 1e6
    docs = _docs(text)
    ranks = {model.vocab[i]: i for i in range(len(model.vocab))}
    enc = tiktoken.Encoding(name="workbench-bench", pat_str=GPT4_PATTERN,
                            mergeable_ranks=ranks, special_tokens={})
    ours = model.encode(text)
    assert ours == enc.encode_ordinary(text), "ids differ from tiktoken"
    assert model.encode_batch(docs, num_threads=2) == enc.encode_ordinary_batch(docs, num_threads=2)
    runs = {
        "tiktoken encode_ordinary (1 thread)": lambda: enc.encode_ordinary(text),
        "tiktoken encode_ordinary_batch (2 threads)":
            lambda: enc.encode_ordinary_batch(docs, num_threads=2),
        "ours BPEModel.encode (1 thread)": lambda: model.encode(text),
        "ours encode_batch (1 thread)": lambda: model.encode_batch(docs, num_threads=1),
        "ours encode_batch (2 threads)": lambda: model.encode_batch(docs, num_threads=2),
    }
    times: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(repeats):
        for name, fn in runs.items():
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
        print(".", end="", file=sys.stderr, flush=True)
    med = {k: _median(v) for k, v in times.items()}
    with tempfile.TemporaryDirectory() as tmp:
        mp, tp = os.path.join(tmp, "m.json"), os.path.join(tmp, "t.txt")
        model.save(mp)
        with open(tp, "w", encoding="utf-8") as handle:
            handle.write(text)
        out = subprocess.run([sys.executable, __file__, "--rss-child", mp, tp],
                             capture_output=True, text=True, check=True)
        rss = json.loads(out.stdout.strip().splitlines()[-1])
    growth = (rss["after_kb"] - rss["before_kb"]) / 1024
    single = med["tiktoken encode_ordinary (1 thread)"]
    batch = med["tiktoken encode_ordinary_batch (2 threads)"]
    lines = [f"Encode: {mb:.2f} MB (Shakespeare + Brown, {len(docs):,} docs of 200 lines), "
             f"model {len(model.vocab):,} tokens trained on {source}, {len(ours):,} ids "
             "(identical to tiktoken's).", "",
             "| encoder | median s | MB/s | vs tiktoken 1 thread | vs tiktoken batch |",
             "|---|---:|---:|---:|---:|"]
    for name in runs:
        s = med[name]
        lines.append(f"| {name} | {s:.3f} | {mb / s:.1f} | {single / s:.2f}× | "
                     f"{batch / s:.2f}× |")
    lines += ["", f"`encode_array` on the whole text: peak RSS (VmHWM) rose {growth:.1f} MB "
              f"above the RSS before the call ({growth / mb:.2f}× the {mb:.2f} MB input; the "
              "baseline holds the text and the model; the int32 ids are part of the rise).",
              ""]
    return lines


def _pieces(text: str, size: int = 1 << 16):
    import regex

    cut = regex.compile(r"(?<=\n)(?=\S)")
    start = 0
    while start < len(text):
        match = cut.search(text, start + size)
        end = match.start() if match else len(text)
        yield text[start:end]
        start = end


def bench_train(repeats: int) -> list[str]:
    import rustbpe

    text = load_text("shakespeare")
    mb = len(text.encode("utf-8")) / 1e6
    lines = [f"Train from text: Shakespeare {mb:.2f} MB (count + train).", "",
             "| vocab | trainer | median s | count s | ours faster by |",
             "|---:|---|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "shakespeare.txt")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        train_bpe(count_chunks(texts=["warm up the kernels"], num_threads=1), 300, progress=False)
        for vocab in (4096, 32768):
            ours, count_s, rust = [], [], []
            for _ in range(repeats):
                t = time.perf_counter()
                table = count_chunks(path, num_threads=2, progress=False)
                c = time.perf_counter() - t
                train_bpe(table, vocab, progress=False)
                ours.append(time.perf_counter() - t)
                count_s.append(c)
                t = time.perf_counter()
                tok = rustbpe.Tokenizer()
                tok.train_from_iterator(_pieces(text), vocab, pattern=GPT4_PATTERN)
                rust.append(time.perf_counter() - t)
                print(".", end="", file=sys.stderr, flush=True)
            o, r = _median(ours), _median(rust)
            lines.append(f"| {vocab:,} | ours (count_chunks 2 threads + train_bpe) | {o:.3f} | "
                         f"{_median(count_s):.3f} | – |")
            lines.append(f"| {vocab:,} | rustbpe | {r:.3f} | – | {r / o:.2f}× |")
    return lines + [""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-encode", action="store_true")
    parser.add_argument("--skip-train", action="store_true")
    parser.add_argument("--rss-child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rss_child:
        _rss_child(*args.rss_child)
        return
    out = [f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
           f"{platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
           f"load average {os.getloadavg()[0]:.1f}", ""]
    if not args.skip_encode:
        out += bench_encode(args.repeats)
    if not args.skip_train:
        out += bench_train(args.repeats)
    print(file=sys.stderr)
    print("\n".join(out))


if __name__ == "__main__":
    main()
