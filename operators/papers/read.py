"""The ``read_paper`` operator: one input file to one document record (or one per row of a collection).

Dispatches on the file's extension to a small reader per format. ``doc_id`` is the hash of the file's
bytes; for a collection (.jsonl, .csv, .json) each row is a document whose ``doc_id`` is the hash of its
abstract text, so the same abstract has the same id whichever file it came from.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from assay.dsl import operator
from assay.ids import content_id
from assay.operators.papers._collection import read_rows
from assay.operators.papers._markdown import markdown_to_text
from assay.operators.papers._pdf import pdf_to_text
from assay.operators.papers._pdf_joins import join_hyphenated
from assay.operators.papers._tex import tex_to_text
from assay.operators.papers._text import decode, require_text, title_of

SINGLE = {
    ".txt": "text",
    ".text": "text",
    ".abstract": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".tex": "tex",
    ".latex": "tex",
    ".pdf": "pdf",
}
COLLECTIONS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".json": "json"}
FORMATS = sorted({*SINGLE, *COLLECTIONS})


@operator(
    name="read_paper",
    requires=["source_uri"],
    produces=["doc_id", "uri", "kind", "title", "n_bytes", "text"],
    version="1",
)
def read_paper(record: dict[str, Any]) -> dict[str, Any] | list[dict[str, Any]]:
    """Read a paper or abstract (.txt .md .tex .pdf) or a collection of abstracts (.jsonl .csv .json)."""
    uri = str(record["source_uri"])
    path = Path(uri.removeprefix("file://"))
    ext = path.suffix.lower()
    if ext not in SINGLE and ext not in COLLECTIONS:
        raise ValueError(
            f"unsupported file type {ext or '(no extension)'!r}: read_paper reads {' '.join(FORMATS)}"
        )
    data = path.read_bytes()
    if not data:
        raise ValueError("empty file")
    if ext in COLLECTIONS:
        return _collection(record, uri, data, COLLECTIONS[ext])
    kind = SINGLE[ext]
    if kind == "pdf":
        text, title = pdf_to_text(data)
    else:
        source = require_text(decode(data))
        if kind == "markdown":
            text, title = markdown_to_text(source)
        elif kind == "tex":
            text, title = tex_to_text(source)
        else:
            text, title = join_hyphenated(source.strip()), None
    require_text(text, "document (nothing left after removing markup)")
    return {
        **record,
        "doc_id": content_id(data),
        "uri": uri,
        "kind": "paper",
        "title": title or title_of(text),
        "n_bytes": len(data),
        "text": text,
    }


def _collection(record: dict[str, Any], uri: str, data: bytes, fmt: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    issues: list[dict[str, Any]] = []
    for row in read_rows(require_text(decode(data)), fmt):
        if row.error or row.text is None:
            issues.append({"operator": "read_paper", "error": row.error or "no text", "line_no": row.line_no})
            continue
        out.append(
            {
                **record,
                "doc_id": content_id(row.text),
                "uri": f"{uri}#{row.index}",
                "kind": "paper",
                "title": row.title or title_of(row.text),
                "n_bytes": len(row.text.encode("utf-8")),
                "text": row.text,
            }
        )
    if not out:
        first = f": {issues[0]['error']} (line {issues[0]['line_no']})" if issues else ""
        raise ValueError(f"no abstracts in {os.path.basename(uri)}{first}")
    if issues:
        out[0]["issues"] = issues  # problems inside the file that did not stop it
    return out
