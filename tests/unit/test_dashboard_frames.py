"""The dashboards' pure shaping helpers and figure builders (no Streamlit, no database)."""

from __future__ import annotations

import json
import math
from datetime import datetime, timedelta

import numpy as np
import pandas as pd
import pytest

from assay.dashboards import _figures, _frames


def test_ema_follows_tensorboard_weight_and_skips_nan():
    s = pd.Series([0.0, 10.0, 10.0, float("nan"), 10.0])
    assert _frames.ema(s, 0.0).equals(s)
    smooth = _frames.ema(s, 0.5)
    assert smooth.iloc[0] == 0.0  # debiased: the first value is not pulled towards zero
    assert 0 < smooth.iloc[1] < 10 and smooth.iloc[2] > smooth.iloc[1]
    assert not math.isnan(smooth.iloc[4])


def test_smoothing_is_per_run():
    curves = pd.DataFrame(
        {"run_id": ["a"] * 3 + ["b"] * 3, "mean": [0, 0, 0, 9, 9, 9.0], "lo": [0.0] * 6, "hi": [1.0] * 6}
    )
    out = _frames.smooth_curves(curves, 0.9)
    assert out.loc[out["run_id"] == "b", "mean"].tolist() == [9, 9, 9]  # run a does not bleed into run b


def test_config_diff_hides_identical_settings():
    configs = pd.DataFrame(
        [
            {
                "run_id": "r1",
                "framework": "megatron",
                "model": "m",
                "tp": 2,
                "pp": 1,
                "config": json.dumps({"lr": 1e-4, "optim": {"name": "adam", "beta2": 0.95}}),
            },
            {
                "run_id": "r2",
                "framework": "megatron",
                "model": "m",
                "tp": 4,
                "pp": 1,
                "config": json.dumps({"lr": 1e-4, "optim": {"name": "adam", "beta2": 0.999}}),
            },
        ]
    )
    diff = _frames.config_diff(configs, {"r1": "run one", "r2": "run two"})
    assert set(diff.index) == {"tp", "config.optim.beta2"}
    assert diff.loc["tp"].tolist() == ["2", "4"] and list(diff.columns) == ["run one", "run two"]
    everything = _frames.config_diff(configs, {}, show_all=True)
    assert {"framework", "config.lr", "config.optim.name"} <= set(everything.index)
    broken = configs.assign(config=["{not json", None])
    assert "config.config" in _frames.config_diff(broken, {}, show_all=True).index


def test_highlight_escapes_document_text_and_marks_the_span():
    context = "x <b>1.5x</b> & more"
    html = _frames.highlight_html(context, 5, 9, "1.5x")
    assert "<mark class='assay-claim'>1.5x</mark>" in html
    assert "&lt;b&gt;" in html and "<b>" not in html and "&amp;" in html
    # offsets from another version of the text: the span is found by its text instead
    assert "<mark class='assay-claim'>1.5x</mark>" in _frames.highlight_html(context, 0, 3, "1.5x")
    assert "<mark" not in _frames.highlight_html(context, 0, 3, "absent")
    assert _frames.highlight_html(None, 0, 0) == "<span></span>"


def test_scaling_efficiency_is_per_gpu_throughput_against_the_smallest_world_size():
    summary = pd.DataFrame(
        {
            "run_id": ["a", "b", "c", "d"],
            "framework": ["m"] * 3 + ["d"],
            "model": ["g"] * 4,
            "tp": [2] * 4,
            "pp": [1] * 4,
            "hardware": ["A100"] * 4,
            "world_size": [8, 16, 32, 8],
            "tokens_per_s": [8000.0, 15000.0, 24000.0, 100.0],
        }
    )
    eff = _frames.scaling_efficiency(summary).set_index(["framework", "world_size"])["efficiency"]
    assert eff[("m", 8)] == 1.0
    assert eff[("m", 16)] == pytest.approx(15000 / 16 / 1000)
    assert eff[("m", 32)] == pytest.approx(0.75)
    assert eff[("d", 8)] == 1.0
    assert _frames.scaling_efficiency(summary.iloc[:0]).empty


def test_usage_sums_overlapping_allocations():
    t = datetime(2025, 1, 1)
    segments = pd.DataFrame(
        {
            "start": [t, t + timedelta(minutes=5)],
            "finish": [t + timedelta(minutes=10), t + timedelta(minutes=20)],
            "workers": [4, 2],
        }
    )
    usage = _frames.usage_over_time(segments)
    assert usage["workers"].tolist() == [4, 6, 2, 0]
    # 4 workers for 5 min, 6 for 5, 2 for 10: 70 worker-minutes of 8 x 20
    assert _frames.utilisation(usage, 8) == pytest.approx(70 / 160)
    assert _frames.usage_over_time(segments.iloc[:0]).empty


def test_event_positions_sit_on_the_curve():
    curves = pd.DataFrame(
        {"run_id": ["a"] * 3, "step": [0.0, 10.0, 20.0], "x": [0.0, 100.0, 200.0], "mean": [1.0, np.nan, 3.0]}
    )
    events = pd.DataFrame(
        {"run_id": ["a", "zz"], "step": [15, 5], "kind": ["oom", "nan"], "detail": ["", ""]}
    )
    pos = _frames.event_positions(events, curves)
    assert pos["run_id"].tolist() == ["a"]  # an event of a run without a curve is not drawn
    assert pos["x"][0] == 150.0 and pos["y"][0] == pytest.approx(2.5)


