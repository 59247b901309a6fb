"""``make lab`` and ``make app`` take HOST and PORT and print the URL to open first.

Checked on ``make -n`` (the commands make would run, nothing started): the server gets the
address and port, and the printed URL names the same port (and, for JupyterLab, the token
the server is given). That the servers start is ``tests/test_browser.py``'s business.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _dry_run(*args: str) -> str:
    return subprocess.run(["make", "-n", *args], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout


def test_lab_listens_where_told_and_prints_its_url_with_the_token():
    out = _dry_run("lab", "HOST=0.0.0.0", "PORT=9999")
    assert "--ip=0.0.0.0 --port=9999" in out
    assert "--ServerApp.port_retries=0" in out  # a busy port fails instead of moving
    assert ":9999/lab?token=$token" in out and "--IdentityProvider.token=$token" in out
    assert "http://0.0.0.0" not in out  # the URL names the machine, not the wildcard


def test_lab_defaults_to_localhost():
    out = _dry_run("lab")
    assert "--ip=localhost --port=8888" in out and "http://localhost:8888/lab?token=" in out


def test_app_listens_where_told_and_prints_its_url():
    out = _dry_run("app", "HOST=127.0.0.1", "PORT=9000")
    assert "--Voila.ip=127.0.0.1 --port=9000" in out and "http://127.0.0.1:9000/" in out
    default = _dry_run("app")
    assert "--Voila.ip=localhost --port=8866" in default
