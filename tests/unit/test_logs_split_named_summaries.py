"""fairseq's end of an epoch prints every value with the training split before it (``train_loss``,
``train_num_updates``) after step records that print them bare: an epoch's summary, no step record, and its
loss no step's loss. A file whose every record names its values so keeps them. Through ``parse_log``."""

from __future__ import annotations

import json

from log_files import write_log

from assay.operators.logs import parse_log


def _inner(epoch: int, update: int, loss: float) -> str:
    record = {"epoch": epoch, "update": round(epoch - 1 + update / 480, 3), "loss": f"{loss:.3f}",
              "ntokens": "115705", "lr": "6.875e-05", "num_updates": str(update)}
    return f"[2022-04-08 21:17:06,081][train_inner][INFO] - {json.dumps(record)}"


def _summary(epoch: int, update: int, loss: float) -> str:
    record = {"epoch": epoch, "train_loss": f"{loss:.3f}", "train_ntokens": "115929", "train_lr": "6.8e-05",
              "train_num_updates": str(update)}
    return f"[2022-04-08 21:30:47,168][train][INFO] - {json.dumps(record)}"


def test_an_epoch_summary_named_by_its_split_is_no_step_record(tmp_path):
    lines = []
    for epoch in (1, 2):
        lines += [_inner(epoch, 480 * (epoch - 1) + 200, 4.2 - epoch / 10),
                  _inner(epoch, 480 * (epoch - 1) + 400, 4.1 - epoch / 10),
                  _summary(epoch, 480 * epoch, 4.15 - epoch / 10)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(200, 4.1), (400, 4.0), (680, 4.0), (880, 3.9)]
    assert 960 not in {s for s, _ in log.series("loss")}


def test_records_that_all_name_their_split_stay_records(tmp_path):
    lines = [json.dumps({"epoch": 1, "train_loss": 2.0 - k / 10, "train_acc": 0.5, "train_lr": 0.001, "step": k})
             for k in (10, 20, 30)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [10, 20, 30]
