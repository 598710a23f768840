"""A share of a whole is the part's that takes it (D1): the part may be named after the share ("29% of the step
time is spent on scheduling") or open a list item ("• The HTTP server takes 33% of the time"). Own-worded
texts through the whole extraction."""

from __future__ import annotations

from papers_extract import claims_in_order


def test_the_part_a_share_is_spent_on_is_its_subject(papers_bound):
    found = claims_in_order(
        "We present Quill, a serving engine.\n\n• The HTTP front end takes 33% of the total step time.\n• 29% of "
        "the total step time is spent on scheduling, including batching.\n\nFinally, only 38% of the time was "
        "spent on the actual GPU execution for LLMs. Only 10% of memory is used for weights.\n",
        papers_bound,
    )
    assert [(c["value"], c["subject"]) for c in found] == [
        (33.0, "HTTP front end"),
        (29.0, "scheduling"),
        (38.0, "GPU execution"),
        (10.0, "weights"),
    ]


def test_a_measure_after_spent_on_is_no_part(papers_bound):
    found = claims_in_order(
        "We present Quill, a serving engine. With Quill, 20% of the step time is spent on the overhead.",
        papers_bound,
    )
    assert [(c["value"], c["subject"]) for c in found] == [(20.0, "Quill")]


def test_a_share_of_the_total_names_no_baseline(papers_bound):
    found = claims_in_order(
        "We present Quill, a prefix cache. The load from SSD accounts for 51%-98% of the total TTFT.", papers_bound
    )
    assert [(c["value_low"], c["value_high"], c["subject"], c["versus"]) for c in found] == [
        (51.0, 98.0, "load from SSD", None)
    ]


def test_a_study_with_no_system_of_its_own_gives_a_share_to_its_part(papers_bound):
    found = claims_in_order(
        "This study measures inference on CPUs. When summing up both dense and batched runtime portions, the "
        "matmul operations consume between 66.2% and 91.5% of the total runtime. For short inputs, the share of "
        "the time spent in the layer normalization operation grows from 2.9% for 1 thread to 12% for 16 threads.",
        papers_bound,
    )
    assert [(c["value_low"], c["subject"]) for c in found] == [
        (66.2, "matmul operations"),
        (2.9, "layer normalization operation"),
    ]


def test_a_share_in_a_relative_or_coordinated_clause_is_the_main_clauses_part(papers_bound):
    found = claims_in_order(
        "We present Quill, a serving engine.\n\nIn our study, queue polling is the main reason that delays "
        "decoding steps (41%-77%). As Figure 2 shows, the weight loading stall for most of these models is long "
        "despite prefetching, and consumes up to 58% of the cold-start time.\n\nFigure 3: [Llama on 8 GPUs] KV "
        "block copies occupy 4 ms to 19 ms (12% to 30%) of each step.\n",
        papers_bound,
    )
    assert [(c["value_low"] or c["value"], c["subject"]) for c in found] == [
        (41.0, "queue polling"),
        (58.0, "weight loading stall"),
        (12.0, "KV block copies"),
    ]


def test_a_measure_that_is_a_share_keeps_its_system(papers_bound):
    found = claims_in_order(
        "We present Quill, a serving engine.\n\nThe total overhead of profiling sampled batches is 3% of the "
        "serving time.\n",
        papers_bound,
    )
    assert [(c["value"], c["subject"]) for c in found] == [(3.0, "Quill")]


def test_a_share_of_a_population_opening_its_clause_is_the_populations(papers_bound):
    found = claims_in_order(
        "We present Quill, a serving engine.\n\nFigure 2 shows that 70% of nodes host only one replica for a "
        "week, and over 40% of the replicas belong to small endpoints. With Quill, about 12% of requests miss "
        "their deadline.\n",
        papers_bound,
    )
    assert [(c["value"], c["subject"]) for c in found] == [(70.0, "nodes"), (40.0, "replicas"), (12.0, "Quill")]


def test_a_one_word_part_and_the_time_taken_by_a_part(papers_bound):
    found = claims_in_order(
        "We present Quill, a serving engine.\n\nAll-reduce takes 61.5% of the running time of one layer. With "
        "more devices, the time taken by all-reduce grows from 30.2% to 41.7% of the step time. It takes 12% of "
        "the memory.\n",
        papers_bound,
    )
    assert [(c["value"] or c["value_low"], c["subject"]) for c in found[:2]] == [(61.5, "All-reduce"), (30.2, "all-reduce")]
    assert found[-1]["subject"] == "Quill"  # a pronoun is no part
