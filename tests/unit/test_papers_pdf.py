"""The PDF reader on conference-paper layouts made in the test: two columns, words set with no space
characters and tight gaps (how LaTeX writes justified lines), hyphenation and a range broken at line ends,
a ligature glyph, figure labels and a caption inside a column, a running footer.

pdfplumber's default tolerance (3 pt) glues words whose gap is 0.18 em at 10 pt, which is what these
pages reproduce; the reader must not."""

from __future__ import annotations

import re

import pytest
from pdf_files import pdf_file, stream

from assay.operators.papers._pdf import pdf_to_text
from assay.operators.papers._pdf_joins import join_lines

# Gaps in thousandths of an em, as a TJ array writes them (negative moves right).
WORD_GAP = -180  # 1.8 pt at 10 pt: a tight justified line's word space
KERN = 12  # a letter pair pulled 0.012 em together inside a word


def _literal(text: str) -> bytes:
    raw = text.encode("cp1252").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
    return b"(" + raw.replace(b"{fi}", b"\x01") + b")"


def _tj(line: str) -> bytes:
    """A line as one TJ array: words without space characters, letters kerned inside them."""
    parts: list[bytes] = []
    for n, word in enumerate(line.split(" ")):
        if n:
            parts.append(str(WORD_GAP).encode())
        half = len(word) // 2 if len(word) > 3 and "{" not in word else len(word)
        parts.append(_literal(word[:half]))
        if word[half:]:
            parts += [str(KERN).encode(), _literal(word[half:])]
    return b"[" + b" ".join(parts) + b"] TJ"


def _text(x: float, y: float, size: float, line: str, turned: bool = False) -> bytes:
    matrix = "0 1 -1 0" if turned else "1 0 0 1"  # turned: set bottom to top, as a vertical axis title
    return f"BT /F1 {size} Tf {matrix} {x} {y} Tm ".encode() + _tj(line) + b" ET"


def make_paper(pages: list[list[tuple]], title: str = "") -> bytes:
    """A PDF of pages, each a list of ``(x, y, size, text[, turned])`` lines; ``{fi}`` draws the fi
    ligature glyph."""
    n = len(pages)
    font = 3 + 2 * n
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids ["
        + b" ".join(f"{3 + 2 * i} 0 R".encode() for i in range(n))
        + f"] /Count {n} >>".encode(),
    ]
    for i, lines in enumerate(pages):
        content = b"\n".join(_text(*line) for line in lines)
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
            f"/Resources << /Font << /F1 {font} 0 R >> >> >>".encode()
        )
        objects.append(stream(content))
    objects.append(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Type /Encoding "
        b"/BaseEncoding /WinAnsiEncoding /Differences [1 /fi] >> >>"
    )
    objects.append(b"<< /Title " + _literal(title) + b" /Producer (assay tests) >>")
    return pdf_file(objects, info=True)


LEFT = [
    "We present Quill, a checkpoint service for large",
    "training jobs. Quill writes shards from every rank",
    "in parallel and keeps the stall of a step short.",
    "On 512 GPUs Quill cuts the checkpoint stall by 15–",
    "40% compared to TorchSnapshot, and its recovery is",
    "2.1x faster than the runner-up, CheckFreq. The ef{fi}-",
    "cient layout stores each shard once, with no reduc-",
    "tion in throughput for any of the models we tried.",
]
RIGHT = [
    "Quill is built from three parts: a shard planner, a",
    "writer pool and a manifest. The planner assigns each",
    "tensor to the rank that holds it, so no byte crosses",
    "the network twice. The writer pool runs off the step",
    "path, and the manifest names every shard it wrote.",
    "Our state-of-the-",
    "art baseline is the synchronous writer of the trainer.",
    "Each node has eight GPUs and two network cards.",
]
FIGURE = ["0 20 40 60 80 100", "stall (s)", "TorchSnapshot Quill"]
CAPTION = ["Figure 2: Checkpoint stall per step for the three", "writers on 512 GPUs (lower is better)."]