def test_marker_kinds_and_claim_values():
    assert _frames.marker_kind("resize: node lost") == "resize"
    assert _frames.marker_kind("failure: worker died") == "failure"
    assert _frames.marker_kind("preempted by job-x") == "preemption"
    assert _frames.marker_kind("start") is None
    assert _frames.claim_value(1.5, None, None, "x") == "1.5x"
    assert _frames.claim_value(float("nan"), 37.0, 50.0, "%") == "37–50%"
    assert _frames.claim_value(None, None, None, None) == "?"


def test_colours_are_stable_and_spread():
    assert _figures.colour_for("run-1") == _figures.colour_for("run-1")
    assert len({_figures.colour_for(f"run-{i}") for i in range(100)}) > len(_figures.PALETTE) // 2


def test_curves_figure_draws_band_mean_and_events():
    curves = pd.DataFrame(
        {
            "run_id": ["a"] * 2,
            "step": [0, 1],
            "x": [0, 1],
            "mean": [1.0, 2.0],
            "lo": [0.5, 1.5],
            "hi": [1.5, 2.5],
            "n_nan": [0, 0],
            "n": [4, 4],
        }
    )
    events = pd.DataFrame(
        {"run_id": ["a"], "step": [1], "kind": ["oom"], "detail": ["boom"], "x": [1], "y": [2.0]}
    )
    fig = _figures.curves_figure(curves, events, {"a": "run a"}, "loss", "step")
    names = [t.name for t in fig.data]
    assert "run a" in names and "oom" in names
    assert sum(t.fill == "tonexty" for t in fig.data) == 1
    mean = next(t for t in fig.data if t.name == "run a")
    assert mean.line.color == _figures.series_colours(["a"])["a"]


def test_verdict_badges_and_check_figures():
    assert _frames.verdict_badge("contradicted") == "❌ contradicted"
    assert _frames.verdict_badge(None) == "" and _frames.verdict_badge(float("nan")) == ""
    assert _frames.verdict_badge("new-verdict") == "? new-verdict"  # a verdict this version does not know
    assert _frames.check_value(1.3912, "x") == "1.39x"
    assert _frames.check_value(52.0, "%") == "52%"
    assert _frames.check_value(310.0, "ms") == "310 ms"
    assert _frames.check_value(None, "x") == "—" and _frames.check_value(float("nan")) == "—"


def test_evidence_as_tables():
    runs = _frames.evidence_runs([{"run_id": "a", "role": "baseline"}, "b", {"role": "no id"}, "a", 3])
    assert runs.to_dict("records") == [{"run_id": "a", "role": "baseline"}, {"run_id": "b", "role": "run"}]
    assert _frames.evidence_runs(None).empty
    jobs = _frames.evidence_jobs({"subject": ["j1", "j2"], "baseline": "j3"})
    assert jobs.values.tolist() == [["j1", "subject"], ["j2", "subject"], ["j3", "baseline"]]
    assert _frames.evidence_jobs(["j1"]).values.tolist() == [["j1", "job"]]
    plan = _frames.layout_table({"subject": {"dp": 8, "tp": 2}, "baseline": {"dp": 16, "tp": 1}})
    assert plan.to_dict("records") == [
        {"side": "subject", "dp": "8", "tp": "2"},
        {"side": "baseline", "dp": "16", "tp": "1"},
    ]
    assert _frames.layout_table({"dp": 2, "tp": 4})["side"].tolist() == ["plan"]
    assert _frames.layout_table(None).empty
    predicted = _frames.evidence_table({"ratio": 1.44, "sides": {"subject": {"ms": 310.0}}})
    assert predicted.values.tolist() == [["ratio", "1.44"], ["sides.subject.ms", "310"]]
    assert _frames.evidence_table(None).empty


def test_live_usage_per_gpu_type_counts_a_moved_job_in_each_pool_for_its_time_there():
    """The live scheduler's segments (allocations.gpu_type): a job on pool a for 10 min, then moved to b;
    another job on a from minute 5. A one-type cluster (no types) draws nothing."""
    t = datetime(2025, 1, 1)
    minutes = [t + timedelta(minutes=m) for m in (0, 5, 10, 15, 20)]
    segments = pd.DataFrame(
        {
            "job_id": ["j0", "j0", "j1"],
            "start": [minutes[0], minutes[2], minutes[1]],
            "finish": [minutes[2], minutes[4], minutes[3]],
            "workers": [2, 2, 1],
            "gpu_type": ["a", "b", "a"],
        }
    )
    usage = _frames.segments_by_gpu_type(segments)
    a = usage[usage["gpu_type"] == "a"].set_index("t")["workers"].to_dict()
    b = usage[usage["gpu_type"] == "b"].set_index("t")["workers"].to_dict()
    # seconds since the first allocation, as a simulation's time
    assert a == {0.0: 2, 300.0: 3, 600.0: 1, 900.0: 0}
    assert b == {600.0: 2, 1200.0: 0}
    assert _frames.segments_by_gpu_type(segments.assign(gpu_type=None)).empty
    assert _frames.segments_by_gpu_type(segments.drop(columns="gpu_type")).empty
