"""What a newcomer reads on the dashboards: no missing value shown as ``nan``/``None``, a distinct colour for
every compared series, defaults that open on something worth seeing, labels that do not pile up."""

from __future__ import annotations

import itertools
import math

import pandas as pd
import pytest

from assay.dashboards import _figures, _frames, _labels

MISSING_WORDS = {"nan", "NaN", "None", "<NA>", "NaT"}


@pytest.mark.parametrize("missing", [None, float("nan"), pd.NA, pd.NaT, "", "  ", "nan", "None"])
def test_a_missing_value_says_what_is_missing(missing):
    assert _labels.name_or(missing, "no metric") == "no metric"


def test_a_present_value_is_its_own_text():
    assert _labels.name_or("throughput", "no metric") == "throughput"
    assert _labels.name_or(0, "none") == "0"  # zero is a value, not a missing one
    assert _labels.name_or("Nano", "x") == "Nano"  # a name that starts like nan is still a name


def test_an_imported_log_run_is_named_by_what_is_known():
    # A log import with no framework, model or layout: the shape that read 'nan · nan · dp?·tp?·pp? · fa8dad'.
    row = {"run_id": "fa8dad0011", "framework": float("nan"), "model": None, "dp": float("nan"),
           "tp": None, "pp": float("nan"), "layout": "dp?·tp?·pp?", "source_uri": "/data/logs/train_0.log"}
    label = _labels.run_label(row)
    assert label == "unnamed run (train_0.log) · fa8dad"
    assert not set(label.replace("(", " ").replace(")", " ").split()) & MISSING_WORDS
    bare = _labels.run_label({"run_id": "abc123456"})
    assert bare == "unnamed run · abc123"


def test_a_named_run_keeps_framework_model_and_known_degrees():
    row = {"run_id": "0123456789", "framework": "megatron", "model": "gpt-1.3b", "dp": 4.0, "tp": 2,
           "pp": None}
    assert _labels.run_label(row) == "megatron · gpt-1.3b · dp4·tp2·pp? · 012345"
    assert _labels.run_label({**row, "model": float("nan")}) == "megatron · dp4·tp2·pp? · 012345"


def test_the_default_comparison_takes_imported_logs_and_jobs_in_turn():
    runs = pd.DataFrame(
        {
            "run_id": ["j1", "j2", "j3", "l1", "l2"],  # newest first, the scheduler's jobs newest of all
            "job_id": ["a", "b", "c", None, float("nan")],
        }
    )
    picked = _labels.default_runs(runs, 3)
    assert picked == ["j1", "l1", "j2"]
    assert _labels.default_runs(runs[runs["job_id"].isna()], 3) == ["l1", "l2"]
    assert _labels.default_runs(runs.iloc[:0], 3) == []


def _rgb(colour: str) -> tuple[int, ...]:
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def test_compared_series_never_share_a_colour():
    for n in (2, 3, 5, len(_figures.PRIMARY), len(_figures.PALETTE)):
        for start in range(0, 40, 7):
            keys = [f"run-{start + i}" for i in range(n)]
            colours = _figures.series_colours(keys)
            assert len(set(colours.values())) == n, (n, colours)
    few = _figures.series_colours(["a", "b", "c"]).values()
    # Few series draw from the most distinct colours only: every pair far apart in RGB.
    assert all(math.dist(_rgb(a), _rgb(b)) > 60 for a, b in itertools.combinations(few, 2))
    # The order rows arrive in does not change a series' colour.
    assert _figures.series_colours(["x", "y", "z"]) == _figures.series_colours(["z", "x", "y"])


def test_a_fast_run_puts_the_throughput_axis_on_a_log_scale():
    fast = _summary().assign(tokens_per_s=[500.0, 800.0, 650.0, 180_000.0])
    assert _figures.layout_scatter(fast, "tokens_per_s", "tokens/s").layout.yaxis.type == "log"
    assert _figures.layout_scatter(_summary(), "tokens_per_s", "tokens/s").layout.yaxis.type != "log"


def _series(fig) -> list[str]:
    return [getattr(getattr(t, "line", None), "color", None) or t.marker.color for t in fig.data
            if t.meta == "series"]


def test_curves_of_runs_whose_hashes_collide_get_two_colours():
    # Find two ids that the stable hash alone would paint alike: the figure must still tell them apart.
    ids = [f"r{i}" for i in range(200)]
    a, b = next((x, y) for x, y in itertools.combinations(ids, 2) if _figures.colour_for(x) == _figures.colour_for(y))
    curves = pd.DataFrame({"run_id": [a, a, b, b], "step": [0, 1] * 2, "x": [0, 1] * 2, "mean": [1.0, 2, 3, 4],
                           "lo": [1.0, 2, 3, 4], "hi": [1.0, 2, 3, 4], "n_nan": [0] * 4, "n": [1] * 4})
    colours = _series(_figures.curves_figure(curves, pd.DataFrame(), {}, "loss", "step"))
    assert len(colours) == 2 and len(set(colours)) == 2


def _summary() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "run_id": ["r1", "r2", "r3", "r4"],
            "framework": ["megatron", "megatron", None, "deepspeed"],
            "model": ["gpt", "gpt", None, "gpt"],
            "world_size": [2, 2, 2, 4],
            "dp": [2, 1, None, 4], "tp": [1, 1, None, 1], "pp": [1, 2, None, 1],
            "tokens_per_s": [1000.0, 1010.0, 990.0, 1900.0],
        }
    )


