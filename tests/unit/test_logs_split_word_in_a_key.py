"""A split's word that heads a key (``Val Acc 0.30``) names that value only (issue 25): a field after it, closed
off by a separator, is no evaluation value (``| Time(s) 0.04`` stays the record's time, not ``val_time_s``),
while a split word that labels a section (``Test: ... Loss``) still gives its split to the values after it.
Own-written logs in the shapes graph-learning examples print, read through ``parse_log``."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import parse_log


@pytest.mark.parametrize("sep", [" | ", ", "])
def test_a_split_word_heading_a_key_opens_no_section(tmp_path, sep):
    lines = [
        sep.join([f"Epoch {k:05d}", f"Loss {2 - k / 10:.4f}", f"Val Acc {0.3 + k / 10:.4f}", f"Time(s) {0.05:.4f}"])
        for k in range(3)
    ]
    log = parse_log(write_log(tmp_path, lines))
    names = {row["name"] for row in log.metrics.to_pylist()}
    assert names == {"loss", "val_acc", "time_s"}
    assert log.series("val_acc")[-1] == (2, 0.5)


def test_a_section_label_still_gives_its_split(tmp_path):
    lines = [f"Test: [{k}/10] Loss {1.5 - k / 10:.2f} Acc@1 {50 + k:.1f}" for k in range(1, 4)]
    lines = [f"Epoch: [0] [{k * 10}/100] loss {2.0 - k / 10:.2f}" for k in range(1, 4)] + lines
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("val_loss") and not any(name == "acc@1" for name in {r["name"] for r in log.metrics.to_pylist()})


def test_the_summary_an_evaluation_closes_with_is_the_evaluations(tmp_path):
    # a reference-style loop: training lines, the evaluation's lines, then its one-line summary with no split word
    lines = []
    for epoch in range(2):
        lines += [f"Epoch: [{epoch}]  [{i:>3}/200]  lr: 0.001  loss: {4 - epoch - i / 400:.4f} (4.1)" for i in (0, 100, 199)]
        lines.append(f"Epoch: [{epoch}] Total time: 0:01:10 (0.350000 s / it)")
        lines.append(f"Averaged stats: lr: 0.001  loss: {3.6 - epoch:.4f} (3.7)")
        lines += [f"Test:  [{i:>2}/40]  loss: {6.5 - epoch:.4f} (6.4)  acc1: 12.5" for i in (0, 39)]
        lines.append("Test: Total time: 0:00:09 (0.225000 s / it)")
        lines.append(f"* Acc@1 {12 + epoch:.3f} Acc@5 {30 + epoch:.3f} loss {6.400 - epoch:.3f}")
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1][1] == pytest.approx(3 - 199 / 400, abs=1e-4)
    assert log.series("val_loss")[-1][1] == pytest.approx(5.4)
