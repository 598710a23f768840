"""Round 12 of the attribution rules (issue 26): the name a post gives itself in its title when the title is no
"Name: tagline", and words that are never a subject (a configuration written as one word, a measure's acronym,
the data set a run used). Own-worded posts about invented systems, each through the whole path: ``read_paper`` on
a Markdown file, ``segment_text``, ``extract_knowledge``."""

from __future__ import annotations

from papers_extract import claims_in_order, file_claims


def _post(title: str, body: str) -> str:
    return f'---\nlayout: post\ntitle: "{title}"\nauthor: "The Team"\n---\n\n{body}\n'


def test_a_title_joining_a_known_host_and_a_new_project_names_the_new_one(tmp_path):
    # "<host> × <guest>: ...": the post is about what the guest brings; the host is a project the list knows
    body = (
        "This post shows what the fused kernels of the Quillon project bring to PyTorch users, and how the "
        "Quillon team built them.\n\n| Batch | Speedup |\n|---|---|\n| 8 | 1.42x |\n| 64 | 1.87x |\n"
    )
    found = file_claims(tmp_path, _post("PyTorch × Quillon: Fused Attention for Everyone", body), "post.md")
    assert [(c["value"], c["subject"]) for c in found if c["unit"] == "x"] == [(1.42, "Quillon"), (1.87, "Quillon")]


def test_a_joint_title_whose_first_name_is_the_new_one_names_the_first(tmp_path):
    body = "The kernels of the Quillon project now run inside PyTorch programs: step time drops by 23% in our tests.\n"
    found = file_claims(tmp_path, _post("Quillon x PyTorch: Faster Steps", body), "post.md")
    assert [(c["value"], c["subject"]) for c in found] == [(23.0, "Quillon")]


def test_a_lead_of_three_name_words_the_body_repeats_is_the_posts_system(tmp_path):
    body = (
        "Tern Data Pruning drops redundant samples before they reach the GPU. With Tern Data Pruning, "
        "pretraining needs 1.9x fewer tokens to reach the same loss.\n"
    )
    found = file_claims(tmp_path, _post("Tern Data Pruning: A Library That Trains on Less", body), "post.md")
    assert [(c["value"], c["subject"]) for c in found] == [(1.9, "Tern Data Pruning")]


def test_a_three_word_headline_lead_the_body_never_repeats_names_nothing(tmp_path):
    body = "We measured many kernels. The fused one gives a 1.3x speedup on long prompts.\n"
    found = file_claims(tmp_path, _post("Fast Kernel Notes: What We Learned", body), "post.md")
    assert found[0]["subject"] != "Fast Kernel Notes"


def test_a_bare_title_of_a_platform_with_what_it_gained_names_the_tables_cells(tmp_path):
    # "# <platform> with <feature>" and nothing else: the results of the post's table are that platform's
    text = (
        "# Tern with Quill kernels\n\nWe replaced some kernels of Tern with Quill kernels.\n\n"
        "| Hardware | Small | Large |\n|---|:---:|:---:|\n| A100 | 1.31x | 1.52x |\n| V100 | 1.12x | 1.20x |\n"
    )
    found = file_claims(tmp_path, text, "notes.md")
    cells = [c for c in found if c["unit"] == "x"]
    assert [c["value"] for c in cells] == [1.31, 1.52, 1.12, 1.2]
    assert {c["subject"] for c in cells} == {"Tern with Quill kernels"}


def test_a_headline_subject_that_boosts_a_system_is_the_posts_technique(tmp_path):
    body = (
        "Speculative prefill lets Tern start answering before the prompt is read. Speculative prefill needs a "
        "small draft model.\n\nAt low load the first token arrives 1.6x sooner.\n"
    )
    found = file_claims(tmp_path, _post("How Speculative Prefill Boosts Tern Latency by up to 1.6x", body), "post.md")
    # named as the body writes it most often
    assert [(c["value"], c["subject"]) for c in found] == [(1.6, "Speculative prefill"), (1.6, "Speculative prefill")]


def test_a_device_count_glued_to_its_device_and_a_parallel_degree_are_never_subjects():
    found = claims_in_order(
        "At high load we see a 1.4x slowdown for the large model with 4xH100, and a 1.8x slowdown on long "
        "inputs with 4xH100. On average 1.59x at TP8 / EP1 and 1.21x at TP1 / EP8 over Kestrel."
    )
    assert [c["value"] for c in found] == [1.4, 1.8, 1.59, 1.21]
    assert [c["subject"] for c in found] == [None, None, None, None]
    assert [c["versus"] for c in found[2:]] == ["Kestrel", "Kestrel"]


def test_the_data_set_a_run_used_is_no_subject():
    found = claims_in_order("For the large model we see a 1.2x gain on FooBench, and a 1.8x gain on BarQA.")
    assert [c["subject"] for c in found] == [None, None]


