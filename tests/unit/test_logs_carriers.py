"""Carrier packages (``operators/logs/_packages.CARRIERS``): libraries a log refers to without being the tool
that printed it. Every row has a reason, and its example line, in a log of one's own, names no tool through
the whole ``parse_log`` path, while the same line names its package once the table is emptied."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import _packages, parse_log
from assay.operators.logs._packages import CARRIERS, GENERIC, PACKAGES

LOOP = ["step 10 loss 2.31", "step 20 loss 2.12", "step 30 loss 1.98"]


@pytest.mark.parametrize("row", CARRIERS, ids=[c.packages[0] for c in CARRIERS])
def test_a_carrier_names_no_tool(tmp_path, row):
    log = parse_log(write_log(tmp_path, [row.example, *LOOP]))
    assert log.run["framework"] is None
    assert [s for s, _ in log.series("loss")] == [10, 20, 30]


@pytest.mark.parametrize("row", CARRIERS, ids=[c.packages[0] for c in CARRIERS])
def test_each_example_refers_to_its_row(monkeypatch, row):
    assert row.reason.strip()
    monkeypatch.setattr(_packages, "GENERIC", frozenset())
    assert set(_packages.references(row.example)) & set(row.packages)


def test_carriers_and_tools_do_not_overlap():
    assert GENERIC == {p for c in CARRIERS for p in c.packages}
    assert not {p.package for p in PACKAGES} & GENERIC
    assert sum(len(c.packages) for c in CARRIERS) == len(GENERIC)  # a package in one row only


def test_a_tool_still_wins_over_carriers_around_it(tmp_path):
    lines = [
        CARRIERS[2].example,  # torch
        CARRIERS[6].example,  # wandb
        "INFO:acmeseg.engine.loop:iter 10 loss 2.31",
        "INFO:acmeseg.engine.loop:iter 20 loss 2.12",
    ]
    assert parse_log(write_log(tmp_path, lines)).run["framework"] == "acmeseg"