def test_scaling_points_at_one_world_size_spread_and_label_outward():
    fig = _figures.layout_scatter(_summary(), "tokens_per_s", "tokens/s")
    at_two = [t for t in fig.data if t.customdata[0][0] == 2]
    xs = [t.x[0] for t in at_two]
    assert len(set(xs)) == 3 and all(1.5 < x < 2.7 for x in xs)  # apart, still near 2
    positions = [t.textposition for t in sorted(at_two, key=lambda t: t.y[0])]
    assert positions == ["bottom center", "middle right", "top center"]  # outward: no two labels face
    texts = [t.text[0] for t in fig.data]
    assert "" in texts and "dp2·tp1·pp1" in texts  # no 'dp?·tp?·pp?' for a run with no known degree
    assert not any(word in (t.name + t.hovertemplate) for t in fig.data for word in ("nan", "None"))
    lo, hi = fig.layout.xaxis.range
    assert lo < math.log10(min(xs)) - 0.2 and hi > math.log10(4) + 0.2  # room for the outermost labels
    assert len(set(_series(fig))) == 4


def test_efficiency_setups_are_named_without_missing_words():
    eff = pd.DataFrame({"framework": ["megatron", None], "model": [None, "gpt"], "tp": [1, None],
                        "pp": [1, None], "world_size": [2, 4], "efficiency": [1.0, 0.9]})
    fig = _figures.efficiency_figure(eff)
    names = [t.name for t in fig.data]
    assert names == ["megatron · unknown model · tp1·pp1", "unknown framework · gpt · tp?·pp?"]
    assert len(set(_series(fig))) == 2


def test_pipeline_rate_legend_sits_above_the_rotated_run_labels():
    pruns = pd.DataFrame({"pipeline": ["papers", "logs"], "docs_per_s": [2.0, 3.0],
                          "started_at": pd.to_datetime(["2026-01-01 10:00", "2026-01-01 11:00"]),
                          "pipeline_run_id": ["p1aaaa", "p2bbbb"], "n_ok": [3, 4], "n_quarantined": [0, 1]})
    fig = _figures.docs_per_s_figure(pruns)
    assert fig.layout.legend.y >= 1 and fig.layout.xaxis.automargin
    assert len(set(_series(fig))) == 2


def test_a_table_shows_a_dash_for_missing_text_and_keeps_numbers_and_empty_cells():
    df = pd.DataFrame({"name": ["a", None, float("nan"), "nan", ""], "n": [1.0, None, 2.0, 3.0, 4.0],
                       "tags": [["x"], [], None, ["y"], ["z"]]})
    df["flag"] = pd.array([True, None, False, True, False], dtype="boolean").astype(object)
    out = _labels.readable(df)
    assert out["name"].tolist() == ["a", "—", "—", "—", ""]
    assert out["n"].tolist() == ["1", "—", "2", "3", "4"]  # a grid would draw the missing number as None
    whole = _labels.readable(pd.DataFrame({"n": [1.5, 2.0]}))
    assert whole["n"].dtype == float  # a column with every number stays numeric (sorts, formats)
    assert out["tags"].iloc[0] == ["x"] and out["tags"].iloc[2] == "—"
    assert out["flag"].tolist() == [True, "—", False, True, False]


def test_the_nan_event_kind_reads_as_what_it_means():
    assert _labels.event_kind_label("nan") == "non-finite value"
    assert _labels.event_kind_label("skipped_step") == "skipped step"
    assert _labels.event_kind_label(None) == "unknown event"
    curves = pd.DataFrame({"run_id": ["a"], "step": [1], "x": [1], "mean": [1.0], "lo": [1.0], "hi": [1.0],
                           "n_nan": [1], "n": [1]})
    events = pd.DataFrame({"run_id": ["a"], "step": [1], "kind": ["nan"], "detail": [None], "x": [1], "y": [1.0]})
    fig = _figures.curves_figure(curves, events, {"a": "run a"}, "loss", "step")
    marker = next(t for t in fig.data if t.meta == "events")
    assert marker.name == "non-finite value" and marker.text == ("non-finite value at step 1: no detail<br>run a",)


def test_usage_per_gpu_type_follows_a_job_that_moves_between_types():
    allocations = pd.DataFrame(
        [
            ("j0", 0.0, 8, "a100"),
            ("j1", 10.0, 4, "v100"),
            ("j0", 20.0, 0, None),  # finished
            ("j1", 20.0, 8, "a100"),  # moved onto the freed a100s
            ("j1", 30.0, 0, None),
        ],
        columns=["job_id", "t", "workers", "gpu_type"],
    ).assign(sim_id="s")
    usage = _frames.usage_by_gpu_type(allocations)
    a100 = usage[usage["gpu_type"] == "a100"].set_index("t")["workers"].to_dict()
    v100 = usage[usage["gpu_type"] == "v100"].set_index("t")["workers"].to_dict()
    assert a100 == {0.0: 8, 20.0: 8, 30.0: 0} and v100 == {10.0: 4, 20.0: 0}
    one_type = allocations.assign(gpu_type=None)
    assert _frames.usage_by_gpu_type(one_type).empty  # a one-type cluster: nothing per type to draw
    fig = _figures.gpu_type_usage_figure(usage, "workers per GPU type")
    assert [t.name for t in fig.data] == ["a100", "v100"] and len(set(_series(fig))) == 2
    stacked = fig.data[0].y + fig.data[1].y  # one time grid: a type holds its count until it changes
    assert list(stacked) == [8, 12, 8, 0]


def test_workloads_with_own_simulations_come_first():
    sims = pd.DataFrame(
        {
            "workload": ["pub-only", "mine", "mine", "older"],
            "published": [True, False, True, False],
            "created_at": pd.to_datetime(["2026-01-03", "2026-01-02", "2026-01-03", "2026-01-01"]),
        }
    )
    assert _frames.workloads_own_first(sims, ["older", "mine", "pub-only"]) == ["mine", "older", "pub-only"]