def test_a_measure_written_as_an_acronym_is_no_clause_subject():
    found = claims_in_order(
        "TTFT drops by about 24% on average versus the default backend, and TPOT by about 17%. As high QPS, "
        "we see a 1.4x slowdown."
    )
    assert [c["value"] for c in found] == [24.0, 17.0, 1.4]
    assert [c["subject"] for c in found] == [None, None, None]


def test_over_opening_a_bracketed_scope_or_after_averaged_is_no_baseline():
    found = claims_in_order(
        "Quill kernels reduce the average latency (over different sequence lengths) by 6-24%. Averaged over "
        "five seeds, Quill kernels cut memory by 12%."
    )
    assert [c["value_low"] if c["value_low"] else c["value"] for c in found] == [6.0, 12.0]
    assert [c["versus"] for c in found] == [None, None]


def test_a_measurement_studys_table_rows_are_what_their_labels_name(tmp_path):
    # a paper that proposes no system: each row's label (each half's own label where two halves sit side by
    # side) is what its cells measure, not a name nearest before the cell in the flattened table
    text = (
        "# Where the time goes in benchmark entries\n\nWe study the entries of a public benchmark.\n\n"
        "| Entry | Overhead | Entry | Overhead |\n|---|---|---|---|\n"
        "| FooNet, 8xV100 | 5.3% | FooNet, 1xTPU | 4.5% |\n| BarNet, 32xV100 | 11.2% | BazNet, 1xTPU | 2.3% |\n"
    )
    found = file_claims(tmp_path, text, "study.md")
    assert [(c["value"], c["subject"]) for c in found] == [
        (5.3, "FooNet, 8xV100"),
        (4.5, "FooNet, 1xTPU"),
        (11.2, "BarNet, 32xV100"),
        (2.3, "BazNet, 1xTPU"),
    ]


def test_a_column_per_device_against_a_device_the_caption_names_is_a_hardware_comparison(tmp_path):
    # "speedups with respect to a K80": each column's device (after the measure) against the caption's device
    text = (
        "# Cost of training on rented GPUs\n\nWe measure throughput on three GPU generations.\n\n"
        "| Model | Throughput / P100 | Throughput / V100 |\n|---|---|---|\n"
        "| FooNet | 3.1× | 5.2× |\n| BarNet | 1.4× | 2.6× |\n\n"
        "Table 1: Throughput speedups with respect to a NVIDIA K80 GPU.\n"
    )
    found = file_claims(tmp_path, text, "study.md")
    assert [(c["value"], c["subject"], c["versus"]) for c in found] == [
        (3.1, "P100", "K80"),
        (5.2, "V100", "K80"),
        (1.4, "P100", "K80"),
        (2.6, "V100", "K80"),
    ]


def test_a_company_is_never_the_subject():
    # a vendor in the possessive before the device it makes: neither is a system whose result the number is
    found = claims_in_order(
        "While one of NVIDIA's more recent offerings, the V100, is fastest for every model, its speedup varies "
        "from 2.2× to 9.6× across models."
    )
    assert [c["subject"] for c in found] == [None]


def test_a_column_saying_whose_each_row_is_names_the_subject_and_its_reference_row_the_baseline(tmp_path):
    # a "Backend" column over Baseline / Quill / Tern: each row's figure is its backend's against the reference
    # row's; the reference's own 1.0x is the normalisation, no claim; a cell may carry a mark after its figure
    text = (
        "# Quill: caching for image models\n\nWe present Quill, a cache for diffusion models.\n\n"
        "| Model | Backend | Config | Time | Speedup |\n|---|---|---|---|---|\n"
        "| **FooNet** | Baseline | None | 20.0s | 1.0x |\n"
        "| **FooNet** | **Quill** | `a=1` | 10.5s | **1.91x** ⚡ |\n"
        "| **FooNet** | **Tern** | b=2 | 10.8s | **1.85x** ⚡ |\n"
    )
    found = file_claims(tmp_path, text, "post.md")
    assert [(c["value"], c["subject"], c["versus"]) for c in found] == [
        (1.91, "Quill", "Baseline"),
        (1.85, "Tern", "Baseline"),
    ]


def test_a_capitalised_compound_of_ordinary_words_opening_list_items_is_no_system(tmp_path):
    # "First-time requests: ..." opens two lines with a verb after it: a condition, not a name the post proposes
    body = (
        "Shared Buffer Caching keeps decoded inputs in shared memory. Shared Buffer Caching avoids copies.\n\n"
        "First-time requests see all of the work.\n\n"
        "- **First-time requests**: Prefill throughput improved by **11.5%**\n"
        "- **Cached requests**: Prefill throughput increased by **69.9%**\n"
    )
    found = file_claims(tmp_path, _post("Shared Buffer Caching: Faster Transfers", body), "post.md")
    assert [(c["value"], c["subject"]) for c in found] == [
        (11.5, "Shared Buffer Caching"),
        (69.9, "Shared Buffer Caching"),
    ]


