"""Round 11 of the claim and attribution rules (issue 26), each from what a clause, a number or a Markdown post's
structure says, not from names. Own-worded sentences about invented systems, each through the whole extraction
(``extract_knowledge``, or ``read_paper`` first for a file), with the rules alone and with the trained parse where
installed (``papers_bound``)."""

from __future__ import annotations

from papers_extract import claims_in_order, extracted_claims, file_claims
from test_papers_pdf import make_paper
from test_papers_pdf_tables import LEFT, _table

from assay.dsl import get_operator

_OWN = "We present Marlin, a checkpointing library. Marlin cuts recovery time by 35% over Kestrel. "


def test_a_technique_set_against_another_choice_by_the_sentence_opener_is_the_subject(papers_bound):
    # "Compared to X, <technique> <verb of change> ... by N": the technique, not the paper's system (D2), for
    # every number of the clause
    found = claims_in_order(
        _OWN + "Compared to full snapshots, checkpointing with deltas reduces stall time by up to 2.4x for "
        "small jobs, and by up to 3.1x for large jobs.",
        papers_bound,
    )
    last = found[-2:]
    assert [c["value"] for c in last] == [2.4, 3.1]
    assert all(c["subject"] == "checkpointing with deltas" for c in last)
    assert all(c["versus"] == "full snapshots" for c in last)


def test_the_papers_system_or_a_named_system_after_the_opener_stays_the_subject(papers_bound):
    found = claims_in_order(
        _OWN + "Compared to full snapshots, Marlin reduces stall time by 2.4x. "
        "Compared to full snapshots, sharding across Kestrel nodes reduces stall time by 1.2x.",
        papers_bound,
    )
    assert [c["subject"] for c in found[-2:]] == ["Marlin", "Marlin"]


def test_a_conjunct_leaving_out_comparative_and_baseline_keeps_the_earlier_baseline(papers_bound):
    # "N x worse than X at A, and M x at B": the second number is compared with X too
    found = claims_in_order(
        _OWN + "Sharded writes fill the queue and give 1.8x worse throughput than Kestrel at low load, and "
        "2.5x at high load.",
        papers_bound,
    )
    assert [(c["value"], c["versus"]) for c in found[-2:]] == [(1.8, "Kestrel"), (2.5, "Kestrel")]


def test_a_share_that_a_clause_subject_wastes_is_that_subjects(papers_bound):
    # D1: "<part> waste N% of <whole>": the share is of the part the clause names, not the paper's system
    found = claims_in_order(
        _OWN + "We find that existing stores waste 30% – 50% of disk space due to duplication.",
        papers_bound,
    )
    assert found[-1]["subject"] == "existing stores"
    assert found[-1]["versus"] is None


def test_a_percent_with_a_plus_sign_is_at_least_that_number(papers_bound):
    found = claims_in_order(_OWN + "A new flush order can raise throughput by 12+% at no memory cost.", papers_bound)
    assert [(c["value"], c["unit"]) for c in found[-1:]] == [(12.0, "%")]


def test_an_emphasised_second_number_ends_the_first_baseline(papers_bound):
    # "than X and up to **N x** higher than Y": the bold second number opens its own comparison
    found = claims_in_order(
        _OWN + "In our runs, Marlin achieves up to **12x** higher throughput compared to Kestrel and up to "
        "**2.5x** higher throughput than Quill.",
        papers_bound,
    )
    assert [(c["value"], c["versus"]) for c in found[-2:]] == [(12.0, "Kestrel"), (2.5, "Quill")]


def test_a_posts_front_matter_summary_is_read_as_its_text(tmp_path):
    post = (
        "---\n"
        'title: "Marlin 2 is out"\n'
        'summary: "What Marlin 2 brings: up to 3x faster recovery than Kestrel, and cheaper storage."\n'
        "tags:\n  - release\n"
        "---\n\n"
        "We present Marlin 2, a checkpointing library. Marlin 2 is 1.5x faster than Kestrel on large models.\n"
    )
    found = sorted(file_claims(tmp_path, post, "post.md"), key=lambda c: c["start"])
    assert [(c["value"], c["versus"]) for c in found] == [(3.0, "Kestrel"), (1.5, "Kestrel")]


#: A wide scaling table whose header is stacked over two lines, two of its columns' first lines ("Share of",
#: "Achieved") set closer than an em, so PDFium runs them into one line over both columns; the stacked
#: header is longer than a body row may be.
WIDE_TABLE = [
    (54, 9, "Table 2: Weak scaling of Quill on more GPUs."),
    (54, 7, "Number of", 110, "Attention", 160, "Hidden", 210, "Pipeline stages", 290, "Number of", 350,
     "Achieved", 420, "Share of", 452, "Achieved"),
    (54, 7, "size (B)", 110, "heads", 160, "width", 210, "per replica", 290, "GPUs in total", 350,
     "TFLOP/s per GPU", 420, "rated peak", 470, "PFLOP/s overall"),
    (54, 7, "1.3", 110, "16", 160, "2048", 210, "1", 290, "64", 350, "120", 420, "41%", 470, "7.7"),
    (54, 7, "6.7", 110, "32", 160, "4096", 210, "2", 290, "128", 350, "126", 420, "43%", 470, "16.1"),
]


