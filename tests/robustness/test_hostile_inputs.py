"""Hostile inputs at every public entry point: a clear error or a correct result, in time.

A registry (:data:`ENTRY_POINTS`) names each public call and the argument that is attacked;
:data:`HOSTILE` holds the values thrown at it (huge, negative, NaN and infinite numbers,
integers past int64, surrogates, NUL, empty and long strings, wrong types). Every call must
return or raise one of the *clear* errors (``TypeError``, ``ValueError`` and their
subclasses: ``BudgetError``, ``SegmentationError``, ``VocabularyFormatError``, …), within
:data:`SECONDS`, and a float it returns must not be NaN. A crash of another kind (an
``OverflowError``, ``IndexError``, ``ZeroDivisionError``, ``RecursionError``, a numba error)
fails the test with the call that caused it. The module runs in a child process under an
address-space limit (``test_suite_under_memory_limit``), so an allocation past the budget
fails instead of exhausting the machine.
"""

from __future__ import annotations

import math
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable

import numpy as np
import pytest

import workbench as wb
from workbench import datasets, metrics, stats, theory

SECONDS = 20
CLEAR = (TypeError, ValueError)  # BudgetError, SegmentationError, format errors subclass these

HOSTILE_INTS = [0, -1, -(2**63), 2**63, 2**64, 10**12, 10**30, True, 3.0, float("nan"), "3",
                None]
HOSTILE_FLOATS = [0.0, -0.0, -1.0, float("nan"), float("inf"), -float("inf"), 1e308, -1e308,
                  5e-324, 10**400, True, "1.0", None]
HOSTILE_STRINGS = ["", "\x00", "\ud800", "a\udc80b", "日本語", "a" * 100_000, " " * 1000,
                   "\r\n\r", 5, None, b"bytes"]

_VOCAB = None


def _vocab():
    global _VOCAB
    if _VOCAB is None:
        _VOCAB = datasets.load_vocabulary("ulm-8k")
    return _VOCAB


def _small():
    return wb.Vocabulary(["a", "b", "ab"])


#: name → (call taking the hostile value, the values)
ENTRY_POINTS: dict[str, tuple[Callable[[object], object], list]] = {
    "Grampa(tau)": (lambda x: wb.Grampa(_small(), tau=x).sample("abab"), HOSTILE_FLOATS),
    "Grampa(ell_min)": (lambda x: wb.Grampa(_small(), ell_min=x).sample("abab"),
                        HOSTILE_INTS),
    "Grampa(seed)": (lambda x: wb.Grampa(_small(), seed=x).sample("ab"), HOSTILE_INTS),
    "Grampa.sample(word)": (lambda x: wb.Grampa(_small(), seed=0).sample(x),
                            HOSTILE_STRINGS),
    "Grampa.sample_many(n)": (lambda x: wb.Grampa(_small(), seed=0).sample_many("ab", x),
                              HOSTILE_INTS),
    "Grampa.token_count_pmf(word)": (lambda x: wb.Grampa(_small()).token_count_pmf(x),
                                     HOSTILE_STRINGS),
    "count_segmentations(word)": (lambda x: wb.count_segmentations(x, _small()),
                                  HOSTILE_STRINGS),
    "count_segmentations(ell_min)": (lambda x: wb.count_segmentations("abab", _small(), x),
                                     HOSTILE_INTS),
    "Vocabulary(tokens)": (lambda x: wb.Vocabulary([x]), HOSTILE_STRINGS),
    "Vocabulary(ids)": (lambda x: wb.Vocabulary(["a"], ids=[x]), HOSTILE_INTS),
    "Vocabulary(scores)": (lambda x: wb.Vocabulary(["a"], scores=[x]), HOSTILE_FLOATS),
    "train_bpe(vocab_size)": (lambda x: wb.train_bpe({"ab": 2}, x, progress=False),
                              HOSTILE_INTS),
    "train_bpe(count)": (lambda x: wb.train_bpe({"ab": x}, 257, progress=False),
                         HOSTILE_INTS),
    "train_bpe(chunk)": (lambda x: wb.train_bpe({x: 2}, 257, progress=False),
                         HOSTILE_STRINGS),
    "train_greedtok(k)": (lambda x: wb.train_greedtok({"abc": 2}, x, progress=False),
                          HOSTILE_INTS),
    "BPEModel.encode(text)": (lambda x: wb.BPEModel([(b"a", b"b")]).encode(x),
                              HOSTILE_STRINGS),
    "BPEModel.decode(id)": (lambda x: wb.BPEModel([(b"a", b"b")]).decode([x]),
                            HOSTILE_INTS + HOSTILE_FLOATS),
    "shannon_entropy(count)": (lambda x: metrics.shannon_entropy([1.0, x]), HOSTILE_FLOATS),
    "renyi_entropy(alpha)": (lambda x: metrics.renyi_entropy([1.0, 2.0], x), HOSTILE_FLOATS),
    "renyi_efficiency(count)": (lambda x: metrics.renyi_efficiency([1.0, 2.0, x], 2.5),
                                HOSTILE_FLOATS),
    "stats.tv_distance(p)": (lambda x: stats.tv_distance([x, 0.5], [0.5, 0.5]),
                             HOSTILE_FLOATS),
    "stats.frequencies(n_cells)": (lambda x: stats.frequencies([1, 2], n_cells=x),
                                   HOSTILE_INTS),
    "stats.trial_tolerance(expected)": (lambda x: stats.trial_tolerance(x, 10),
                                        HOSTILE_FLOATS),
    "theory.lock_key(length)": (lambda x: theory.lock_key([1, x]), HOSTILE_INTS),
    "Multiplexer(p)": (lambda x: wb.Multiplexer(lambda w: [w], wb.Grampa(_small()), x),
                       HOSTILE_FLOATS),
    "TextTokenizer.encode_lines(line)": (
        lambda x: wb.TextTokenizer(wb.Grampa(_vocab()), p=0.5).encode_lines([x], seed=0),
        HOSTILE_STRINGS),
}


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang(f"no answer within {SECONDS} s")


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_hostile_values_get_a_clear_error_or_a_result(name):
    call, values = ENTRY_POINTS[name]
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for value in values:
            signal.alarm(SECONDS)
            try:
                result = call(value)
            except CLEAR:
                continue
            except Hang:
                pytest.fail(f"{name} with {value!r:.40} hangs")
            except Exception as err:  # noqa: BLE001 - the point of the test
                pytest.fail(f"{name} with {value!r:.40} raised {type(err).__name__}: "
                            f"{err!s:.200}")
            finally:
                signal.alarm(0)
            if isinstance(result, float):
                assert not math.isnan(result), f"{name} with {value!r:.40} returned NaN"
            if isinstance(result, np.ndarray) and result.dtype.kind == "f":
                assert not np.isnan(result).any(), f"{name} with {value!r:.40} gave NaN"
    finally:
        signal.signal(signal.SIGALRM, previous)


#: Address space the child process may use (numba and LLVM reserve a lot of virtual memory;
#: this is far above what they need and far below the 24 GiB of the machine).
MEMORY_LIMIT = 12 << 30


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("WORKBENCH_HOSTILE_CHILD") == "1",
                    reason="already the memory-limited child")
def test_suite_under_memory_limit():
    """This module again, in a child process under an address-space limit."""
    env = {**os.environ, "WORKBENCH_HOSTILE_CHILD": "1"}
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          __file__, "-k", "hostile_values"], env=env, capture_output=True,
                         text=True, preexec_fn=_limit_memory, timeout=1800)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