def test_a_coined_name_opening_the_clause_is_its_subject_though_no_list_knows_it():
    # a name with a capital inside ("FooCache", "LatencyBudget") that opens the clause and is followed by its
    # verb is what the clause measures, not the paper's own system; two joined by "and" together
    found = claims_in_order(
        "We present Kestrel, a scheduler. Under moderate load (a), both Greedy and LatencyBudget reduce latency "
        "by 11%, as stealing reclaims idle time. FooCache lowers stalls by 2x. Kestrel cuts them by 3x, and it "
        "beats BarQueue by 40%."
    )
    assert [(c["value"], c["subject"]) for c in found] == [
        (11.0, "Greedy and LatencyBudget"),
        (2.0, "FooCache"),
        (3.0, "Kestrel"),
        (40.0, "Kestrel"),
    ]


def test_a_system_named_by_the_acronym_it_defines_is_called_by_it():
    # "we call Load-aware Stage Packing (LSP)": the paper writes LSP after that, so its results are LSP's
    found = claims_in_order(
        "We present Load-aware Stage Packing (LSP), a novel method that saves 66% of the memory. We integrate "
        "LSP in Kestrel. On 512 GPUs, LSP reduces the step time by 40%. Overall, our method is 34% faster than "
        "Kestrel alone."
    )
    assert [(c["value"], c["subject"]) for c in found] == [(66.0, "LSP"), (40.0, "LSP"), (34.0, "LSP")]


def test_over_after_amortized_is_a_span_not_a_baseline():
    found = claims_in_order(
        "We present Quill, a data mover. Copying the data set costs 20% more time, amortized over many jobs. "
        "Quill cuts the copy time by 3x."
    )
    assert [(c["value"], c["versus"]) for c in found] == [(20.0, None), (3.0, None)]


def test_a_formulas_variable_with_flattened_subscripts_is_no_system():
    # "X_{mj}" read out of a PDF as "Xmj", opening sentences with a verb: a variable, not the paper's system
    found = claims_in_order(
        "We represent allocations as matrices X. Xmj is the fraction of time job m spends on type j. Xmj is "
        "bounded by the quota. Moving jobs between instance types can cut the cost of training by 3.5x."
    )
    assert [(c["value"], c["subject"]) for c in found] == [(3.5, "Moving jobs between instance types")]


def test_a_baseline_named_with_a_dot_inside_stays_whole():
    # "llama.cpp", "Node.js": a dot before a lower-case letter is inside the name; one before a capital ends it
    found = claims_in_order(
        "We present Tern, an inference engine. Tern outperforms llama.cpp by up to 11.69x while keeping model "
        "accuracy. The average speedup compared with llama.cpp is 2.89x. Tern is 1.4x faster than FooServe.Next, "
        "we study memory."
    )
    assert [(c["value"], c["versus"]) for c in found] == [(11.69, "llama.cpp"), (2.89, "llama.cpp"), (1.4, "FooServe")]


def test_that_achieved_by_names_whose_measure_the_pronoun_stands_for():
    found = claims_in_order(
        "We present Tern, an inference engine. On one consumer GPU, Tern is only 18% slower than that\n"
        "achieved by BarServe on a server GPU."
    )
    assert [(c["value"], c["versus"]) for c in found] == [(18.0, "BarServe")]


def test_a_list_of_baselines_the_numbers_follow_as_its_predicate_pairs_in_order():
    # "the average speedup over A, B, C and D is w, x, y and z", with or without "respectively": the i-th
    # number is against the i-th system; the names are baselines, not the subjects of the numbers
    found = claims_in_order(
        "We present Tern, an inference engine. The average speedup over FooServe, BarRT, BazLLM, and FlashFoo "
        "is 1.24x, 1.44x, 1.13x, and 1.21x. The average speedup over FooServe, BarRT and FlashFoo is 1.05x, "
        "1.06x, and 1.09x, respectively."
    )
    assert [(c["value"], c["subject"], c["versus"]) for c in found] == [
        (1.24, "Tern", "FooServe"),
        (1.44, "Tern", "BarRT"),
        (1.13, "Tern", "BazLLM"),
        (1.21, "Tern", "FlashFoo"),
        (1.05, "Tern", "FooServe"),
        (1.06, "Tern", "BarRT"),
        (1.09, "Tern", "FlashFoo"),
    ]


def test_a_title_ending_in_what_its_work_is_done_with_names_the_posts_system(tmp_path):
    # round 22: "<what it does> with <Name ...>" names the post's system at the title's end
    body = (
        "## Introduction\n\nSwitching between two models means a full reload today. qServe Warm Pool keeps the "
        "process, its kernels and its graphs alive while the weights sleep.\n\n"
        "## Results\n\n**70% faster first inference** for warmed models vs cold starts.\n\n"
        "With qServe Warm Pool, the total time of five switches drops by 62%.\n"
    )
    found = file_claims(tmp_path, _post("Zero-Reload Model Switching with qServe Warm Pool", body), "post.md")
    assert [(c["value"], c["subject"]) for c in found] == [(70.0, "qServe Warm Pool"), (62.0, "qServe Warm Pool")]
