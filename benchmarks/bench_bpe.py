"""BPE training: workbench.bpe.train_bpe (batched and serial) against five peers, one run.

Peers: HuggingFace ``tokenizers`` (BpeTrainer), ``rustbpe``, ``bpeasy``, SentencePiece's BPE
trainer and the pure-Python BatchBPE reference (``--batchbpe PATH`` to a checkout of
github.com/alexandermorgan/BatchBPE; skipped with a message otherwise). Cases: the real
chunk→count tables ``un`` and ``fineweb10`` (shipped in ``data/``, decompressed to a
temporary TSV) and, end to end from raw text, the shipped Shakespeare + Brown text (~11 MB),
each at vocabulary 4,096 and 32,768.

Every timed run is a fresh subprocess (this script with ``--worker``) that prepares its input,
warms up (ours: one tiny training, so numba's cache is loaded), then times only the training
call; peak memory is the subprocess's ``ru_maxrss``. Runs are interleaved (each round runs
every trainer once) and medians of ``--repeats`` rounds are reported.

How each trainer is fed (all byte-level BPE over GPT-4 chunks, except SentencePiece):

* **ours**: ``train_bpe(tsv_path, V)``: reading the TSV is inside the timed call. End to end:
  ``count_chunks(text_file, num_threads=2)`` then ``train_bpe``, both timed.
* **HF tokenizers** (no train-from-counts API): each chunk spelled in the byte-level
  alphabet, ``"\\0".join([chunk] * count)`` yielded once per chunk, pre-tokenizer
  ``Split("\\0", "removed")``; end to end: the text in pieces, pre-tokenizer GPT-4 ``Split``
  + ``ByteLevel(use_regex=False)``.
* **rustbpe**, **bpeasy** (text only): each chunk yielded ``count`` times as its own string
  (``itertools.repeat``), re-split by their GPT-4 regex; end to end: the text in pieces.
* **SentencePiece**: ``input_format="tsv"`` on a copy of the table without the chunks holding
  a tab, newline or carriage return (they cannot be written there), character-level BPE with
  byte fallback, identity normalisation, 2 threads; end to end: the text file (one sentence
  per line). It makes fewer merges for the same vocabulary size (see the merges column).
* **BatchBPE**: ``BatchTokenizer().train(dict, V)`` (non-overlapping pair counts, batched);
  end to end ``train(text_file, V)``.

"The text in pieces": the file cut into ~64 kB pieces at a newline followed by a non-space
character (a safe GPT-4 cut), so every peer sees the same chunks as ``count_chunks``.

Run (peers in their own venv, see benchmarks/README.md)::

    python benchmarks/bench_bpe.py --quick                    # seconds, tiny inputs
    python benchmarks/bench_bpe.py --batchbpe ../BatchBPE
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import lzma
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GPT4 = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}|"""
        r""" ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+""")
TRAINERS = ("ours-batched", "ours-serial", "hf", "rustbpe", "bpeasy", "sentencepiece",
            "batchbpe")
LABELS = {"ours-batched": "ours, batched", "ours-serial": "ours, serial",
          "hf": "HF tokenizers", "rustbpe": "rustbpe", "bpeasy": "bpeasy",
          "sentencepiece": "SentencePiece", "batchbpe": "BatchBPE"}
#: BatchBPE's wall times as reported in data/README.md (2-core machine, medians of 3).
BATCHBPE_REPORTED = {("un", 4096): 11.7, ("un", 32768): 46.0,
                     ("fineweb10", 4096): 29.1, ("fineweb10", 32768): 78.9}
PEER_MODULES = {"hf": "tokenizers", "rustbpe": "rustbpe", "bpeasy": "bpeasy",
                "sentencepiece": "sentencepiece"}


# =========================================================================== worker side
def _read_table(path: str) -> dict[str, int]:
    from workbench.counts import read_counts

    return read_counts(path)


def _text_pieces(path: str, size: int = 1 << 16):
    """The text file in ~``size``-character pieces cut at a newline before a non-space."""
    import regex

    text = Path(path).read_text(encoding="utf-8")
    cut = regex.compile(r"(?<=\n)(?=\S)")
    start = 0
    while start < len(text):
        match = cut.search(text, start + size)
        end = match.start() if match else len(text)
        yield text[start:end]
        start = end


