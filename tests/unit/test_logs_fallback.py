"""Unknown formats: Drain-style template mining recovers the numeric series a template carries."""

from __future__ import annotations

import math
from pathlib import Path

from assay.operators.logs import parse_log
from assay.operators.logs._fields import variable_names
from assay.operators.logs.fallback import TemplateMiner, tokens_of

SAMPLES = Path(__file__).resolve().parents[2] / "pipelines" / "samples" / "logs"


def test_in_house_format():
    parsed = parse_log(SAMPLES / "acme_inhouse.log")
    assert parsed.records[0]["log_format"] == "generic"
    loss = parsed.series("loss")  # "train_loss=..."
    assert [s for s, _ in loss] == list(range(0, 200, 10))  # "it 10" names the step
    assert loss[0][1] == 5.0
    assert parsed.series("val_loss") == [(100, round(5.1 * math.exp(-100 / 90), 4))]
    assert len(parsed.series("tokens_per_s")) == 20  # "12000 tok/s": named by its unit
    assert parsed.run["status"] == "unknown" and parsed.run["framework"] is None


def test_lines_of_one_shape_share_a_template():
    miner = TemplateMiner()
    for i, line in enumerate(
        [
            "step 1 | loss 2.5 | lr 1e-4",
            "step 2 | loss 2.4 | lr 1e-4",
            "step 3 | loss nan | lr 9e-5",
            "checkpoint written to /a/b",
            "checkpoint written to /c/d",
        ]
    ):
        miner.add(tokens_of(line), i + 1, None)
    clusters = miner.clusters()
    assert len(clusters) == 2
    metrics = next(c for c in clusters if len(c.rows) == 3)
    assert sorted(variable_names(metrics.template).values()) == ["loss", "lr", "step"]


def test_nothing_metric_like_gives_no_series(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("These are notes.\nThe run went well, 3 people attended.\n")
    parsed = parse_log(path)
    assert parsed.metrics.num_rows == 0
