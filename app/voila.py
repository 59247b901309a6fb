# Voilà's configuration for `make app` (and for the Voilà browser test): a traitlets config
# file, read by `voila --Voila.config_file_paths=app` (it is executed, never imported; the
# directory is not on sys.path, so this file cannot shadow the `voila` package).
#
# 1. Kernel replies are polled in short slices. Voilà runs each cell through nbclient, which
#    waits for the cell's `execute_reply` with one unbounded `await socket.poll()` on the
#    kernel's shell channel (zmq.asyncio). That wait is woken by an edge-triggered file
#    descriptor. A panel's output goes to an ipywidgets Output widget, which nbclient
#    mirrors: it sends a `comm_msg` ("update") to the kernel on the SAME shell socket. A
#    send made after the reply arrived but before the event loop looked consumes the
#    wake-up, and the reply then sits in the socket while Voilà waits forever ("Executing
#    9 of 42" in 02: the cell creating the skew panel; cell 23 of 01: a check panel updated
#    again and again; the kernel idle). Seen in a stuck Voilà (the reply in the shell socket,
#    zmq EVENTS = POLLIN, the asyncio poll pending) and replayed deterministically in
#    tests/test_voila_config.py (same family as jupyter/nbclient#312, which
#    tests/test_notebooks.py works around). A poll with a timeout ends with a real
#    `zmq_poll`, which sees the message whatever happened to the edge; so every wait here
#    is a loop of 0.2 s polls (a reply is still picked up at once when the edge arrives).
# 2. Cells tagged `checks` are not run in the app (nbclient's skip tag): they assert the
#    notebook's claims for the test suite (tests/test_notebooks.py runs them), and a
#    student waits for nothing. The "Checks" heading stays, with nothing under it.
# 3. Kernels are pre-heated: Voilà keeps, per notebook, one kernel that has already run
#    the notebook, so a visitor gets a finished page in seconds (BENCHMARKS.md). The price:
#    at start-up the server runs every notebook once (a few minutes of CPU on two cores,
#    one kernel per notebook in memory), and again after each visit to refill the pool.
#    `voila --VoilaConfiguration.preheat_kernel=False ...` turns it off.

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
    """The kernel client Voilà's executor gets from its kernel manager."""

    shell_channel_class = Type(SlicedPollChannel)
    iopub_channel_class = Type(SlicedPollChannel)
    control_channel_class = Type(SlicedPollChannel)


c = get_config()  # noqa: F821 (traitlets config files get it injected)
c.AsyncKernelManager.client_factory = SlicedPollKernelClient
c.VoilaExecutor.skip_cells_with_tag = "checks"
# one pre-heated kernel per notebook, the notebook already run in it: a visitor gets a
# finished page; the pool refills (runs the notebook again) a second after it is taken
c.VoilaConfiguration.preheat_kernel = True
c.VoilaConfiguration.default_pool_size = 1
