"""A measuring script's option that names some of its entries: ``--wrappers a,b``."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path


def take_names(argv: list[str], flag: str, known: Iterable[str]) -> tuple[list[str], list[str], str | None]:
    """``(names, the other arguments, error)``: the names after ``flag`` (every known one without it), or the
    one-line error naming the flag and what it takes when a name is unknown or missing."""
    known = list(known)
    if flag not in argv:
        return known, argv, None
    i = argv.index(flag)
    if i + 1 >= len(argv):
        return [], argv, f"{flag} needs names: {flag} {','.join(known[:2])}"
    names = argv[i + 1].split(",")
    unknown = [n for n in names if n not in known]
    if unknown:
        return [], argv, f"unknown name {unknown[0]!r}: {flag} takes names among {', '.join(known)}"
    return names, argv[:i] + argv[i + 2 :], None


def names_and_sets(argv: list[str], flag: str, known: Iterable[str], default: Path) -> tuple[list[str], list[Path]]:
    """A measuring script's command line: the names after ``flag`` and the set folders (``default`` when none is
    given); a bad ``flag`` prints its one-line error and exits with status 2."""
    names, rest, error = take_names(argv, flag, known)
    if error:
        print(error)
        sys.exit(2)
    return names, [Path(a) for a in rest] or [default]