def _repeated(table: dict[str, int]):
    return itertools.chain.from_iterable(itertools.repeat(c, n) for c, n in table.items())


def _prepare(spec: dict):
    """Untimed input preparation; returns the argument of the timed call."""
    trainer, kind = spec["trainer"], spec["kind"]
    if trainer.startswith("ours"):
        from workbench.bpe import train_bpe

        for batch in (True, False):  # load the numba kernels before timing
            train_bpe({"ab ab abc": 3, "bc": 2}, 259, batch=batch, progress=False)
        tiny = Path(spec["tmp"]) / f"warm_{os.getpid()}.tsv"  # and the table's scan
        tiny.write_text("ab ab abc\t3\nbc\t2\n", encoding="utf-8")
        train_bpe(tiny, 259, progress=False)
        return None
    if kind == "text" or trainer == "sentencepiece":
        return None
    return _read_table(spec["path"])


def _run(spec: dict, data) -> dict:
    """The timed call; returns merges (and batches for ours) made."""
    trainer, kind, vocab = spec["trainer"], spec["kind"], spec["vocab"]
    if trainer.startswith("ours"):
        from workbench.bpe import train_bpe
        from workbench.bpe.counting import count_chunks

        out = {}
        table = spec["path"]
        if kind == "text":
            t0 = time.perf_counter()
            table = count_chunks(spec["path"], num_threads=2, progress=False)
            out["count_seconds"] = time.perf_counter() - t0
        model = train_bpe(table, vocab, batch=trainer == "ours-batched", progress=False)
        return {**out, "merges": len(model.merges), "batches": len(model.batches)}
    if trainer == "hf":
        return _run_hf(spec, data)
    if trainer == "rustbpe":
        import rustbpe

        tok = rustbpe.Tokenizer()
        feed = _text_pieces(spec["path"]) if kind == "text" else _repeated(data)
        tok.train_from_iterator(feed, vocab, pattern=GPT4)
        return {"merges": tok.vocab_size - 256}
    if trainer == "bpeasy":
        import bpeasy

        feed = _text_pieces(spec["path"]) if kind == "text" else _repeated(data)
        vocab_out = bpeasy.train_bpe(feed, GPT4, 128, vocab)
        return {"merges": len(vocab_out) - 256}
    if trainer == "sentencepiece":
        return _run_sentencepiece(spec)
    if trainer == "batchbpe":
        sys.path.insert(0, spec["batchbpe"])
        from batchbpe import BatchTokenizer

        tok = BatchTokenizer()
        with contextlib.redirect_stdout(sys.stderr):
            tok.train(spec["path"] if kind == "text" else data, vocab)
        return {"merges": len(tok.merges)}
    raise ValueError(trainer)


