"""read_paper: every format to text with the right ids and titles, and bad files to clear errors."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from pdf_files import pdf_file, stream

from assay.ids import content_id
from assay.operators.papers import read_paper
from assay.operators.papers._pdf import pdf_to_text
from assay.operators.papers._tex import tex_to_text

SAMPLES = Path(__file__).resolve().parents[2] / "pipelines" / "samples" / "papers"


def make_pdf(lines: list[str], title: str | None = None) -> bytes:
    """A one-page PDF (Helvetica, WinAnsi) showing ``lines``: small, valid, readable by pypdf.

    The demo corpus's brook.pdf was made with this function.
    """

    def literal(s: str) -> bytes:
        raw = s.encode("cp1252").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
        return b"(" + raw + b")"

    body = b"BT /F1 10 Tf 13 TL 60 740 Td " + b" T* ".join(literal(line) + b" Tj" for line in lines) + b" ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        stream(body),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Title " + literal(title or "") + b" /Producer (assay) >>",
    ]
    return pdf_file(objects, info=True)


def read(path: Path) -> list[dict]:
    out = read_paper({"source_uri": str(path)})
    return out if isinstance(out, list) else [out]


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


# -- plain text -------------------------------------------------------------------------------------------
def test_text_file_is_one_document_whose_id_is_the_hash_of_its_bytes(tmp_path):
    data = "Kestrel: Elastic Scheduling\n\nKestrel cuts job completion time by 42% over Pollux.\n"
    (doc,) = read(write(tmp_path, "k.txt", data))
    assert doc["doc_id"] == content_id(data.encode())
    assert doc["kind"] == "paper" and doc["n_bytes"] == len(data.encode())
    assert doc["title"] == "Kestrel: Elastic Scheduling"
    assert doc["text"].endswith("over Pollux.")
    assert doc["source_uri"] == doc["uri"] == str(tmp_path / "k.txt")


def test_single_paragraph_takes_its_first_sentence_as_title(tmp_path):
    (doc,) = read(write(tmp_path, "a.txt", "We present Quill. It is fast. " * 3))
    assert doc["title"] == "We present Quill."


def test_invalid_utf8_is_replaced_not_fatal(tmp_path):
    data = "Durchsatz steigt um 2,5x gegenüber DeepSpeed. ".encode("latin-1") + b"\xff\xfe ok"
    (doc,) = read(write(tmp_path, "latin1.txt", data))
    assert "\ufffd" in doc["text"] and doc["text"].endswith("ok")
    assert doc["doc_id"] == content_id(data)


def test_bom_and_crlf_are_normalised(tmp_path):
    (doc,) = read(write(tmp_path, "w.txt", b"\xef\xbb\xbfline one\r\nline two\r\n"))
    assert doc["text"] == "line one\nline two"


@pytest.mark.parametrize("name", ["empty.txt", "empty.pdf", "empty.jsonl", "empty.tex"])
def test_empty_file_raises_empty_file(tmp_path, name):
    with pytest.raises(ValueError, match="empty file"):
        read(write(tmp_path, name, b""))


def test_whitespace_only_file_is_empty(tmp_path):
    with pytest.raises(ValueError, match="empty"):
        read(write(tmp_path, "blank.txt", "  \n\n\t \n"))


def test_unsupported_extension_names_the_formats(tmp_path):
    with pytest.raises(ValueError, match=r"unsupported file type '\.docx'.*\.pdf"):
        read(write(tmp_path, "paper.docx", b"PK\x03\x04"))


def test_a_long_single_line_reads_in_reasonable_time(tmp_path):
    line = ("Orca reaches 1.5x over ZeRO on 8 GPUs and " * 120_000)[:5_000_000]
    started = time.perf_counter()
    (doc,) = read(write(tmp_path, "long.txt", line))
    assert len(doc["text"]) == 5_000_000
    assert time.perf_counter() - started < 10


# -- PDF --------------------------------------------------------------------------------------------------
def test_pdf_text_and_title(tmp_path):
    pdf = make_pdf(["Brook trains BERT-Large 1.9× faster than PyTorch DDP (on 16 GPUs)."], title="Brook")
    (doc,) = read(write(tmp_path, "b.pdf", pdf))
    assert "1.9× faster than PyTorch DDP (on 16 GPUs)" in doc["text"]
    assert doc["title"] == "Brook"
    assert doc["doc_id"] == content_id(pdf)


def test_sample_pdf_is_the_one_the_generator_makes():
    text, title = pdf_to_text((SAMPLES / "brook.pdf").read_bytes())
    assert title and title.startswith("Brook")
    assert "1.9× faster than PyTorch DDP" in text


def test_random_bytes_named_pdf_say_not_a_pdf(tmp_path):
    with pytest.raises(ValueError, match="not a PDF: no %PDF header"):
        read(write(tmp_path, "random.pdf", os.urandom(4096)))


@pytest.mark.parametrize("cut", [0.3, 0.6, 0.95])
def test_truncated_pdf_raises_a_clear_error(tmp_path, cut):
    pdf = make_pdf(["Some text that the cut removes."])
    with pytest.raises(ValueError, match="PDF"):
        read(write(tmp_path, "t.pdf", pdf[: int(len(pdf) * cut)]))


def test_pdf_header_with_garbage_is_unreadable(tmp_path):
    with pytest.raises(ValueError, match="PDF"):
        read(write(tmp_path, "g.pdf", b"%PDF-1.7\n" + os.urandom(2048)))


# -- LaTeX ------------------------------------------------------------------------------------------------
def test_tex_symbols_become_characters():
    text, _ = tex_to_text(
        r"Pylon is $1.45\times$ faster, uses 11\% less memory and 7.6-171$\times$ less time."
    )
    assert text == "Pylon is 1.45× faster, uses 11% less memory and 7.6-171× less time."


def test_tex_commands_go_and_their_text_stays():
    source = (
        r"\documentclass{article}\title{Pylon: \emph{Fast} Training}\begin{document}"
        r"\section{Intro} We present \textbf{Pylon}~\cite{x,y}, see Fig.~\ref{f}. % a comment"
        "\n"
        r"\begin{equation} a = b \end{equation} Done.\end{document}"
    )
    text, title = tex_to_text(source)
    assert title == "Pylon: Fast Training"
    assert "We present Pylon, see Fig. ." in text
    assert "comment" not in text and "equation" not in text and "\\" not in text and "Done." in text


def test_tex_with_unbalanced_braces_is_read(tmp_path):
    source = (
        r"\section{Results} We propose \textbf{Quill, which reaches 3.1$\times$ speedup "
        r"over {GPipe on 64 GPUs."
    )
    (doc,) = read(write(tmp_path, "u.tex", source))
    assert doc["text"] == "Results\n\nWe propose Quill, which reaches 3.1× speedup over GPipe on 64 GPUs."
    text, title = tex_to_text(r"\title{Never closed" + " words" * 200)
    assert title and title.startswith("Never closed")


def test_sample_tex_reads_to_prose():
    (doc,) = read(SAMPLES / "pylon.tex")
    assert doc["title"] == "Pylon: Overlapping Communication and Computation in Fully Sharded Training"
    assert "1.45× faster than PyTorch FSDP" in doc["text"] and "11% less memory" in doc["text"]


# -- Markdown ---------------------------------------------------------------------------------------------
def test_markdown_markup_is_stripped_and_text_kept(tmp_path):
    source = (
        "---\ntitle: Larch\n---\n# Heading\n\n**Larch** is *fast*: see [the docs](https://x.y) and "
        "![a chart](c.png).\n\n- runs `3.2×` faster\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    )
    (doc,) = read(write(tmp_path, "l.md", source))
    assert doc["title"] == "Larch"
    for kept in ("Heading", "Larch is fast: see the docs and a chart.", "runs 3.2× faster", "quoted"):
        assert kept in doc["text"]
    for gone in ("**", "](", "`", "# ", "---", "> "):
        assert gone not in doc["text"]


def test_markdown_title_from_first_heading(tmp_path):
    (doc,) = read(write(tmp_path, "m.md", "intro line\n\n## Strata *v2*\n\ntext"))
    assert doc["title"] == "Strata v2"


# -- collections ------------------------------------------------------------------------------------------
def test_jsonl_is_one_document_per_row_keyed_by_its_abstract(tmp_path):
    rows = [{"title": "A", "abstract": "First abstract, 2x."}, {"text": "Second one."}, {"summary": "Third."}]
    path = write(tmp_path, "c.jsonl", "\n".join(json.dumps(r) for r in rows) + "\n")
    docs = read(path)
    assert [d["text"] for d in docs] == ["First abstract, 2x.", "Second one.", "Third."]
    assert [d["doc_id"] for d in docs] == [content_id(d["text"]) for d in docs]
    assert [d["uri"] for d in docs] == [f"{path}#{i}" for i in range(3)]
    assert docs[0]["title"] == "A" and docs[1]["title"] == "Second one."
    assert "issues" not in docs[0]


def test_jsonl_bad_rows_become_issues_and_the_rest_is_read(tmp_path):
    lines = [
        '{"abstract": "Good one."}',
        "{not json",
        '{"title": "no text"}',
        "[1, 2]",
        '{"text": "Also good."}',
    ]
    docs = read(write(tmp_path, "c.jsonl", "\n".join(lines)))
    assert [d["text"] for d in docs] == ["Good one.", "Also good."]
    issues = docs[0]["issues"]
    assert [i["line_no"] for i in issues] == [2, 3, 4]
    assert "not valid JSON" in issues[0]["error"] and "no text" in issues[1]["error"]
    assert all(i["operator"] == "read_paper" for i in issues)


def test_collection_without_any_abstract_fails_with_the_first_reason(tmp_path):
    with pytest.raises(ValueError, match=r"no abstracts in c\.jsonl: no text"):
        read(write(tmp_path, "c.jsonl", '{"title": "x"}\n{"title": "y"}\n'))


def test_csv_collection(tmp_path):
    path = write(tmp_path, "s.csv", 'Title,Abstract\n"T1","Speeds up by 1.5x, really."\n"T2","Second."\n')
    docs = read(path)
    assert [(d["title"], d["text"]) for d in docs] == [
        ("T1", "Speeds up by 1.5x, really."),
        ("T2", "Second."),
    ]


def test_csv_without_text_column_names_the_expected_columns(tmp_path):
    with pytest.raises(ValueError, match="no text column: expected one of abstract"):
        read(write(tmp_path, "s.csv", "title,year\nA,2020\n"))


def test_json_array_collection(tmp_path):
    docs = read(write(tmp_path, "a.json", json.dumps([{"abstract": "One."}, {"abstract": "Two."}])))
    assert [d["text"] for d in docs] == ["One.", "Two."]


def test_tex_float_keeps_its_caption_as_prose_and_its_table_rows_as_cells():
    source = r"""\begin{document}
