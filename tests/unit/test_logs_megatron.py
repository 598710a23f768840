"""Megatron-LM and Megatron-DeepSpeed logs: the samples in pipelines/samples/logs, parsed without Ray."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from assay.operators.logs import Collector, parse_log
from assay.operators.logs.megatron import MegatronParser

SAMPLES = Path(__file__).resolve().parents[2] / "pipelines" / "samples" / "logs"


@pytest.fixture(scope="module")
def completed():
    return parse_log(SAMPLES / "megatron_gpt_tp2_pp2.log")


def test_layout_batch_and_model_come_from_the_log(completed):
    run = completed.run
    assert (run["framework"], run["world_size"], run["dp"], run["tp"], run["pp"]) == (
        "Megatron-LM",
        8,
        2,
        2,
        2,
    )
    assert (run["micro_batch_size"], run["global_batch_size"]) == (4, 256)
    assert (
        run["model"] == "GPT 1.3B"
    )  # "Total number of parameters in billions: 1.31" and "building GPT model"
    assert run["started_at"].startswith("2024-05-02 09:14:02") and run["ended_at"].startswith(
        "2024-05-02 09:19"
    )


def test_steps_losses_and_throughput(completed):
    steps = [s for s, _ in completed.series("step_time_ms")]
    assert steps[0] == 10 and steps[-1] == 200 and len(steps) == 20
    loss = completed.series("loss")
    # iteration 10 printed no loss (fp16 warm-up: 3 skipped iterations), so the loss starts at 20
    assert loss[0][0] == 20 and len(loss) == 19
    assert loss[-1][1] == pytest.approx(3.009231)
    assert all(140 <= v <= 145 for _, v in completed.series("tflops"))
    assert [s for s, _ in completed.series("val_loss")] == [100, 200, 200]
    memory = [row for row in completed.metrics.to_pylist() if row["name"] == "memory_mb"]
    assert sorted(row["rank"] for row in memory) == [
        0,
        2,
        4,
        6,
    ]  # "[Rank N] (after 10 iterations) memory (MB)"
    assert all(row["step"] == 10 and row["value"] >= 38000 for row in memory)  # max reserved


def test_events_and_status(completed):
    kinds = [(e["kind"], e["step"]) for e in completed.events]
    assert ("skipped_step", 10) in kinds
    assert [s for k, s in kinds if k == "checkpoint"] == [
        100,
        200,
    ]  # "successfully saved" is not a second save
    assert completed.run["status"] == "completed"


def test_megatron_deepspeed_divergence():
    parsed = parse_log(SAMPLES / "megatron_deepspeed_nan.log")
    run = parsed.run
    assert run["framework"] == "Megatron-DeepSpeed" and run["status"] == "diverged"
    assert (run["world_size"], run["dp"], run["tp"], run["pp"]) == (16, 4, 2, 2)
    loss = parsed.series("loss")  # printed as "lm-loss"
    assert len(loss) == 16 and math.isnan(loss[-1][1]) and not math.isnan(loss[-4][1])
    assert [e["step"] for e in parsed.events if e["kind"] == "nan"] == [140, 150, 160]
    assert parsed.series("samples_per_s") and parsed.series("tflops")
    names = {e["name"] for e in parsed.entities if e["type"] == "system"}
    assert {"Megatron-DeepSpeed", "Megatron-LM", "DeepSpeed"} <= names


def test_rank_prefixed_oom_run():
    parsed = parse_log(SAMPLES / "megatron_oom_ranks.log")
    assert parsed.records[0]["line_prefix"] == "torchrun"
    assert set(parsed.metrics.column("rank").to_pylist()) == {0}
    assert parsed.run["micro_batch_size"] == 16  # argument lines behind "[default0]:"
    oom = [e for e in parsed.events if e["kind"] == "oom"]
    assert len(oom) == 1 and oom[0]["step"] == 30 and "CUDA out of memory" in oom[0]["detail"]
    assert "failure" in parsed.event_kinds()
    assert parsed.run["status"] == "failed" and parsed.run["hardware"] == "A100"


def test_old_format_without_colons_and_a_run_without_total():
    out = Collector("r")
    parser = MegatronParser(out)
    parser.parse_line(
        " iteration      300/    1000 | elapsed time per iteration (ms): 430.0 | learning rate 1.342E-04 |"
        " lm loss 7.3E+00 | loss scale 16384.0 |",
        6,
        None,
    )
    parser.parse_line(
        " iteration       40/infinity | consumed samples: 800 | elapsed time per iteration (ms): 0.0 |"
        " lm loss: nan | number of nan iterations:   2 |",
        7,
        3,
    )
    rows = {(r["step"], r["name"]): r for r in out.metrics_table().to_pylist()}
    assert rows[(300, "loss")]["value"] == 7.3 and rows[(300, "lr")]["value"] == pytest.approx(1.342e-4)
    assert math.isnan(rows[(40, "loss")]["value"]) and rows[(40, "loss")]["rank"] == 3
    assert (40, "step_time_ms") not in rows  # 0.0 ms: a placeholder, not a measurement
    assert out.settings["train_iters"] == 1000


def _shaped(line: str, shape: str) -> str:
    if shape == "tabs":  # a tab before some separators: values end there, as at a space
        return line.replace(" | lm loss", "\t| lm loss").replace(" | grad norm", "\t | grad norm")
    if shape == "unpadded":  # numbers printed without a fixed width: the runs of spaces differ line by line
        return line.replace("consumed samples: ", "consumed samples:").replace("  ", " ")
    return line


@pytest.mark.parametrize("shape", ["megatron", "tabs", "unpadded", "crlf"])
def test_template_and_per_line_paths_agree(tmp_path, shape):
    """The vectorised template path and the field-by-field path must read the same numbers."""
    lines = [
        _shaped(
            f" [2024-01-01 00:00:{i:02d}] iteration {i:8d}/    1000 | consumed samples: {i * 8:12d} | elapsed time "
            f"per iteration (ms): {100 + i:.1f} | learning rate: {i * 1e-5:.6E} | global batch size:     8 | lm "
            f"loss: {10 - i / 10:.6E} | loss scale: 1.0 | grad norm: {i / 7:.3f} | number of skipped iterations:"
            f"   0 | number of nan iterations:   0 |",
            shape,
        )
        for i in range(1, 40)
    ]
    path = tmp_path / "m.log"
    path.write_bytes(("\r\n" if shape == "crlf" else "\n").join(lines).encode() + b"\n")
    bulk = parse_log(path).metrics.sort_by([("line_no", "ascending"), ("name", "ascending")])
    out = Collector(bulk.column("run_id")[0].as_py())
    parser = MegatronParser(out)
    for n, line in enumerate(lines, 1):
        parser.parse_line(line, n, None)
    one = out.metrics_table().sort_by([("line_no", "ascending"), ("name", "ascending")])
    assert bulk.num_rows == one.num_rows == 39 * 6  # consumed samples kept under its own name
    assert bulk.select(["step", "name", "value", "line_no"]).equals(
        one.select(["step", "name", "value", "line_no"])
    )
    assert bulk.column("ts").null_count == 0 and one.column("ts").null_count == one.num_rows


def test_template_groups_are_read_as_one_table_or_else_value_by_value():
    """The groups of a template's lines are split by Arrow's CSV reader; a column Arrow cannot cast is read
    by the Python parser, and groups the tab-separated text cannot hold are read value by value."""
    from assay.operators.logs._bulk import _floats, _Groups, _ints

    groups = _Groups([(b"10", b"1.5E+00", b"6,647"), (b"20", b"nan", b"11.4K")])
    assert groups.table is not None
    assert _ints(groups, 0).tolist() == [10, 20]
    assert _floats(groups, 1, None)[0] == 1.5 and math.isnan(_floats(groups, 1, None)[1])
    assert _floats(groups, 2, None).tolist() == [6647.0, 11400.0]
    odd = _Groups([(b"3\t4", b"2.0"), (b"5", b"7\n8")])
    assert odd.table is None
    assert _ints(odd, 0).tolist() == [-1, 5] and _floats(odd, 1, None)[0] == 2.0


def test_iteration_lines_some_without_the_launchers_rank_prefix_are_all_read(tmp_path):
    # srun's ``0: `` before most lines, none before a few (a launcher's buffered output): every line is a record
    lines = []
    for i in range(1, 30):
        prefix = "" if i % 7 == 0 else "0: "
        lines.append(
            f"{prefix} iteration {i:8d}/    1000 | consumed samples: {i * 32:12d} | elapsed time per iteration (ms):"
            f" 812.3 | learning rate: 1.000E-04 | global batch size:    32 | lm loss: {5 - i / 20:.6E} |"
            " loss scale: 1.0 | number of skipped iterations:   0 | number of nan iterations:   0 |"
        )
    path = tmp_path / "train.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    log = parse_log(path)
    assert [s for s, _ in log.series("loss")] == list(range(1, 30))
