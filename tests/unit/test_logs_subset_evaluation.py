"""An evaluation on a named subset prefixes its keys with the split and the subset (``dev_other_loss``): its
loss is the validation loss at the updates it names. Logs written for the test."""

from __future__ import annotations

from assay.operators.logs import parse_log
from assay.operators.logs._names import metric_name


def test_a_subset_evaluation_is_the_validation_at_its_updates(tmp_path):
    lines = []
    for n in (400, 600):
        lines.append(f'[train_inner][INFO] - {{"epoch": 3, "loss": "{9 - n / 100:.2f}", "num_updates": "{n}", "lr": "5e-05"}}')
    lines.append('[train][INFO] - begin validation on "dev_clean" subset')
    lines.append('[dev_clean][INFO] - {"epoch": 3, "dev_clean_loss": "3.141", "dev_clean_wer": "12.5", "dev_clean_num_updates": "652"}')
    lines.append('[train_inner][INFO] - {"epoch": 4, "loss": "2.10", "num_updates": "800", "lr": "5e-05"}')
    path = tmp_path / "asr.log"
    path.write_text("\n".join(lines) + "\n")
    assert parse_log(path).series("val_loss") == [(652, 3.141)]


def test_a_loss_term_of_an_evaluation_is_no_subset():
    assert metric_name("val_kl_loss") != "val_loss"  # a term of the loss, not a subset named kl
    assert metric_name("test_mean_loss") != "val_loss"  # an aggregate, not a subset
    assert metric_name("test_other_loss") == "val_loss"