Weave shards optimizer state by layer.
\begin{figure*}[t]
\centering\includegraphics[width=\linewidth]{weave.pdf}
\caption{Step time on 128 GPUs: Weave is 1.6$\times$ faster than ZeRO-3 (\emph{lower is better}).}
\label{fig:step}
\end{figure*}
\begin{table}[h]
\caption{Memory per GPU.}
\begin{tabularx}{\linewidth}{l|X|r}
\toprule
System & Setting & Saved \\
\midrule
Weave & {bf16, 8 nodes} & 41\% \\
\bottomrule
\end{tabularx}
\end{table}
The rest of the evaluation follows.
\end{document}"""
    text, _ = tex_to_text(source)
    paragraphs = [p.strip() for p in text.split("\n\n")]
    assert "Step time on 128 GPUs: Weave is 1.6× faster than ZeRO-3 (lower is better)." in paragraphs
    assert "System | Setting | Saved\nWeave | bf16, 8 nodes | 41%" in paragraphs
    assert "weave.pdf" not in text and "toprule" not in text and "fig:step" not in text
    assert text.index("Weave shards") < text.index("Step time") < text.index("The rest of the evaluation")


def test_latex_text_switched_off_is_not_read():
    source = (
        "\\begin{document}\n\\section{Evaluation}\nFoo is 1.5$\\times$ faster than Bar.\n"
        "\\iffalse\nIn an older draft Foo was 9$\\times$ faster.\n\\fi\n"
        "\\begin{comment}\nFoo cut the cost by 70\\%.\n\\end{comment}\n"
        "It cuts memory by 20\\%.\n\\end{document}\n"
    )
    text, _title = tex_to_text(source)
    assert "1.5× faster" in text and "20%" in text
    assert "9×" not in text and "70%" not in text
