"""Kernel replies polled in short slices: one fix for `make app`, `make site` and the tests.

Voilà's executor, nbconvert's ``ExecutePreprocessor`` (``app/site.py``) and nbclient
(``tests/notebooks/test_notebooks.py``) all wait for a cell's ``execute_reply`` with one unbounded
``await socket.poll()`` on the kernel's shell channel (zmq.asyncio), woken by an
edge-triggered file descriptor. A panel's output goes to an ipywidgets ``Output`` widget,
which the executor mirrors: it sends a ``comm_msg`` ("update") to the kernel on the SAME
shell socket. A send made after the reply arrived but before the event loop looked consumes
the wake-up, and the reply then sits in the socket while the executor waits forever
(Voilà stuck at "Executing 9 of 42" in notebook 02, the kernel idle; the same family as
jupyter/nbclient#312). ``tests/app/test_voila_config.py`` replays it deterministically.

A poll with a timeout ends with a real ``zmq_poll``, which sees the message whatever
happened to the edge: so every wait here is a loop of :data:`POLL_SLICE` polls (a reply is
still picked up at once when the edge arrives). Use :class:`SlicedPollKernelClient` as the
kernel manager's ``client_factory``.

This file is loaded by path (:func:`importlib.util.spec_from_file_location`), never from
``sys.path``: ``app/`` is not a package, and putting it on the path would let
``app/voila.py`` shadow the ``voila`` package. It changes nothing else of the executors.
"""

import time
from queue import Empty

from jupyter_client.asynchronous.client import AsyncKernelClient
from jupyter_client.channels import AsyncZMQSocketChannel
from traitlets import Type

POLL_SLICE = 0.2  # seconds


class SlicedPollChannel(AsyncZMQSocketChannel):
    """An asyncio kernel channel whose ``get_msg`` never waits on one poll for longer
    than :data:`POLL_SLICE` (an unbounded wait misses a reply whose wake-up was lost)."""

    async def get_msg(self, timeout=None):
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
