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


def test_a_record_typed_as_an_evaluation_is_the_validation_at_the_training_step(tmp_path):
    stats = [
        '{"_type": "train_iter_", "epoch": "1/5", "iter": "10/20", "loss": 2.5, "top1_err": 80.0}',
        '{"_type": "train_iter_", "epoch": "1/5", "iter": "20/20", "loss": 2.4, "top1_err": 78.0}',
        '{"_type": "val_iter", "epoch": "1/5", "iter": "10/62", "top1_err": 93.0}',
        '{"_type": "val_epoch", "epoch": "1/5", "top1_err": 90.0}',
        '{"_type": "train_iter_", "epoch": "2/5", "iter": "10/20", "loss": 2.3, "top1_err": 76.0}',
    ]
    path = tmp_path / "stats.log"
    path.write_text("".join(f"[06/23 12:49:25][INFO] logging.py:   99: json_stats: {s}\n" for s in stats))
    parsed = parse_log(path)
    assert parsed.series("val_top1_err") == [(20, 93.0), (20, 90.0)]
    assert [s for s, _ in parsed.series("top1_err")] == [10, 20, 30]
    assert "restart" not in [e["kind"] for e in parsed.events]


def test_losses_named_in_three_letters(tmp_path):
    lines = [f"s:{s} trl:{3.5 - s / 1000:.4f} lr:0.000300 norm:0.25" for s in range(100, 104)]
    lines.append("s:104 tel:3.4102")
    path = tmp_path / "main.log"
    path.write_text("\n".join(lines) + "\n")
    parsed = parse_log(path)
    assert [s for s, _ in parsed.series("loss")] == [100, 101, 102, 103]
    assert [v for _, v in parsed.series("val_loss")] == [3.4102]


def test_a_metric_record_naming_its_snapshot_is_a_save(tmp_path):
    lines = [f"tick {t:<5d} kimg {4.0 * t:<7.1f} sec/tick 151.7   augment {t / 100:.3f}" for t in range(0, 21)]
    lines.insert(11, '{"results": {"fid50k_full": 61.5}, "metric": "fid50k_full", "snapshot_pkl": "network-snapshot-000040.pkl"}')
    path = tmp_path / "log.txt"
    path.write_text("\n".join(lines) + "\n")
    assert [(e["kind"], e["step"]) for e in parse_log(path).events] == [("checkpoint", 10)]
