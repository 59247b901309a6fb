"""Issue 19's reproducers as probes, each classified: clear error, right answer, or a failure.

Run from the repository root: ``python tests/robustness/issue19_probes.py [-v] [--json]
[NAME...]``.
Every probe runs in a forked child under an address-space limit (:data:`MEMORY_LIMIT`) and a
wall-clock limit (:data:`SECONDS`); the parent prints one line per probe and a tally:

* ``CLEAR``  – a ``TypeError`` / ``ValueError`` (or subclass; or, for a path, an ``OSError``)
  whose message names what it must
  (the argument, file, line or JSON path: the probe's ``names``);
* ``OK``     – returned, and the probe's check of the result holds;
* ``UNCLEAR`` – a clear error class whose message misses what it must name;
* ``WRONG``  – returned a wrong answer (the check fails) or an error where an answer is due;
* ``RAW``    – another exception (OverflowError, RecursionError, ZeroDivisionError, …);
* ``HANG`` / ``OOM`` / ``DIED`` – over the time limit, over the memory limit, killed.

The probes are not a pytest module (``tests/robustness/test_issue19.py`` asserts them); this
script does not fix anything.
"""

from __future__ import annotations

import json
import math
import os
import pickle
import resource
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

if __name__ == "__main__":  # a script: this checkout's workbench first (test_issue19.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # imports it: no change)

SECONDS = 30
MEMORY_LIMIT = 12 << 30
#: Clear errors: wrong type, bad value (BudgetError and the format errors subclass it), and
#: for a missing or unreadable path an ``OSError`` (``FileNotFoundError``) naming the file.
CLEAR = (TypeError, ValueError, OSError)


@dataclass
class Probe:
    name: str
    call: Callable[[], object]
    #: result check (None: an error is required)
    check: Callable[[object], bool] | None = None
    #: substrings the error message must contain (any case)
    names: tuple[str, ...] = ()
    setup: Callable[[], None] | None = field(default=None, repr=False)


TMP = Path(tempfile.mkdtemp(prefix="issue19-"))


def _file(name: str, data: bytes | str) -> Path:
    p = TMP / name
    p.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return p


def _deep(n: int = 100_000) -> str:
    return "[" * n + "]" * n


def _bpe_doc(**over) -> dict:
    import workbench as wb

    p = TMP / "good-bpe.json"
    wb.train_bpe({"ab ab": 5, "abc": 3, "cd": 2}, 260, progress=False).save(p)
    doc = json.loads(p.read_text(encoding="utf-8"))
    doc.update(over)
    return doc


def _bpe_file(tag: str, **over) -> Path:
    return _file(f"bpe-{tag}.json", json.dumps(_bpe_doc(**over)))


def _gt_doc(**over) -> dict:
    import workbench as wb

    p = TMP / "good-gt.json"
    wb.train_greedtok({"abab": 5, "abc": 3}, 3, progress=False).save(p)
    doc = json.loads(p.read_text(encoding="utf-8"))
    doc.update(over)
    return doc


def _gt_file(tag: str, **over) -> Path:
    return _file(f"gt-{tag}.json", json.dumps(_gt_doc(**over)))


def _saved_nothing(write, path: Path) -> None:
    """Run a writer expected to fail; a file left behind is a wrong answer."""
    try:
        write(path)
    finally:
        if path.exists():
            raise AssertionError(f"{path.name} left behind ({path.stat().st_size} bytes)")


def _round_counts(counts: dict) -> bool:
    from workbench.counts import read_counts, write_counts

    write_counts(counts, TMP / "round.tsv")
    return read_counts(TMP / "round.tsv") == counts


def _round_chunks(texts: list) -> bool:
    from workbench.bpe.counting import count_chunks
    from workbench.counts import read_counts

    table = count_chunks(texts=texts, out=TMP / "chunks.tsv", progress=False)
    return read_counts(TMP / "chunks.tsv") == table


def _is_segmentation(words):
    def check(result):
        return all("".join(t) == w for t, w in zip(result, words, strict=True))
    return check


def _tok():
    import workbench as wb
    from workbench.datasets import load_vocabulary

    return wb.TextTokenizer(wb.Grampa(load_vocabulary("ulm-8k")), p=0.0)


def _finite(x) -> bool:
    import numpy as np

    arr = np.asarray(list(x.values()) if isinstance(x, dict) else x, dtype=float)
    return bool(np.isfinite(arr).all())


