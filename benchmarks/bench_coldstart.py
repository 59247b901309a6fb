"""Cold start of a fresh Python process on warm caches (issue 20's and issue 29's targets).

Each case is a new interpreter (``sys.executable``), timed from before ``exec`` to exit
(wall clock, so interpreter start-up is included) and, inside, from the first import to the
end of the first result:

* ``import workbench``                      -- the package itself (lazy public names);
* ``python -m workbench --help``            -- the CLI's help;
* ``first GRaMPa sample``                   -- ``from workbench import Grampa, Vocabulary``, a
  five-token vocabulary, ``Grampa(...).sample("abab")``;
* ``first GRaMPa sample (ulm-8k)``          -- the same on the shipped 8k vocabulary
  (loading it included);
* ``first GRaMPa encode (ulm-8k)``          -- issue 29's case:
  ``Grampa(load_vocabulary('ulm-8k'), tau=5.0, seed=0).encode_flat(['▁hello', '▁world'])``
  (plain Python before numba is loaded: :mod:`workbench.grampa.interpreted_encode`);
* ``first GRaMPa encode (ulm-8k, numba kernels)`` -- the same after ``import numba``, so the
  kernels run: what the first tier saves;
* ``first Multiplexer encode (ulm-8k)``     -- ``Multiplexer(default_segmenter(v),
  Grampa(v, tau=5.0, seed=0), p=0.5, seed=0).encode_code_points(...)`` of four words;
* ``first BPE encode (GPT-2)``              -- ``BPEModel.from_gpt2().encode("hello world")``
  (the checked model from its cache, :mod:`workbench.bpe.gpt2cache`; plain-Python BPE,
  :mod:`workbench.bpe.interpreted`);
* ``CLI first sample (ulm-8k)``            -- ``python -m workbench sample -n 1 --space
  tokenisation`` (the same through the command line, which also skips the interpreter's
  last garbage collection, see ``workbench.__main__._exit``);
* ``CLI word without segmentation (ulm-8k)`` -- ``python -m workbench sample -n 1 --space
  snow☃`` (exit status 1: the reason is worded without numba);
* ``SentencePiece first sample``            -- ``spm.SentencePieceProcessor(model_file=...)``
  and one ``encode(..., enable_sampling=True)`` on the shipped 8k ULM model (when installed;
  its path is found beforehand, so the process imports nothing of workbench);
* ``tiktoken first encode (GPT-2)``         -- ``tiktoken.get_encoding("gpt2").encode("hello
  world")`` (when installed) on its own warm cache: ``TIKTOKEN_CACHE_DIR`` is a temporary
  directory holding GPT-2's ``vocab.bpe`` and ``encoder.json``, decompressed from the shipped
  copies (the files tiktoken downloads, same SHA-256), so it needs no network.

Run ``python -m workbench warmup`` first (``make`` does it after installing); the script runs
every case once untimed so that the caches are warm (numba's, GPT-2's model, tiktoken's,
the OS file cache, and Python's ``.pyc`` files: ``PYTHONDONTWRITEBYTECODE`` is dropped for
the timed processes, as for an installed package; ``__pycache__`` is git-ignored). The
cases are interleaved over the repeats. Reported: medians (and min) in seconds, the load
average at the start and end, and each first encode's ratio to its peer (peer's median /
ours: above 1 is faster than the peer).

Usage::

    python benchmarks/bench_coldstart.py [--repeats R]
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import lzma
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASES = {
    "import workbench": "import workbench",
    "python -m workbench --help": None,
    "first GRaMPa sample": (
        "from workbench import Grampa, Vocabulary\n"
        "Grampa(Vocabulary(['a', 'b', 'ab', 'ba', 'aba']), tau=2.0, seed=0).sample('abab')"),
    "first GRaMPa sample (ulm-8k)": (
        "from workbench import Grampa, datasets\n"
        "v = datasets.load_vocabulary('ulm-8k')\n"
        "Grampa(v, tau=2.0, seed=0).sample(v.to_alphabet(' tokenisation'))"),
    "first GRaMPa encode (ulm-8k)": (
        "import workbench as wb\n"
        "from workbench.datasets import load_vocabulary\n"
        "wb.Grampa(load_vocabulary('ulm-8k'), tau=5.0, seed=0).encode_flat(['▁hello', '▁world'])"),
    "first GRaMPa encode (ulm-8k, numba kernels)": (
        "import numba\n"
        "import workbench as wb\n"
        "from workbench.datasets import load_vocabulary\n"
        "wb.Grampa(load_vocabulary('ulm-8k'), tau=5.0, seed=0).encode_flat(['▁hello', '▁world'])"),
    "first Multiplexer encode (ulm-8k)": (
        "import numpy as np\n"
        "from workbench import Grampa, Multiplexer\n"
        "from workbench.datasets import load_vocabulary\n"
        "from workbench.segmenters import default_segmenter\n"
        "v = load_vocabulary('ulm-8k')\n"
        "words = ['▁hello', '▁world', '▁tokenisation', '▁again']\n"
        "cps = np.array([ord(c) for c in ''.join(words)])\n"
        "offsets = np.cumsum([0] + [len(w) for w in words])\n"
        "Multiplexer(default_segmenter(v), Grampa(v, tau=5.0, seed=0), p=0.5, seed=0)"
        ".encode_code_points(cps, offsets)"),
    "first BPE encode (GPT-2)": (
        "from workbench import BPEModel\n"
        "BPEModel.from_gpt2().encode('hello world')"),
    "CLI first sample (ulm-8k)": ["sample", "-n", "1", "--space", "tokenisation"],
    "CLI word without segmentation (ulm-8k)": ["sample", "-n", "1", "--space", "snow\u2603"],
    "SentencePiece first sample": (
        "import sentencepiece as spm\n"
        "sp = spm.SentencePieceProcessor(model_file={model!r})\n"
        "sp.encode(['tokenisation'], enable_sampling=True, alpha=0.0, nbest_size=-1)"),
    "tiktoken first encode (GPT-2)": (
        "import tiktoken\n"
        "tiktoken.get_encoding('gpt2').encode('hello world')"),
}
#: Each first encode of ours and the peer a user would pick instead.
PEERS = {
    "first GRaMPa encode (ulm-8k)": "SentencePiece first sample",
    "first Multiplexer encode (ulm-8k)": "SentencePiece first sample",
    "first BPE encode (GPT-2)": "tiktoken first encode (GPT-2)",
}
#: Where tiktoken looks for GPT-2's files (``tiktoken_ext.openai_public.gpt2``).
TIKTOKEN_GPT2 = {"vocab.bpe": "gpt2_vocab.bpe.xz", "encoder.json": "gpt2_encoder.json.xz"}
TIKTOKEN_BASE = "https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/"


def _command(code: str | list[str] | None) -> list[str]:
    if code is None:
        return [sys.executable, "-m", "workbench", "--help"]
    if isinstance(code, list):  # CLI arguments
        return [sys.executable, "-m", "workbench", *code]
    return [sys.executable, "-c", code]


def _time(code: str | list[str] | None, env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(_command(code), cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, env=env)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1) or (proc.returncode == 1 and not isinstance(code, list)):
        raise RuntimeError(f"{code!r} failed:\n{proc.stderr}")
    return elapsed


def _tiktoken_cache(directory: str) -> None:
    """Fill a tiktoken cache with GPT-2's files, decompressed from the shipped copies."""
    for name, shipped in TIKTOKEN_GPT2.items():
        key = hashlib.sha1((TIKTOKEN_BASE + name).encode()).hexdigest()
        raw = lzma.decompress((ROOT / "data" / shipped).read_bytes())
        Path(directory, key).write_bytes(raw)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    cases = dict(CASES)
    try:
        import sentencepiece  # noqa: F401
    except ImportError:
        print("sentencepiece not installed: its row is left out")
        del cases["SentencePiece first sample"]
    else:  # the model path is found here, so the timed process imports only sentencepiece
        from workbench.datasets import sentencepiece_model_path

        model = str(sentencepiece_model_path("ulm-8k"))
        cases["SentencePiece first sample"] = cases["SentencePiece first sample"].format(
            model=model)
    try:
        import tiktoken  # noqa: F401
    except ImportError:
        print("tiktoken not installed: its row is left out")
        del cases["tiktoken first encode (GPT-2)"]
    with tempfile.TemporaryDirectory(prefix="bench-coldstart-tiktoken-") as tiktoken_dir:
        _tiktoken_cache(tiktoken_dir)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "TIKTOKEN_CACHE_DIR": tiktoken_dir}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: modules load from .pyc
        for code in cases.values():  # warm: numba cache, GPT-2 model, OS file cache
            _time(code, env)
        load_before = os.getloadavg()
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.repeats):
            for name, code in cases.items():
                times[name].append(_time(code, env))
        load_after = os.getloadavg()
    print(f"# cold start, fresh process, warm caches ({datetime.date.today()}, "
          f"{platform.python_version()}, {os.cpu_count()} cores, {args.repeats} repeats, "
          f"load average {load_before[0]:.2f} -> {load_after[0]:.2f})")
    print("| case | median s | min s |\n|---|---|---|")
    med = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        print(f"| {name} | {med[name]:.3f} | {min(values):.3f} |")
    print("\n| first encode | ours s | peer | peer s | ratio (peer / ours) |\n"
          "|---|---|---|---|---|")
    for ours, peer in PEERS.items():
        if ours in med and peer in med:
            print(f"| {ours} | {med[ours]:.3f} | {peer} | {med[peer]:.3f} | "
                  f"{med[peer] / med[ours]:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
