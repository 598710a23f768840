"""IEEE-style headings of a two-column PDF made in the test, read through ``read_paper`` and the extractor:
roman-numbered section headings in capitals (``I. INTRODUCTION``, ``IV. EVALUATION``) and lettered
sub-headings (``A. Setup``) each stay a line of their own, so each claim is in its section.

The smaller abstract's last paragraph (``Index Terms—...``, set in by its indent, its second line short and
hyphenated into) ended right above the first heading: its short last line was set apart as a figure label,
the hyphen joined ``communi-`` to the heading's number (``communi-I.``), and the heading was lost."""

from __future__ import annotations

from papers_extract import extracted_claims
from test_papers_pdf import make_paper

from assay.dsl import get_operator

READ = get_operator("read_paper")

ABSTRACT = [
    (62, "Abstract—Sieve orders the requests of each batch"),
    (54, "by their slack, and closes a batch before the first"),
    (54, "deadline in it would pass, at the same throughput."),
    (62, "Index Terms—serving, batching, deadlines, communi-"),
    (54, "cation, accelerators"),
]
LEFT = [
    "I. INTRODUCTION",
    "Serving systems share accelerators among models,",
    "and requests arrive in bursts. A greedy server fills",
    "each batch to its largest size, so early requests",
    "wait for late ones. Prior schedulers such as Clipper",
    "cut the tail latency by 12% with adaptive batching.",
    "Sieve watches the slack of every queued request",
    "and sends a batch as soon as one of them runs out.",
]
RIGHT = [
    "IV. EVALUATION",
    "A. Setup",
    "We run every policy on 64 GPUs with traces of four",
    "services, replayed at their recorded rates; the first",
    "come, first served queue (FCFS) is the baseline.",
    "B. Tail latency",
    "Sieve cuts the 99th percentile latency by 2.7x and",
    "misses 41% fewer deadlines on the busiest trace. It",
    "keeps the throughput of the greedy policy within a",
    "margin of one request per second in every run.",
]


def _claims(tmp_path) -> dict[float, dict]:
    page = [(x, 700 - 11 * n, 9, line) for n, (x, line) in enumerate(ABSTRACT)]
    page += [(54, 640 - 12 * n, 10, line) for n, line in enumerate(LEFT)]
    page += [(318, 700 - 12 * n, 10, line) for n, line in enumerate(RIGHT)]
    path = tmp_path / "sieve.pdf"
    path.write_bytes(make_paper([page], title="Sieve"))
    records, failures = READ.run([{"source_uri": str(path)}])
    assert not failures, failures
    text = records[0]["text"]
    lines = [" ".join(line.split()) for line in text.splitlines()]
    for heading in ("I. INTRODUCTION", "IV. EVALUATION", "A. Setup", "B. Tail latency"):
        assert heading in lines
    assert "communication, accelerators" in " ".join(text.split())
    return {c["value"]: c for c in extracted_claims(text) if c["unit"] in ("x", "%")}


def test_roman_numbered_headings_in_capitals_put_each_claim_in_its_section(tmp_path):
    claims = _claims(tmp_path)
    assert claims[12.0]["section"] == "introduction"
    assert claims[2.7]["section"] == "evaluation"
    assert claims[41.0]["section"] == "evaluation"


def _sections(tmp_path, left: list[str], right: list[str]) -> dict[float, str]:
    page = [(54, 700 - 12 * n, 10, line) for n, line in enumerate(left)]
    page += [(318, 700 - 12 * n, 10, line) for n, line in enumerate(right)]
    path = tmp_path / "paper.pdf"
    path.write_bytes(make_paper([page], title="Sieve"))
    records, failures = READ.run([{"source_uri": str(path)}])
    assert not failures, failures
    return {c["value"]: c["section"] for c in extracted_claims(records[0]["text"]) if c["unit"] in ("x", "%")}


def test_a_numbered_sub_section_is_in_its_sections_kind(tmp_path):
    # ACM style: "6.2 End-to-End Latency" is part of "6 Evaluation", not a section of no kind
    left = [
        "5 Implementation",
        "Sieve is written in 9,000 lines of Rust and runs as",
        "a sidecar next to each model server on the node.",
        "6 Evaluation",
        "6.1 Methodology",
        "We replay four production traces on 64 GPUs and",
        "compare Sieve with a first come, first served queue.",
    ]
    right = [
        "6.2 End-to-End Latency",
        "Sieve cuts the 99th percentile latency by 2.7x on",
        "the busiest trace and by 1.9x on the quietest one.",
        "7 Related Work",
        "7.1 Batching Policies",
        "Clipper adapts the batch size to the load and cuts",
        "its tail latency by 12% over a fixed batch size.",
    ]
    sections = _sections(tmp_path, left, right)
    assert sections[2.7] == sections[1.9] == "evaluation"
    assert sections[12.0] != "evaluation"


def test_a_performance_results_section_is_the_evaluation(tmp_path):
    left = [
        "IV. HOW PERFORMANCE WAS MEASURED",
        "We time every iteration with device events and",
        "count the floating point operations of each layer.",
        "V. PERFORMANCE RESULTS",
        "A. Weak Scaling",
        "On 4,096 GPUs the framework sustains 48% of the",
        "advertised peak and scales with 91% efficiency.",
    ]
    right = ["The model grows with the number of GPUs, so that", *left[1:3], *left[1:3], *left[1:3]]
    sections = _sections(tmp_path, left, right)
    assert sections[48.0] == sections[91.0] == "evaluation"


def test_a_numbered_list_item_wrapped_in_prose_is_no_heading(tmp_path):
    # "II. We cut ..." broken at the column's edge is a line of roman number and words, as a heading is
    left = [
        "1 Introduction",
        "Serving systems batch requests to keep their",
        "accelerators busy. This paper makes two points:",
        "I. We design a batch scheduler that",
        "orders the queued requests by their slack.",
        "II. We show that the scheduler",
        "cuts the tail latency by 31% on 64 GPUs.",
    ]
    right = [
        "2 Background",
        "A batch waits for its last request, so a greedy",
        "server misses the deadline of its first request.",
        "Clipper adapts the batch size to the load and cuts",
        "its tail latency by 12% over a fixed batch size.",
        *left[1:3],
    ]
    sections = _sections(tmp_path, left, right)
    assert sections[31.0] == "introduction"