def probes() -> list[Probe]:
    """Every probe, by section, in reading order."""
    import workbench as wb

    def small():
        return wb.Vocabulary(["a", "b", "ab"])

    latin1 = _file("latin1.txt", "first line\ncaf\xe9 au lait\n".encode("latin-1"))
    deep = _file("deep.json", _deep())
    counts = {"abc": 3, "abd": 2, "bcd": 1}
    out: list[Probe] = []
    add = out.append
    _budget_probes(add, small, counts, latin1, deep)
    _bpe_sampler_probes(add, small, counts, latin1, deep)
    _loader_probes(add, small, counts, latin1, deep)
    _nan_empty_division_probes(add, small, counts, latin1, deep)
    _big_integer_probes(add, small, counts, latin1, deep)
    _corpus_io_probes(add, small, counts, latin1, deep)
    _more_probes(add, small, counts, latin1, deep)
    _optional_dependency_probes(add, small, counts, latin1, deep)
    return out


def _budget_probes(add, small, counts, latin1, deep) -> None:
    """Probes: memory budgets."""
    import workbench as wb
    from workbench import stats
    from workbench.bpe.counting import count_chunks
    from workbench.greedtok.relaxation import beta_curve, train_greedwmc
    from workbench.theory.renyi import duplicate_counts

    add(Probe("beta_curve(k=10**9)", lambda: beta_curve(counts, 10**9, progress=False),
              names=("k",)))
    add(Probe("train_greedwmc(k=10**12)", lambda: train_greedwmc(counts, 10**12,
                                                                 progress=False),
              check=lambda r: len(r.tokens) <= 10, names=("k",)))
    add(Probe("train_greedtok(k=10**12)", lambda: wb.train_greedtok(counts, 10**12,
                                                                    progress=False),
              check=lambda m: len(m.tokens) <= 10))
    add(Probe("DuplicationBPE(k=10**9)", lambda: wb.DuplicationBPE(
        wb.BPEModel([(b"a", b"b")]), {256: 5, 97: 3}, 1, 10**9), names=("k",)))
    add(Probe("duplicate_counts(k=10**8)", lambda: duplicate_counts({"a": 1, "b": 2}, "a",
                                                                    10**8), names=("k",)))
    add(Probe("Multiplexer.coins(10**12)", lambda: wb.Multiplexer(
        lambda w: [w], wb.Grampa(small()), 0.5).coins(10**12), names=("n_words",)))
    add(Probe("Multiplexer.coins(-1)", lambda: wb.Multiplexer(
        lambda w: [w], wb.Grampa(small()), 0.5).coins(-1), names=("n_words",)))
    add(Probe("stats.frequencies(n_cells=10**12)",
              lambda: stats.frequencies([1, 2], n_cells=10**12), names=("n_cells",)))
    add(Probe("Grampa.law(huge).token_count_pmf()", lambda: wb.Grampa(small()).law(
        "a" * 100_000).token_count_pmf(), names=("word",)))
    add(Probe("Grampa.law(huge).expected_tokens",  # linear in the word: computed, not refused
              lambda: wb.Grampa(small()).law("a" * 100_000).expected_tokens,
              check=lambda e: e == 100_000.0))
    add(Probe("count_chunks(num_threads=10**6)",
              lambda: count_chunks(texts=["a b"], num_threads=10**6, progress=False),
              names=("num_threads",)))
    add(Probe("Vocabulary.load(/dev/zero)", lambda: wb.Vocabulary.load("/dev/zero"),
              names=("/dev/zero",)))


def _bpe_sampler_probes(add, small, counts, latin1, deep) -> None:
    """Probes: BPESampler."""
    from workbench.bpe import BPESampler
    from workbench.datasets import load_vocabulary

    add(Probe("BPESampler(bpe-8k).tokenize_batch(['a b'])",
              lambda: BPESampler(load_vocabulary("bpe-8k")).tokenize_batch(["a b"]),
              check=_is_segmentation(["a b"]), names=("a b",)))
    add(Probe("BPESampler(bpe-8k).tokenize_batch(['\\x00'])",
              lambda: BPESampler(load_vocabulary("bpe-8k")).tokenize_batch(["\x00"]),
              names=("\\x00",)))


