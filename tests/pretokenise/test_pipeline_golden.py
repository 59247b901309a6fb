"""Golden output of the text pipeline, pinned before the throughput work (issue 11, item 7b).

The hashes below were computed with the pipeline as it was before any speed-up (commit
ae10641: P1/P2 in Python, ``itertools.compress`` assembly, a fresh spawn pool per call). Any
faster route must give the same ids and offsets, bit for bit, for the same seed.
"""

from __future__ import annotations

import hashlib
import threading

import numpy as np
import pytest

from workbench import Grampa, datasets
from workbench.pretokenise import TextTokenizer, tokenize_corpus

# in the sentencepiece vocabularies' ASCII alphabet after NFKC (Ⅻ → XII, ﬁ → fi)
ODD_LINES = ["", "  \t ", "l'amour 3-4 x_y don't WE'LL", "Ⅻ-ﬁ fine 1984-2024!",
             "a" * 1500 + " " + "ab" * 700, "(quoted)-- it's 'fine'", "tab\tseparated\rreturn",
             "x" * 3 + "-" * 5 + "9" * 4 + "\u00a0y"]
#: the byte-level vocabulary spells any text
BYTE_LINES = ["日本語のテキスト。", "—«quoted»— café naïve don’t", "``brown'' quotes"]


def _digest(ids: np.ndarray, offsets: np.ndarray) -> str:
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(ids, dtype=np.int32).tobytes())
    h.update(np.ascontiguousarray(offsets, dtype=np.int64).tobytes())
    return h.hexdigest()[:24]


def _lines(name: str, step: int, count: int) -> list[str]:
    lines = datasets.load_text(name).split("\n")[::step][:count]
    odd = ODD_LINES + BYTE_LINES if name == "brown" else ODD_LINES
    return lines[: count // 2] + odd + lines[count // 2:]


CASES = {
    # (vocabulary, tau, ell_min, p, typo_rate, text, step, count, seed, block_lines)
    "ulm-uniform": ("ulm-8k", 1.0, 1, 0.5, 0.0, "shakespeare", 7, 3000, 0, 700),
    "ulm-skewed-typos": ("ulm-8k", 5.0, 2, 0.5, 0.15, "shakespeare", 11, 2500, 3, 900),
    "bpe-negative-tau": ("bpe-8k", -10.0, 1, 0.3, 0.0, "shakespeare", 13, 2000, 5, 512),
    "gpt2-bytes-longest": ("gpt2", 1.0, 1, 0.5, 0.0, "brown", 17, 2000, 9, 1000),
    "ulm-all-stochastic": ("ulm-8k", 1.0, 1, 1.0, 0.0, "shakespeare", 19, 1500, 1, 400),
    "ulm-all-viterbi": ("ulm-8k", 1.0, 1, 0.0, 0.0, "shakespeare", 19, 1500, 1, 400),
}

GOLDEN = {
    "ulm-uniform": "0472d7a36f900064aa405032",
    "ulm-skewed-typos": "23de46c3db3db300cd4df4cd",
    "bpe-negative-tau": "093751cbf03326246697acfb",
    "gpt2-bytes-longest": "ce1c7d2738ce39c19d32173f",
    "ulm-all-stochastic": "13c734533be2b71be4b8ebc5",
    "ulm-all-viterbi": "a11b29315e0c575ff1b3d1ac",
}


def _run(case: str, workers: int = 1) -> tuple[np.ndarray, np.ndarray]:
    name, tau, ell_min, p, typo, text, step, count, seed, block = CASES[case]
    tok = TextTokenizer(Grampa(datasets.load_vocabulary(name), tau=tau, ell_min=ell_min),
                        p=p, typo_rate=typo)
    return tokenize_corpus(["\n".join(_lines(text, step, count))], tok, seed=seed,
                           num_threads=workers, block_lines=block, progress=False)


@pytest.mark.parametrize("case", sorted(CASES))
def test_pipeline_output_is_unchanged(case):
    ids, offsets = _run(case)
    assert offsets[-1] == ids.size and offsets.size == len(_lines(*CASES[case][5:8])) + 1
    assert _digest(ids, offsets) == GOLDEN[case]


@pytest.mark.parametrize("case, workers", [("ulm-uniform", 2), ("gpt2-bytes-longest", 3),
                                           ("ulm-skewed-typos", 2)])
def test_pipeline_output_is_unchanged_on_threads(case, workers):
    assert _digest(*_run(case, workers=workers)) == GOLDEN[case]
    assert not [t for t in threading.enumerate() if t.name.startswith("tokenize_corpus")]
