"""Result or not, by the clause, through the whole extraction path (segment_text, extract_knowledge): settings,
hardware, workload statistics, definitions and labels are not claims; from-to changes keep both ends; word
numbers are values; a broken or LaTeX range stays a range; a per-device rate keeps its scope. Every sentence
here is written for the test, in the shapes real papers use."""

from __future__ import annotations

import pytest

from assay.dsl import get_operator
from assay.operators.papers._cues import CUES


def claims_of(text: str) -> list[dict]:
    records = [{"source_uri": "paper.txt", "doc_id": "d", "text": text}]
    segmented, _ = get_operator("segment_text").run(records)
    extracted, failures = get_operator("extract_knowledge").run(segmented, model="blank", parse="none")
    assert not failures
    return extracted[0]["claims"]


def values(text: str) -> list[tuple]:
    out = []
    for c in claims_of(text):
        value = c["value"] if c["value"] is not None else (c["value_low"], c["value_high"])
        out.append((value, c["unit"]))
    return out


@pytest.mark.parametrize("cue", CUES, ids=lambda c: c.name)
def test_every_cue_drops_its_setting_and_keeps_the_result(cue):
    """Each row of the declared table: its example keeps only its results."""
    assert values(cue.example) == list(cue.kept)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # The same words around a result keep it.
        ("Foo reaches 92% of ideal scaling on 512 GPUs.", [(92.0, "%")]),
        ("With 2x more memory per device, Foo still trains 1.4x faster than Bar.", [(1.4, "x")]),
        ("We set the batch to 64; Foo is 1.8x faster than Bar.", [(1.8, "x")]),
        ("Foo finishes the longest jobs 2x sooner than Bar on the skewed trace.", [(2.0, "x")]),
        ("It matches the tuned baseline (1.0x) and beats Bar by 12%.", [(1.0, "x"), (12.0, "%")]),
        ("Foo supports 3x larger models than Bar on 8 GPUs.", [(3.0, "x")]),
        ("Foo wins on every model (BERT 2.1x) against Bar.", [(2.1, "x")]),
        ("Foo speeds up training markedly (e.g., 2.3x on BERT) over Bar.", [(2.3, "x")]),
        ("Foo hides the transfers, limiting the stall to 3% of the step.", [(3.0, "%")]),
        (
            "In experiments where Foo replaces Bar, jobs finish 30% sooner and queues shrink by 2x.",
            [(30.0, "%"), (2.0, "x")],
        ),
        ("Foo lets 80% of jobs finish 2x sooner than Bar.", [(80.0, "%"), (2.0, "x")]),
        ("As we vary the load, Foo keeps 90% of its peak throughput.", [(90.0, "%")]),
        ("Jobs are treated alike, and when the load peaks, Foo cuts the wait by 25%.", [(25.0, "%")]),
    ],
)
def test_results_beside_setting_words_stay(text, kept):
    assert values(text) == kept


@pytest.mark.parametrize(
    "text",
    [
        "Racks are wired with 2x NDR links per host.",
        "The cache holds 0.5-0.8x of the working set.",
        "In this trace, 25% of tasks do 60x more work than the median task.",
        "A run is considered valid when it reaches 40%-90% of ideal scaling.",
        "By definition, an ideal overlap hides 100% of communication.",
        "一个完美的重叠方法具有 100% 的重叠效率。",
        "Each sample is masked with 15% probability.",
    ],
)
def test_settings_statistics_definitions_are_not_claims(text):
    assert values(text) == []


def test_a_change_keeps_both_ends_and_the_value_reached():
    (c,) = claims_of("Foo lowers the idle share from 31% to 9% of each step.")
    assert (c["value"], c["value_low"], c["value_high"], c["unit"]) == (9.0, 9.0, 31.0, "%")
    assert "from 31%" in c["setting"]
    (c,) = claims_of("With Foo, GPU utilization climbs to 77% from 52%.")
    assert (c["value"], c["value_low"], c["value_high"]) == (77.0, 52.0, 77.0)