def _loader_probes(add, small, counts, latin1, deep) -> None:
    """Probes: loaders."""
    import workbench as wb
    from workbench.bpe import BPEModel
    from workbench.greedtok import GreedTokModel

    for label, loader in (("BPEModel.load", BPEModel.load), ("GreedTokModel.load",
                                                            GreedTokModel.load),
                          ("Vocabulary.load", wb.Vocabulary.load)):
        add(Probe(f"{label}(deep JSON)", lambda f=loader: f(deep), names=("deep.json",)))
        add(Probe(f"{label}(missing)", lambda f=loader: f(TMP / "missing.json"),
                  names=("missing.json",)))
        add(Probe(f"{label}(dir)", lambda f=loader: f(TMP), names=(TMP.name,)))
        add(Probe(f"{label}(list)", lambda f=loader: f(_file("list.json", "[1, 2]")),
                  names=("list.json",)))
        add(Probe(f"{label}(NaN)", lambda f=loader: f(_file("nan.json", '{"a": NaN}')),
                  names=("nan.json",)))
    add(Probe("BPEModel.load(stop_words='abc')",
              lambda: BPEModel.load(_bpe_file("stopstr", stop_words="abc")),
              names=("bpe-stopstr.json", "stop_words")))
    add(Probe("BPEModel.load(version=99)", lambda: BPEModel.load(_bpe_file("v99", version=99)),
              names=("bpe-v99.json", "version")))
    add(Probe("BPEModel.load(batches=[[-1,0]])",
              lambda: BPEModel.load(_bpe_file("negbatch", batches=[[-1, 0]])),
              names=("bpe-negbatch.json", "batches")))
    add(Probe("BPEModel.load(batches=[[2**63,0]])",
              lambda: BPEModel.load(_bpe_file("bigbatch", batches=[[2**63, 0]])),
              names=("bpe-bigbatch.json", "batches")))
    add(Probe("BPEModel.load(merges=5)", lambda: BPEModel.load(_bpe_file("m5", merges=5)),
              names=("bpe-m5.json", "merges")))
    add(Probe("BPEModel.load(merges=[[1,2]])",
              lambda: BPEModel.load(_bpe_file("m12", merges=[[1, 2]])),
              names=("bpe-m12.json", "merges")))
    add(Probe("BPEModel.load(merges=[['a']])",
              lambda: BPEModel.load(_bpe_file("ma", merges=[["a"]])),
              names=("bpe-ma.json", "merges")))
    add(Probe("BPEModel.load(params=5)", lambda: BPEModel.load(_bpe_file("p5", params=5)),
              names=("bpe-p5.json", "params")))
    add(Probe("BPEModel.load(ids=[2**70])",
              lambda: BPEModel.load(_bpe_file("ids", ids=[2**70])),
              names=("bpe-ids.json", "ids")))
    add(Probe("BPEModel.load(special_tokens=[1])",
              lambda: BPEModel.load(_bpe_file("sp", special_tokens=[1])),
              names=("bpe-sp.json", "special_tokens")))
    add(Probe("GreedTokModel.load(tokens=5)", lambda: GreedTokModel.load(_gt_file("t5",
                                                                                 tokens=5)),
              names=("gt-t5.json", "tokens")))
    add(Probe("GreedTokModel.load(tokens=[5])",
              lambda: GreedTokModel.load(_gt_file("t55", tokens=[5])),
              names=("gt-t55.json", "tokens")))
    add(Probe("GreedTokModel.load(version=99)",
              lambda: GreedTokModel.load(_gt_file("v99", version=99)),
              names=("gt-v99.json", "version")))
    add(Probe("GreedTokModel.load(max_token_length=2**64)",
              lambda: GreedTokModel.load(_gt_file("mtl", max_token_length=2**64)),
              names=("gt-mtl.json", "max_token_length")))
    add(Probe("GreedTokModel.load(gains=[NaN-ish str])",
              lambda: GreedTokModel.load(_gt_file("gains", gains=["x"])),
              names=("gt-gains.json", "gains")))
    add(Probe("Vocabulary.load(ids 2**63)", lambda: wb.Vocabulary.load(_file(
        "vids.json", json.dumps({"format": "workbench-vocabulary", "version": 1,
                                 "tokens": ["a"], "ids": [2**63], "alphabet": "identity"}))),
        names=("vids.json", "ids")))
    add(Probe("Vocabulary.load(tokens=[1])", lambda: wb.Vocabulary.load(_file(
        "vtok.json", json.dumps({"format": "workbench-vocabulary", "version": 1,
                                 "tokens": [1], "ids": [0], "alphabet": "identity"}))),
        names=("vtok.json", "tokens")))
    add(Probe("Vocabulary.load(greedtok tokens=[5])",
              lambda: wb.Vocabulary.load(_gt_file("vgt", tokens=[5])),
              names=("gt-vgt.json", "tokens")))
    add(Probe("Vocabulary.load(empty file)", lambda: wb.Vocabulary.load(_file("e.txt", "")),
              names=("e.txt",)))


