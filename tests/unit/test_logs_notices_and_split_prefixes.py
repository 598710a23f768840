"""Lines around a trainer's records that are no records: a save's own report in parentheses (``Saved
checkpoint ... (epoch 2 @ 400 updates, score 6.4) (writing took 2.3 seconds)``) and a notice that a value was
changed (``setting loss scale to: 16.0``); and an evaluation record whose loss names its split with a prefix
(``"valid_loss"``) names its other values so too (``"valid_wps"`` is ``val_wps``). Through ``parse_log``."""

from __future__ import annotations

import json

from log_files import write_log

from assay.operators.logs import parse_log


def _log(tmp_path):
    lines = []
    for epoch, updates in ((1, 200), (2, 400)):
        for k in (1, 2):
            step = updates - 200 + 100 * k
            rec = {"epoch": epoch, "loss": f"{5 - step / 200:.3f}", "wps": "1200", "num_updates": str(step)}
            lines.append(f"[2024-05-06 10:0{epoch}:0{k},100][train_inner][INFO] - {json.dumps(rec)}")
        lines.append(
            f"[2024-05-06 10:0{epoch}:03,100][acme.trainer][INFO] - NOTE: gradient overflow detected, "
            "ignoring gradient, setting loss scale to: 16.0"
        )
        valid = {"epoch": epoch, "valid_loss": f"{4 - epoch / 10:.2f}", "valid_wps": "3000",
                 "valid_num_updates": str(updates)}
        lines.append(f"[2024-05-06 10:0{epoch}:04,100][valid][INFO] - {json.dumps(valid)}")
        lines.append(
            f"[2024-05-06 10:0{epoch}:05,100][acme.checkpoint_utils][INFO] - Saved checkpoint ckpt/last.pt "
            f"(epoch {epoch} @ {updates} updates, score {4 - epoch / 10:.2f}) (writing took 2.3 seconds)"
        )
    return parse_log(write_log(tmp_path, lines))


def test_a_saves_report_and_a_change_notice_are_no_records(tmp_path):
    log = _log(tmp_path)
    names = set(log.metrics.column("name").to_pylist())
    assert not {"score", "took", "loss_scale", "writing"} & names
    assert [s for s, _ in log.series("loss")] == [100, 200, 300, 400]


def test_a_split_prefix_on_the_loss_names_the_records_other_values(tmp_path):
    log = _log(tmp_path)
    assert log.series("val_loss") == [(200, 3.9), (400, 3.8)]
    assert [v for _, v in log.series("val_wps")] == [3000.0, 3000.0]
    assert "valid_wps" not in set(log.metrics.column("name").to_pylist())


def test_a_second_loss_term_of_an_evaluation_and_the_iterators_size_are_no_training_series(tmp_path):
    # the evaluation's record prints its total and two terms under the split's prefix; each epoch's iterator
    # prints how many iterations it holds
    lines = []
    for epoch, updates in ((3, 600), (4, 800)):
        lines.append(f"[2024-05-06 11:0{epoch}:00,100][acme.data.iterators][INFO] - grouped total_num_itrs = 200")
        for k in (1, 2):
            step = updates - 200 + 100 * k
            rec = {"epoch": epoch, "loss": f"{3 - step / 1000:.3f}", "ce_loss": "0.9", "num_updates": str(step)}
            lines.append(f"[2024-05-06 11:0{epoch}:0{k},100][train_inner][INFO] - {json.dumps(rec)}")
        valid = {"epoch": epoch, "valid_loss": "0.31", "valid_ce_loss": "0.80", "valid_aux_loss": "0.25",
                 "valid_num_updates": str(updates)}
        lines.append(f"[2024-05-06 11:0{epoch}:04,100][valid][INFO] - {json.dumps(valid)}")
    log = parse_log(write_log(tmp_path, lines))
    names = set(log.metrics.column("name").to_pylist())
    assert {"val_loss", "val_ce_loss", "val_aux_loss"} <= names
    assert not {n for n in names if n.startswith("valid_")} and "total_num_itrs" not in names
