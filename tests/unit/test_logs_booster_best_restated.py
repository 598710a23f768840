"""A booster that stops early restates its best round under a heading that opens with why it stopped (``Early
stopping, best iteration is:``): that round is printed again, no record of its own, and the rounds keep their
steps."""

from __future__ import annotations

from assay.operators.logs import parse_log


def test_the_restated_best_round_is_no_record(tmp_path):
    lines = ["[LightGBM] [Info] Total Bins 4242", "Training until validation scores don't improve for 5 rounds"]
    for i in range(10, 70, 10):
        lines.append(f"[{i}]\ttraining's binary_logloss: {0.6 - i / 1000:.6f}\tvalid_1's binary_logloss: {0.7 - i / 2000:.6f}")
    lines += ["Early stopping, best iteration is:", "[40]\ttraining's binary_logloss: 0.560000\tvalid_1's binary_logloss: 0.680000"]
    path = tmp_path / "booster.log"
    path.write_text("\n".join(lines) + "\n")
    parsed = parse_log(path)
    assert [s for s, _ in parsed.series("loss")] == [10, 20, 30, 40, 50, 60]
    assert parsed.series("val_loss")[-1] == (60, 0.67)
    assert [e for e in parsed.events if e["kind"] == "restart"] == []
