"""The gazetteer: known names of systems, models, hardware, datasets and methods, with their aliases.

The built-in list ships as ``gazetteer.tsv`` beside this module. A user extends it with a file of the same
format (``name<TAB>type<TAB>alias|alias<TAB>cs``; only the name is required, the type defaults to
``system``); a user's entry replaces a built-in one with the same name.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from assay.ids import entity_id, normalise_name

BUILTIN = Path(__file__).with_name("gazetteer.tsv")
GENERIC_NAMES = Path(__file__).with_name("generic_names.txt")
ENTITY_TYPES = ("system", "model", "hardware", "dataset", "method", "organization")


@dataclass(frozen=True)
class Term:
    name: str
    type: str
    aliases: tuple[str, ...] = ()
    case_sensitive: bool = False

    @property
    def entity_id(self) -> str:
        return entity_id(self.type, self.name)

    @property
    def surface_forms(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


#: The form two spellings of one name share (lower case, single spaces): the rule of ``assay.ids.entity_id``.
normalise = normalise_name


def parse(lines: list[str], source: str) -> list[Term]:
    """Terms from the lines of a gazetteer file; a malformed line raises ValueError naming file and line."""
    terms = []
    for line_no, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [f.strip() for f in line.rstrip("\n").split("\t")]
        name = fields[0]
        if not name:
            raise ValueError(f"{source}:{line_no}: the first column (the name) is empty")
        type_ = (fields[1] if len(fields) > 1 and fields[1] else "system").lower()
        if not re.fullmatch(r"[a-z_]+", type_):
            raise ValueError(
                f"{source}:{line_no}: type {type_!r} is not a word (expected one of {ENTITY_TYPES})"
            )
        aliases = tuple(a.strip() for a in fields[2].split("|") if a.strip()) if len(fields) > 2 else ()
        flags = {f.strip().lower() for f in fields[3].split(",")} if len(fields) > 3 else set()
        unknown = flags - {"cs", ""}
        if unknown:
            raise ValueError(
                f"{source}:{line_no}: unknown flag {sorted(unknown)[0]!r} (the only flag is 'cs')"
            )
        terms.append(Term(name, type_, aliases, "cs" in flags))
    return terms


@lru_cache(maxsize=8)
def load(user_file: str | None = None) -> tuple[Term, ...]:
    """The built-in terms plus those of ``user_file`` (its entries win on a name clash)."""
    terms = {normalise(t.name): t for t in parse(BUILTIN.read_text("utf-8").splitlines(), BUILTIN.name)}
    if user_file:
        path = Path(os.path.expanduser(user_file))
        if not path.is_file():
            raise FileNotFoundError(
                f"gazetteer file {user_file!r} does not exist (extract_knowledge gazetteer=...)"
            )
        text = path.read_text("utf-8", errors="replace")
        terms.update({normalise(t.name): t for t in parse(text.splitlines(), str(path))})
    return tuple(terms.values())


@lru_cache(maxsize=1)
def generic_names() -> frozenset[str]:
    """Lower-cased words that are never a proposed system's name ("GPU", "Framework", "We")."""
    lines = GENERIC_NAMES.read_text("utf-8").splitlines()
    return frozenset(w.strip().lower() for w in lines if w.strip() and not w.startswith("#"))
