"""Results tables whose rows are labelled by a setting (a node count, a batch size, an image size) and whose
unit stands once in a column's header, through the whole extraction path; and a range's two ends must share
one unit. The tables and sentences are the tests' own."""

from __future__ import annotations

from papers_extract import claims_in_order

SCALING = """Kestrel: Training Wide Models on Many Nodes

5 Evaluation
Kestrel keeps a large share of the machine busy as the cluster grows.

Table 2. Sustained rate of Kestrel on the Osprey cluster.

# Nodes | Model | Total Pflop/s | % of Rated Peak | % of Measured Peak
64 | 3B | 41.2 | 47.3 | 52.9
128 | 6B | 80.5 | 46.1 | 51.4
256 | 12B | 151.0 | 43.2 | 48.8
"""


def _values(claims, unit):
    return [c["value"] for c in claims if c["unit"] == unit]


def test_bare_numbers_under_a_percent_header_in_rows_of_node_counts_are_results():
    claims = claims_in_order(SCALING)
    assert _values(claims, "%") == [47.3, 52.9, 46.1, 51.4, 43.2, 48.8]
    first = next(c for c in claims if c["value"] == 47.3)
    assert first["versus"] == "Rated Peak"
    assert "# Nodes=64" in first["setting"]
    # the rate column has no ratio unit in its header: its numbers stay bare
    assert 41.2 not in [c["value"] for c in claims]


def test_rows_labelled_by_an_image_size_hold_results_under_a_caption_that_names_what_is_measured():
    text = """Heron: Elastic Image Serving

Table 1. Run-to-run variation (CV) of one denoising step on four GPUs for each sequence-parallel degree.

Image Size | Tokens | SP=1 | SP=2 | SP=4
128 × 128 | 64 | 0.21% | 0.34% | 0.58%
384 × 384 | 576 | 0.09% | 0.17% | 0.26%
"""
    assert _values(claims_in_order(text), "%") == [0.21, 0.34, 0.58, 0.09, 0.17, 0.26]


def test_rows_of_settings_stay_out_of_a_table_that_measures_nothing():
    text = """Plover: a Small Trainer

Table 3. Hyperparameters used for every run.

Batch | Warmup steps | Dropout (%) | Label smoothing (%)
256 | 500 | 10 | 5
512 | 1000 | 20 | 5
"""
    assert not [c for c in claims_in_order(text) if c["unit"] in ("%", "x")]


def test_a_multiple_that_divides_two_cells_of_its_row_restates_them():
    text = """Egret: Sharded Training

| Model size | Baseline (TFLOPs/GPU) | Egret (TFLOPs/GPU) | Speedup |
|---|---|---|---|
| 20B | 4 | 30 | 7.5x |
| 60B | 3 | 30 | 10x |
"""
    assert not [c for c in claims_in_order(text) if c["unit"] == "x"]


def test_a_column_normalised_to_one_of_its_own_rows_is_a_scaling_curve_not_results():
    text = """Grebe: Layer Parallel Training

Table 4. Weak scaling of Grebe.

Parameters | GPUs | Efficiency
0.8B | 1 | 100%
1.6B | 2 | 83%
6.4B | 8 | 71%
"""
    assert not [c for c in claims_in_order(text) if c["unit"] == "%"]


def test_a_range_never_joins_a_multiple_to_a_rate():
    text = (
        "Going from 128 to 1024 GPUs, Kestrel's aggregate rate climbs from 12.5 Pflop/s on 128 GPUs by "
        "almost 6× to 74.8 Pflop/s on 1024 GPUs."
    )
    claims = claims_in_order(text)
    six = [c for c in claims if c["unit"] == "x"]
    assert [(c["value"], c["value_low"], c["value_high"]) for c in six] == [(6.0, None, None)]
    assert 74.8 in [c["value"] for c in claims if c["unit"] == "Pflop/s"]


def test_half_precision_is_no_halving():
    text = "Kestrel trains in half-precision on every node, and its sharding cuts the memory per GPU by half."
    halves = [c for c in claims_in_order(text) if c["unit"] == "%"]
    assert [(c["text"], c["value"]) for c in halves] == [("half", 50.0)]
    assert halves[0]["start"] > text.index("memory")
