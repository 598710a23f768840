"""PyTorch Lightning: the CSVLogger's sparse metrics.csv."""

from __future__ import annotations

from pathlib import Path

from assay.operators.logs import parse_log

SAMPLES = Path(__file__).resolve().parents[2] / "pipelines" / "samples" / "logs"


def test_sparse_csv_rows():
    parsed = parse_log(SAMPLES / "lightning_logs" / "version_0" / "metrics.csv")
    assert parsed.run["framework"] == "PyTorch Lightning"
    assert len(parsed.series("loss")) == 15 and parsed.series("loss")[0][0] == 9  # train_loss_step
    assert len(parsed.series("lr")) == 15  # lr-AdamW
    assert [s for s, _ in parsed.series("val_loss")] == [49, 99, 149]
    assert len(parsed.series("train_loss_epoch")) == 3 and len(parsed.series("val_acc")) == 3


def test_a_short_row_is_an_issue(tmp_path):
    path = tmp_path / "metrics.csv"
    path.write_text("epoch,step,train_loss\n0,0,2.5\n0,1\n0,2,2.3\n")
    parsed = parse_log(path)
    assert parsed.series("loss") == [(0, 2.5), (2, 2.3)]
    assert parsed.issues and parsed.issues[0]["line_no"] == 3
