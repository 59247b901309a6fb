"""verify() has rows for all four papers, and the new BatchBPE / GreedTok checks can fail."""

from __future__ import annotations

import workbench.checks as ch
from workbench.checks import bpe as bpe_checks
from workbench.checks import greedtok as greedtok_checks


def test_every_paper_registers_checks():
    modules = {fn.__module__ for _, fn in ch.CHECKS.values()}
    papers = {"workbench.checks.bpe", "workbench.checks.greedtok", "workbench.checks.renyi"}
    assert papers <= modules
    assert any(m.startswith("workbench.checks.grampa.") for m in modules)


def test_greedtok_rows_pass_and_can_fail(monkeypatch):
    rows = ch.verify(only="GreedTok Table 1") + ch.verify(only="GreedTok Thm 1")
    assert len(rows) == 4 and {r.status for r in rows} == {"pass"}
    # a wrong closed form (4 tokens per covered edge) makes the Theorem 1 row fail
    monkeypatch.setattr(greedtok_checks, "reduction_cost",
                        lambda edges, chosen: 4 * len(list(edges)))
    monkeypatch.setattr(greedtok_checks, "MAX_VERTICES", 3)
    assert [r.status for r in greedtok_checks.check_theorem1()][0] == "fail"


def test_bpe_code_block_rows_can_fail(monkeypatch):
    # a wrong line-6 formula is caught by the batch-size row
    monkeypatch.setattr(bpe_checks, "pairs_searched", lambda *args: 1)
    rows = bpe_checks.check_code_block_1()
    statuses = {r.claim.split(" (")[0]: r.status for r in rows}
    assert [s for c, s in statuses.items() if c.startswith("every batch searches")] == ["fail"]
    assert sum(r.status == "fail" for r in rows) == 1
