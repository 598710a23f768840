"""Who a level belongs to and what a phrase after "over" is, in evaluation prose (own-worded, each through the
whole extraction):

* coordinated names that are the subject of the verb stating a list of numbers take them in order, the paper's
  own among them ("Dymem and SwapNet reach 95% and 97%"), as "respectively" would say;
* "for HPC" after a level names a class of workloads where the text writes "HPC workloads", not a system;
* a class of other systems named after the measure ("40% memory waste in existing frameworks") owns it;
* "accesses over the interconnect" is a path, not a baseline (nor, counted twice, a section's default);
* a measure that moves to the number ("the throughput is decreased to 84%") states a result, even where an
  earlier clause set a configuration ("when the batch is configured to 256, ...")."""

from __future__ import annotations

from papers_extract import claims_in_order

OPENING = "We present Dymem, a memory manager. We compare Dymem with SwapNet and vDNN. "


def test_coordinated_subjects_of_the_verb_take_the_numbers_in_order(papers_bound):
    found = claims_in_order(
        OPENING + "From the results, Dymem and SwapNet reach an average of 95% and 97% of the ideal throughput. "
        "Dymem and SwapNet are trained on 8 GPUs, and Dymem cuts memory by 30% and 20%.",
        papers_bound,
    )
    assert [(c["value"], c["subject"]) for c in found] == [
        (95.0, "Dymem"),
        (97.0, "SwapNet"),
        (30.0, "Dymem"),
        (20.0, "Dymem"),
    ]


def test_a_class_of_workloads_after_for_is_no_owner(papers_bound):
    found = claims_in_order(
        OPENING + "Dymem reaches 1.9x on HPC workloads. The average host accesses are 0.08% for HPC and 4% for "
        "DL workloads. Exact match is 38.5% for DenseTune and 40.2% for SlimTune.",
        papers_bound,
    )
    assert [(c["value"], c["subject"]) for c in found] == [
        (1.9, "Dymem"),
        (0.08, "Dymem"),
        (4.0, "Dymem"),
        (38.5, "DenseTune"),
        (40.2, "SlimTune"),
    ]


def test_accesses_over_a_link_name_no_baseline(papers_bound):
    found = claims_in_order(
        OPENING + "The naive mode reaches 1.5x for HPC workloads, with 8% accesses over the interconnect for HPC, "
        "and 32% for DL. Dymem makes 3% reads over the slow link.",
        papers_bound,
    )
    assert [(c["value"], c["versus"]) for c in found] == [(1.5, None), (8.0, None), (32.0, None), (3.0, None)]


def test_a_measure_moving_to_the_number_is_a_result_after_a_configured_clause(papers_bound):
    found = claims_in_order(
        OPENING + "However, when the batch size of VGG-16 is configured to 256, the average throughput is "
        "decreased to 84% running in vDNN. The batch was fixed at 96, which is 1.8x larger than before.",
        papers_bound,
    )
    assert [c["value"] for c in found] == [84.0]


def test_the_class_of_other_systems_named_after_the_measure_owns_it(papers_bound):
    found = claims_in_order(
        OPENING + "We have observed over 40% GPU memory waste in existing pipeline parallel training frameworks. "
        "Dymem cuts memory waste by 30% in our runs.",
        papers_bound,
    )
    assert [(c["value"], c["subject"]) for c in found] == [
        (40.0, "existing pipeline parallel training frameworks"),
        (30.0, "Dymem"),
    ]


def test_a_link_after_over_names_no_baseline(papers_bound):
    found = claims_in_order(
        OPENING + "With four stages, a 4x transfer of 128 MB over a PCIe 3.0 x16 link takes less than 40 ms to "
        "finish. Dymem is 1.5x faster than SwapNet on every model.",
        papers_bound,
    )
    assert [(c["value"], c["versus"]) for c in found] == [(4.0, None), (1.5, "SwapNet")]
