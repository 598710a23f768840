"""The capitalised names of a stretch of text, a name of two or three words kept whole ("Dense FT", "Vanilla
DP"): the proposal and comparison rules (``_proposals``) read names through it, so that a system named with a
modifier and an acronym is one system, not "Dense" in one clause and "FT" in the next (issue 26)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache

from assay.operators.papers._title_names import _DISTINCTIVE, _NAME, acceptable

NAME_RE = re.compile(rf"(?<![A-Za-z0-9-]){_NAME}(?![A-Za-z0-9])")
# Two or three capitalised words written together.
_NAME_RUN = re.compile(rf"(?<![A-Za-z0-9-]){_NAME}(?:[ \t]+{_NAME}){{1,2}}(?![A-Za-z0-9])")


def names_in(
    text: str, lo: int, hi: int, cjk: bool, *, split: set[str] | frozenset[str] = frozenset()
) -> Iterator[tuple[str, int]]:
    """Each capitalised name between ``lo`` and ``hi`` with its start. Two or three capitalised words written
    together are one name when one of them is distinctive (a capital or digit inside), none is a generic word
    (``generic_names.txt``: "On A100" is none), none is in ``split`` (lower case: names already known alone, "PyTorch DDP" stays two), and
    the text writes them together more than once; otherwise each word is a name of its own."""
    taken = lo
    for run in _NAME_RUN.finditer(text, lo, hi) if not cjk else ():
        yield from ((m.group(), m.start()) for m in NAME_RE.finditer(text, taken, run.start()))
        words = run.group().split()
        whole = " ".join(words)
        if (
            any(_DISTINCTIVE.search(w, 1) for w in words)
            and all(acceptable(w) and w.lower() not in split for w in words)
            and _run_counts(text)[whole] >= 2
        ):
            yield whole, run.start()
        else:
            yield from ((m.group(), m.start()) for m in NAME_RE.finditer(text, run.start(), run.end()))
        taken = run.end()
    yield from ((m.group(), m.start()) for m in NAME_RE.finditer(text, taken, hi))


@lru_cache(maxsize=8)
def _run_counts(text: str) -> Counter[str]:
    """How often the text writes each run of capitalised words (spacing made one space)."""
    return Counter(" ".join(m.group().split()) for m in _NAME_RUN.finditer(text))