def test_a_result_that_varies_over_the_setting_is_a_range():
    (c,) = claims_of("Its gains grow from 14% to 33% as the cluster gets busier.")
    assert (c["value"], c["value_low"], c["value_high"]) == (None, 14.0, 33.0)
    (c,) = claims_of("Compared with Bar, the improvement ranges from 2.1x to 7x.")
    assert (c["value"], c["value_low"], c["value_high"]) == (None, 2.1, 7.0)


def test_ratio_ends_with_words_between_are_one_range():
    (c,) = claims_of("On the smallest shape it goes from a 0.9x slowdown to a 1.2x speedup over Bar.")
    assert (c["value"], c["value_low"], c["value_high"], c["unit"]) == (None, 0.9, 1.2, "x")
    (c,) = claims_of("在最小的尺寸上则从 0.9 倍的减速 (slowdown) 到 1.2 倍的加速。")
    assert (c["value_low"], c["value_high"]) == (0.9, 1.2)


def test_step_and_recovery_times_that_change_are_kept():
    (c,) = claims_of("Foo cuts the iteration time from 910 ms to 640 ms on 32 GPUs.")
    assert (c["value"], c["value_low"], c["value_high"], c["unit"]) == (640.0, 640.0, 910.0, "ms")
    (c,) = claims_of("Recovery after a node loss drops from 6 minutes to 45 s with Foo.")
    assert (c["value"], c["value_low"], c["value_high"], c["unit"]) == (45.0, 45.0, 360.0, "s")
    # A time that does not change is no claim here.
    assert claims_of("Each job runs from 10 to 30 minutes.") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The fused kernel is more than twice that of the split one in speed.", [(2.0, "x")]),
        ("Foo halves the activation memory of Bar.", [(50.0, "%")]),
        ("Stage time is halved compared to the even split.", [(50.0, "%")]),
        ("Foo doubles the number of users served within the deadline.", [(2.0, "x")]),
        ("Its throughput nearly tripled over Bar's.", [(3.0, "x")]),
        ("Foo quadruples the context it serves on one GPU.", [(4.0, "x")]),
        ("Foo cuts the upload traffic by up to 1/2 at the same accuracy.", [(50.0, "%")]),
        ("In inference, Foo's upload size is only 1/3 of the benchmark's.", [(33.33, "%")]),
        ("Foo's upload size is only half of the benchmark's.", [(50.0, "%")]),
        ("Foo shrinks the images by 1/2 -- 1/3 with little loss.", [((33.33, 50.0), "%")]),
    ],
)
def test_word_numbers_are_values(text, expected):
    assert values(text) == expected


def test_halving_as_a_setting_is_not_a_result():
    assert values("Throughput is measured as the batch halves at each step.") == []


@pytest.mark.parametrize(
    "text",
    [
        "When the batch size doubles, the step takes longer.",
        "We double the number of GPUs for the second run.",
        "Doubling the sequence length is left to future work.",
        "The cluster, doubled in size, is used for the last run.",
        "Double buffering overlaps copies with compute.",
        "The model is fit to the collected data triples, using a bounded solver.",
        "The run of 2024/1/2 used 3/4 of the nodes.",
        "We measure throughput until less than half of the nodes remain.",
        "Only half of the feed-forward blocks are experts, about 1/8th of the way through training.",
    ],
)
def test_a_doubled_setting_is_not_a_result(text):
    assert values(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Foo cuts cost by 15–\n40% over Bar.", [((15.0, 40.0), "%")]),
        ("Foo cuts build time by 21--29% over Bar.", [((21.0, 29.0), "%")]),
        ("It is 1.3-16x faster than Bar.", [((1.3, 16.0), "x")]),
        ("基线分别仅实现 -57%、-41% 和 12% 的重叠效率。", [(-57.0, "%"), (-41.0, "%"), (12.0, "%")]),
    ],
)
def test_ranges_and_signs(text, expected):
    assert values(text) == expected


