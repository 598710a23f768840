"""Two records glued on one line: a progress bar, then a logger's line printed while the bar was drawn, with
no space or line end between them. Each is read as the tool meant it: the bar's counter is the bar's step, the
logger's words ('at step 759') do not move the bar's values. Through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_bar_with_a_logger_line_glued_after_it(tmp_path):
    lines = [
        "train:  30%|███████▏          | 600/2000 [20:01<46:40,  2.00s/it, loss=0.210]",
        "train:  38%|█████████▏        | 760/2000 [25:21<41:20,  2.00s/it, loss=0.153]2024-03-24T16:15:36 - 0 - "
        "tool.checkpoint - checkpoint.py:194 - INFO :: Saving temporary checkpoint at step 759.",
        "2024-03-24T16:15:38 - 0 - tool.checkpoint - checkpoint.py:245 - INFO :: Saving checkpoint at step 759 to /ck/step-759",
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(600, 0.21), (760, 0.153)]
    assert "checkpoint" in log.event_kinds()


def test_a_bar_followed_by_a_space_and_text_is_one_record(tmp_path):
    lines = [f"steps: {p}%|██  | {n}/500 [00:0{k}<00:10, 1.2it/s, avr_loss=0.{k}1] done" for k, (p, n) in enumerate(((10, 50), (20, 100)))]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [50, 100]
