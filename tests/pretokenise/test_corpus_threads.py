"""tokenize_corpus on threads: same ids for any worker count, no leaked threads, clean errors."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from workbench import Grampa, SegmentationError, datasets
from workbench.pretokenise import TextTokenizer, tokenize_corpus


def _pool_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("tokenize_corpus")]


@pytest.fixture(scope="module")
def tok():
    return TextTokenizer(Grampa(datasets.load_vocabulary("ulm-8k"), tau=1.0), p=0.5)


class Interrupting(TextTokenizer):
    """Raises KeyboardInterrupt while encoding one chosen block (inside a pool thread)."""

    def __init__(self, base: TextTokenizer, at: int) -> None:
        self.__dict__.update(base.__dict__)
        self.calls, self.at, self.lock = 0, at, threading.Lock()

    def encode_lines(self, lines, seed=None):
        with self.lock:
            self.calls += 1
            call = self.calls
        if call == self.at:
            raise KeyboardInterrupt
        return super().encode_lines(lines, seed)


def test_interrupt_in_a_worker_cancels_the_rest_and_leaves_no_thread_or_file(tok, tmp_path):
    text = "\n".join(datasets.load_text("shakespeare").split("\n")[:4000])
    bad = Interrupting(tok, at=3)
    with pytest.raises(KeyboardInterrupt):
        tokenize_corpus([text], bad, num_threads=2, block_lines=100, progress=False,
                        out=tmp_path / "out.npz")
    assert not _pool_threads()
    assert bad.calls < 40  # queued blocks were cancelled, not all run
    assert list(tmp_path.iterdir()) == []
    again = tokenize_corpus([text], tok, num_threads=2, block_lines=100, progress=False)
    assert np.array_equal(again[0], tokenize_corpus([text], tok, num_threads=1, block_lines=100,
                                                     progress=False)[0])


def test_interrupt_in_the_caller_leaves_no_thread(tok):
    lines = datasets.load_text("shakespeare").split("\n")[:3000]

    def sources():
        yield "\n".join(lines[:1500])
        raise KeyboardInterrupt  # as if Ctrl-C arrived while the caller reads the next file

    with pytest.raises(KeyboardInterrupt):
        tokenize_corpus(sources(), tok, num_threads=2, block_lines=50, progress=False)
    assert not _pool_threads()


def test_bad_input_errors(tok):
    with pytest.raises(TypeError, match="TextTokenizer"):
        tokenize_corpus(["a"], object(), progress=False)
    with pytest.raises(TypeError, match="source must be str"):
        tokenize_corpus([b"bytes"], tok, progress=False)
    with pytest.raises(TypeError, match="source must be str"):
        tokenize_corpus(["a", 3], tok, num_threads=2, progress=False)
    with pytest.raises(ValueError, match="num_threads"):
        tokenize_corpus(["a"], tok, num_threads=0, progress=False)
    with pytest.raises(TypeError, match="num_threads"):
        tokenize_corpus(["a"], tok, num_threads=2.0, progress=False)
    with pytest.raises(ValueError, match="seed"):
        tokenize_corpus(["a"], tok, seed=-1, progress=False)
    with pytest.raises(ValueError, match="block_lines"):
        tokenize_corpus(["a"], tok, block_lines=0, progress=False)
    with pytest.raises(SegmentationError, match="日"):  # not in the ULM alphabet
        tokenize_corpus(["fine\n" * 300 + "日本"], tok, num_threads=2, block_lines=64,
                        progress=False)
    assert not _pool_threads()
    with pytest.raises(TypeError, match="sequence of str"):
        tok.encode_lines("one line")
    with pytest.raises(TypeError, match="line 0 is NoneType"):
        tok.encode_lines([None])
    assert tokenize_corpus([], tok, progress=False)[1].tolist() == [0]
