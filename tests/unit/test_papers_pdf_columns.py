"""The columns of a two-column PDF page made in the test, read through ``read_paper``: a title block set full
width over both columns (title, authors, affiliations: more lines than the few a gutter may be crossed by)
is read first and the page below it still by columns; a full-width figure in the middle of a page splits
it into bands read one after the other; a footnote set full width at the bottom is read last. The short
last line of an abstract set smaller than the body stays in its paragraph.

Read before, the title block's lines counted as lines crossing the gutter, the page was taken for one
column, and its abstract and introduction were read interleaved, line by line."""

from __future__ import annotations

from papers_extract import extracted_claims
from test_papers_pdf import make_paper

from assay.dsl import get_operator

READ = get_operator("read_paper")

#: Centred over a 612 pt page: (size, text); Helvetica is about half an em wide a character.
TITLE_BLOCK = [
    (16, "Sieve: Deadline-Aware Batching for Inference"),
    (16, "Servers on Shared Clusters of Accelerators"),
    (11, "Ada Lindqvist, Brook Osei, Caro Mendes, Dario Falk, Emil Novak, Fern Ito"),
    (11, "Gus Harlan, Hedda Quist, Ivo Brandt, Juno Park, Kit Moreau, Lior Adams"),
    (10, "Department of Computing, Northfield Institute of Technology, Lakeside"),
    (10, "Laboratory for Parallel Systems, Southmoor University, Harbour City"),
    (10, "Contact: ada.lindqvist@northfield.example, brook.osei@southmoor.example"),
]
ABSTRACT = [
    "Abstract—Inference servers batch requests to keep",
    "their accelerators busy, but a batch that waits for",
    "its last request misses the deadline of its first.",
    "We present Sieve, which orders the requests of a",
    "batch by their slack and closes a batch before the",
    "first deadline in it would be missed. On a cluster",
    "of 64 GPUs Sieve cuts the tail latency by 31% and",
    "misses 4.2x fewer deadlines than a first come, first",
    "served queue, at the same throughput.",
]
INTRO = [
    "I. INTRODUCTION",
    "Serving systems share their accelerators among many",
    "models, and each model's requests arrive in bursts.",
    "A server that batches greedily fills each batch to",
    "its largest size, so the requests that came first",
    "wait for the ones that come last. Their deadlines",
    "pass while the batch is still being formed, and the",
    "tail latency grows with the size of the batch. Sieve",
    "instead watches the slack of every queued request.",
]


def _centred(y: float, size: float, text: str) -> tuple:
    return (306 - 0.25 * size * len(text), y, size, text)


def _read(pages: list[list[tuple]], tmp_path, flat: bool = True) -> str:
    path = tmp_path / "sieve.pdf"
    path.write_bytes(make_paper(pages, title="Sieve"))
    records, failures = READ.run([{"source_uri": str(path)}])
    assert not failures, failures
    text = records[0]["text"]
    return " ".join(text.split()) if flat else text


def _first_page() -> list[tuple]:
    page = [_centred(740 - 20 * n, size, text) for n, (size, text) in enumerate(TITLE_BLOCK)]
    page += [(54, 580 - 11 * n, 9, line) for n, line in enumerate(ABSTRACT)]
    page += [(318, 580 - 12 * n, 10, line) for n, line in enumerate(INTRO)]
    return page


def test_a_title_block_over_both_columns_is_read_first_and_the_columns_after_it(tmp_path):
    text = _read([_first_page()], tmp_path)
    assert "On a cluster of 64 GPUs Sieve cuts the tail latency by 31% and misses 4.2x fewer" in text
    assert "A server that batches greedily fills each batch to its largest size" in text
    order = [text.index(s) for s in ("Sieve: Deadline", "Fern Ito", "Abstract—", "I. INTRODUCTION")]
    assert order == sorted(order)


