"""Structured inputs: JSON lines and TensorBoard event files (decoded from the wire format)."""

from __future__ import annotations

import math
import struct
from pathlib import Path

import pytest

from assay.operators.logs import parse_log
from assay.operators.logs.tensorboard import crc32c, is_tfrecord, masked_crc, tag_metric

SAMPLES = Path(__file__).resolve().parents[2] / "pipelines" / "samples" / "logs"
EVENTS = SAMPLES / "tensorboard_run" / "events.out.tfevents.1718000000.trainer-0.4242.0"


def test_json_lines_with_a_malformed_line_and_nan():
    parsed = parse_log(SAMPLES / "metrics.jsonl")
    assert parsed.records[0]["log_format"] == "jsonl"
    loss = parsed.series("loss")
    assert [s for s, _ in loss] == [0, 10, 20, 30, 40, 50, 70, 80, 90, 100, 110]  # 60 is the broken line
    assert math.isnan(loss[-1][1]) and parsed.run["status"] == "diverged"
    assert [e["step"] for e in parsed.events if e["kind"] == "nan"] == [100]
    assert parsed.series("tokens_per_s")[0][0] == 10  # 0 tokens/s at step 0 is a placeholder
    assert parsed.issues[0]["line_no"] == 7 and "JSON" in parsed.issues[0]["error"]
    assert parsed.run["started_at"].startswith("2024-06-01")  # _timestamp, seconds since the epoch


def test_crc32c_known_value():
    assert crc32c(b"123456789") == 0xE3069283  # the CRC-32C check value
    header = EVENTS.read_bytes()[:12]
    assert is_tfrecord(header) and struct.unpack("<I", header[8:12])[0] == masked_crc(header[:8])


def test_event_file_scalars_both_styles():
    parsed = parse_log(EVENTS)
    assert parsed.records[0]["log_format"] == "tensorboard"
    loss = parsed.series("loss")  # train/loss, simple_value
    assert len(loss) == 20 and loss[0] == (0, pytest.approx(3.0)) and loss[-1][0] == 190
    assert [s for s, _ in parsed.series("val_loss")] == [0, 50, 100, 150]  # eval/loss
    sps = parsed.series("samples_per_s")  # written with new_style=True: a scalar tensor
    assert len(sps) == 20 and sps[1] == (10, pytest.approx(413.5))
    assert parsed.metrics.column("ts").null_count == 0
    assert not any(
        n.startswith("weights") or n == "config" for n in parsed.metrics.column("name").to_pylist()
    )


def test_truncated_event_file(tmp_path):
    data = EVENTS.read_bytes()
    path = tmp_path / "events.out.tfevents.truncated"
    path.write_bytes(data[: len(data) * 2 // 3])
    parsed = parse_log(path)
    full = parse_log(EVENTS)
    assert 0 < parsed.metrics.num_rows < full.metrics.num_rows
    assert any("truncated" in i["error"] for i in parsed.issues)


def test_corrupt_length_is_an_issue_not_a_crash(tmp_path):
    data = bytearray(EVENTS.read_bytes())
    data[0] ^= 0xFF
    path = tmp_path / "events.out.tfevents.corrupt"
    path.write_bytes(bytes(data))
    parsed = parse_log(path)
    assert parsed.metrics.num_rows == 0 and "corrupt" in parsed.issues[0]["error"]


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("lm loss", ("loss", 1.0)),
        ("iteration-time", ("step_time_ms", 1000.0)),
        ("lm loss vs samples", None),
        ("Loss/val", ("val_loss", 1.0)),
        ("memory/max_reserved(GiB)", ("memory_mb", 1024.0)),
        ("eval/accuracy", ("eval_accuracy", 1.0)),
    ],
)
def test_tag_names(tag, expected):
    assert tag_metric(tag) == expected