def _nan_empty_division_probes(add, small, counts, latin1, deep) -> None:
    """Probes: NaN, empty, division."""
    import numpy as np

    from workbench import metrics, stats
    from workbench.metrics.segmentation import distribution_stats, table7, table8
    from workbench.theory.grampa.lock import lock_f1_hyp2f1
    from workbench.theory.renyi import duplication_renyi_gain
    from workbench.vocab.alphabets import spell

    add(Probe("distribution_stats(C<=1)", lambda: distribution_stats([(1,), (2,), (3,)], 1),
              check=lambda d: d["C"] <= 1, names=("n_segmentations",)))
    add(Probe("table7([])", lambda: table7([]), check=_finite, names=("segmentations",)))
    add(Probe("table8([])", lambda: table8([]), check=_finite, names=("per_word",)))
    add(Probe("duplication_renyi_gain(zeros)",
              lambda: duplication_renyi_gain({"a": 0, "b": 0}, "a", 2, 2.0), names=("count",)))
    add(Probe("stats.z_test([])", lambda: stats.z_test(np.array([]), 0.0, 1.0),
              names=("sample",)))
    add(Probe("stats.tv_distance(NaN)", lambda: stats.tv_distance([math.nan, 1], [0.5, 0.5]),
              names=("p",)))
    add(Probe("stats.chisquare_test(NaN)",
              lambda: stats.chisquare_test([math.nan, 1.0], [0.5, 0.5]), check=_finite))
    add(Probe("lock_f1_hyp2f1(2048, 4096, scipy)",
              lambda: lock_f1_hyp2f1(2048, 4096, "scipy"), check=lambda x: math.isfinite(x),
              names=("scipy",)))
    add(Probe("spell('klingon', 'a')", lambda: spell("klingon", "a"), names=("alphabet",)))
    add(Probe("shannon_entropy([1e308,1e308])",
              lambda: metrics.shannon_entropy([1e308, 1e308]),
              check=lambda x: abs(x - 1.0) < 1e-12))


def _big_integer_probes(add, small, counts, latin1, deep) -> None:
    """Probes: integers past int64."""
    import workbench as wb
    from workbench.counts import read_counts, write_counts
    from workbench.theory.bpe import pairs_searched

    add(Probe("train_bpe(cap_divisor=2**63)", lambda: wb.train_bpe(
        {"ab": 2}, 257, cap_divisor=2**63, progress=False), names=("cap_divisor",)))
    add(Probe("train_bpe(max_batch_size=2**63)", lambda: wb.train_bpe(
        {"ab": 2}, 257, max_batch_size=2**63, progress=False), names=("max_batch_size",)))
    add(Probe("pairs_searched(cap_divisor=2**63)", lambda: pairs_searched(
        10, 10, cap_divisor=2**63), check=lambda x: isinstance(x, int),
        names=("cap_divisor",)))
    add(Probe("train_bpe(count=2**63)", lambda: wb.train_bpe({"ab": 2**63}, 257,
                                                             progress=False),
              names=("count",)))
    add(Probe("train_bpe(overflowing pair counts)", lambda: wb.train_bpe(
        {"a" * 17: 2**61, "bc": 1}, 257, progress=False),
        check=lambda m: m.merges[0] == (b"a", b"a"), names=("count",)))
    add(Probe("Grampa(ell_min=2**63) at construction",
              lambda: wb.Grampa(small(), ell_min=2**63), names=("ell_min",)))
    add(Probe("Vocabulary(ids=[2**63])", lambda: wb.Vocabulary(["a"], ids=[2**63]),
              names=("id",)))
    add(Probe("write_counts(2**63)", lambda: write_counts({"a": 2**63}, TMP / "c.tsv"),
              names=("count",)))
    add(Probe("read_counts(2**63)", lambda: read_counts(_file("big.tsv", f"a\t{2**63}\n")),
              names=("big.tsv",)))


