"""figures/ only draws: no module checks arguments (those moved to experiments), and
``python -m workbench figures`` checks its output before building anything."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.experiments.grampa_rejection_words import top_segmentations


def test_top_segmentations() -> None:
    demo = {"joint": [0.1, 0.4, 0.1, 0.4]}
    assert top_segmentations(demo, 3).tolist() == [1, 3, 0]  # ties: enumeration order
    assert top_segmentations(demo, 10).tolist() == [1, 3, 0, 2]
    assert isinstance(top_segmentations(demo, 1), np.ndarray)
    with pytest.raises(ValueError):
        top_segmentations(demo, 0)
    with pytest.raises(TypeError):
        top_segmentations(demo, 1.5)

