"""Work done ahead in a background thread: :class:`Prefetch`, the settings a panel may show next.

A notebook's panel computes when a control moves; what the other settings of its controls
need can be computed before the reader asks for them. :class:`Prefetch` runs keyed
zero-argument calls in one daemon thread, lowest priority first (then in the order added;
e.g. the priority of a setting is how many controls differ from the default, so the
settings one step away are ready first) (the numba kernels release
the GIL, so the kernel keeps answering meanwhile). A panel's compute function calls
:meth:`Prefetch.settle` with its setting's key first: a call not started yet is dropped
(the caller computes the setting itself, at once), one running is waited for (instead of
being computed twice), a finished one has filled the caches the caller then reads.

This module caches nothing itself (the calls fill the ``lru_cache`` of the functions they
call) and knows nothing of what is computed. A call must be safe to run beside the kernel's
own work: no global random state (SentencePiece's ``set_random_generator_seed`` is one). An
exception in a call is kept, not raised: the caller's own computation raises it.

Example
-------
>>> done = []
>>> ahead = Prefetch()
>>> ahead.add({"far": lambda: done.append("far")}, priority=2)
>>> ahead.add({"near": lambda: done.append("near")}, priority=1)
>>> ahead.join(up_to=1), ahead.join(), sorted(done)
(True, True, ['far', 'near'])
>>> ahead.settle("a")      # run already: returns at once
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from .._core.errors import ArgumentTypeError

__all__ = ["Prefetch", "setting_key"]


def setting_key(setting: Mapping[str, Any]) -> Hashable:
    """A setting (keyword arguments by name) as a key, the same for equal settings, whatever
    their order: what a panel's compute settles and a warmed neighbour is queued by.

    >>> setting_key({"n": 3, "mode": "a"}) == setting_key({"mode": "a", "n": 3})
    True
    """
    return ("setting", *sorted(setting.items()))


class Prefetch:
    """Keyed calls run ahead, lowest priority first, in one daemon thread (see :meth:`add`)."""

    def __init__(self) -> None:
        self._pending: dict[Hashable, tuple[float, int, Callable[[], object]]] = {}
        self._added = 0
        self._running: Hashable | None = None
        self._running_rank = 0.0
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self.errors: dict[Hashable, BaseException] = {}

    def add(self, calls: Mapping[Hashable, Callable[[], object]],
            priority: float | Callable[[Hashable], float] = 0) -> None:
        """Queue ``calls``, run lowest ``priority`` first (a number, or a function of the
        key), in the order added among equals; a key queued already keeps its place."""
        rank = priority if callable(priority) else (lambda _key: priority)
        for key, call in calls.items():
            if not callable(call):
                raise ArgumentTypeError(f"the call of {key!r} is not callable")
        with self._cond:
            for key, call in calls.items():
                if key not in self._pending:
                    self._pending[key] = (float(rank(key)), self._added, call)
                    self._added += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, daemon=True,
                                                 name="workbench-prefetch")
                self._thread.start()

    def settle(self, key: Hashable) -> None:
        """Before computing ``key``'s setting: drop its call if not started, wait for it if
        running (a no-op in the prefetch thread itself)."""
        if threading.current_thread() is self._thread:
            return
        with self._cond:
            self._pending.pop(key, None)
            while self._running == key:
                self._cond.wait()

    def join(self, up_to: float = float("inf"), timeout: float | None = None) -> bool:
        """Wait until every queued call of priority ``<= up_to`` has run (at most ``timeout``
        seconds); return whether they all have."""
        def done() -> bool:
            return (all(rank > up_to for rank, _, _ in self._pending.values())
                    and (self._running is None or self._running_rank > up_to))

        with self._cond:
            return self._cond.wait_for(done, timeout)

    def cancel(self) -> int:
        """Drop every queued call not yet started and return how many; a running call
        finishes, then the thread ends (:meth:`join` returns at once after that)."""
        with self._cond:
            dropped = len(self._pending)
            self._pending.clear()
            self._cond.notify_all()
            return dropped

    @property
    def pending(self) -> int:
        """The number of calls not yet started."""
        with self._cond:
            return len(self._pending)

    def _work(self) -> None:
        while True:
            with self._cond:
                if not self._pending:
                    self._thread = None
                    self._cond.notify_all()
                    return
                key = min(self._pending, key=lambda k: self._pending[k][:2])
                self._running_rank, _, call = self._pending.pop(key)
                self._running = key
            try:
                call()
            except Exception as err:  # noqa: BLE001 -- kept; the caller's own computation raises
                self.errors[key] = err
            finally:
                with self._cond:
                    self._running = None
                    self._cond.notify_all()
