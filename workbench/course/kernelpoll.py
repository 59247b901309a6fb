"""A Jupyter kernel client that polls kernel replies in short slices: Voilà never hangs.

Every Voilà the environment runs uses it (``voila notebooks/``, ``make app``, JupyterLab's
"Render with Voilà" preview: ``app/voila.json``, which ``make`` installs into the venv's Jupyter
config path), and so do ``make site`` (``app/site.py``) and the notebook tests
(``tests/notebooks/test_notebooks.py``).

Voilà's executor, nbconvert's ``ExecutePreprocessor`` and nbclient all wait for a cell's
``execute_reply`` with one unbounded ``await socket.poll()`` on the kernel's shell channel
(zmq.asyncio), woken by an edge-triggered file descriptor. A panel's output goes to an
ipywidgets ``Output`` widget, which the executor mirrors: it sends a ``comm_msg`` ("update") to
the kernel on the SAME shell socket. A send made after the reply arrived but before the event
loop looked consumes the wake-up, and the reply then sits in the socket while the executor
waits forever (Voilà stuck at "Executing 9 of 42" in notebook 02, the kernel idle; the same
family as jupyter/nbclient#312 and voila#1395/#1428/#1446). ``tests/app/test_voila_config.py``
replays it deterministically.

A poll with a timeout ends with a real ``zmq_poll``, which sees the message whatever
happened to the edge: so every wait here is a loop of :data:`POLL_SLICE` polls (a reply is
still picked up at once when the edge arrives). Use :class:`SlicedPollKernelClient` as the
kernel manager's ``client_factory`` (in a Jupyter config file, by its dotted name
``workbench.course.kernelpoll.SlicedPollKernelClient``).

It lives in the package, not in ``app/``, so that a JSON config can name it: the Jupyter
server reads only JSON from ``jupyter_server_config.d``, and the editable install makes the
name importable in every process the venv starts, wherever the clone is. This module changes
nothing else of the executors, and imports nothing of the package.
"""

from __future__ import annotations

import time
from queue import Empty

from jupyter_client.asynchronous.client import AsyncKernelClient
from jupyter_client.channels import AsyncZMQSocketChannel
from traitlets import Type

__all__ = ["POLL_SLICE", "SlicedPollChannel", "SlicedPollKernelClient"]

POLL_SLICE = 0.2  # seconds


class SlicedPollChannel(AsyncZMQSocketChannel):
    """An asyncio kernel channel whose ``get_msg`` never waits on one poll for longer
    than :data:`POLL_SLICE` (an unbounded wait misses a reply whose wake-up was lost)."""

    async def get_msg(self, timeout: float | None = None) -> dict:
        """The next message; ``queue.Empty`` after ``timeout`` seconds (``None``: wait)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = POLL_SLICE if deadline is None else deadline - time.monotonic()
            if await self.socket.poll(int(1000 * max(0.0, min(POLL_SLICE, left)))):
                return await self._recv()
            if deadline is not None and time.monotonic() >= deadline:
                raise Empty


class SlicedPollKernelClient(AsyncKernelClient):
    """An asyncio kernel client whose channels poll in slices (the ``client_factory``)."""

    shell_channel_class = Type(SlicedPollChannel)
    iopub_channel_class = Type(SlicedPollChannel)
    control_channel_class = Type(SlicedPollChannel)
