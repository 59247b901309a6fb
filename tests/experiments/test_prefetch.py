"""Prefetch: calls run by priority; settle drops a call not started, waits for a running one."""

from __future__ import annotations

import threading

import pytest

from workbench.experiments.prefetch import Prefetch


def test_calls_run_lowest_priority_first_then_in_order_added() -> None:
    gate, done = threading.Event(), []
    ahead = Prefetch()
    ahead.add({"gate": gate.wait}, priority=-1)          # holds the thread while we queue
    ahead.add({k: (lambda k=k: done.append(k)) for k in ("c2", "d2")}, priority=2)
    ahead.add({k: (lambda k=k: done.append(k)) for k in ("a1", "b1")},
              priority=lambda key: int(key[1]))
    ahead.add({"a1": lambda: done.append("again")})      # queued already: keeps its place
    gate.set()
    assert ahead.join(timeout=30)
    assert done == ["a1", "b1", "c2", "d2"] and ahead.pending == 0


def test_settle_drops_a_pending_call_and_waits_for_a_running_one() -> None:
    started, release, done = threading.Event(), threading.Event(), []

    def slow() -> None:
        started.set()
        release.wait()
        done.append("slow")

    ahead = Prefetch()
    ahead.add({"slow": slow, "later": lambda: done.append("later")})
    assert started.wait(30)
    ahead.settle("later")                                 # not started: dropped
    waiter = threading.Thread(target=ahead.settle, args=("slow",))
    waiter.start()
    waiter.join(0.2)
    assert waiter.is_alive()                              # waits while "slow" runs
    release.set()
    waiter.join(30)
    assert not waiter.is_alive() and ahead.join(timeout=30)
    assert done == ["slow"]


def test_join_up_to_a_priority_and_errors_are_kept() -> None:
    release = threading.Event()
    ahead = Prefetch()
    ahead.add({"boom": lambda: 1 / 0}, priority=0)
    ahead.add({"far": release.wait}, priority=5)
    assert ahead.join(up_to=1, timeout=30)
    assert not ahead.join(timeout=0.1)                    # "far" is still running
    release.set()
    assert ahead.join(timeout=30)
    assert isinstance(ahead.errors["boom"], ZeroDivisionError)
    with pytest.raises(TypeError, match="not callable"):
        ahead.add({"x": 3})


def test_cancel_drops_what_has_not_started_and_the_thread_ends() -> None:
    """What a caller done with the panels does (tests/notebooks/test_panel_step_back.py): on
    a busy machine the queue outlived the test and its thread was left running."""
    started, release, done = threading.Event(), threading.Event(), []

    def first() -> None:
        started.set()
        release.wait()
        done.append("first")

    ahead = Prefetch()
    ahead.add({"first": first})
    ahead.add({k: (lambda k=k: done.append(k)) for k in ("b", "c")}, priority=1)
    assert started.wait(30)
    assert ahead.cancel() == 2 and ahead.pending == 0
    release.set()
    assert ahead.join(timeout=30) and done == ["first"]
    assert ahead.cancel() == 0  # (the thread's end: tests/threadcheck.py fails a test leaving it)
