"""What the papers extractor finds in a text of the tests' own: the text read as one document, segmented as the
pipeline does, through ``extract_knowledge`` (trained parse off unless the caller binds it), no record failing.

The papers unit tests assert on claims this way, through the whole public path of the operator rather than one
inner function."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from assay.dsl import get_operator
from assay.ids import content_id
from assay.operators.papers import segment_text


def extracted(text: str, bound: Any = None, source_uri: str = "/x.txt") -> dict:
    """The extractor's record for ``text`` (claims, relations, ...); ``bound`` is a bound ``extract_knowledge``
    (default: the rules alone, ``parse="none"``)."""
    bound = bound if bound is not None else get_operator("extract_knowledge").bind(parse="none")
    record = segment_text({"doc_id": content_id(text), "source_uri": source_uri, "text": text})
    out, failures = bound.process([record])
    assert not failures, failures
    return out[0]


def extracted_claims(text: str, bound: Any = None, source_uri: str = "/x.txt") -> list[dict]:
    """The claims of ``text`` in the extractor's order."""
    return list(extracted(text, bound, source_uri)["claims"])


def proposed_ids(text: str, bound: Any = None) -> set[str]:
    """The entity ids of the systems ``text`` is read to propose (its ``proposes`` relations)."""
    return {r["object_id"] for r in extracted(text, bound)["relations"] if r["predicate"] == "proposes"}


def claims_by_text(text: str, bound: Any = None, source_uri: str = "/x.txt") -> dict[str, dict]:
    """The claims of ``text`` by the text of each claim."""
    return {c["text"]: c for c in extracted_claims(text, bound, source_uri)}


def claims_in_order(text: str, bound: Any = None, source_uri: str = "/x.txt") -> list[dict]:
    """The claims of ``text`` in the order of their place in it."""
    return sorted(extracted_claims(text, bound, source_uri), key=lambda c: c["start"])


def file_claims(folder: Path, text: str, name: str = "paper.txt") -> list[dict]:
    """The claims of ``text`` written to ``folder/name`` and read as a user's file is: ``read_paper`` (so the
    file's format decides how it is read), ``segment_text``, then ``extract_knowledge`` (blank model, rules alone)."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path_claims(path)


def path_claims(path: Path) -> list[dict]:
    """The claims of the file at ``path`` (a PDF a test wrote, say) read as a user's file is: ``read_paper``,
    ``segment_text``, then ``extract_knowledge`` (blank model, rules alone)."""
    read, failures = get_operator("read_paper").run([{"source_uri": str(path)}])
    assert not failures, failures
    segmented, _ = get_operator("segment_text").run(read)
    extracted, failures = get_operator("extract_knowledge").run(segmented, model="blank", parse="none")
    assert not failures, failures
    return list(extracted[0]["claims"])
