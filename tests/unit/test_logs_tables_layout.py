"""Tables of a header row and columns read by where their columns stand (operators/logs/_tables.py), through
the whole ``parse_log`` path: names of several words, a header stacked over two lines, non-finite cells, notes
at a line's edges, and the step found from a column's behaviour when no column is named so."""

from __future__ import annotations

import math

from log_files import write_log

from assay.operators.logs import parse_log


def steps_of(log) -> list[int]:
    return sorted({s for s in log.metrics.column("step").to_pylist() if s is not None})


def test_column_names_of_several_words_name_their_series(tmp_path):
    lines = ["Starting the run", "Iteration   Train Loss   Valid Loss   Time"]
    lines += [f"{100 * k:>9}   {2.0 - k / 10:>10.4f}   {2.2 - k / 10:>10.4f}   00:0{k}" for k in range(1, 5)]
    log = parse_log(write_log(tmp_path, lines))
    assert steps_of(log) == [100, 200, 300, 400]
    assert log.series("loss")[-1] == (400, 1.6)
    assert log.series("val_loss")[-1] == (400, 1.8)


def test_a_header_stacked_over_two_lines_joins_each_names_words(tmp_path):
    lines = [
        "mean       recent      samples     current",
        "loss       loss           seen       label",
    ]
    seen = [4, 9, 17, 40, 81, 160]
    lines += [f"{1 / (k + 1):<8.6f}   {0.5 / (k + 1):<8.6f}  {s:>9}     {k % 2:>7}" for k, s in enumerate(seen)]
    log = parse_log(write_log(tmp_path, lines))
    assert steps_of(log) == seen  # the first column of whole numbers that only rise
    assert log.series("loss")[-1][0] == 160
    assert math.isclose(log.series("loss")[-1][1], 1 / 6, rel_tol=1e-4)


def test_non_finite_cells_are_values_and_a_note_before_the_row_is_no_cell(tmp_path):
    lines = ["[ BEGIN ] training", "[~~~~~~~] Epoch    Train log_loss    Elapsed (sec)"]
    lines += [f"[  {10 * k}%  ]     {k}              -nan             {k}.25" for k in range(1, 4)]
    log = parse_log(write_log(tmp_path, lines))
    assert steps_of(log) == [1, 2, 3]
    losses = log.series("loss")
    assert len(losses) == 3 and all(math.isnan(v) for _, v in losses)


def test_a_source_location_at_the_right_edge_is_no_column(tmp_path):
    lines = ["Step (% done)     Step time         Throughput       runner.py:88"]
    for k in range(3):
        step = 500 + 100 * k
        lines.append(f"{step} ({step / 50:.2f}%)     {40 + k}.5 ms           {9 + k}.1 K          runner.py:91")
    log = parse_log(write_log(tmp_path, lines))
    assert steps_of(log) == [500, 600, 700]


def test_a_bracketed_source_location_after_the_cells_leaves_the_row_whole(tmp_path):
    lines = ["step      loss      lr"]
    lines += [f"{k * 20:<6}    {1 - k / 10:.2f}      0.001   [trainer.cc:120]" for k in range(1, 4)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(20, 0.9), (40, 0.8), (60, 0.7)]


def test_bracketed_cells_under_a_tab_separated_header(tmp_path):
    lines = ["steps\telapsed\tmean_value\taverage_loss"]
    lines += [f"{k * 1000 + k}\t{k * 3.5}\t[{-1 + k / 10:.4f}]\t{0.5 / k:.4f}" for k in range(1, 4)]
    log = parse_log(write_log(tmp_path, lines))
    assert steps_of(log) == [1001, 2002, 3003]


def test_no_column_rises_so_no_step_is_invented(tmp_path):
    """A time, an epoch with a fraction or a column that goes back is never taken for the step."""
    lines = ["epoch      elapsed_time    loss      label"]
    lines += [f"{k / 4:.2f}       {k * 10}            {1 - k / 10:.2f}      {k % 2}" for k in range(1, 5)]
    log = parse_log(write_log(tmp_path, lines))
    assert steps_of(log) == []
    assert [v for _, v in log.series("loss")] == [0.9, 0.8, 0.7, 0.6]


def test_a_table_whose_rows_name_their_phase_beside_a_step_column_is_read_at_its_steps(tmp_path):
    # tableprint's frame and header, as WeNet's family of toolkits prints an epoch's rows behind its logger's
    # bracketed level and time
    def logged(text: str) -> str:
        return f"[ INFO : 2025-03-04 05:06:07,890 ] - {text}"

    rule = "+" + "+".join(["-" * 10] * 5) + "+"
    lines = [logged("Starting epoch 7"), logged(rule)]
    lines.append(logged("|" + "|".join(f"{c:>10}" for c in ("PHASE", "EPOCH", "ITER", "LOSS", "LR")) + "|"))
    lines.append(logged(rule))
    for k in range(1, 5):
        cells = ("TRAIN", "7", str(50 * k), f"{-3.0 - k / 10:.4f}", f"{0.0005 - k / 1e6:.8f}")
        lines.append(logged("|" + "|".join(f"{c:>10}" for c in cells) + "|"))
    log = parse_log(write_log(tmp_path, lines))
    assert steps_of(log) == [50, 100, 150, 200]
    assert log.series("loss")[-1] == (200, -3.4)
    assert [s for s, _ in log.series("lr")] == [50, 100, 150, 200]
    assert "epoch" in log.run["config"]


def test_a_history_table_filling_only_the_measured_column_writes_no_nan_of_the_run(tmp_path):
    # a logger's history: each row fills the loss measured at its step, NaN in the other column
    prefix = "2025-02-03 10:00:00,000 INFO [trainer/MainProcess] model._history : "
    rows = [(5000, "nan", "2.104"), (8200, "2.551", "nan"), (10000, "nan", "1.733"), (16400, "1.902", "nan"),
            (20000, "nan", "1.518")]
    lines = [prefix + "Step\tTrain loss\tValid loss\t"] + [prefix + f"{s}\t{a}\t{b}" for s, a, b in rows]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(8200, 2.551), (16400, 1.902)]
    assert log.series("val_loss")[-1] == (20000, 1.518)
    assert "nan" not in log.event_kinds() and log.run["status"] != "diverged"
    # a training loss NaN on every row beside a finite validation loss is the run's: it diverged
    lines = ["epoch  train loss  valid loss", *(f"  {e}       nan     4.51024" for e in range(1, 5))]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [1, 2, 3, 4] and "nan" in log.event_kinds()
