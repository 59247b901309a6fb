"""The GRaMPa paper's own Tables 7 and 8, transcribed, for comparison with ours.

Bauwens, Kaczér, de Lhoneux, *GRaMPa* (ACL 2025), Appendix E: **Table 7** (segmentation
properties m, S, ℓ, R: mean and standard deviation) and **Table 8** (properties of the
distribution of M = 100 sampled segmentations per word; every value a percentage), both on
the SlimPajama validation set with 32k-token BPE and ULM vocabularies and *without*
multiplexing. Transcribed by hand from ``shared/papers/000_eb4445ae95085a5b.txt`` (the
two tables just before Table 1's appendix version; page breaks are lost in that text).

Rows are keyed by the same setting labels as :mod:`.grampa_settings` (``"BPE / BPE p_d=0.1"``,
``"ULM / GRaMPa l_min=2 tau=-10"``, ...). This module holds numbers only and computes nothing.

Example
-------
>>> PAPER_TABLE7["ULM / ULM k=1 alpha=1"]["m_mean"]
1.24
>>> PAPER_TABLE8["BPE / GRaMPa l_min=1 tau=1"]["H1_H0_mean"]
96.75
"""

from __future__ import annotations

__all__ = ["PAPER_TABLE7", "PAPER_TABLE8", "TABLE7_COLUMNS", "TABLE8_COLUMNS"]

#: Table 7's columns in the paper's order (means and population standard deviations).
TABLE7_COLUMNS = ("m_mean", "m_std", "S_mean", "S_std", "ell_mean", "ell_std",
                  "R_mean", "R_std")
#: Table 8's columns in the paper's order (percentages).
TABLE8_COLUMNS = ("H1pr_H0pr_mean", "H1pr_H0pr_std", "H1_H0_mean", "H1_H0_std",
                  "RR_mean", "RR_std", "maxCU_mean", "maxCU_std", "C_mean", "C_std",
                  "U_mean", "U_std")

_LABELS = (
    "BPE / BPE p_d=0", "BPE / BPE p_d=0.1",
    "BPE / GRaMPa l_min=1 tau=1", "BPE / GRaMPa l_min=1 tau=5", "BPE / GRaMPa l_min=1 tau=-10",
    "BPE / GRaMPa l_min=2 tau=1", "BPE / GRaMPa l_min=2 tau=5", "BPE / GRaMPa l_min=2 tau=-10",
    "ULM / ULM k=1 alpha=1", "ULM / ULM k=64 alpha=0.15",
    "ULM / GRaMPa l_min=1 tau=1", "ULM / GRaMPa l_min=1 tau=5", "ULM / GRaMPa l_min=1 tau=-10",
    "ULM / GRaMPa l_min=2 tau=1", "ULM / GRaMPa l_min=2 tau=5", "ULM / GRaMPa l_min=2 tau=-10",
)

# Table 7 (Appendix E of the GRaMPa paper): m, S, ℓ, R — mean, std.
_T7 = """
1.27 1.08 0.05 0.18 4.19 2.62 4.65 2.58
1.41 1.16 0.10 0.24 3.79 2.57 4.39 2.60
3.42 2.21 0.54 0.32 1.56 0.86 1.74 0.80
2.85 1.89 0.44 0.33 1.87 1.29 2.19 1.39
2.59 1.75 0.40 0.34 2.06 1.58 2.49 1.79
2.25 1.50 0.25 0.23 2.37 1.23 2.58 1.21
2.14 1.45 0.23 0.23 2.50 1.48 2.78 1.54
2.09 1.43 0.22 0.23 2.56 1.61 2.88 1.70
1.24 0.78 0.04 0.13 4.30 2.64 4.64 2.58
2.17 1.45 0.29 0.32 2.45 2.03 3.11 2.28
3.55 2.30 0.57 0.33 1.50 0.85 1.72 0.89
2.82 2.00 0.44 0.36 1.89 1.46 2.39 1.74
2.46 1.83 0.38 0.37 2.17 1.87 2.86 2.21
1.86 1.51 0.16 0.24 2.87 1.84 3.41 1.92
1.78 1.45 0.15 0.23 3.00 2.03 3.57 2.10
1.74 1.42 0.14 0.23 3.06 2.12 3.65 2.19
"""

# Table 8 (Appendix E of the GRaMPa paper): H1pr/H0pr, H1/H0, RR^pr, max(C, U), C, U —
# mean, std, in percent.
_T8 = """
0.00 0.00 0.00 0.00 0.00 0.00 16.33 17.38 16.24 17.45 1.00 0.00
48.36 34.49 22.39 16.42 11.13 7.16 44.62 38.38 44.33 38.70 3.32 1.51
97.12 3.20 96.75 3.20 79.48 17.78 94.69 9.85 87.20 25.15 25.17 28.56
92.68 5.84 91.42 6.40 74.29 15.84 89.40 15.86 83.10 27.44 21.53 23.36
88.55 8.39 85.95 10.31 69.34 13.39 84.31 21.11 79.39 29.72 18.15 18.43
32.65 24.99 44.89 21.95 58.21 30.40 34.41 14.19 32.11 16.26 6.71 8.66
31.94 24.29 43.80 21.24 55.81 28.63 34.20 14.15 32.07 16.32 6.50 7.89
31.30 23.69 42.81 20.65 54.09 27.38 33.99 14.21 32.02 16.39 6.29 7.26
0.00 0.00 0.00 0.00 0.00 0.00 18.93 17.39 18.87 17.46 1.00 0.00
83.56 12.38 73.64 14.63 51.29 16.52 82.35 25.73 80.33 30.03 12.00 11.14
97.46 3.06 97.10 3.06 76.87 17.80 95.59 9.14 89.99 22.41 21.09 26.52
92.33 7.24 88.72 8.92 66.45 15.37 89.90 16.67 85.43 25.72 17.36 20.60
87.50 12.19 79.87 16.21 57.73 14.54 83.95 23.64 80.77 29.36 13.81 15.36
12.71 20.15 20.20 22.90 30.93 34.13 25.30 16.40 24.35 16.99 3.19 5.15
12.53 19.80 19.60 22.16 28.84 31.54 25.26 16.38 24.35 16.99 3.14 4.84
12.36 19.49 19.03 21.50 27.45 29.97 25.20 16.37 24.34 17.00 3.08 4.54
"""


def _parse(block: str, columns: tuple[str, ...]) -> dict[str, dict[str, float]]:
    rows = [line.split() for line in block.strip().splitlines()]
    return {label: dict(zip(columns, map(float, row), strict=True))
            for label, row in zip(_LABELS, rows, strict=True)}


#: Table 7 of the paper: setting label → column → value.
PAPER_TABLE7: dict[str, dict[str, float]] = _parse(_T7, TABLE7_COLUMNS)
#: Table 8 of the paper: setting label → column → value (percent).
PAPER_TABLE8: dict[str, dict[str, float]] = _parse(_T8, TABLE8_COLUMNS)
