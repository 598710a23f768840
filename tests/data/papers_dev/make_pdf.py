"""Writes gpipe.pdf: a two-column paper of our own words, as a PDF whose content stream interleaves the
lines of the two columns row by row (as many typesetters do), so a reader that follows the stream order
mixes the columns and only a layout-aware one reads each column whole.

    python tests/data/papers_dev/make_pdf.py
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
TITLE = "GPipe: Scaling Giant Networks with Micro-Batch Pipeline Parallelism"
# Pages of (left column lines, right column lines); each column is read top to bottom.
PAGES = [
    (
        [
            "Abstract",
            "Scaling up a neural network improves its quality,",
            "but models beyond one accelerator's memory need",
            "special algorithms. We introduce GPipe, a pipeline",
            "parallelism library that splits any network given",
            "as a sequence of layers across accelerators and",
            "re-materializes activations. With GPipe, a network",
            "25x larger than without pipelining fits on 8",
            "accelerators, and training throughput grows 3.5x",
            "with 4x more accelerators. GPipe trains a 557M",
            "AmoebaNet to 84.4% top-1 accuracy on ImageNet.",
            "1 Introduction",
            "Model parallelism across devices is hard to use.",
            "GPipe cuts each mini-batch into micro-batches and",
            "pipelines them, so that the bubble overhead is",
            "negligible once there are 4x more micro-batches",
            "than partitions. Compared with a single device,",
        ],
        [
            "GPipe lets one Transformer grow to 6B parameters",
            "across 128 partitions, a 298x increase.",
            "2 Setup",
            "Each TPUv3 core has 16 GB of HBM at 900 GB/s.",
            "We train on images of 480x480 and keep 2% of the",
            "training set as a validation split.",
            "3 Evaluation",
            "On 8 accelerators GPipe is 6.3x faster than",
            "model parallelism without pipelining, and its",
            "activation memory is 60% lower than a baseline",
            "without re-materialization. Transfer learning",
            "from the AmoebaNet reaches 99% accuracy on",
            "CIFAR-10. Figure 4: Speedup per accelerator",
            "8x 6x 4x 2x",
            "2 4 8 16",
            "References",
            "[1] Chen, T. Sublinear memory. arXiv, 2016, 20% less.",
        ],
    ),
]


def _literal(s: str) -> bytes:
    raw = s.encode("cp1252").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
    return b"(" + raw + b")"


def _page_stream(left: list[str], right: list[str]) -> bytes:
    ops = [b"BT /F1 9 Tf"]
    for row in range(max(len(left), len(right))):
        y = 740 - 12 * row
        for x, column in ((50, left), (320, right)):
            if row < len(column):
                ops.append(f"1 0 0 1 {x} {y} Tm ".encode() + _literal(column[row]) + b" Tj")
    ops.append(b"ET")
    return b"\n".join(ops)


def make_pdf(pages: list[tuple[list[str], list[str]]], title: str) -> bytes:
    n = len(pages)
    font = 3 + 2 * n
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids ["
        + b" ".join(f"{3 + 2 * i} 0 R".encode() for i in range(n))
        + f"] /Count {n} >>".encode(),
    ]
    for i, (left, right) in enumerate(pages):
        stream = _page_stream(left, right)
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
            f"/Resources << /Font << /F1 {font} 0 R >> >> >>".encode()
        )
        objects.append(
            b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream"
        )
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    objects.append(b"<< /Title " + _literal(title) + b" /Producer (assay) >>")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + obj + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    trailer = f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info {len(objects)} 0 R >>\n"
    out += (trailer + f"startxref\n{xref}\n%%EOF\n").encode()
    return bytes(out)


if __name__ == "__main__":
    (HERE / "gpipe.pdf").write_bytes(make_pdf(PAGES, TITLE))
