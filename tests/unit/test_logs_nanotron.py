"""Nanotron: human-formatted numbers (11.4K, 4.71K, 520M), the config dump, a GPU falling off the bus."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.operators.logs import parse_log

SAMPLES = Path(__file__).resolve().parents[2] / "pipelines" / "samples" / "logs"


def test_smollm_run_with_xid():
    parsed = parse_log(SAMPLES / "nanotron_smollm_xid.log")
    run = parsed.run
    assert (run["framework"], run["world_size"], run["dp"], run["tp"], run["pp"]) == ("Nanotron", 16, 8, 2, 1)
    assert (run["micro_batch_size"], run["global_batch_size"], run["model"]) == (8, 256, "Llama 362M")
    assert len(parsed.series("loss")) == 40 and parsed.series("loss")[0][0] == 1
    assert all(2400 <= v <= 2800 for _, v in parsed.series("step_time_ms"))  # "2.6K" ms
    assert all(11000 <= v <= 12000 for _, v in parsed.series("tokens_per_s_per_gpu"))  # "11.4K"
    assert parsed.series("memory_mb")[0][1] == pytest.approx(52.1e9 / 2**20)  # "52.1G" bytes
    assert parsed.event_kinds().count("hardware_error") == 3 and "failure" in parsed.event_kinds()
    assert run["status"] == "failed"
