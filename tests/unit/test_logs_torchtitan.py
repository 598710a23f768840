"""TorchTitan logs: ANSI colours, rank prefixes, thousands separators, placeholders at step 1, device mesh."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.operators.logs import parse_log

SAMPLES = Path(__file__).resolve().parents[2] / "pipelines" / "samples" / "logs"


@pytest.fixture(scope="module")
def parsed():
    return parse_log(SAMPLES / "torchtitan_llama3_8b.log")


def test_metrics_through_colour_codes(parsed):
    loss = parsed.series("loss")
    assert loss[0][0] == 1 and loss[-1][0] == 100 and len(loss) == 19
    assert loss[0][1] == pytest.approx(14.9475)
    tps = parsed.series("tokens_per_s_per_gpu")
    assert tps[0][0] == 2  # "tps: 0" at step 1 is a placeholder
    assert all(6400 <= v <= 6900 and v == int(v) for _, v in tps)  # "6,647"
    assert [s for s, _ in parsed.series("mfu")][0] == 2
    assert all(61 * 1024 <= v <= 63 * 1024 for _, v in parsed.series("memory_mb"))  # 61.xxGiB
    assert parsed.series("val_loss")[0][0] == 50
    assert set(parsed.metrics.column("rank").to_pylist()) == {0}
    assert parsed.metrics.column("ts").null_count == 1  # only the validation line is read field by field


def test_run_row_and_entities(parsed):
    run = parsed.run
    assert (run["framework"], run["status"], run["model"], run["hardware"]) == (
        "TorchTitan",
        "completed",
        "Llama 3 8B",
        "H100",
    )
    assert (run["world_size"], run["dp"], run["tp"], run["pp"]) == (8, 8, 1, 1)
    assert (run["micro_batch_size"], run["global_batch_size"]) == (1, 8)
    entities = {(e["type"], e["name"]) for e in parsed.entities}
    assert {
        ("system", "TorchTitan"),
        ("model", "Llama 3 8B"),
        ("model", "LLaMA"),
        ("hardware", "H100"),
    } <= entities
    assert [e["kind"] for e in parsed.events] == ["checkpoint"]


def test_a_mesh_named_by_its_degrees(tmp_path):
    head = "[rank0]:[titan] 2026-01-02 03:04:05,100 - root - INFO - "
    lines = [
        head + "Building device mesh with parallelism: pp=2, dp_replicate=1, dp_shard=4, cp=1, tp=2, ep=4",
        head + "Building qwen3 14B with Qwen3ModelArgs(dim=5120, n_layers=40)",
        head + "Trainer is initialized with local batch size 8, global batch size 32, gradient accumulation steps 1, "
        "sequence length 4096, total steps 100 (warmup 10)",
        head + "\x1b[31mstep:  1  \x1b[32mloss: 12.3000  \x1b[33mmemory: 40.10GiB(52.00%)  \x1b[34mtps: 1,200",
        head + "\x1b[31mstep:  2  \x1b[32mloss: 11.9000  \x1b[33mmemory: 40.10GiB(52.00%)  \x1b[34mtps: 1,250",
    ]
    path = tmp_path / "titan.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = parse_log(path).run
    assert (run["world_size"], run["dp"], run["tp"], run["pp"]) == (16, 4, 2, 2)
    assert run["model"] != "device mesh"