def _two_column_pages() -> list[list[tuple[float, float, float, str]]]:
    page: list[tuple[float, float, float, str]] = [(150, 740, 16, "Quill: Checkpoints Without the Stall")]
    for n, line in enumerate(LEFT[:4]):
        page.append((54, 700 - 12 * n, 10, line))
    # a figure in the left column: small labels, then its caption, then the column goes on
    for n, label in enumerate(FIGURE):
        page.append((70, 640 - 9 * n, 6, label))
    for n, line in enumerate(CAPTION):
        page.append((54, 605 - 11 * n, 9, line))
    for n, line in enumerate(LEFT[4:]):
        page.append((54, 575 - 12 * n, 10, line))
    for n, line in enumerate(RIGHT):
        page.append((318, 700 - 12 * n, 10, line))
    page.append((290, 40, 8, "Proceedings of a Workshop 1"))
    second = [(54, 700 - 12 * n, 10, line) for n, line in enumerate(LEFT[::-1])]
    second += [(318, 700 - 12 * n, 10, line) for n, line in enumerate(RIGHT[::-1])]
    second.append((290, 40, 8, "Proceedings of a Workshop 2"))
    third = [(54, 700 - 12 * n, 10, line) for n, line in enumerate(RIGHT)]
    third += [(318, 700 - 12 * n, 10, line) for n, line in enumerate(LEFT)]
    third.append((290, 40, 8, "Proceedings of a Workshop 3"))
    return [page, second, third]


@pytest.fixture(scope="module")
def paper() -> str:
    text, title = pdf_to_text(make_paper(_two_column_pages(), title="Quill"))
    assert title == "Quill"
    return text


def _words(text: str) -> str:
    return " ".join(text.split())


def test_tightly_kerned_words_keep_their_spaces(paper):
    flat = _words(paper)
    assert "We present Quill, a checkpoint service for large training jobs." in flat
    assert "The planner assigns each tensor to the rank that holds it" in flat
    glued = [w for w in re.findall(r"[A-Za-z]+", paper) if len(w) > 16]
    assert not glued


def test_the_left_column_is_read_before_the_right_one(paper):
    first_page = paper[: paper.index("Proceedings") if "Proceedings" in paper else len(paper)]
    left, right = first_page.index("We present Quill"), first_page.index("Quill is built from three parts")
    assert left < right
    # the right column's line never lands between two lines of the left column's sentence
    assert "writes shards from every rank in parallel" in _words(paper)


def test_a_range_broken_after_its_dash_is_kept_whole(paper):
    assert "by 15–40% compared to TorchSnapshot" in _words(paper)


def test_hyphenated_words_are_joined_and_compounds_keep_their_hyphen(paper):
    flat = _words(paper)
    assert "with no reduction in throughput" in flat
    assert "Our state-of-the-art baseline" in flat


def test_ligatures_are_spelled_out(paper):
    assert "The efficient layout stores each shard once" in _words(paper)
    assert "ﬁ" not in paper


def test_figure_text_and_caption_are_set_apart_but_kept(paper):
    flat = _words(paper)
    # the body sentence around the figure reads on without the figure's labels in it
    assert "TorchSnapshot Quill" not in flat.split("by 15–40% compared")[0][-60:]
    assert "cuts the checkpoint stall by 15–40% compared to TorchSnapshot, and its recovery" in flat
    # the caption is its own paragraph and whole; the labels are kept as their own lines
    paragraphs = [_words(p) for p in paper.split("\n\n")]
    assert (
        "Figure 2: Checkpoint stall per step for the three writers on 512 GPUs (lower is better)."
        in paragraphs
    )
    assert "0 20 40 60 80 100" in paper


def test_running_footers_are_dropped(paper):
    assert "Proceedings of a Workshop" not in paper


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        (["reduces stall by 15–", "40% on 64 GPUs"], "reduces stall by 15–\u200b40% on 64 GPUs"),
        (["a speedup of 1.2×–", "3.4× over it"], "a speedup of 1.2×–\u200b3.4× over it"),
        (["checkpoint-", "ing is cheap"], "checkpointing is cheap"),
        (["built on Megatron-", "LM and more"], "built on Megatron-\u200bLM and more"),
        (["it is 37%–", "50% lower"], "it is 37%–\u200b50% lower"),
        (["ends here.", "Next line"], "ends here. Next line"),
    ],
)
def test_line_ends_join_as_a_reader_would(lines, joined):
    assert _words(join_lines(lines)) == joined.replace("\u200b", "")


