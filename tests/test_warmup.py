"""workbench.warmup's steps after the kernels: the course's kept results filled (a failure
reported, not raised), then the stale rebuildable files pruned. The whole warm-up runs in
tests/project/test_coldstart.py (slow)."""

from __future__ import annotations

from workbench import warmup
from workbench._core import cachedir
from workbench.experiments import course_kept


def _fills(ran):
    def ok(name):
        return lambda: ran.append(name)

    def broken():
        ran.append("broken")
        raise RuntimeError("no disk")

    return (course_kept.Fill("07", "first", ok("first")),
            course_kept.Fill("09", "broken", broken),
            course_kept.Fill("11", "last", ok("last")))


def test_a_failed_fill_is_reported_and_the_others_still_run(monkeypatch) -> None:
    ran, said = [], []
    monkeypatch.setattr(course_kept, "FILLS", _fills(ran))
    failures = warmup.fill_kept(said.append)
    assert ran == ["first", "broken", "last"]
    assert failures == ["notebook 09, broken: RuntimeError: no disk"]
    assert sum("failed" in line for line in said) == 1
    assert sum(line.startswith("kept results of notebook") for line in said) == 3


def test_warmup_fills_then_prunes_and_says_so(monkeypatch) -> None:
    steps, said = [], []
    report = warmup.KernelReport(("m.k",), ("m.k",))
    monkeypatch.setattr(warmup, "run_workload", lambda say: steps.append("kernels"))
    monkeypatch.setattr(warmup, "kernel_report", lambda: report)
    monkeypatch.setattr(warmup, "prune_cache", lambda r: steps.append("numba index"))
    monkeypatch.setattr(course_kept, "FILLS", _fills(steps))
    monkeypatch.setattr(cachedir, "prune", lambda: steps.append("prune") or ["a", "b"])
    assert warmup.warmup(said.append) is report
    assert steps == ["kernels", "numba index", "first", "broken", "last", "prune"]
    assert said[-1].startswith("removed 2 stale")
    steps.clear()
    warmup.warmup(kept=False)
    assert steps == ["kernels", "numba index", "prune"]
