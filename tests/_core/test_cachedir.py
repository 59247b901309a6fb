"""workbench._core.cachedir.prune: the package's stale rebuildable files go, nothing else."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from workbench import ArgumentTypeError, InvalidValueError
from workbench._core import cachedir

DAY = 86400.0
HEX = "0123456789abcdef01234567"  # a 24-hex key
OTHER = "fedcba9876543210fedcba98"


def _file(root, name, age_days, now):
    path = root / name
    path.write_bytes(b"x")
    os.utime(path, (now - age_days * DAY, now - age_days * DAY))
    return path


def test_stale_files_of_ours_go_the_newest_of_a_name_and_others_files_stay(tmp_path) -> None:
    now = time.time()
    old = cachedir.MAX_AGE_DAYS + 1
    files = {
        # kept results: two keys of one result; the newest stays even when old
        "old key": _file(tmp_path, f"kept_greedtok_bpe_100_{HEX}.json", old + 5, now),
        "newest key": _file(tmp_path, f"kept_greedtok_bpe_100_{OTHER}.json", old, now),
        "recent other key": _file(tmp_path, f"kept_grampa_efficiency_reg_bpe_0.05_0_{HEX}.npy",
                                  1, now),
        "recent key": _file(tmp_path, f"kept_grampa_efficiency_reg_bpe_0.05_0_{OTHER}.npy", 0, now),
        "alone and old": _file(tmp_path, f"kept_grampa_regularisation_fig6_{HEX}.json", old, now),
        # GPT-2's cache and the class table: an old version goes, the one in use stays
        "gpt2 old": _file(tmp_path, f"gpt2_model_{HEX}.npz", old, now),
        "gpt2 in use": _file(tmp_path, f"gpt2_model_{OTHER}.npz", 0, now),
        "table old": _file(tmp_path, "split_classes_v1_regex2024_5_10.npy", old, now),
        "table in use": _file(tmp_path, "split_classes_v1_regex2026_11_19.npy", 0, now),
        "retired name": _file(tmp_path, f"experiments_greedtok_ulm_400_{HEX}.json", old, now),
        "retired newer": _file(tmp_path, f"experiments_greedtok_ulm_400_{OTHER}.json", 0, now),
        "retired alone": _file(tmp_path, f"experiments_greedtok_bpe_800_{HEX}.json", old, now),
        # temporaries of ours: a dead writer's goes, a live one's stays
        "dead write": _file(tmp_path, f".kept_greedtok_bpe_100_{HEX}.json.k2j4_x.part", old, now),
        "dead split": _file(tmp_path, "split_classes_v1_regex2026_1_1.npy.4242.tmp.npy", old, now),
        "live write": _file(tmp_path, f".gpt2_model_{HEX}.npz.a8f3.part", 0, now),
        # not ours, however old: never touched
        "user file": _file(tmp_path, "notes.json", old * 10, now),
        "lookalike": _file(tmp_path, f"kept_notes_{HEX}.json.bak", old * 10, now),
        "short key": _file(tmp_path, "gpt2_model_0123.npz", old * 10, now),
        "others' temporary": _file(tmp_path, ".notes.json.abc.part", old * 10, now),
        "numba index": _file(tmp_path, "grampa_kernels.short_chunk-12.py312.nbi", old * 10, now),
    }
    subdir = tmp_path / f"kept_greedtok_bpe_100_{'a' * 24}.json"  # a directory: not ours
    subdir.mkdir()
    os.utime(subdir, (now - old * DAY, now - old * DAY))
    # "alone and old" stays: it is the newest (the only) file of its name
    gone = {"old key", "gpt2 old", "table old", "retired name", "retired alone", "dead write",
            "dead split"}

    removed = cachedir.prune(tmp_path)

    assert sorted(removed) == sorted(files[k] for k in gone)
    assert {k for k, p in files.items() if not p.exists()} == gone
    assert subdir.is_dir()
    assert cachedir.prune(tmp_path) == []  # nothing more to do


def test_the_rule_is_the_age_of_the_last_use(tmp_path) -> None:
    now = time.time()
    old = _file(tmp_path, f"kept_x_r_{HEX}.npy", 10, now)
    _file(tmp_path, f"kept_x_r_{OTHER}.npy", 0.01, now)
    assert cachedir.prune(tmp_path, max_age_days=11) == []
    cachedir.mark_used(old)                       # read again: used now
    assert cachedir.prune(tmp_path, max_age_days=9) == []
    assert cachedir.prune(tmp_path, max_age_days=9, now=now + 12 * DAY) == [
        tmp_path / f"kept_x_r_{OTHER}.npy"]       # both old; the one read last stays
    assert old.exists()


def test_a_missing_directory_holds_nothing(tmp_path) -> None:
    assert cachedir.prune(tmp_path / "absent") == []
    cachedir.mark_used(tmp_path / "absent.npy")   # best effort: no error


# ---------------------------------------------------------------- max_age_days
@pytest.mark.parametrize("age, error, shown", [
    (-1, InvalidValueError, r"max_age_days must be a finite number of days >= 0, got -1 \(a "
     r"negative age would remove files in use\)"),
    (-0.5, InvalidValueError, "got -0.5"),
    (math.nan, InvalidValueError, "max_age_days must be a finite number of days >= 0, got nan"),
    (math.inf, InvalidValueError, "got inf"),
    (-math.inf, InvalidValueError, "got -inf"),
    (10**400, InvalidValueError, "got 1000000000"),
    (True, ArgumentTypeError, r"max_age_days must be a real number of days \(>= 0\), not bool"),
    ("14", ArgumentTypeError, "not str"),
    (None, ArgumentTypeError, "not NoneType"),
])
def test_prune_refuses_an_age_that_is_no_finite_number_of_days(tmp_path, age, error,
                                                              shown) -> None:
    """``prune(max_age_days=-1)`` put the cutoff in the future and removed every file but the
    newest of each name, files in use included; refused before anything is touched."""
    now = time.time()
    files = [_file(tmp_path, f"kept_x_r_{key}.npy", days, now)
             for key, days in ((HEX, 0.0), (OTHER, 0.001))]
    with pytest.raises(error, match=shown):
        cachedir.prune(tmp_path, max_age_days=age, now=now)
    assert all(p.exists() for p in files)


def test_prune_takes_any_finite_age_from_zero(tmp_path) -> None:
    now = time.time()
    recent = _file(tmp_path, f"kept_x_r_{HEX}.npy", 0.5, now)
    newest = _file(tmp_path, f"kept_x_r_{OTHER}.npy", 0.001, now)
    assert cachedir.prune(tmp_path, max_age_days=1, now=now) == []
    assert cachedir.prune(tmp_path, max_age_days=np.float64(0.75), now=now) == []
    assert cachedir.prune(tmp_path, max_age_days=0, now=now) == [recent]  # newest kept
    assert newest.exists()


# ---------------------------------------------------------------- NUMBA_CACHE_DIR
def _run(code: str, cwd, numba_cache_dir: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_CACHE_DIR": numba_cache_dir}
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("relative", ["cache", "./cache", "~/cache"])
def test_a_relative_numba_cache_dir_is_refused_not_read_against_the_cwd(tmp_path,
                                                                      relative) -> None:
    """A relative ``NUMBA_CACHE_DIR`` put the caches in the current directory (a repository,
    a home directory); refused at import, naming the variable, and nothing is written."""
    run = _run("from workbench._core import cachedir", tmp_path, relative)
    assert run.returncode != 0
    assert "workbench.InvalidValueError: NUMBA_CACHE_DIR must be an absolute path, got the " \
           f"relative {relative!r}" in run.stderr
    assert str(tmp_path / relative) in run.stderr  # the directory it would have meant
    assert list(tmp_path.iterdir()) == []


def test_a_relative_numba_cache_dir_stops_the_first_kernel_before_it_writes(tmp_path) -> None:
    code = ("import workbench as wb\n"
            "wb.Grampa(wb.Vocabulary(['a', 'b', 'ab']), seed=0).sample_many('ab' * 60, 500)\n")
    run = _run(code, tmp_path, "cache")
    assert run.returncode != 0 and "NUMBA_CACHE_DIR must be an absolute path" in run.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_absolute_numba_cache_dir_is_the_cache_root(tmp_path) -> None:
    run = _run("from workbench._core import cachedir; print(cachedir.CACHE_ROOT)", tmp_path,
               str(tmp_path / "numba"))
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(tmp_path / "numba" / "workbench")
    run = _run("from workbench._core import cachedir; print(cachedir.CACHE_ROOT)", tmp_path, "")
    assert run.returncode == 0 and run.stdout.strip().endswith("workbench-numba")
