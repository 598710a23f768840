"""Trainers that report once per tick of a fixed amount of training (``tick 3  kimg 12.0  ...``): the tick is the
step, also when the record prints no loss; and a network summary table padded into columns
(``encoder.block1:0      4096 ...``) names no tool, though its names look like a logger's ``pkg.module:12``.
Through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log

_TABLE = [
    "Encoder               Params    Buffers  Output shape",
    "---                   ---       ---      ---",
    "encoder.block1:0      4096      16       [16, 256, 8, 8]",
    "encoder.block1:1      -         -        [16, 256, 8, 8]",
    "encoder.block2:0      8192      16       [16, 256, 16, 16]",
    "---                   ---       ---      ---",
    "Total                 12288     32       -",
    "",
]


def _ticks(n: int) -> list[str]:
    return [
        f"tick {k:<5} kimg {4.0 * k:<8.1f} sec/tick {160.0 + k:<7.1f} gpumem {5.2 + k / 100:<6.2f} augment {k / 40:.3f}"
        for k in range(n)
    ]


def test_tick_lines_are_records_at_their_tick(tmp_path):
    log = parse_log(write_log(tmp_path, ["Training for 500 kimg...", "", *_ticks(4)]))
    assert [s for s, _ in log.series("augment")] == [0, 1, 2, 3]
    assert "tick" not in {r["name"] for r in log.metrics.to_pylist()}


def test_a_network_table_names_no_tool(tmp_path):
    log = parse_log(write_log(tmp_path, ["Building the networks...", "", *_TABLE, *_ticks(3)]))
    assert log.run.get("framework") in (None, "")


def test_a_logger_with_its_line_number_still_names_its_package(tmp_path):
    lines = [f"acmedet.engine.loop:{120 + k} - step {k} loss 0.{9 - k}" for k in (1, 2, 3)]
    assert parse_log(write_log(tmp_path, lines)).run["framework"] == "acmedet"


def test_tick_lines_after_an_evaluation_are_training_records_again(tmp_path):
    ticks = _ticks(4)
    lines = [*ticks[:2], "Evaluating metrics...", '{"results": {"fid10k": 41.5}, "metric": "fid10k"}', *ticks[2:]]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("augment")] == [0, 1, 2, 3]
    assert not any(r["name"].startswith("val_augment") for r in log.metrics.to_pylist())