def test_the_abstracts_claims_are_whole_sentences_after_the_title_block(tmp_path):
    text = _read([_first_page()], tmp_path, flat=False)
    claims = {c["value"]: c for c in extracted_claims(text) if c["unit"] in ("x", "%")}
    assert {31.0, 4.2} <= set(claims)
    for value in (31.0, 4.2):
        sentence = " ".join(text[claims[value]["sentence_start"] : claims[value]["sentence_end"]].split())
        assert sentence.startswith("On a cluster of 64 GPUs Sieve cuts the tail latency by 31%")
        # its short last line too: smaller than the body and short, it is no figure label (read before as one)
        assert sentence.endswith("first served queue, at the same throughput.")
        assert (claims[value]["subject"], claims[value]["section"]) == ("Sieve", "abstract")


def test_a_full_width_figure_splits_the_page_into_bands_read_in_turn(tmp_path):
    page = [(54, 740 - 11 * n, 9, line) for n, line in enumerate(ABSTRACT)]
    page += [(318, 740 - 12 * n, 10, line) for n, line in enumerate(INTRO)]
    # a figure across both columns: its labels, then a caption wider than a column
    page += [(80 + 120 * n, 610, 7, label) for n, label in enumerate(["FCFS", "Greedy", "Sieve", "Oracle"])]
    page += [
        (54, 590, 9, "Figure 1: Tail latency of each batching policy on 64 GPUs as the load grows from one"),
        (54, 579, 9, "request per second to the cluster's capacity; Sieve stays under its deadline."),
    ]
    page += [(54, 555 - 12 * n, 10, line) for n, line in enumerate(INTRO[1:])]
    page += [(318, 555 - 11 * n, 9, line) for n, line in enumerate(ABSTRACT)]
    # a footnote set full width at the page's foot
    page += [(54, 60, 8, "1 The traces come from a production cluster, replayed at their recorded rate.")]
    text = _read([page], tmp_path)
    top_left, top_right = text.index("Abstract—"), text.index("I. INTRODUCTION")
    caption = text.index("Figure 1:")
    bottom_left = text.index("Serving systems share", top_right + 20)
    bottom_right = text.index("Abstract—", top_left + 1)
    assert top_left < top_right < bottom_left < bottom_right
    assert top_right < caption
    assert text.index("The traces come from") > bottom_right


def test_captions_side_by_side_under_a_row_of_figures_each_keep_their_own_lines(tmp_path):
    # three figures in a row across the page, each with its axis labels, and under each its two-line caption:
    # read by position the captions' lines interleave (the first of each, then the second of each)
    page = [(54, 740 - 12 * n, 10, line) for n, line in enumerate(INTRO)]
    page += [(318, 740 - 11 * n, 9, line) for n, line in enumerate(ABSTRACT)]
    for x in (54, 236, 418):
        page += [(x + 10 * k, 600 - 12 * k, 7, label) for k, label in enumerate(["1.0", "0.5", "W1 W2 W3"])]
    captions = [
        ("Figure 4: Sieve keeps tail latency", "within 1.1x of the oracle's."),
        ("Figure 5: Deadlines missed per", "thousand requests by each policy."),
        ("Figure 6: Sieve cuts queueing delay", "by 2.3x over the greedy batcher."),
    ]
    for x, (first, second) in zip((54, 236, 418), captions, strict=True):
        page += [(x, 548, 9, first), (x, 537, 9, second)]
    page += [(54, 500 - 12 * n, 10, line) for n, line in enumerate(INTRO[1:])]
    page += [(318, 500 - 11 * n, 9, line) for n, line in enumerate(ABSTRACT)]
    text = _read([page], tmp_path)
    for first, second in captions:
        assert f"{first} {second}" in text
    claims = {c["value"]: c for c in extracted_claims(_read([page], tmp_path, flat=False)) if c["unit"] == "x"}
    assert (claims[2.3]["versus"], claims[1.1]["versus"]) == ("greedy batcher", "oracle")