def _corpus_io_probes(add, small, counts, latin1, deep) -> None:
    """Probes: corpus I/O."""
    from workbench.bpe.counting import count_chunks
    from workbench.pretokenise.corpus import tokenize_corpus, tokenize_corpus_dask

    add(Probe("tokenize_corpus(latin1)", lambda: tokenize_corpus([latin1], _tok(),
                                                                 progress=False),
              names=("latin1.txt", "line 2")))
    add(Probe("tokenize_corpus_dask(latin1)", lambda: tokenize_corpus_dask([latin1], _tok()),
              names=("latin1.txt", "line 2")))
    add(Probe("tokenize_corpus_dask(partitions=-1)", lambda: tokenize_corpus_dask(
        [_file("ok.txt", "hello world\n")], _tok(), partitions=-1), names=("partitions",)))
    add(Probe("tokenize_corpus_dask(client=5)", lambda: tokenize_corpus_dask(
        [_file("ok.txt", "hello world\n")], _tok(), client=5), names=("client",)))
    add(Probe("tokenize_corpus_dask('file.txt' str)", lambda: tokenize_corpus_dask(
        str(_file("ok.txt", "hello world\n")), _tok()),
        check=lambda r: [a.tolist() for a in r] == [a.tolist() for a in tokenize_corpus(
            [_file("ok.txt", "hello world\n")], _tok(), progress=False)]))
    add(Probe("tokenize_corpus(out=dir)", lambda: tokenize_corpus(["a b"], _tok(), out=TMP,
                                                                  progress=False),
              names=(TMP.name,)))
    add(Probe("tokenize_corpus(out=/dev/full)", lambda: tokenize_corpus(
        ["a b"], _tok(), out="/dev/full", progress=False), names=("/dev/full",)))
    add(Probe("tokenize_corpus(out=missing dir)", lambda: tokenize_corpus(
        ["a b"], _tok(), out=TMP / "no" / "x.npz", progress=False), names=("no",)))
    add(Probe("count_chunks(out=/dev/full)", lambda: count_chunks(
        texts=["a b"], out="/dev/full", progress=False), names=("/dev/full",)))


def _more_probes(add, small, counts, latin1, deep) -> None:
    """Probes: more of the issue's classes."""
    import workbench as wb
    from workbench import metrics
    from workbench.bpe import BPEModel
    from workbench.bpe.counting import count_chunks
    from workbench.counts import read_counts
    from workbench.pretokenise.corpus import tokenize_corpus
    from workbench.theory.renyi import duplication_renyi_gain

    add(Probe("BPEModel.decode([97.9])", lambda: BPEModel([(b"a", b"b")]).decode([97.9]),
              names=("97.9",)))
    add(Probe("Vocabulary(surrogate).save leaves no file",
              lambda: _saved_nothing(lambda p: wb.Vocabulary(["a", "b\udc80"]).save(p),
                                     TMP / "sur.txt"), names=("surrogate",)))
    add(Probe("count_chunks(surrogate, out=p) leaves no file",
              lambda: _saved_nothing(lambda p: count_chunks(texts=["a b c \ud800"], out=p,
                                                            progress=False), TMP / "cc.tsv")))
    add(Probe("write_counts/read_counts lone CR and 200k chunk", lambda: _round_counts(
        {"hello\rworld\r": 2, "x" * 200_000: 1}), check=lambda ok: ok))
    add(Probe("count_chunks(out) round trip of a lone CR", lambda: _round_chunks(
        ["hello\rworld\r"]), check=lambda ok: ok))
    add(Probe("Vocabulary(scores=[NaN])", lambda: wb.Vocabulary(["a"], scores=[math.nan]),
              names=("score",)))
    add(Probe("Vocabulary.load(own JSON score NaN-free Infinity)", lambda: wb.Vocabulary.load(
        _file("vinf.json", '{"format": "workbench-vocabulary", "version": 1, "tokens": ["a"],'
              ' "ids": [0], "alphabet": "identity", "scores": [1e999]}')),
        names=("vinf.json", "scores")))
    add(Probe("Vocabulary.load(.vocab)", lambda: wb.Vocabulary.load(
        _file("sp.vocab", "<unk>\t0\n\u2581a\t-1.5\nb\t-2\n")),
        check=lambda v: "\u2581a" in v.tokens and not any("\t" in t for t in v.tokens)))
    add(Probe("Vocabulary.load(BOM list)", lambda: wb.Vocabulary.load(
        _file("bom.txt", "\ufeffa\nb\n")), check=lambda v: tuple(v.tokens[:2]) == ("a", "b")))
    add(Probe("Vocabulary.load(encoder.json duplicate key)", lambda: wb.Vocabulary.load(
        _file("enc.json", '{"a": 0, "a": 1}')), names=("enc.json", "twice")))
    add(Probe("read_counts(negative)", lambda: read_counts(_file("neg.tsv", "a\t-1\n")),
              names=("neg.tsv", "line 1")))
    add(Probe("Multiplexer.coins(3.0)", lambda: wb.Multiplexer(
        lambda w: [w], wb.Grampa(small()), 0.5).coins(3.0), names=("n_words",)))
    add(Probe("renyi_entropy([1e308,1e308], 2)", lambda: metrics.renyi_entropy(
        [1e308, 1e308], 2.0), check=lambda x: abs(x - 1.0) < 1e-12))
    add(Probe("renyi_efficiency([1e308,1e308,1e-308*1e308], 2.5)", lambda: metrics.renyi_efficiency(
        [1e308, 1e308, 1.0], 2.5), check=lambda x: abs(
            x - metrics.renyi_efficiency([1.0, 1.0, 1e-308], 2.5)) < 1e-9))
    add(Probe("export_hf(train_bpe(stop_list_size=5))", lambda: wb.export_hf(
        wb.train_bpe({"the cat, the dog.\n": 50, " the": 40, ", and": 30, "\n": 20},
                     270, stop_list_size=5, progress=False), TMP / "hf.json"),
        check=lambda p: Path(p).is_file()))
    add(Probe("tokenize_corpus(/dev/zero)", lambda: tokenize_corpus(
        [Path("/dev/zero")], _tok(), progress=False), names=("/dev/zero",)))
    add(Probe("duplication_renyi_gain(alpha=2**63)", lambda: duplication_renyi_gain(
        {"a": 4, "b": 4}, "a", 2, float(2**63)), check=lambda x: math.isfinite(x) and x >= 0))
    add(Probe("percentile_frequency([1e308]*3)", lambda: metrics.percentile_frequency(
        [1e308, 1e308, 1e308], 0.0, 1.0), check=lambda x: abs(x - 1.0) < 1e-12))


