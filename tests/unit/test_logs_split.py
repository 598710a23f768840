"""Large files: the splitter's chunk records, chunk-by-chunk parsing equal to whole-file parsing, the step an
event at a chunk's start gets from the chunk before, truncated and binary files."""

from __future__ import annotations

import json
import random
import re

import pytest

from assay.ids import content_id
from assay.operators.logs import log_split, parse_log


def megatron_log(path, iterations: int, *, nan_from: int | None = None, tail: str = "") -> None:
    rng = random.Random(0)
    lines = [
        "using world size: 8, data-parallel size: 8, context-parallel size: 1, tensor-model-parallel size: 1, "
        "pipeline-model-parallel size: 1 "
    ]
    for it in range(1, iterations + 1):
        loss = "nan" if nan_from and it >= nan_from else f"{9 - it / iterations:.6E}"
        lines.append(
            f" [2024-01-01 00:{it // 60 % 60:02d}:{it % 60:02d}] iteration {it:8d}/{iterations:8d} | "
            f"consumed samples: {it * 64:12d} | elapsed time per iteration (ms): {500 + rng.random():.1f} | "
            f"learning rate: {1e-4:.6E} | global batch size:    64 | lm loss: {loss} | loss scale: 1.0 | "
            f"grad norm: {rng.random():.3f} | number of skipped iterations:   0 | number of nan iterations:   0 |"
        )
        if it % 500 == 0:
            lines.append(f"saving checkpoint at iteration {it:7d} to /ckpt in torch_dist format")
    path.write_text("\n".join(lines) + "\n" + tail)


def rows(parsed) -> list[tuple]:
    """Metric rows in a comparable form (NaN compares equal to NaN here)."""
    return sorted(
        (r["line_no"], r["name"], r["step"], repr(r["value"]), r["rank"], r["ts"])
        for r in parsed.metrics.to_pylist()
    )


def test_chunk_records(tmp_path):
    path = tmp_path / "train.log"
    megatron_log(path, 3000)
    data = path.read_bytes()
    records = log_split({"source_uri": str(path)}, chunk_mb=0.2)
    assert len(records) == pytest.approx(len(data) / (0.2 * 2**20), abs=1.5)
    assert [r["chunk"] for r in records] == list(range(len(records)))
    assert {r["doc_id"] for r in records} == {content_id(data)}
    assert records[0]["byte_range"][0] == 0 and records[-1]["byte_range"][1] == len(data)
    for before, after in zip(records, records[1:], strict=False):
        start = after["byte_range"][0]
        assert before["byte_range"][1] == start and data[start - 1 : start] == b"\n"
        assert after["first_line"] == data[:start].count(b"\n") + 1
    assert all(r["log_format"] == "megatron" and r["chunk_count"] == len(records) for r in records)
    small = log_split({"source_uri": str(path)}, chunk_mb=64)
    assert isinstance(small, dict) and "chunk" not in small and small["doc_id"] == content_id(data)


def test_chunked_parse_equals_whole_file_parse(tmp_path):
    path = tmp_path / "train.log"
    megatron_log(path, 3000, nan_from=2990, tail="torch.OutOfMemoryError: CUDA out of memory.\n")
    whole = parse_log(path)
    parts = parse_log(path, chunk_mb=0.1)
    assert len(parts.records) > 5 and len(whole.records) == 1
    assert rows(whole) == rows(parts) and len(rows(whole)) == 3000 * 6  # six series: consumed samples kept

    assert sorted((e["kind"], e["step"], e["line_no"]) for e in whole.events) == sorted(
        (e["kind"], e["step"], e["line_no"]) for e in parts.events
    )
    a, b = dict(whole.run), dict(parts.run)
    config_a, config_b = json.loads(a.pop("config")), json.loads(b.pop("config"))
    assert a == b and a["status"] == "diverged" and a["world_size"] == 8
    assert config_a["summary"]["steps"] == config_b["summary"]["steps"] == 3000


def test_event_at_a_chunk_start_gets_the_step_before_it(tmp_path):
    path = tmp_path / "train.log"
    megatron_log(path, 2000)
    text = path.read_text()
    records = log_split({"source_uri": str(path)}, chunk_mb=0.1)
    start = records[3]["byte_range"][0]
    # put an OOM line right at the start of chunk 3
    path.write_text(text[:start] + "torch.OutOfMemoryError: CUDA out of memory.\n" + text[start:])
    whole = parse_log(path)
    parts = parse_log(path, chunk_mb=0.1)
    oom_whole = [e for e in whole.events if e["kind"] == "oom"]
    oom_parts = [e for e in parts.events if e["kind"] == "oom"]
    assert len(oom_whole) == len(oom_parts) == 1
    assert oom_parts[0]["step"] == oom_whole[0]["step"] is not None


def test_truncated_file_skips_its_last_line(tmp_path):
    path = tmp_path / "train.log"
    megatron_log(path, 100)
    path.write_text(
        path.read_text() + " iteration      101/     100 | consumed samples:         6464 | lm lo"
    )
    parsed = parse_log(path)
    assert max(s for s, _ in parsed.series("loss")) == 100
    assert any("truncated" in i["error"] for i in parsed.issues)


def test_binary_file_is_skipped_with_a_reason(tmp_path):
    path = tmp_path / "model.pt"
    path.write_bytes(bytes(range(256)) * 64)
    record = log_split({"source_uri": str(path)})
    assert "doc_id" not in record and "binary" in record["issues"][0]["error"]


def test_divergence_starting_at_a_chunk_boundary_is_one_event(tmp_path):
    path = tmp_path / "train.log"
    megatron_log(path, 2000)
    records = log_split({"source_uri": str(path)}, chunk_mb=0.1)
    first_line = records[4]["first_line"]  # the line number of chunk 4's first line: an iteration line
    lines = path.read_text().splitlines(keepends=True)
    for i in range(first_line - 1, len(lines)):
        lines[i] = re.sub(r"lm loss: \S+", "lm loss: nan", lines[i])
    path.write_text("".join(lines))
    assert log_split({"source_uri": str(path)}, chunk_mb=0.1)[4]["first_line"] == first_line
    whole = [(e["kind"], e["step"]) for e in parse_log(path).events if e["kind"] == "nan"]
    parts = [(e["kind"], e["step"]) for e in parse_log(path, chunk_mb=0.1).events if e["kind"] == "nan"]
    assert whole == parts and len(whole) == 1


@pytest.mark.parametrize("tail", ["", "a last line cut without its line break"])
def test_the_scan_over_many_blocks_hashes_counts_and_cuts_as_one_pass_over_the_bytes(tmp_path, tail):
    from assay.operators.logs._read import scan

    path = tmp_path / "train.log"
    megatron_log(path, 300, tail=tail)
    data = path.read_bytes()
    found = scan(str(path), 4096, block_bytes=1000)  # blocks far smaller than a chunk, and than some lines
    assert found.doc_id == content_id(data)
    assert found.n_lines == data.count(b"\n") + (1 if tail else 0) and found.truncated == bool(tail)
    assert [s.start for s in found.spans[1:]] == [s.end for s in found.spans[:-1]]
    assert found.spans[0].start == 0 and found.spans[-1].end == len(data) and len(found.spans) > 10
    for span in found.spans:
        assert span.start == 0 or data[span.start - 1 : span.start] == b"\n"
        assert span.first_line == data.count(b"\n", 0, span.start) + 1
