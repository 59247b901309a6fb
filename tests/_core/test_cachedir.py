"""workbench._core.cachedir.prune: the package's stale rebuildable files go, nothing else."""

from __future__ import annotations

import os
import time

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