def test_column_names_run_into_one_pdf_line_stay_apart_and_a_share_header_sets_the_baseline(tmp_path):
    # "Share of <reference>" over a column of percents: each cell is measured against the reference (D1), the
    # neighbour column's "Achieved" no part of its name, and the long stacked header still a table's
    page = [(150, 740, 16, "Quill: Checkpoints Without the Stall")]
    page += [(54, 700 - 12 * n, 10, line) for n, line in enumerate(LEFT)]
    page += _table(WIDE_TABLE, 590)
    path = tmp_path / "quill_wide.pdf"
    path.write_bytes(make_paper([page], title="Quill"))
    records, failures = get_operator("read_paper").run([{"source_uri": str(path)}])
    assert not failures, failures
    found = [c for c in extracted_claims(records[0]["text"], source_uri=str(path)) if c["unit"] == "%"]
    assert [(c["value"], c["versus"]) for c in found] == [(41.0, "rated peak"), (43.0, "rated peak")]


def test_a_pair_of_shares_set_side_by_side_are_both_of_the_peak_written_after_them(papers_bound):
    # "(A% vs. B% of peak)": the first share is of the peak too, not of the comparison before the bracket
    found = claims_in_order(
        _OWN + "Kestrel trains large models but with lower throughput than what Marlin reaches (48% vs. 31% "
        "of peak).",
        papers_bound,
    )
    assert [(c["value"], c["versus"]) for c in found[-2:]] == [(48.0, "peak"), (31.0, "peak")]


def test_a_name_given_in_an_apposition_does_not_make_the_sentence_a_definition(papers_bound):
    # "a technique we call X, to ...": the naming ends at its comma; "we call <thing> <adj> when ..." still
    # defines a term, no result
    found = claims_in_order(
        _OWN + "Snapshots go to memory first and to disk later, a scheme we call Marlin, to keep long jobs "
        "running near full speed (47% of peak device throughput) across a cluster. We call a layout balanced "
        "when it keeps 90% of its links busy.",
        papers_bound,
    )
    assert [(c["value"], c["versus"]) for c in found[1:]] == [(47.0, "peak device throughput")]


def test_the_measured_effect_of_a_tuned_settings_optimal_value_is_a_claim(papers_bound):
    # "the optimal value of <setting> ... can increase throughput by N": measured, not an ideal's property;
    # "an ideal schedule would reach N%" stays out
    found = claims_in_order(
        _OWN + "In our experiments, the optimal value of the block size is job-dependent and can increase "
        "throughput by 15%. An ideal schedule would keep 100% of the links busy.",
        papers_bound,
    )
    assert [c["value"] for c in found[1:]] == [15.0]


def test_a_bare_this_moving_the_number_to_a_new_value_keeps_the_previous_comparison(papers_bound):
    # "This grows to N x on <setting>": the previous sentence's ratio again, against the same baseline
    found = claims_in_order(
        _OWN + "On one node, Marlin is faster than Quill by 1.4x. This grows to 9x on 64 nodes, when the "
        "writes cross racks.",
        papers_bound,
    )
    assert [(c["value"], c["subject"], c["versus"]) for c in found[-2:]] == [
        (1.4, "Marlin", "Quill"),
        (9.0, "Marlin", "Quill"),
    ]


def test_a_demonstrative_after_an_opening_adverbial_points_back_too(papers_bound):
    # "With <setting> (...), this speedup drops to N%": the opener does not hide the pointing back
    found = claims_in_order(
        _OWN + "At small scale, Marlin is up to 1.6x faster than Quill. With more shards per rank (64 in "
        "all), this speedup drops to 12%.",
        papers_bound,
    )
    assert [(c["value"], c["versus"]) for c in found[-2:]] == [(1.6, "Quill"), (12.0, "Quill")]


def test_a_known_technique_in_plain_words_causing_a_change_is_the_system_with_it(papers_bound):
    # "<known technique> leads to N% lower ...": the paper's system run with it (D2), as an unlisted
    # component is; a capitalised name causing a change stays its own subject
    found = claims_in_order(
        _OWN + "For short jobs, gradient checkpointing leads to up to 21% lower throughput due to the extra "
        "pass. ZeRO leads to 30% lower memory use.",
        papers_bound,
    )
    assert [(c["value"], c["subject"], c["versus"]) for c in found[1:]] == [
        (21.0, "Marlin with gradient checkpointing", None),
        (30.0, "ZeRO", None),
    ]


def test_the_length_a_run_is_set_to_is_no_claim(papers_bound):
    # "when X is run for N% fewer iterations": a setting of the run; "converges in N% fewer" is a result
    found = claims_in_order(
        _OWN + "The losses match exactly when Kestrel is run for 25% fewer iterations. Marlin converges in "
        "20% fewer iterations than Kestrel.",
        papers_bound,
    )
    assert [c["value"] for c in found[1:]] == [20.0]


def test_a_product_whose_next_factor_opens_a_sum_is_a_formula(papers_bound):
    # "is 4 ×" / "1 + 2k": a displayed equation's product broken over lines, no ratio
    found = claims_in_order(
        _OWN + "As a result, the total count per layer\nis 4 ×\n1 + 2k\nwhen k is small. Marlin is 2x faster "
        "than Kestrel.",
        papers_bound,
    )
    assert [c["value"] for c in found[1:]] == [2.0]
