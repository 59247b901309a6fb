"""workbench._core.validate.check_samples: the one check of a sample count."""

from __future__ import annotations

import pytest

from workbench._core.validate import MAX_SAMPLES, check_samples


def test_check_samples() -> None:
    assert check_samples(1) == 1 and check_samples(MAX_SAMPLES) == MAX_SAMPLES
    for bad in (0, MAX_SAMPLES + 1):
        with pytest.raises(ValueError):
            check_samples(bad)
    with pytest.raises(TypeError):
        check_samples(10.0)
