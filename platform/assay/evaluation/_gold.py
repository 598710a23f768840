"""Reading a gold file: one JSON object per line, in one of two shapes.

- ``{"index": i, "gold": {"claims": [...], ...}}`` and, for a corpus of files, ``"source"`` (a file name)
  and ``"row"`` (the row of a collection, else null);
- ``{"doc": "<file stem>", "claims": [...]}``: one paper, found in the corpus folder by its file's stem
  (``paper.pdf``, ``paper.tex``, ``paper.md``...), the shape of the real-papers measuring set.

Each gold claim has ``unit`` and ``value`` or ``value_low``/``value_high`` (plus ``text`` and attribution
fields: ``subject``, ``versus`` and optional ``aliases``/``versus_aliases``, other names of the same system
or baseline that count as right). A claim of ``"type": "context"`` is background (see ``_matching``).
A module of its own because the formats are the one thing a gold file's author needs to know.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class GoldDoc:
    index: int
    claims: list[dict[str, Any]]
    source: str | None = None
    row: int | None = None
    title: str | None = None
    #: The paper's file stem, for gold keyed by ``doc`` (resolved in the corpus folder).
    doc: str | None = None

    @property
    def name(self) -> str:
        """How the report names this document: its ``doc`` stem, its source file (and row), or its index."""
        if self.doc:
            return self.doc
        if self.source:
            return self.source if self.row is None else f"{self.source}#{self.row}"
        return f"#{self.index}"


def load_gold(path: str | os.PathLike[str]) -> list[GoldDoc]:
    """Gold documents in file order; a malformed line raises ValueError naming the line."""
    docs = []
    for line_no, line in enumerate(Path(path).read_text("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            # one paper keyed by its file's stem, claims at the top level; else the indexed shape
            gold = obj if "doc" in obj and "gold" not in obj else obj["gold"]
            claims = list(gold.get("claims") or [])
            for claim in claims:
                if "unit" not in claim or ("value" not in claim and "value_low" not in claim):
                    raise KeyError("each claim needs 'unit' and 'value' (or 'value_low'/'value_high')")
            docs.append(
                GoldDoc(
                    int(obj.get("index", len(docs))),
                    claims,
                    obj.get("source"),
                    obj.get("row"),
                    gold.get("title"),
                    str(obj["doc"]) if obj.get("doc") is not None else None,
                )
            )
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}:{line_no}: not a gold line ({exc})") from exc
    return docs


def split_abstracts(text: str) -> list[str]:
    """Paragraphs separated by blank lines, stripped; paragraph i is gold index i."""
    return [p.strip() for p in re.split(r"\n[ \t]*\n", text) if p.strip()]


def find_by_stem(folder: str | os.PathLike[str], stem: str) -> str | None:
    """The file of ``folder`` (or of its ``docs`` subfolder, as a measuring set lays it out) whose name
    without its extension is ``stem``, relative to ``folder``; the first by name when several are."""
    root = Path(folder)
    for where in (root, root / "docs"):
        if where.is_dir():
            found = sorted(p for p in where.iterdir() if p.is_file() and p.stem == stem)
            if found:
                return found[0].relative_to(root).as_posix()
    return None
