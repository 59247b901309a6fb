"""The one directory where the package keeps what it can rebuild (never the user's files).

Numba's compiled kernels (:mod:`.config`), the pretokeniser's class table
(:mod:`workbench.bpe.split`) and the checked GPT-2 model (:mod:`workbench.bpe.gpt2cache`)
live under :data:`CACHE_ROOT`: ``$NUMBA_CACHE_DIR/workbench`` when that variable is set, else
``workbench-numba`` in the temporary directory. This module imports no numba (a process
that has not loaded it can still find its cache) and writes nothing.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

CACHE_ROOT = Path(os.environ.get("NUMBA_CACHE_DIR") or tempfile.gettempdir()) / (
    "workbench" if os.environ.get("NUMBA_CACHE_DIR") else "workbench-numba")
