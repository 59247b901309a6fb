"""The walked graph selected in plain Python (``lattice.interpreted``) is the kernel's.

This suite has loaded numba, so the route is forced by patching
:func:`workbench.lattice.interpreted.applies` to True and compared with the same call with
it patched to False (the numba arc table and selection); a fresh process checks that a word
without segmentation is explained, through ``Grampa.sample`` and the CLI, without numba.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench import Grampa, SegmentationError, Vocabulary
from workbench.lattice import interpreted, no_segmentation_reason, walked_arcs

ROOT = Path(__file__).resolve().parents[2]


def _both(call):
    out = []
    for route in (False, True):
        with pytest.MonkeyPatch.context() as m:
            m.setattr(interpreted, "applies", lambda *a, route=route, **k: route)
            arcs, reach = call()
            out.append((arcs, reach.dtype.str, reach.tolist()))
    return out


@settings(max_examples=300, deadline=None, derandomize=True)
@given(tokens=st.sets(st.text("abc", min_size=1, max_size=4), min_size=1, max_size=12),
       word=st.text("abcd", max_size=16), ell_min=st.integers(1, 4),
       direction=st.sampled_from(["l2r", "r2l"]), infinite=st.booleans())
def test_same_graph_as_the_kernels(tokens, word, ell_min, direction, infinite):
    vocab = Vocabulary.infinite() if infinite else Vocabulary(sorted(tokens))
    kernel, plain = _both(lambda: walked_arcs(word, vocab, ell_min, direction))
    assert plain == kernel
    with pytest.MonkeyPatch.context() as m:
        m.setattr(interpreted, "applies", lambda *a, **k: True)
        forced = no_segmentation_reason(word, vocab, ell_min, direction)
    assert forced == no_segmentation_reason(word, vocab, ell_min, direction)


def test_applies_rule(monkeypatch):
    vocab = Vocabulary(["a", "ab"])
    assert "numba" in sys.modules and not interpreted.applies(3, vocab)
    monkeypatch.delitem(sys.modules, "numba")
    assert interpreted.applies(3, vocab) and interpreted.applies(0, vocab)
    assert interpreted.applies(interpreted.MAX_WORK // 2, vocab)  # n · min(n, 2)
    assert not interpreted.applies(interpreted.MAX_WORK // 2 + 1, vocab)
    assert interpreted.applies(141, Vocabulary.infinite())  # n² = 19,881
    assert not interpreted.applies(142, Vocabulary.infinite())


def test_the_route_is_taken_only_through_applies(monkeypatch):
    calls = []

    def spy(*args, **kwargs):
        calls.append(args)
        return True

    def refuse(*args, **kwargs):
        raise AssertionError("interpreted route taken")

    monkeypatch.setattr(interpreted, "applies", spy)
    monkeypatch.setattr(interpreted, "select_arcs", refuse)
    with pytest.raises(AssertionError, match="interpreted route taken"):
        walked_arcs("ab", Vocabulary(["a", "b"]))
    assert calls
    monkeypatch.setattr(interpreted, "applies", lambda *a, **k: False)
    assert walked_arcs("ab", Vocabulary(["a", "b"]))[0] == [(0, 1), (1, 2)]


FRESH = """
import contextlib, io, json, sys
from workbench import Grampa, SegmentationError, datasets
from workbench.__main__ import main
err = io.StringIO()
with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
    status = main(["sample", "-n", "2", "--space", "xyz\\u2603", "hello"])
v = datasets.load_vocabulary("ulm-8k")
try:
    Grampa(v, seed=0).sample(v.to_alphabet(" snow\\u2603"))
except SegmentationError as e:
    message = str(e)
print(json.dumps({"numba": "numba" in sys.modules, "status": status,
                  "cli": err.getvalue(), "sample": message}))
"""


def test_a_fresh_process_explains_without_numba():
    from workbench import datasets

    proc = subprocess.run([sys.executable, "-c", FRESH], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["numba"] is False and got["status"] == 1
    v = datasets.load_vocabulary("ulm-8k")
    reason = no_segmentation_reason(v.to_alphabet(" xyz\u2603"), v, spelled=True)
    assert got["cli"] == f"workbench sample: {reason}\n"
    with pytest.raises(SegmentationError) as err:  # numba loaded here: the kernels' graph
        Grampa(v, seed=0).sample(v.to_alphabet(" snow\u2603"))
    assert got["sample"] == str(err.value)
