"""Nothing in silence: a file that gives no metric series is a quarantine row saying why, and every run of
the logs pipeline ends with a per-file table."""

from __future__ import annotations

import json

from assay.operators.logs import parse_log
from assay.operators.logs._coverage import line_shape
from assay.operators.logs.report import file_row, file_table


def write(tmp_path, name: str, lines: list[str]) -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_a_file_read_to_nothing_is_quarantined_with_its_line_shapes(tmp_path):
    lines = [f"worker {i % 3} heartbeat ok after {i * 7} ticks" for i in range(30)] + ["bye"]
    log = parse_log(write(tmp_path, "odd.log", lines))
    assert log.metrics.num_rows == 0
    [issue] = [i for i in log.issues if i.get("level") == "file"]
    assert "no metric series" in issue["error"] and "31 of 31 lines" in issue["error"]
    assert "'worker <n> heartbeat ok after <n> ticks' x30" in issue["error"]


def test_a_file_with_series_is_not_quarantined_and_counts_what_it_missed(tmp_path):
    lines = ["banner line one", "banner line two"] + [
        f"step {s} | loss {3 - s / 10:.2f}" for s in range(1, 9)
    ]
    log = parse_log(write(tmp_path, "ok.log", lines))
    assert not [i for i in log.issues if i.get("level") == "file"]
    summary = json.loads(log.run["config"])["summary"]
    assert (summary["lines"], summary["unrecognised_lines"]) == (10, 2)


def test_a_progress_bar_that_gives_the_dicts_their_step_counts_as_understood(tmp_path):
    lines = []
    for s in range(10, 60, 10):
        lines.append(f" {s}%|##        | {s}/50 [00:{s:02d}<00:40,  1.00it/s]")
        lines.append(f"{{'loss': {4 - s / 100:.2f}, 'learning_rate': 2e-05, 'epoch': {s / 50:.2f}}}")
    lines.append(" 40%|####      | 4/10 [00:01<00:01,  4.00it/s]")  # an evaluation bar counts batches
    log = parse_log(write(tmp_path, "hf.log", lines))
    assert log.series("loss")[0][0] == 10
    summary = json.loads(log.run["config"])["summary"]
    assert (summary["lines"], summary["unrecognised_lines"]) == (11, 1)


def test_line_shape_masks_numbers():
    assert line_shape("  Total loss is  26.77 ETA is  6:49:23.8") == "Total loss is <n> ETA is <n>"


def test_file_table_lists_every_file_and_the_silent_ones():
    config = {
        "format": "megatron",
        "summary": {
            "status": "diverged",
            "steps": 12,
            "first_step": 1,
            "last_step": 12,
            "metrics": ["loss", "lr"],
            "events": {"nan": 2},
            "lines": 40,
            "unrecognised_lines": 10,
        },
    }
    rows = [
        file_row("/runs/a/train.log", "Megatron-LM", json.dumps(config)),
        file_row(
            "/runs/b/notes.txt", float("nan"), json.dumps({"format": "generic", "summary": {"lines": 3}})
        ),
    ]
    text = file_table(rows, [("/runs/b/notes.txt", "no metric series read (...)")])
    header, first, second = text.splitlines()[:3]
    assert header.split() == ["file", "framework", "status", "steps", "range", "series", "events", "unrecognised"]
    assert first.split() == ["a/train.log", "Megatron-LM", "diverged", "12", "1-12", "2", "nan:2", "25%"]
    assert "general reader" not in text  # a format's own parser read the one file with steps
    assert second.split()[:5] == ["b/notes.txt", "(generic)", "unknown", "0", "-"]
    assert "1 file(s) gave no metric series" in text and "/runs/b/notes.txt: no metric series" in text
    assert "no new files" in file_table([], [])


def test_a_row_names_the_tool_status_range_and_event_kinds(tmp_path):
    lines = [f"2022-03-04 05:06:{s:02d},800 - mmseg - INFO - Iter [{s * 10}/800]\tlr: 1e-02, loss: 0.{90 - s}"
             for s in range(1, 6)]
    lines += ["Traceback (most recent call last):", "torch.OutOfMemoryError: CUDA out of memory."]
    log = parse_log(write(tmp_path, "seg.log", lines))
    row = file_row(log.run["source_uri"], log.run["framework"], log.run["config"])
    assert (row["framework"], row["status"], row["range"]) == ("MMSegmentation", "failed", "10-50")
    assert row["events"] == "failure,oom"


def test_a_row_says_which_counter_the_general_reader_took_as_the_step(tmp_path):
    # an in-epoch counter and a global one on the same line: the table says which one numbered the steps
    lines = [f"ep 2 it {i}/50 global_step {100 + i} | xent 1.{60 - i}" for i in range(1, 7)]
    log = parse_log(write(tmp_path, "loop.log", lines))
    summary = json.loads(log.run["config"])["summary"]
    assert any("global_step" in reason for reason in summary["decisions"])
    row = file_row(log.run["source_uri"], log.run["framework"], log.run["config"])
    assert row["step from"] == "the counter 'global_step'" and row["range"] == "101-106"
    text = file_table([row], [])
    assert text.splitlines()[1].split()[0] == "loop.log"  # the table's columns are unchanged
    assert "steps read by the general reader from:\n  loop.log: the counter 'global_step'" in text


def test_the_reasons_of_every_chunk_reach_the_run(tmp_path):
    # a file cut into chunks: each chunk's reader decides, the run's summary keeps each reason once
    lines = [f"step {i} loss 0.{90 - i % 50:02d} tok/s 1234" for i in range(1, 4001)]
    log = parse_log(write(tmp_path, "long.log", lines), chunk_mb=0.02)
    summary = json.loads(log.run["config"])["summary"]
    assert summary["chunks"] > 1
    assert summary["decisions"] == ["'step <*> loss <*> tok/s <*>': step from the counter 'step'; loss: 'loss'"]
