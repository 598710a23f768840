"""Collections of abstracts: JSON Lines, CSV and JSON arrays, one document per row.

A row is a mapping with a text field (``abstract``, ``text``, ``summary``, ``body`` or ``content``) and
optionally a ``title``. A malformed row is reported as an issue with its line number and skipped; the
other rows are read.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass

TEXT_FIELDS = ("abstract", "text", "summary", "body", "content")
TITLE_FIELDS = ("title", "name", "paper_title")


@dataclass(frozen=True)
class Row:
    index: int  # 0-based position among the collection's rows
    line_no: int
    text: str | None
    title: str | None
    error: str | None = None


def read_rows(text: str, fmt: str) -> Iterator[Row]:
    if fmt == "jsonl":
        yield from _jsonl(text)
    elif fmt == "csv":
        yield from _csv(text)
    elif fmt == "json":
        yield from _json(text)
    else:
        raise ValueError(f"unknown collection format {fmt!r}")


def _jsonl(text: str) -> Iterator[Row]:
    index = 0
    for line_no, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            yield Row(index, line_no, None, None, f"not valid JSON ({exc.msg})")
        else:
            yield _row(obj, index, line_no)
        index += 1


def _json(text: str) -> Iterator[Row]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON: {exc.msg} at line {exc.lineno}") from exc
    if isinstance(data, dict):
        data = next((v for v in data.values() if isinstance(v, list)), [data])
    if not isinstance(data, list):
        raise ValueError("a .json collection must be an array of objects with an 'abstract' or 'text' field")
    for index, obj in enumerate(data):
        yield _row(obj, index, None)


def _csv(text: str) -> Iterator[Row]:
    csv.field_size_limit(min(sys.maxsize, 2**31 - 1))
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.DictReader(io.StringIO(text), dialect=dialect)
    if not reader.fieldnames or not any(_key(f) in TEXT_FIELDS for f in reader.fieldnames if f):
        raise ValueError(f"CSV header has no text column: expected one of {', '.join(TEXT_FIELDS)}")
    try:
        for index, obj in enumerate(reader):
            yield _row(obj, index, reader.line_num)
    except csv.Error as exc:
        yield Row(-1, reader.line_num, None, None, f"malformed CSV ({exc})")


def _key(name: str) -> str:
    return name.strip().lower()


def _row(obj: object, index: int, line_no: int | None) -> Row:
    if not isinstance(obj, dict):
        return Row(index, line_no or 0, None, None, f"expected an object, found {type(obj).__name__}")
    fields = {_key(str(k)): v for k, v in obj.items() if k is not None}
    text = next(
        (fields[f] for f in TEXT_FIELDS if isinstance(fields.get(f), str) and fields[f].strip()), None
    )
    title = next(
        (fields[f] for f in TITLE_FIELDS if isinstance(fields.get(f), str) and fields[f].strip()), None
    )
    if text is None:
        if "gold" in fields:
            return Row(index, line_no or 0, None, title, "a gold line for `assay eval`, not an abstract")
        expected = "/".join(TEXT_FIELDS)
        return Row(index, line_no or 0, None, title, f"no text: expected a non-empty field {expected}")
    return Row(index, line_no or 0, text.strip(), title.strip() if title else None)