def _run_hf(spec: dict, data) -> dict:
    """HF tokenizers' BpeTrainer on the text (GPT-4 split) or the table (count copies)."""
    kind, vocab = spec["kind"], spec["vocab"]
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    trainer_ = trainers.BpeTrainer(vocab_size=vocab, show_progress=False,
                                   initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    if kind == "text":
        tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(GPT4), "isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
        tok.train_from_iterator(_text_pieces(spec["path"]), trainer_)
    else:
        from workbench.bpe.bytelevel import BYTE_TO_CHAR

        spell = {b: c for b, c in enumerate(BYTE_TO_CHAR)}
        tok.pre_tokenizer = pre_tokenizers.Split("\0", "removed")
        feed = ("\0".join([c.encode().decode("latin-1").translate(spell)] * n)
                for c, n in data.items())
        tok.train_from_iterator(feed, trainer_, length=len(data))
    return {"merges": tok.get_vocab_size() - 256}


def _run_sentencepiece(spec: dict) -> dict:
    """SentencePiece BPE on the text or the table's TSV; merges = multi-character pieces."""
    kind, vocab = spec["kind"], spec["vocab"]
    import sentencepiece as spm

    prefix = os.path.join(spec["tmp"], f"spm_{os.getpid()}")
    opts = dict(model_type="bpe", vocab_size=vocab, byte_fallback=True,
                character_coverage=1.0, normalization_rule_name="identity",
                add_dummy_prefix=False, remove_extra_whitespaces=False, num_threads=2,
                max_sentence_length=1 << 16, minloglevel=2, model_prefix=prefix)
    if kind == "text":
        spm.SentencePieceTrainer.train(input=spec["path"], **opts)
    else:
        spm.SentencePieceTrainer.train(input=spec["spm_tsv"], input_format="tsv", **opts)
    sp = spm.SentencePieceProcessor(model_file=prefix + ".model")
    merges = sum(1 for i in range(sp.get_piece_size())
                 if not (sp.is_byte(i) or sp.is_control(i) or sp.is_unknown(i))
                 and len(sp.id_to_piece(i)) > 1)
    return {"merges": merges}


def worker(spec: dict) -> dict:
    data = _prepare(spec)
    t0 = time.perf_counter()
    out = _run(spec, data)
    out["seconds"] = time.perf_counter() - t0
    if not spec.get("inprocess"):
        out["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


# =========================================================================== parent side
def _available(trainer: str, batchbpe: str | None) -> str | None:
    """None if the trainer can run, else why not."""
    if trainer == "batchbpe":
        if not batchbpe:
            return "no --batchbpe PATH given (its repository is not on PyPI)"
        if not (Path(batchbpe) / "batchbpe" / "__init__.py").is_file():
            return f"{batchbpe} is not a BatchBPE checkout"
        return None
    module = PEER_MODULES.get(trainer)
    if module is None:
        return None
    import importlib.util

    return None if importlib.util.find_spec(module) else f"`{module}` is not installed"


def _spm_tsv(table_path: Path, tmp: Path) -> tuple[Path, float]:
    """The table without chunks holding a tab/newline/CR, plain ``chunk<TAB>count`` lines."""
    from workbench.counts import read_counts

    table = read_counts(table_path)
    out = tmp / f"{table_path.stem}_spm.tsv"
    dropped = 0
    with open(out, "w", encoding="utf-8") as handle:
        for chunk, n in table.items():
            if "\t" in chunk or "\n" in chunk or "\r" in chunk:
                dropped += n
                continue
            handle.write(f"{chunk}\t{n}\n")
    return out, dropped / sum(table.values())


def _cases(args, tmp: Path) -> list[dict]:
    from workbench.bpe.counting import count_chunks
    from workbench.counts import write_counts
    from workbench.datasets import COUNT_TABLES, DATA_DIR, load_text

    text = load_text("shakespeare") + "\n\n" + load_text("brown")
    cases = []
    if args.quick:
        text = text[:300_000]
        vocabs = (512, 1024)
        table_path = tmp / "quick.tsv"
        write_counts(count_chunks(texts=[text], num_threads=1), table_path)
        tables = {"quick": table_path}
    else:
        vocabs = (4096, 32768)
        tables = {}
        for name in ("un", "fineweb10"):  # the peers read a plain TSV file
            tables[name] = tmp / f"{name}.tsv"
            tables[name].write_bytes(lzma.decompress((DATA_DIR / COUNT_TABLES[name]).read_bytes()))
    text_path = tmp / "shakespeare_brown.txt"
    text_path.write_text(text, encoding="utf-8")
    for name, path in tables.items():
        if args.cases and name not in args.cases:
            continue
        spm_path, dropped = _spm_tsv(path, tmp)
        print(f"# {name}: SentencePiece TSV drops {dropped:.1%} of the occurrences",
              file=sys.stderr)
        for vocab in vocabs:
            cases.append({"name": name, "kind": "table", "path": str(path), "vocab": vocab,
                          "spm_tsv": str(spm_path), "spm_dropped": dropped})
    if not args.cases or "text" in args.cases:
        for vocab in vocabs:
            cases.append({"name": "text", "kind": "text", "path": str(text_path),
                          "vocab": vocab, "bytes": len(text.encode())})
    return cases


def _run_one(spec: dict, inprocess: bool, timeout: float) -> dict:
    if inprocess:
        return worker({**spec, "inprocess": True})
    proc = subprocess.run([sys.executable, __file__, "--worker", json.dumps(spec)],
                          capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-3:]
        raise RuntimeError(f"{spec['trainer']} failed: {' | '.join(tail)}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _fmt(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{x:,.{digits}f}"


def _label(trainer: str, case: dict, runs: list[dict]) -> str:
    """A trainer's row label, with how it was fed and, for ours, the counting time."""
    label = LABELS[trainer]
    if trainer in ("rustbpe", "bpeasy") and case["kind"] == "table":
        label += " (fed each chunk `count` times)"
    if trainer == "hf" and case["kind"] == "table":
        label += " (fed `count` copies per chunk)"
    if trainer == "sentencepiece" and case["kind"] == "table":
        label += f" (TSV, {case['spm_dropped']:.1%} occurrences dropped)"
    if trainer.startswith("ours") and "count_seconds" in runs[0]:
        count_s = statistics.median(r["count_seconds"] for r in runs)
        label += f" (counting {count_s:.2f} s)"
    return label


def _verdicts(case: dict, key: tuple, med: dict, ours_s: float, reported: float | None,
              quick: bool) -> list[str]:
    """The Must / Aim lines of one case (ratio = peer time / our time)."""
    verdicts = []
    if case["kind"] == "table" and not quick:
        if reported:
            measured = (f"; measured here {med['batchbpe']:.1f} s = "
                        f"{med['batchbpe'] / ours_s:.1f}×" if "batchbpe" in med else "")
            verdicts.append(f"- {key[0]} {key[1]:,}: ours {ours_s:.2f} s is "
                            f"{reported / ours_s:.1f}× BatchBPE's reported {reported} s"
                            f"{measured} → Must ≥ 20×: "
                            f"{'met' if reported / ours_s >= 20 else 'NOT met'}")
        if "hf" in med:
            verdicts.append(f"- {key[0]} {key[1]:,}: {med['hf'] / ours_s:.1f}× HF → Must "
                            f"> 1×: {'met' if med['hf'] > ours_s else 'NOT met'}")
        if "sentencepiece" in med:
            r = med["sentencepiece"] / ours_s
            verdicts.append(f"- {key[0]} {key[1]:,}: {r:.2f}× SentencePiece → Must ≥ 1×: "
                            f"{'met' if r >= 1 else 'not met'}")
    elif case["kind"] == "text" and "rustbpe" in med:
        r = med["rustbpe"] / ours_s
        verdicts.append(f"- text {key[1]:,}: {r:.2f}× rustbpe end to end → Aim ≥ 1×: "
                        f"{'met' if r >= 1 else 'not met'}")
    return verdicts


def _report(cases: list[dict], results: dict, skipped: dict, args) -> None:
    print(f"\nMachine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; load average at the end "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}. Wall-clock medians of "
          f"{args.repeats} interleaved runs, each in a fresh process.\n")
    for reason in sorted(set(skipped.values())):
        names = [LABELS[t] for t, r in skipped.items() if r == reason]
        print(f"Skipped {', '.join(names)}: {reason}.\n")
    verdicts = []
    for case in cases:
        key = (case["name"], case["vocab"])
        rows = results.get(key, {})
        title = (f"`{case['name']}.tsv`" if case["kind"] == "table"
                 else f"shipped text end to end ({case['bytes'] / 1e6:.1f} MB)")
        print(f"### {title}, vocabulary {case['vocab']:,}\n")
        print("| trainer | median s | merges | batches | merges/s | peak RSS MB "
              "| ours batched faster by |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        ours = rows.get("ours-batched")
        ours_s = statistics.median(r["seconds"] for r in ours) if ours else None
        med = {}
        for trainer in TRAINERS:
            runs = rows.get(trainer)
            if not runs:
                continue
            secs = statistics.median(r["seconds"] for r in runs)
            med[trainer] = secs
            merges = runs[0]["merges"]
            batches = runs[0].get("batches")
            rss = statistics.median(r["maxrss_mb"] for r in runs) if "maxrss_mb" in runs[0] \
                else None
            label = _label(trainer, case, runs)
            ratio = None if ours_s is None or trainer == "ours-batched" else secs / ours_s
            print(f"| {label} | {_fmt(secs)} | {merges:,} | "
                  f"{'–' if batches is None else f'{batches:,}'} | {_fmt(merges / secs, 0)} | "
                  f"{_fmt(rss, 0)} | {'–' if ratio is None else f'{ratio:.2f}×'} |")
        reported = None if args.quick else BATCHBPE_REPORTED.get(key)
        if reported and ours_s:
            print(f"| BatchBPE (reported, data/README.md) | {reported:.2f} | – | – | – "
                  f"| – | {reported / ours_s:.1f}× |")
        print()
        if ours_s is None:
            continue
        verdicts += _verdicts(case, key, med, ours_s, reported, args.quick)
    if verdicts:
        print("Verdicts (ours batched; ratio = peer time / our time):\n")
        print("\n".join(verdicts))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="300 kB of text and its table, vocab 512/1,024, 1 run, in-process")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batchbpe", help="path to a checkout of alexandermorgan/BatchBPE")
    parser.add_argument("--cases", nargs="*", help="subset of: un fineweb10 text (quick: quick)")
    parser.add_argument("--vocabs", nargs="*", type=int, help="subset of the vocabulary sizes")
    parser.add_argument("--trainers", nargs="*", choices=TRAINERS, help="subset of trainers")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per run")
    parser.add_argument("--save", help="also write the raw results to this JSON file")
    parser.add_argument("--load", nargs="+", help="report saved JSON results (no runs); "
                        "results of the same case from several files are combined")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(json.loads(args.worker))))
        return
    if args.load:
        _report_saved(args)
        return
    if args.quick:
        args.repeats = 1
    trainers = args.trainers or list(TRAINERS)
    skipped = {t: why for t in trainers if (why := _available(t, args.batchbpe))}
    for trainer, why in skipped.items():
        print(f"# skipping {LABELS[trainer]}: {why}", file=sys.stderr)
    trainers = [t for t in trainers if t not in skipped]
    with tempfile.TemporaryDirectory(prefix="bench_bpe_") as tmp:
        cases = _cases(args, Path(tmp))
        if args.vocabs:
            cases = [c for c in cases if c["vocab"] in args.vocabs]
        results: dict = {}
        for case in cases:
            key = (case["name"], case["vocab"])
            results[key] = {t: [] for t in trainers}
            for round_ in range(args.repeats):
                for trainer in trainers:
                    spec = {**case, "trainer": trainer, "tmp": tmp, "batchbpe": args.batchbpe}
                    try:
                        out = _run_one(spec, args.quick, args.timeout)
                    except (RuntimeError, subprocess.TimeoutExpired) as err:
                        print(f"# {key} {trainer}: {err}", file=sys.stderr)
                        continue
                    results[key][trainer].append(out)
                    print(f"# {key[0]} {key[1]} round {round_ + 1} {trainer}: "
                          f"{out['seconds']:.2f} s, {out['merges']} merges, "
                          f"{out.get('maxrss_mb', 0):.0f} MB", file=sys.stderr, flush=True)
        _report(cases, results, skipped, args)
        if args.save:
            with open(args.save, "w", encoding="utf-8") as handle:
                json.dump({"cases": cases, "skipped": skipped, "repeats": args.repeats,
                           "results": [[k[0], k[1], v] for k, v in results.items()]}, handle)


def _report_saved(args) -> None:
    cases, results, skipped = [], {}, {}
    for path in args.load:
        with open(path, encoding="utf-8") as handle:
            saved = json.load(handle)
        for case in saved["cases"]:
            if all((c["name"], c["vocab"]) != (case["name"], case["vocab"]) for c in cases):
                cases.append(case)
        for name, vocab, rows in saved["results"]:
            for trainer, runs in rows.items():
                results.setdefault((name, vocab), {}).setdefault(trainer, []).extend(runs)
        skipped.update(saved["skipped"])
        args.repeats = saved["repeats"]
    for rows in results.values():
        for trainer in rows:
            skipped.pop(trainer, None)
    _report(cases, results, skipped, args)


if __name__ == "__main__":
    main()