def _optional_dependency_probes(add, small, counts, latin1, deep) -> None:
    """Probes: optional dependencies."""
    import workbench as wb

    add(Probe("ULMSampler(model_path=missing)", lambda: wb.ULMSampler(
        wb.Vocabulary(["a", "b"], scores=[-1.0, -1.0]), model_path=TMP / "missing.model"),
        names=("missing.model",)))


def run_probe(probe: Probe) -> tuple[str, str]:
    rd, wr = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(rd)
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        try:
            result = probe.call()
            if probe.check is None:
                verdict = ("WRONG", f"returned {result!r:.120} where an error is due")
            else:
                try:
                    good = bool(probe.check(result))
                except Exception as err:  # noqa: BLE001
                    good, result = False, f"{result!r:.80} (check raised {err!r:.80})"
                verdict = ("OK", f"{result!r:.100}") if good else (
                    "WRONG", f"returned {result!r:.120}")
        except MemoryError:
            verdict = ("OOM", "MemoryError")
        except CLEAR as err:
            msg = str(err)
            missing = [n for n in probe.names if n.lower() not in msg.lower()]
            if not msg:
                verdict = ("UNCLEAR", f"{type(err).__name__} without message")
            elif missing:
                verdict = ("UNCLEAR", f"{type(err).__name__} misses {missing}: {msg:.200}")
            else:
                verdict = ("CLEAR", f"{type(err).__name__}: {msg:.200}")
        except BaseException as err:  # noqa: BLE001
            verdict = ("RAW", f"{type(err).__name__}: {err!s:.200}")
        with os.fdopen(wr, "wb") as fh:
            pickle.dump(verdict, fh)
        os._exit(0)
    os.close(wr)
    deadline = time.monotonic() + SECONDS
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(rd)
        return "HANG", f"no answer within {SECONDS} s"
    with os.fdopen(rd, "rb") as fh:
        data = fh.read()
    if not data:
        return "DIED", f"child exit status {status}"
    return pickle.loads(data)


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    as_json = "--json" in argv
    wanted = [a for a in argv if not a.startswith("-")]
    import workbench

    print("workbench from", workbench.__file__)

    tally: dict[str, int] = {}
    for probe in probes():
        if wanted and not any(w in probe.name for w in wanted):
            continue
        kind, detail = run_probe(probe)
        tally[kind] = tally.get(kind, 0) + 1
        if as_json:
            print(json.dumps({"name": probe.name, "kind": kind, "detail": detail}), flush=True)
        elif verbose or kind not in ("CLEAR", "OK"):
            print(f"{kind:8} {probe.name}: {detail}", flush=True)
    print("TALLY", json.dumps(tally, sort_keys=True))
    return 0 if set(tally) <= {"CLEAR", "OK"} else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