def test_a_per_device_rate_keeps_its_scope_in_the_metric():
    rows = claims_of("Foo trains at 4,300 tokens/s per GPU and moves 12.8 Tbps per node.")
    by_text = {c["text"]: c for c in rows}
    tokens = by_text["4,300 tokens/s per GPU"]
    assert (tokens["value"], tokens["unit"], tokens["measure"]) == (4300.0, "tokens/s", "throughput")
    assert tokens["metric"].endswith("per GPU")
    assert by_text["12.8 Tbps per node"]["metric"].endswith("per node")
    (cluster,) = claims_of("Foo trains at 4,300 tokens/s.")
    assert "per" not in (cluster["metric"] or "")


def test_a_per_gpu_throughput_is_checked_against_a_per_gpu_prediction():
    """From the sentence to the cost model: the cluster's predicted tokens/s, stated per GPU, is consistent;
    the same figure read as the cluster's would be far off."""
    from assay.checks import ClaimSetting, Predictor, check_with_cost_model

    def check(sentence: str):
        (row,) = [c for c in claims_of(sentence) if c["unit"] == "tokens/s"]
        return check_with_cost_model(ClaimSetting.from_row(row), Predictor.from_fit_row(None))

    probe = check("Foo trains GPT-3 13B on 64 A100 GPUs at 1,000 tokens/s.")
    assert probe.observed, probe.reason
    per_gpu = round(probe.observed / 64)
    scoped = check(f"Foo trains GPT-3 13B on 64 A100 GPUs at {per_gpu:,} tokens/s per GPU.")
    assert scoped.observed == pytest.approx(per_gpu, rel=0.02)
    assert scoped.verdict == "consistent", scoped.reason
    unscoped = check(f"Foo trains GPT-3 13B on 64 A100 GPUs at {per_gpu:,} tokens/s.")
    assert unscoped.verdict != "consistent"


def claims_of_file(path) -> list[dict]:
    records, failures = get_operator("read_paper").run([{"source_uri": str(path)}])
    assert not failures
    segmented, _ = get_operator("segment_text").run(records)
    extracted, _ = get_operator("extract_knowledge").run(segmented, model="blank", parse="none")
    return extracted[0]["claims"]


_MD_TABLES = """# Foo: fast sharing

Foo shares accelerators between tenants.

## Results

Table 2: speedup of Foo over Bar per model.

| model | speedup |
|-------|---------|
| BERT-large | 2.4x |
| GPT-2 | 1.9× |

Table 3: training hyperparameters.

| hyperparameter | value |
|----------------|-------|
| dropout | 10% |
| warmup | 5% |
"""


def test_a_results_table_row_states_a_claim_and_a_hyperparameter_table_does_not(tmp_path):
    path = tmp_path / "foo.md"
    path.write_text(_MD_TABLES, encoding="utf-8")
    found = sorted((c["value"], c["unit"]) for c in claims_of_file(path))
    assert found == [(1.9, "x"), (2.4, "x")]


def test_a_latex_overhead_table_keeps_its_percentages(tmp_path):
    source = (
        "\\documentclass{article}\\begin{document}\\title{Foo}\\maketitle\\section{Evaluation}"
        "Foo's probes cost little.\\begin{table}\\caption{Probe overhead of Foo compared with Bar.}"
        "\\begin{tabular}{lrr}Probe & Foo & Bar \\\\ \\hline blockstat & 4\\% & 61\\% \\\\ "
        "memtrace & 7\\% & 70\\% \\\\ \\end{tabular}\\end{table}\\end{document}"
    )
    path = tmp_path / "foo.tex"
    path.write_text(source, encoding="utf-8")
    found = sorted(c["value"] for c in claims_of_file(path) if c["unit"] == "%")
    assert found == [4.0, 7.0, 61.0, 70.0]


def test_figure_axes_are_not_claims():
    assert values("Foo is fast.\n\n100% 80% 60% 40% 20% 0%\n\nIt helps.") == []