def test_a_smaller_full_width_abstract_stays_in_the_flow_before_the_introduction():
    abstract = [
        "Abstract—Sieve schedules inference batches by their",
        "deadline and cuts tail latency by 31% against a first",
        "come first served queue on a cluster of 64 GPUs.",
    ]
    body = [
        "I. INTRODUCTION",
        "Serving systems batch requests to use the device well,",
        "but a batch that waits for its last request misses the",
        "deadline of its first one. Sieve orders them by slack.",
    ]
    page = [(54, 700 - 11 * n, 9, line) for n, line in enumerate(abstract)]
    page += [(54, 650 - 12 * n, 10, line) for n, line in enumerate(body)]
    page += [(318, 700 - 12 * n, 10, line) for n, line in enumerate(RIGHT)]
    text, _ = pdf_to_text(make_paper([page]))
    flat = _words(text)
    assert "cuts tail latency by 31% against a first come first served queue" in flat
    assert flat.index("Abstract—Sieve") < flat.index("I. INTRODUCTION") < flat.index("Quill is built")


def test_a_small_caps_heading_stays_a_heading_in_the_flow():
    # "II. EVALUATION" in small caps: the capitals at the body's size, the rest smaller, on one baseline
    body = [line for line in LEFT[:3]]
    page = [(54, 700 - 12 * n, 10, line) for n, line in enumerate(body)]
    page += [(54, 650, 10, "II. E"), (79.5, 650, 8, "VALUATION")]
    page += [(54, 635 - 12 * n, 10, line) for n, line in enumerate(LEFT[3:])]
    page += [(318, 700 - 12 * n, 10, line) for n, line in enumerate(RIGHT)]
    page += [(70, 540 - 9 * n, 6, label) for n, label in enumerate(FIGURE)]
    text, _ = pdf_to_text(make_paper([page]))
    lines = text.splitlines()
    heading = next(n for n, line in enumerate(lines) if line.replace(" ", "").startswith("II.EVALUATION"))
    assert lines[heading + 1].startswith("On 512 GPUs Quill cuts")


def test_turned_text_is_left_out_but_a_turned_page_is_not_lost():
    page = [(54, 700 - 12 * n, 10, line) for n, line in enumerate(LEFT)]
    page += [(318, 700 - 12 * n, 10, line) for n, line in enumerate(RIGHT)]
    page += [(40, 300, 8, "arXiv:2401.00001v2 [cs.DC] 9 Jan 2024", True)]
    text, _ = pdf_to_text(make_paper([page]))
    assert "arXiv" not in text and "We present Quill" in text
    landscape = [(300 - 12 * n, 100, 10, line, True) for n, line in enumerate(LEFT)]
    text, _ = pdf_to_text(make_paper([landscape]))
    # its characters are kept (not "no extractable text"); reading turned lines in order is not done yet
    letters = sum(c.isalpha() for c in "".join(LEFT).replace("{fi}", "fi"))
    assert sum(c.isalpha() for c in text) >= 0.95 * letters


def test_a_line_poking_past_the_gutter_stays_in_its_column():
    page = [(54, 700 - 12 * n, 10, line) for n, line in enumerate(LEFT[:3])]
    page.append((54, 664, 10, "see https://example.org/quill/checkpoint/benchmarks for"))
    page += [(54, 652 - 12 * n, 10, line) for n, line in enumerate(LEFT[3:])]
    page += [(318, 700 - 12 * n, 10, line) for n, line in enumerate(RIGHT)]
    text, _ = pdf_to_text(make_paper([page]))
    flat = _words(text)
    assert "step short. see https://example.org/quill/checkpoint/benchmarks for On 512 GPUs" in flat
    assert flat.index("tried.") < flat.index("Quill is built from three parts")
